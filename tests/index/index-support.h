/* SPDX-License-Identifier: Apache-2.0 */
/* index-support.h: what the Redis index tests share: a table with an
 * index on the stack (unique table, definitions table and key prefix per
 * run, everything dropped at the end), a direct Redis connection to look
 * at the index's keys, and row helpers. */
#ifndef INDEX_SUPPORT_H
#define INDEX_SUPPORT_H

#include <hiredis/hiredis.h>

#include <hbase-glib/hbase-glib-index.h>

#include "../support/test-env.h"
#include "../support/test-stack.h"

G_BEGIN_DECLS

/* The stack's redis-server (HBASE_GLIB_TEST_REDIS, "HOST:PORT", default
 * 127.0.0.1:6379). */
const char   *ix_redis_host       (void);
guint         ix_redis_port       (void);

typedef struct {
  HBaseClient *client;
  char *table;            /* the data table: families f and g */
  char *meta;             /* the definitions table */
  char *prefix;           /* the Redis key prefix */
  HBaseIndexSpec *spec;
  HBaseIndex *index;
  redisContext *redis;    /* for looking at keys directly */
} IxFixture;

/* Whether ix_setup() makes its client of the native backend
 * (test_stack_native_config(); the tables made and the index defined
 * through it too) rather than of the binary/buffered gateway. */
void          ix_set_native       (gboolean                 native);

/* Creates the tables, defines @spec (its key prefix replaced by a unique
 * one), builds the empty index and opens it with @options (NULL for the
 * defaults; redis host/port and the definitions table are filled in when
 * unset).  FALSE (test skipped or failed) when the stack is unreachable. */
gboolean      ix_setup            (IxFixture               *fixture,
                                   HBaseIndexSpec          *spec,
                                   const HBaseIndexOptions *options);
/* Another handle on the same index, with other options. */
HBaseIndex   *ix_open             (IxFixture               *fixture,
                                   const HBaseIndexOptions *options);
/* Drops the index (Redis keys, definitions) and the tables. */
void          ix_teardown         (IxFixture               *fixture);

/* The data table through a client of its own that no index was opened
 * with: what HBase holds, read without any of the index's code. */
HBaseTable   *ix_plain_table      (IxFixture               *fixture);
/* A handle on the data table of the fixture's client that writes without
 * maintaining the index (allowed explicitly): how the tests make the
 * index miss writes, for verify, repair and read repair to find. */
HBaseTable   *ix_unindexed_table  (IxFixture               *fixture);

/* The spec most tests use: city (string, exact+range), age (int64,
 * exact+range), score (double, range), hits (counter, exact+range), big
 * (int64, range, lexicographic), tag (string in family g, exact). */
HBaseIndexSpec *ix_sample_spec    (void);

GBytes       *ix_bytes            (const char              *text);
/* A put of the "q=v" pairs (family:qualifier=value), NULL-terminated. */
HBaseMutation *ix_put             (const char              *row,
                                   ...) G_GNUC_NULL_TERMINATED;
void          ix_apply            (HBaseTable              *table,
                                   HBaseMutation           *mutation);

/* Whether the exact set of @index for @value holds @row. */
gboolean      ix_in_set           (IxFixture               *fixture,
                                   const char              *index,
                                   const char              *value,
                                   const char              *row);
/* How many members the sorted set of @index has for @row. */
guint         ix_in_zset          (IxFixture               *fixture,
                                   const char              *index,
                                   const char              *row);

/* The row keys a query finds, sorted, joined with ",". */
char         *ix_find             (HBaseIndex              *index,
                                   HBaseIndexQuery         *query,
                                   HBaseIndexQueryStats    *stats);
/* Verify, asserting success; returns the report. */
HBaseIndexReport *ix_verify       (HBaseIndex              *index);
/* Repair with assume_quiescent, asserting success. */
HBaseIndexReport *ix_repair       (HBaseIndex              *index);

G_END_DECLS

#endif /* INDEX_SUPPORT_H */
