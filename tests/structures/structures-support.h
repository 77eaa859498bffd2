/* SPDX-License-Identifier: Apache-2.0 */
/* structures-support.h: what the set and sorted-set tests share: the
 * families of their tables, byte helpers, random members, and the real
 * redis-server of the stack with the harness of the differential tests. */
#ifndef STRUCTURES_SUPPORT_H
#define STRUCTURES_SUPPORT_H

#include <hiredis/hiredis.h>

#include "../support/test-env.h"
#include "../support/test-table-fixture.h"

G_BEGIN_DECLS

/* The families of the tables the set and sorted-set tests use (see
 * test-table-fixture.h): "s", "z", "p" and "q". */
const HBaseFamilyOptions *sts_families (guint *n_families);

GBytes      *sts_bytes              (const char        *text);
/* The members as GBytes (NUL-terminated list of strings). */
GPtrArray   *sts_members            (const char        *first,
                                     ...) G_GNUC_NULL_TERMINATED;
/* Bytes as text with \xNN escapes, for messages. */
char        *sts_show               (GBytes            *bytes);
/* The members of @array (GBytes) joined with ",", escaped. */
char        *sts_join               (GPtrArray         *array);

/* For g_ptr_array_sort() of GBytes: byte order, as HBase sorts. */
gint         sts_compare_members    (gconstpointer      a,
                                     gconstpointer      b);

/* A member from a small alphabet with binary and non-ASCII ones, so that
 * operations hit existing members often. */
GBytes      *sts_random_member      (GRand             *rand,
                                     guint              universe);

/* The stack's redis-server (HBASE_GLIB_TEST_REDIS, default
 * 127.0.0.1:6379); NULL (test skipped or failed) when unreachable. */
redisContext *sts_redis_connect     (void);
/* Runs a command (argv of GBytes or strings); aborts the test on a
 * connection error. */
redisReply  *sts_redis_command      (redisContext      *redis,
                                     GPtrArray         *argv);
/* Deletes every key starting with @prefix. */
void         sts_redis_cleanup      (redisContext      *redis,
                                     const char        *prefix);

/* --- differential tests against Redis ------------------------------------------------------- */

#define STS_HISTORY 16

/* One differential run: the same random commands sent to hbase-glib and
 * to Redis, with the last steps kept to be printed on a mismatch. */
typedef struct {
  GRand *rand;
  redisContext *redis;
  char *prefix;                 /* of the run's Redis keys */
  char *history[STS_HISTORY];   /* the last steps, by step % STS_HISTORY */
  guint step;
  guint32 seed;
} StsDiff;

/* Connects to Redis and seeds the random source with @seed; the run's keys
 * start with "hbase-glib-test:PID:KIND:SEED:".  FALSE (test skipped or
 * failed) when Redis cannot be reached. */
gboolean     sts_diff_start         (StsDiff           *diff,
                                     const char        *kind,
                                     guint32            seed);
/* Deletes the run's Redis keys and frees what sts_diff_start() made. */
void         sts_diff_finish        (StsDiff           *diff);
/* What the current step does, for sts_diff_mismatch(). */
void         sts_diff_note          (StsDiff           *diff,
                                     const char        *format,
                                     ...) G_GNUC_PRINTF (2, 3);
/* Prints the last steps and aborts the test. */
void         sts_diff_mismatch      (StsDiff           *diff,
                                     const char        *format,
                                     ...) G_GNUC_PRINTF (2, 3) G_GNUC_NORETURN;
/* The value of an integer reply; a mismatch for any other reply. */
gint64       sts_diff_integer       (StsDiff           *diff,
                                     redisReply        *reply);

/* Runs @run_case once for every seed of the differential tests, the seeds
 * spread over the binary/buffered and compact/framed gateways
 * ("@path/<gateway>/seed-N"; the fixture's data is the seed, see
 * GPOINTER_TO_UINT()), on a table per gateway named after @table_prefix;
 * returns g_test_run()'s status. */
int          sts_diff_run           (const char        *path,
                                     const char        *table_prefix,
                                     TestTableFunc      run_case);

G_END_DECLS

#endif /* STRUCTURES_SUPPORT_H */
