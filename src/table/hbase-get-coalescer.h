/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-get-coalescer.h (private): concurrent hbase_table_get_async()
 * calls on one table gathered into getMultiple calls.  How and why: see
 * hbase-get-coalescer.c. */
#ifndef HBASE_GET_COALESCER_H
#define HBASE_GET_COALESCER_H

#include "hbase-table-call.h"

G_BEGIN_DECLS

typedef struct _HBaseGetCoalescer HBaseGetCoalescer;

HBaseGetCoalescer *_hbase_get_coalescer_new  (void);
void               _hbase_get_coalescer_free (HBaseGetCoalescer *coalescer);

/* Whether the gets of @table's client are gathered (its config's
 * coalesce-gets above 1). */
gboolean           _hbase_get_coalescer_enabled (HBaseTable *table);

/* Sends @call (a get of one row, prepared by hbase-table.c: call->gets
 * holds one HBaseGetRequest; taken) alone or with other gets of @table
 * waiting at the same time, and completes @task (source tag set, its
 * cancellable the caller's) with the row or an error, in the task's
 * context.  Takes its own reference on @task. */
void               _hbase_get_coalescer_add  (HBaseTable        *table,
                                              TableCall         *call,
                                              GTask             *task);

/* For tests: the calls @table's coalescer has made so far, and the keys
 * they carried.  Never reset. */
void               _hbase_get_coalescer_get_counts (HBaseTable *table,
                                                    guint64    *calls,
                                                    guint64    *keys);

G_END_DECLS

#endif /* HBASE_GET_COALESCER_H */
