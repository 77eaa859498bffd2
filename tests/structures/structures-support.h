/* structures-support.h: what the set and sorted-set tests share: a table
 * per gateway with the families they use, byte helpers, random members,
 * and the real redis-server of the stack for the differential tests. */
#ifndef STRUCTURES_SUPPORT_H
#define STRUCTURES_SUPPORT_H

#include <hiredis/hiredis.h>

#include "../support/test-stack.h"

G_BEGIN_DECLS

/* The families of the tables the set and sorted-set tests use (see
 * test-table-fixture.h): "s", "z", "p" and "q". */
const HBaseFamilyOptions *sts_families (guint *n_families);

/* One gateway and the table made for it on first use (families "s", "z",
 * "p" and "q"), dropped by sts_tables_drop(). */
typedef struct {
  const TestGateway *gateway;
  char *name;
  char *prefix;
} StsTable;

StsTable    *sts_table_new          (const TestGateway *gateway,
                                     const char        *prefix);
void         sts_table_free         (gpointer           table);
/* A client and the table on it; NULL (test skipped or failed) when the
 * gateway cannot be reached. */
HBaseTable  *sts_table_open         (StsTable          *table,
                                     HBaseClient      **client);
void         sts_tables_drop        (GPtrArray         *tables);

/* HBASE_GLIB_TEST_QUICK=1: fewer steps (valgrind, sanitizers). */
gboolean     sts_quick              (void);

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

G_END_DECLS

#endif /* STRUCTURES_SUPPORT_H */
