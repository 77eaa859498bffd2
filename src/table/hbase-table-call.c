/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-table-call.c: what every table operation shares: the prepared
 * call, sending it with retries, sharpening vague errors, and running it
 * on a worker thread for the async variants.  See hbase-table-call.h. */
#include "config.h"

#include "hbase-mutation-private.h"
#include "hbase-table-call.h"
#include "../connection/hbase-client-async-private.h"
#include "../connection/hbase-connection-private.h"

static void call_after (TableCall *call, gboolean sent, gboolean ok);

/* --- the call and its parts ------------------------------------------------------------ */

void
_hbase_table_batch_free (gpointer data)
{
  TableBatch *batch = data;

  g_ptr_array_unref (batch->items);
  g_free (batch);
}

void
_hbase_table_batch_add (GPtrArray *batches, gboolean puts, gpointer item)
{
  TableBatch *batch = batches->len > 0 ? g_ptr_array_index (batches, batches->len - 1) : NULL;

  if (batch == NULL || batch->puts != puts)
    {
      batch = g_new0 (TableBatch, 1);
      batch->puts = puts;
      batch->items = g_ptr_array_new_with_free_func (puts ? (GDestroyNotify) hbase_mutation_unref
                                                          : g_object_unref);
      g_ptr_array_add (batches, batch);
    }
  g_ptr_array_add (batch->items, item);
}

TableCall *
_hbase_table_call_new (HBaseTable *table)
{
  TableCall *call = g_new0 (TableCall, 1);

  call->table = g_object_ref (table);
  call->flags = HBASE_CALL_IDEMPOTENT;
  return call;
}

void
_hbase_table_call_free (gpointer data)
{
  TableCall *call = data;

  /* prepared (the before hook ran) and never sent, or sent with the
   * after hook deferred */
  call_after (call, call->sent, call->sent_ok);
  g_clear_object (&call->table);
  g_clear_pointer (&call->gets, g_ptr_array_unref);
  g_clear_pointer (&call->batches, g_ptr_array_unref);
  g_clear_object (&call->row_mutations);
  g_clear_object (&call->increment);
  g_clear_object (&call->append);
  g_clear_pointer (&call->check_family, g_byte_array_unref);
  g_clear_pointer (&call->check_qualifier, g_byte_array_unref);
  g_clear_pointer (&call->check_value, g_byte_array_unref);
  g_clear_pointer (&call->mutations, g_ptr_array_unref);
  g_clear_pointer (&call->first_batch, g_array_unref);
  g_clear_pointer (&call->last_batch, g_array_unref);
  g_free (call->filter);
  g_clear_pointer (&call->typed_filter, hbase_filter_unref);
  g_clear_pointer (&call->row, hbase_row_unref);
  g_clear_pointer (&call->rows, g_ptr_array_unref);
  g_clear_pointer (&call->results, g_ptr_array_unref);
  g_free (call);
}

void
_hbase_table_call_keep_mutations (TableCall *call, GPtrArray *mutations)
{
  call->mutations = g_ptr_array_new_full (mutations->len, (GDestroyNotify) hbase_mutation_unref);
  for (guint i = 0; i < mutations->len; i++)
    g_ptr_array_add (call->mutations, hbase_mutation_ref (g_ptr_array_index (mutations, i)));
}

gsize
_hbase_table_put_size (const HbaseThriftTPut *put)
{
  gsize size = put->row->len;

  for (guint i = 0; i < put->columnValues->len; i++)
    {
      const HbaseThriftTColumnValue *value = g_ptr_array_index (put->columnValues, i);

      size += value->family->len + value->qualifier->len + value->value->len;
    }
  return size;
}

gboolean
_hbase_table_check_mutations (GPtrArray *mutations, GError **error)
{
  if (mutations == NULL)
    return _hbase_illegal (error, "the list of mutations is NULL");
  for (guint i = 0; i < mutations->len; i++)
    {
      HBaseMutation *mutation = g_ptr_array_index (mutations, i);
      HBaseMutationKind kind;

      if (!_hbase_mutation_check (mutation, error))
        {
          if (mutations->len > 1)
            g_prefix_error (error, "mutation %u of %u: ", i, mutations->len);
          return FALSE;
        }
      /* increments and appends return values and are not idempotent:
       * they have calls of their own */
      kind = hbase_mutation_get_kind (mutation);
      if (kind == HBASE_MUTATION_INCREMENT || kind == HBASE_MUTATION_APPEND)
        return _hbase_illegal (error, "mutation %u of %u is an %s: send it with hbase_table_%s()",
                               i, mutations->len,
                               kind == HBASE_MUTATION_INCREMENT ? "increment" : "append",
                               kind == HBASE_MUTATION_INCREMENT ? "increment" : "append");
    }
  return TRUE;
}

HbaseThriftTRowMutations *
_hbase_table_row_mutations_new (GPtrArray *mutations, const char *what, gsize *payload,
                                GError **error)
{
  g_autoptr(HbaseThriftTRowMutations) row_mutations = NULL;
  GBytes *row;

  if (!_hbase_table_check_mutations (mutations, error))
    return NULL;
  if (mutations->len == 0)
    {
      _hbase_illegal (error, "%s needs at least one mutation", what);
      return NULL;
    }
  row = hbase_mutation_get_row (g_ptr_array_index (mutations, 0));
  for (guint i = 0; i < mutations->len; i++)
    {
      HBaseMutation *mutation = g_ptr_array_index (mutations, i);
      if (!g_bytes_equal (row, hbase_mutation_get_row (mutation)))
        {
          _hbase_illegal (error, "%s: mutation %u is on another row than mutation 0 "
                          "(an atomic mutation covers one row)", what, i);
          return NULL;
        }
    }
  row_mutations = g_object_new (HBASE_THRIFT_TYPE_T_ROW_MUTATIONS, NULL);
  row_mutations->row = _hbase_byte_array_from_bytes (row);
  for (guint i = 0; i < mutations->len; i++)
    _hbase_mutation_add_row_mutations (g_ptr_array_index (mutations, i),
                                       row_mutations->mutations);
  for (guint i = 0; payload != NULL && i < row_mutations->mutations->len; i++)
    {
      HbaseThriftTMutation *tmutation = g_ptr_array_index (row_mutations->mutations, i);

      if (tmutation->__isset_put)
        *payload += _hbase_table_put_size (tmutation->put);
    }
  return g_steal_pointer (&row_mutations);
}

/* --- running it -------------------------------------------------------------------------- */

static gboolean
table_exists_once (HbaseThriftTHBaseServiceIf *service, gpointer user_data, GError **error)
{
  TableCall *call = user_data;
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;

  if (!hbase_thrift_t_h_base_service_if_table_exists (service, &call->exists,
                                                      call->table->table_name, &io, &call_error))
    {
      hbase_error_take_call_error (error, call_error, io, NULL);
      return FALSE;
    }
  return TRUE;
}

/* The 2.6 gateway reports a missing table as a TIOError whose message is
 * only the table's name (canRetry false), so "not found" cannot be told
 * from other I/O errors by the reply.  After such a failure, and only
 * then, one tableExists call settles it. */
static void
refine_io_error (TableCall *call, GCancellable *cancellable, GError **error)
{
  g_autoptr(TableCall) probe = NULL;
  GError *original = *error;

  if (g_error_matches (original, HBASE_ERROR, HBASE_ERROR_NOT_FOUND) &&
      hbase_error_get_server_trace (original) != NULL && !_hbase_error_is_missing_family (original))
    {
      /* HBase named the missing table itself (TableNotFoundException) */
      g_free (original->message);
      original->message = g_strdup_printf ("table '%s' does not exist", call->table->name);
      return;
    }

  /* also after retryable errors: a batch (getMultiple, putMultiple) on a
   * missing table fails with "Failed N actions: <table name>: ...",
   * flagged retryable */
  if (!g_error_matches (original, HBASE_ERROR, HBASE_ERROR_IO))
    return;
  probe = _hbase_table_call_new (call->table);
  if (!hbase_client_call (call->table->client, HBASE_CALL_IDEMPOTENT | HBASE_CALL_READ_ONLY, table_exists_once, probe,
                          cancellable, NULL) ||
      probe->exists)
    return;
  /* changed in place: the server's text stays with the error */
  original->code = HBASE_ERROR_NOT_FOUND;
  g_free (original->message);
  original->message = g_strdup_printf ("table '%s' does not exist", call->table->name);
}

gboolean
_hbase_table_probe_exists (HBaseTable *table, gboolean *exists, GCancellable *cancellable,
                           GError **error)
{
  g_autoptr(TableCall) probe = _hbase_table_call_new (table);

  if (!hbase_client_call (table->client, HBASE_CALL_IDEMPOTENT | HBASE_CALL_READ_ONLY, table_exists_once,
                          probe, cancellable, error))
    return FALSE;
  *exists = probe->exists;
  return TRUE;
}

/* Framed gateways refuse frames above hbase.regionserver.thrift.framed.
 * max_frame_size_in_mb (2 MB by default) by closing the connection, which
 * looks like any broken connection; a large write is the likely cause. */
#define LARGE_FRAMED_REQUEST (1024 * 1024)

/* Adds what the request tells about an error the reply leaves vague. */
static void
add_hints (TableCall *call, GError *error)
{
  const HBaseConfig *config = hbase_client_get_config (call->table->client);
  char *message = NULL;

  if (g_error_matches (error, HBASE_ERROR, HBASE_ERROR_SERVER) && call->filter != NULL)
    message = g_strdup_printf ("%s (the request's filter was \"%s\": the gateway fails this "
                               "way when HBase cannot parse a filter)", error->message,
                               call->filter);
  else if (g_error_matches (error, HBASE_ERROR, HBASE_ERROR_CONNECTION) &&
           hbase_config_get_transport (config) == HBASE_TRANSPORT_FRAMED &&
           call->payload >= LARGE_FRAMED_REQUEST)
    message = g_strdup_printf ("%s (the request carried %" G_GSIZE_FORMAT " bytes of data: a "
                               "framed gateway closes the connection on a frame above its limit, "
                               "hbase.regionserver.thrift.framed.max_frame_size_in_mb, 2 MB by "
                               "default)", error->message, call->payload);
  if (message != NULL)
    {
      g_free (error->message);
      error->message = message;
    }
}

static gboolean
send (TableCall *call, HBaseCallFunc func, GCancellable *cancellable, GError **error)
{
  GError *local = NULL;

  /* gets, get multiple and exists change nothing */
  HBaseCallFlags flags = call->flags | (call->gets != NULL ? HBASE_CALL_READ_ONLY : 0);

  if (hbase_client_call (call->table->client, flags, func, call, cancellable, &local))
    return TRUE;
  refine_io_error (call, cancellable, &local);
  add_hints (call, local);
  g_propagate_error (error, local);
  return FALSE;
}

/* What became of mutation @i after the call ended (@ok or not). */
static HBaseWriteOutcome
outcome_of (TableCall *call, guint i, gboolean ok)
{
  if (ok)
    /* a check-and-mutate applies all or nothing */
    return call->check_family == NULL || call->exists ? _HBASE_WRITE_APPLIED
                                                      : _HBASE_WRITE_NOT_APPLIED;
  if (call->batches == NULL || call->last_batch == NULL)
    return _HBASE_WRITE_UNKNOWN;
  /* batches before next_batch were acknowledged; the one at next_batch
   * failed in flight; later ones were never sent */
  if (g_array_index (call->last_batch, guint, i) < call->next_batch)
    return _HBASE_WRITE_APPLIED;
  if (g_array_index (call->first_batch, guint, i) > call->next_batch)
    return _HBASE_WRITE_NOT_APPLIED;
  return _HBASE_WRITE_UNKNOWN;
}

gboolean
_hbase_table_call_before (TableCall *call, GCancellable *cancellable, GError **error)
{
  const HBaseTableWriteHooks *hooks = call->table->hooks;

  if (call->before_ran || call->mutations == NULL)
    return TRUE;
  if (hooks == NULL)
    {
      /* no hooks: a write the table's index (if it has one) would miss */
      if (!_hbase_table_check_index_mark (call->table, cancellable, error))
        return FALSE;
      call->before_ran = TRUE;
      return TRUE;
    }
  if (hooks->before != NULL &&
      !hooks->before (call->table, call->mutations, call->table->hooks_data, cancellable, error))
    return FALSE;
  call->before_ran = TRUE;
  call->owes_after = hooks->after != NULL;
  return TRUE;
}

/* Gives the after hook its outcomes (once). */
static void
call_after (TableCall *call, gboolean sent, gboolean ok)
{
  const HBaseTableWriteHooks *hooks = call->table->hooks;
  g_autofree HBaseWriteOutcome *outcomes = NULL;

  if (!call->owes_after)
    return;
  call->owes_after = FALSE;
  outcomes = g_new (HBaseWriteOutcome, call->mutations->len);
  for (guint i = 0; i < call->mutations->len; i++)
    outcomes[i] = sent ? outcome_of (call, i, ok) : _HBASE_WRITE_NOT_APPLIED;
  hooks->after (call->table, call->mutations, outcomes, sent && ok ? call->row : NULL,
                call->table->hooks_data);
}

void
_hbase_table_call_defer_after (TableCall *call)
{
  call->defer_after = TRUE;
}

gboolean
_hbase_table_call_owes_after (TableCall *call)
{
  return call->owes_after;
}

/* The after hook once the call was sent, now or when the call is freed. */
static void
call_sent (TableCall *call, gboolean ok)
{
  if (!call->defer_after)
    {
      call_after (call, TRUE, ok);
      return;
    }
  call->sent = TRUE;
  call->sent_ok = ok;
}

/* _hbase_table_call_run() on the native backend: what it cannot do is
 * refused before the write hooks run or anything is sent; what it can is
 * run between the hooks, as on the Thrift2 path. */
static gboolean
native_call_run (TableCall *call, HBaseCallFunc func, GCancellable *cancellable, GError **error)
{
  gboolean ok;

  if (!_hbase_table_native_supports (call, func))
    return _hbase_table_native_run (call, func, cancellable, error);
  if (!_hbase_table_call_before (call, cancellable, error))
    return FALSE;
  ok = _hbase_table_native_run (call, func, cancellable, error);
  call_sent (call, ok);
  return ok;
}

gboolean
_hbase_table_call_run (TableCall *call, HBaseCallFunc func, GCancellable *cancellable,
                       GError **error)
{
  gboolean ok;

  /* the one branch of the Thrift path */
  if (G_UNLIKELY (_hbase_client_get_backend (call->table->client) != HBASE_BACKEND_THRIFT2))
    return native_call_run (call, func, cancellable, error);
  if (!_hbase_table_call_before (call, cancellable, error))
    return FALSE;
  ok = send (call, func, cancellable, error);
  call_sent (call, ok);
  return ok;
}

/* --- on a worker thread ----------------------------------------------------------------- */

typedef struct {
  TableCall *call;
  HBaseCallFunc func;
  TableCallReturn ret;
} AsyncCall;

static void
async_call_free (gpointer data)
{
  AsyncCall *async = data;

  _hbase_table_call_free (async->call);
  g_free (async);
}

static void
run_in_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  AsyncCall *async = task_data;
  GError *error = NULL;

  if (!_hbase_table_call_run (async->call, async->func, cancellable, &error))
    g_task_return_error (task, error);
  else
    async->ret (task, async->call);
}

void
_hbase_table_call_start (HBaseTable *table, TableCall *call, HBaseCallFunc func,
                         TableCallReturn ret, GError *error, gpointer source_tag,
                         GCancellable *cancellable, GAsyncReadyCallback callback,
                         gpointer user_data)
{
  g_autoptr(GTask) task = g_task_new (table, cancellable, callback, user_data);
  AsyncCall *async;

  g_task_set_source_tag (task, source_tag);
  if (call == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  async = g_new0 (AsyncCall, 1);
  async->call = call;
  async->func = func;
  async->ret = ret;
  g_task_set_task_data (task, async, async_call_free);
  _hbase_client_run_task (hbase_table_get_client (table), task, run_in_thread);
}

void
_hbase_table_return_row (GTask *task, TableCall *call)
{
  g_task_return_pointer (task, g_steal_pointer (&call->row), (GDestroyNotify) hbase_row_unref);
}

void
_hbase_table_return_rows (GTask *task, TableCall *call)
{
  g_task_return_pointer (task, g_steal_pointer (&call->rows), (GDestroyNotify) g_ptr_array_unref);
}

void
_hbase_table_return_true (GTask *task, TableCall *call)
{
  g_task_return_boolean (task, TRUE);
}

void
_hbase_table_return_exists (GTask *task, TableCall *call)
{
  g_task_return_boolean (task, call->exists);
}
