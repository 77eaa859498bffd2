/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-index-hooks-private.h: what the write hooks of the index share:
 * the index changes of one write (hbase-index-changes.c) and the hooks
 * the indexed table runs around every write (hbase-index-hooks.c). */
#ifndef HBASE_INDEX_HOOKS_PRIVATE_H
#define HBASE_INDEX_HOOKS_PRIVATE_H

#include "hbase-index-private.h"
#include "../table/hbase-table-private.h"

G_BEGIN_DECLS

/* --- the changes of a write (hbase-index-changes.c) ---------------------------------- */

/* What a write changes in one index of one row. */
typedef struct {
  const IndexColumn *column;
  gboolean keep_old;      /* an older value may survive (explicit timestamps) */
  gboolean unknown;       /* the value is known only after (increment, ...) */
  gboolean resolved;      /* ... and was learned */
  gboolean touched;       /* by a mutation already */
  GPtrArray *vals;        /* IndexEntry: values the write sets */
  GPtrArray *res;         /* IndexEntry: values learned after the write; NULL until one is */
} RowOp;

typedef struct {
  GBytes *row;
  GPtrArray *ops;         /* RowOp */
  GArray *mutations;      /* guint: the row's mutations in the call */
  gboolean eager;
  HBaseWriteOutcome outcome;
} RowChange;

typedef struct {
  char *token;
  GPtrArray *rows;        /* RowChange */
  char *gen;
} CallState;

void       _hbase_index_call_state_free    (gpointer              state);
/* Adds @entry (taken; NULL: nothing) unless @entries has its value. */
void       _hbase_index_entries_add        (GPtrArray            *entries,
                                            IndexEntry           *entry);
/* The index changes of a write, one RowChange per row in first-seen
 * order; rows whose indexed columns the write does not touch are left
 * out. */
GPtrArray *_hbase_index_compute_changes    (IndexCore            *core,
                                            GPtrArray            *mutations);
/* A row's ops as one argument of @batch, as the Lua script takes them. */
void       _hbase_index_batch_ops          (RedisBatch           *batch,
                                            RowChange            *change);
/* The values a row's change writes, '>I2' count and entries. */
GByteArray *_hbase_index_written_bytes     (RowChange            *change);
/* The values learned after the write: per op '>I2' count, entries. */
void       _hbase_index_batch_learned      (RedisBatch           *batch,
                                            RowChange            *change);
/* The record of a row the index has no record of, with this change
 * pending: byte for byte what the Lua script writes for it. */
GByteArray *_hbase_index_fresh_record      (RowChange            *change,
                                            const char           *token,
                                            double                deadline);

/* --- the hooks (hbase-index-hooks.c) ------------------------------------------------- */

extern const HBaseTableWriteHooks _hbase_index_write_hooks;

G_END_DECLS

#endif /* HBASE_INDEX_HOOKS_PRIVATE_H */
