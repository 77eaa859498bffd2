/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-table-call.h: one table operation, prepared and then run.
 *
 * Every operation works in two steps: "prepare" checks all its input and
 * converts it into the generated structs, or for gets into HBaseGetRequests
 * (nothing is sent when anything is wrong), then "run" sends them through
 * hbase_client_call() with its retries.  The async variants prepare in the caller's thread, so the
 * caller may change or free its inputs right after the call, and run in a
 * worker thread. */
#ifndef HBASE_TABLE_CALL_H
#define HBASE_TABLE_CALL_H

#include "hbase-table-private.h"

G_BEGIN_DECLS

/* A write step: a group of puts (HBaseMutation copies, written as TPuts by
 * hbase-put-request.c: putMultiple, or put for one) or of TDeletes
 * (deleteMultiple, or deleteSingle for one). */
typedef struct {
  gboolean puts;
  GPtrArray *items;
} TableBatch;

/* One operation, ready to send: inputs converted, outputs filled by the
 * attempt that succeeds. */
typedef struct {
  HBaseTable *table;
  HBaseCallFlags flags;                 /* HBASE_CALL_IDEMPOTENT unless set */
  /* get and get multiple: HBaseGetRequest (hbase-get-request.h, encoded
   * by hand); exists and _hbase_table_get_generated(): HbaseThriftTGet
   * (the generated calls) */
  GPtrArray *gets;
  GPtrArray *batches;                   /* TableBatch */
  guint next_batch;                     /* a retry resumes here */
  HbaseThriftTRowMutations *row_mutations;
  HbaseThriftTIncrement *increment;
  HbaseThriftTAppend *append;
  /* check-and-mutate: the checked cell (the row is row_mutations') */
  GByteArray *check_family;
  GByteArray *check_qualifier;
  GByteArray *check_value;
  HbaseThriftTCompareOp check_op;
  GPtrArray *mutations;                 /* HBaseMutation, for write hooks */
  gboolean before_ran;                  /* the before hook accepted the write */
  gboolean owes_after;                  /* ... and the after hook has not run */
  gboolean defer_after;                 /* the after hook waits for _free (see _defer_after) */
  gboolean sent, sent_ok;               /* what the deferred after hook is told */
  GArray *first_batch;                  /* guint per mutation: its batches */
  GArray *last_batch;
  char *filter;                         /* for error messages */
  HBaseFilter *typed_filter;            /* gets: the typed filter, for the native backend */
  gsize payload;                        /* bytes of keys and values written */

  HBaseRow *row;
  GPtrArray *rows;                      /* HBaseRow */
  GPtrArray *results;                   /* HbaseThriftTResult: generated gets */
  gboolean exists;                      /* also: check-and-mutate applied */
} TableCall;

/* Hands the call's result to a task (async variants). */
typedef void (*TableCallReturn) (GTask *task, TableCall *call);

TableCall *_hbase_table_call_new          (HBaseTable      *table);
void       _hbase_table_call_free         (gpointer         call);
void       _hbase_table_batch_free        (gpointer         batch);

/* Adds @item (an HBaseMutation put when @puts, else a TDelete) to the
 * last batch when it holds the same kind, else to a new one. */
void       _hbase_table_batch_add         (GPtrArray       *batches,
                                           gboolean         puts,
                                           gpointer         item);

/* Runs the table's before write hook for the call's mutations, once
 * (nothing when there is no hook or the call writes nothing).  From then
 * on the after hook is owed an outcome: _hbase_table_call_run() gives it,
 * or _hbase_table_call_free() reports every mutation as not applied. */
gboolean   _hbase_table_call_before       (TableCall       *call,
                                           GCancellable    *cancellable,
                                           GError         **error);

/* From now on _hbase_table_call_run() leaves the after write hook to
 * _hbase_table_call_free(), which gives it the outcome of the send: a
 * write buffer's sender thread then leaves that work (for the Redis index,
 * a Redis round trip and the per-row bookkeeping) to the threads that fill
 * its batches, instead of doing it between two writes. */
void       _hbase_table_call_defer_after  (TableCall       *call);

/* Whether the call's after write hook has not run yet. */
gboolean   _hbase_table_call_owes_after   (TableCall       *call);

/* Sends the call (with the client's retries, as call->flags allow) and
 * makes the error as precise as the request allows; around it, the write
 * hooks (the before hook unless _hbase_table_call_before() ran it). */
gboolean   _hbase_table_call_run          (TableCall       *call,
                                           HBaseCallFunc    func,
                                           GCancellable    *cancellable,
                                           GError         **error);

/* The send of _hbase_table_call_run() on a client of the native backend
 * (hbase-table-native.c): the gets of _hbase_table_get_once and
 * _hbase_table_get_multiple_once, and the batched writes of apply,
 * apply_multiple and the write buffer, over HBase's own RPC; any other
 * @func (_hbase_table_native_supports() says), and a filter, fail with
 * HBASE_ERROR_NOT_SUPPORTED before anything is sent. */
gboolean   _hbase_table_native_supports   (TableCall       *call,
                                           HBaseCallFunc    func);
gboolean   _hbase_table_native_run        (TableCall       *call,
                                           HBaseCallFunc    func,
                                           GCancellable    *cancellable,
                                           GError         **error);

/* Runs @call on a worker thread and completes a task with @source_tag
 * through @ret; when @call is NULL, completes it with @error (the reason
 * preparing failed) instead. */
void       _hbase_table_call_start        (HBaseTable         *table,
                                           TableCall          *call,
                                           HBaseCallFunc       func,
                                           TableCallReturn     ret,
                                           GError             *error,
                                           gpointer            source_tag,
                                           GCancellable       *cancellable,
                                           GAsyncReadyCallback callback,
                                           gpointer            user_data);

/* Keeps references to the mutations a write sends, for write hooks. */
void       _hbase_table_call_keep_mutations (TableCall     *call,
                                             GPtrArray     *mutations);

/* Whether @table exists (one tableExists call, retried as reads are). */
gboolean   _hbase_table_probe_exists      (HBaseTable      *table,
                                           gboolean        *exists,
                                           GCancellable    *cancellable,
                                           GError         **error);

/* The HBaseCallFuncs of a get (one HBaseGetRequest in call->gets; the row
 * in call->row) and of a getMultiple (HBaseGetRequests; one row per
 * request, in order, in call->rows).  hbase-table.c. */
gboolean   _hbase_table_get_once          (HbaseThriftTHBaseServiceIf *service,
                                           gpointer         user_data,
                                           GError         **error);
gboolean   _hbase_table_get_multiple_once (HbaseThriftTHBaseServiceIf *service,
                                           gpointer         user_data,
                                           GError         **error);
/* The HBaseCallFunc of the structures' reads (generated TGets in
 * call->gets; a TResult each, in order, in call->results).  hbase-table.c. */
gboolean   _hbase_table_get_generated_once (HbaseThriftTHBaseServiceIf *service,
                                            gpointer         user_data,
                                            GError         **error);
/* The HBaseCallFunc of exists (one generated TGet in call->gets; the
 * answer in call->exists).  hbase-table.c. */
gboolean   _hbase_table_exists_once       (HbaseThriftTHBaseServiceIf *service,
                                           gpointer         user_data,
                                           GError         **error);

/* Ready-made TableCallReturns. */
void       _hbase_table_return_row        (GTask *task, TableCall *call);
void       _hbase_table_return_rows       (GTask *task, TableCall *call);
void       _hbase_table_return_true       (GTask *task, TableCall *call);
void       _hbase_table_return_exists     (GTask *task, TableCall *call);

/* The checked mutations (put or delete, any row) converted for mutateRow
 * or checkAndMutate, all on one row: NULL with @error when they are not. */
HbaseThriftTRowMutations *_hbase_table_row_mutations_new (GPtrArray  *mutations,
                                                          const char *what,
                                                          gsize      *payload,
                                                          GError    **error);

/* The two halves of hbase_table_apply_multiple(), for the write buffer's
 * background flushes: prepare checks and converts @mutations and runs the
 * before hook in the caller's thread, send (another thread, later) sends
 * them and runs the after hook.  The puts are not copied: they must not
 * change until sent.  Free a prepared call with _hbase_table_call_free(),
 * sent or not. */
TableCall *_hbase_table_apply_multiple_prepare (HBaseTable   *table,
                                                GPtrArray    *mutations,
                                                GCancellable *cancellable,
                                                GError      **error);
gboolean   _hbase_table_apply_multiple_send    (TableCall    *call,
                                                GCancellable *cancellable,
                                                GError      **error);

/* Each mutation is well formed (and the list is not NULL). */
gboolean   _hbase_table_check_mutations   (GPtrArray       *mutations,
                                           GError         **error);

/* Bytes of keys and values a TPut carries. */
gsize      _hbase_table_put_size          (const HbaseThriftTPut *put);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TableCall, _hbase_table_call_free)

G_END_DECLS

#endif /* HBASE_TABLE_CALL_H */
