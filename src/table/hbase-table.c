/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-table.c: HBaseTable, a handle on one table, and its reads: get,
 * get multiple, exists (sync and async).  Writes are in
 * hbase-table-write.c, increments, appends, counters and check-and-mutate
 * in hbase-table-atomic.c; how a call is prepared and run is in
 * hbase-table-call.h. */
#include "config.h"

#include <string.h>

#include "hbase-get-coalescer.h"
#include "hbase-get-request.h"
#include "hbase-result-reader.h"
#include "hbase-table-call.h"

G_DEFINE_FINAL_TYPE (HBaseTable, hbase_table, G_TYPE_OBJECT)

/* --- the table object ------------------------------------------------------------------ */

enum {
  PROP_0,
  PROP_CLIENT,
  PROP_NAME,
  PROP_ALLOW_UNINDEXED_WRITES,
  N_PROPS
};

static GParamSpec *table_props[N_PROPS];

static void
hbase_table_finalize (GObject *object)
{
  HBaseTable *table = HBASE_TABLE (object);

  g_clear_object (&table->client);
  g_free (table->name);
  g_free (table->unusable);
  g_clear_pointer (&table->name_bytes, g_byte_array_unref);
  g_clear_object (&table->table_name);
  g_clear_pointer (&table->coalescer, _hbase_get_coalescer_free);
  if (table->hooks_destroy != NULL)
    table->hooks_destroy (table->hooks_data);
  G_OBJECT_CLASS (hbase_table_parent_class)->finalize (object);
}

void
_hbase_table_set_write_hooks (HBaseTable *table, const HBaseTableWriteHooks *hooks,
                              gpointer user_data, GDestroyNotify destroy)
{
  if (table->hooks_destroy != NULL)
    table->hooks_destroy (table->hooks_data);
  table->hooks = hooks;
  table->hooks_data = user_data;
  table->hooks_destroy = destroy;
}

gboolean
_hbase_table_check (HBaseTable *table, GError **error)
{
  if (!HBASE_IS_TABLE (table))
    return _hbase_illegal (error, "not a table");
  if (table->unusable != NULL)
    return _hbase_illegal (error, "%s", table->unusable);
  return TRUE;
}

static void
hbase_table_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  HBaseTable *table = HBASE_TABLE (object);

  switch (prop_id)
    {
    case PROP_CLIENT:
      g_clear_object (&table->client);
      table->client = g_value_dup_object (value);
      break;
    case PROP_NAME:
      g_free (table->name);
      table->name = g_value_dup_string (value);
      break;
    case PROP_ALLOW_UNINDEXED_WRITES:
      hbase_table_set_allow_unindexed_writes (table, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hbase_table_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  HBaseTable *table = HBASE_TABLE (object);

  switch (prop_id)
    {
    case PROP_CLIENT:
      g_value_set_object (value, table->client);
      break;
    case PROP_NAME:
      g_value_set_string (value, table->name);
      break;
    case PROP_ALLOW_UNINDEXED_WRITES:
      g_value_set_boolean (value, hbase_table_get_allow_unindexed_writes (table));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* A table made by g_object_new() without a client or with a bad name
 * (a binding's default constructor, say) cannot send anything: it keeps
 * why, and each of its operations fails with that error. */
static void
hbase_table_constructed (GObject *object)
{
  HBaseTable *table = HBASE_TABLE (object);
  g_autoptr(GError) invalid = NULL;
  const char *colon;

  G_OBJECT_CLASS (hbase_table_parent_class)->constructed (object);
  if (table->client == NULL || table->name == NULL)
    {
      table->unusable = g_strdup ("this HBaseTable has no client or no name: make it with "
                                  "hbase_table_new() (or set its \"client\" and \"name\" "
                                  "properties)");
      return;
    }
  if (!_hbase_check_table_name (table->name, &invalid))
    {
      table->unusable = g_strdup_printf ("this HBaseTable cannot be used: %s", invalid->message);
      return;
    }
  table->name_bytes = _hbase_byte_array_from_string (table->name);
  table->table_name = g_object_new (HBASE_THRIFT_TYPE_T_TABLE_NAME, NULL);
  colon = strchr (table->name, ':');
  if (colon != NULL)
    {
      table->table_name->ns = g_byte_array_new ();
      g_byte_array_append (table->table_name->ns, (const guint8 *) table->name,
                           (guint) (colon - table->name));
      table->table_name->__isset_ns = TRUE;
    }
  table->table_name->qualifier =
    _hbase_byte_array_from_string (colon != NULL ? colon + 1 : table->name);
}

static void
hbase_table_class_init (HBaseTableClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = hbase_table_finalize;
  object_class->set_property = hbase_table_set_property;
  object_class->get_property = hbase_table_get_property;
  object_class->constructed = hbase_table_constructed;

  /**
   * HBaseTable:client:
   *
   * The client the table sends its calls through.  A table made without
   * one (or without a #HBaseTable:name) fails every operation with
   * %HBASE_ERROR_ILLEGAL_ARGUMENT.
   *
   * Since: 0.1
   */
  table_props[PROP_CLIENT] =
    g_param_spec_object ("client", NULL, NULL, HBASE_TYPE_CLIENT,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * HBaseTable:name:
   *
   * The table's name, "table" or "namespace:table".  A table made with an
   * invalid name fails every operation with %HBASE_ERROR_ILLEGAL_ARGUMENT
   * saying why; hbase_table_new() refuses it at once.
   *
   * Since: 0.1
   */
  table_props[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * HBaseTable:allow-unindexed-writes:
   *
   * Whether this handle may write to a table with a secondary index
   * without maintaining it; %FALSE refuses such writes with
   * %HBASE_ERROR_INDEXED_TABLE.  See
   * hbase_table_set_allow_unindexed_writes().
   *
   * Since: 0.1
   */
  table_props[PROP_ALLOW_UNINDEXED_WRITES] =
    g_param_spec_boolean ("allow-unindexed-writes", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, table_props);
}

static void
hbase_table_init (HBaseTable *table)
{
  table->coalescer = _hbase_get_coalescer_new ();
}

/**
 * hbase_table_new:
 * @client: the client to send through (referenced)
 * @name: "table" or "namespace:table"
 * @error: return location for an error
 *
 * A handle on a table.  Only the name is checked (HBase's rules); whether
 * the table exists shows at the first operation.  The same as g_object_new()
 * with the #HBaseTable:client and #HBaseTable:name properties, except that
 * a bad name is refused here.
 *
 * Returns: (transfer full) (nullable): the table, or %NULL with @error set
 *   (%HBASE_ERROR_ILLEGAL_ARGUMENT)
 *
 * Since: 0.1
 */
HBaseTable *
hbase_table_new (HBaseClient *client, const char *name, GError **error)
{
  if (!HBASE_IS_CLIENT (client))
    {
      _hbase_illegal (error, "hbase_table_new needs a client");
      return NULL;
    }
  if (!_hbase_check_table_name (name, error))
    return NULL;
  return g_object_new (HBASE_TYPE_TABLE, "client", client, "name", name, NULL);
}

/**
 * hbase_table_get_name:
 * @table: a table
 *
 * Gets the name of @table.  The string belongs to @table.
 *
 * Returns: (transfer none) (nullable): the table's name as given to
 *   hbase_table_new(); %NULL for a table made without one
 *
 * Since: 0.1
 */
const char *
hbase_table_get_name (HBaseTable *table)
{
  g_return_val_if_fail (HBASE_IS_TABLE (table), NULL);
  return table->name;
}

/**
 * hbase_table_get_client:
 * @table: a table
 *
 * Gets the client @table sends its calls through.
 *
 * Returns: (transfer none) (nullable): the client the table sends through;
 *   %NULL for a table made without one
 *
 * Since: 0.1
 */
HBaseClient *
hbase_table_get_client (HBaseTable *table)
{
  g_return_val_if_fail (HBASE_IS_TABLE (table), NULL);
  return table->client;
}

/* --- reads ---------------------------------------------------------------------------------- */

HbaseThriftTGet *
_hbase_table_tget_new (GBytes *row, const HBaseReadOptions *options)
{
  HbaseThriftTGet *get = g_object_new (HBASE_THRIFT_TYPE_T_GET, NULL);
  g_autoptr(GPtrArray) columns = _hbase_read_options_columns (options);

  get->row = _hbase_byte_array_from_bytes (row);
  if (columns != NULL)
    {
      for (guint i = 0; i < columns->len; i++)
        g_ptr_array_add (get->columns, g_object_ref (g_ptr_array_index (columns, i)));
      get->__isset_columns = TRUE;
    }
  if (options == NULL)
    return get;
  if (options->max_versions > 0)
    {
      get->maxVersions = (gint32) options->max_versions;
      get->__isset_maxVersions = TRUE;
    }
  if (options->min_timestamp != 0 || options->max_timestamp != 0)
    {
      get->timeRange->minStamp = options->min_timestamp;
      /* no upper bound: HBase's LATEST_TIMESTAMP, Long.MAX_VALUE */
      get->timeRange->maxStamp = options->max_timestamp != 0 ? options->max_timestamp : G_MAXINT64;
      get->__isset_timeRange = TRUE;
    }
  if (options->filter != NULL || options->filter_bytes != NULL || options->typed_filter != NULL)
    {
      g_autoptr(GBytes) filter = _hbase_read_options_filter (options);

      get->filterString = _hbase_byte_array_from_bytes (filter);
      get->__isset_filterString = TRUE;
    }
  return get;
}

/* @requests: call->gets holds HBaseGetRequests (hbase-get-request.h) for
 * _hbase_table_get_once and _hbase_table_get_multiple_once, which encode
 * them by hand; otherwise generated TGets, for the generated calls
 * (exists). */
static TableCall *
prepare_gets (HBaseTable *table, GBytes *const *rows, guint n_rows, gboolean several,
              gboolean requests, const HBaseReadOptions *options, GError **error)
{
  g_autoptr(TableCall) call = NULL;

  if (!_hbase_table_check (table, error))
    return NULL;
  for (guint i = 0; i < n_rows; i++)
    if (!_hbase_check_row (rows[i], "row", NULL))
      {
        /* the message names the row's place (formatted only now: it cost
         * more than the rest of a row's preparation) */
        g_autofree char *what = several ? g_strdup_printf ("row %u of %u", i, n_rows) : NULL;

        _hbase_check_row (rows[i], several ? what : "row", error);
        return NULL;
      }
  if (!_hbase_read_options_check (options, error))
    return NULL;
  call = _hbase_table_call_new (table);
  call->filter = _hbase_read_options_describe_filter (options);
  if (options != NULL && options->typed_filter != NULL)
    call->typed_filter = hbase_filter_ref (options->typed_filter);
  call->gets = g_ptr_array_new_full (n_rows, requests ? _hbase_get_request_free : g_object_unref);
  for (guint i = 0; i < n_rows; i++)
    {
      gpointer get;

      if (!requests)
        get = _hbase_table_tget_new (rows[i], options);
      else if (i == 0)
        get = _hbase_get_request_new (rows[i], options);
      else  /* the options are read once for all rows */
        get = _hbase_get_request_new_like (rows[i], g_ptr_array_index (call->gets, 0));
      g_ptr_array_add (call->gets, get);
    }
  return g_steal_pointer (&call);
}

/* The requests are encoded by hand (hbase-get-request.c) and the replies
 * decoded straight into rows (hbase-result-reader.c): call->gets holds
 * HBaseGetRequests here.  Also what hbase-get-coalescer.c sends. */
gboolean
_hbase_table_get_once (HbaseThriftTHBaseServiceIf *service, gpointer user_data, GError **error)
{
  TableCall *call = user_data;
  HBaseRow *row = NULL;

  if (!_hbase_result_reader_get (service, call->table->name_bytes,
                                 g_ptr_array_index (call->gets, 0), &row, error))
    return FALSE;
  g_clear_pointer (&call->row, hbase_row_unref);
  call->row = row;
  return TRUE;
}

gboolean
_hbase_table_get_multiple_once (HbaseThriftTHBaseServiceIf *service, gpointer user_data,
                                GError **error)
{
  TableCall *call = user_data;
  g_autoptr(GPtrArray) rows = NULL;

  if (!_hbase_result_reader_get_multiple (service, call->table->name_bytes, call->gets, &rows,
                                          error))
    return FALSE;
  if (rows->len != call->gets->len)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                   "getMultiple answered %u results for %u gets", rows->len, call->gets->len);
      return FALSE;
    }
  g_clear_pointer (&call->rows, g_ptr_array_unref);
  call->rows = g_steal_pointer (&rows);
  return TRUE;
}

gboolean
_hbase_table_exists_once (HbaseThriftTHBaseServiceIf *service, gpointer user_data, GError **error)
{
  TableCall *call = user_data;
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;

  if (!hbase_thrift_t_h_base_service_if_exists (service, &call->exists, call->table->name_bytes,
                                                g_ptr_array_index (call->gets, 0), &io,
                                                &call_error))
    {
      hbase_error_take_call_error (error, call_error, io, NULL);
      return FALSE;
    }
  return TRUE;
}

/**
 * hbase_table_get:
 * @table: a table
 * @row: the row key
 * @options: (nullable): what to read; %NULL for the newest version of
 *   every column
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Reads one row.
 *
 * Returns: (transfer full) (nullable): the row, empty (hbase_row_is_empty())
 *   when it does not exist or nothing matched; %NULL with @error set on
 *   failure (%HBASE_ERROR_ILLEGAL_ARGUMENT for a %NULL or empty @row or bad
 *   @options, %HBASE_ERROR_NOT_FOUND for a missing table, ...)
 *
 * Since: 0.1
 */
HBaseRow *
hbase_table_get (HBaseTable *table, GBytes *row, const HBaseReadOptions *options,
                 GCancellable *cancellable, GError **error)
{
  g_autoptr(TableCall) call = prepare_gets (table, &row, 1, FALSE, TRUE, options, error);

  if (call == NULL || !_hbase_table_call_run (call, _hbase_table_get_once, cancellable, error))
    return NULL;
  return g_steal_pointer (&call->row);
}

/**
 * hbase_table_get_multiple:
 * @table: a table
 * @rows: (element-type GBytes): the row keys
 * @options: (nullable): what to read of each row
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Reads several rows in one call.
 *
 * Returns: (transfer container) (element-type HBaseRow) (nullable): one row
 *   per key, in the order of @rows (empty rows for missing ones), or %NULL
 *   with @error set
 *
 * Since: 0.1
 */
GPtrArray *
hbase_table_get_multiple (HBaseTable *table, GPtrArray *rows, const HBaseReadOptions *options,
                          GCancellable *cancellable, GError **error)
{
  g_autoptr(TableCall) call = NULL;

  if (rows == NULL)
    {
      _hbase_illegal (error, "the list of rows is NULL");
      return NULL;
    }
  call = prepare_gets (table, (GBytes *const *) rows->pdata, rows->len, TRUE, TRUE, options,
                       error);
  if (call == NULL)
    return NULL;
  if (rows->len == 0)
    return g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_row_unref);
  if (!_hbase_table_call_run (call, _hbase_table_get_multiple_once, cancellable, error))
    return NULL;
  return g_steal_pointer (&call->rows);
}

/**
 * hbase_table_exists:
 * @table: a table
 * @row: the row key
 * @options: (nullable): which columns, versions, time range or filter
 *   count; %NULL for any cell
 * @exists: (out): whether the row has a matching cell
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Checks whether a row exists without transferring it.
 *
 * Returns: %TRUE if the check was made (the answer is in @exists)
 *
 * Since: 0.1
 */
gboolean
hbase_table_exists (HBaseTable *table, GBytes *row, const HBaseReadOptions *options,
                    gboolean *exists, GCancellable *cancellable, GError **error)
{
  g_autoptr(TableCall) call = NULL;

  if (exists != NULL)
    *exists = FALSE;
  call = prepare_gets (table, &row, 1, FALSE, FALSE, options, error);
  if (call == NULL || !_hbase_table_call_run (call, _hbase_table_exists_once, cancellable, error))
    return FALSE;
  if (exists != NULL)
    *exists = call->exists;
  return TRUE;
}

/* --- generated gets, for the structures ---------------------------------------------------- */

gboolean
_hbase_table_get_generated_once (HbaseThriftTHBaseServiceIf *service, gpointer user_data,
                                 GError **error)
{
  TableCall *call = user_data;
  g_autoptr(HbaseThriftTIOError) io = NULL;
  g_autoptr(GPtrArray) results = g_ptr_array_new_with_free_func (g_object_unref);
  GError *call_error = NULL;
  gboolean ok;

  if (call->gets->len == 1)
    {
      HbaseThriftTResult *result = g_object_new (HBASE_THRIFT_TYPE_T_RESULT, NULL);

      ok = hbase_thrift_t_h_base_service_if_get (service, &result, call->table->name_bytes,
                                                 g_ptr_array_index (call->gets, 0), &io,
                                                 &call_error);
      g_ptr_array_add (results, result);
    }
  else
    ok = hbase_thrift_t_h_base_service_if_get_multiple (service, &results,
                                                        call->table->name_bytes, call->gets,
                                                        &io, &call_error);
  if (!ok)
    {
      hbase_error_take_call_error (error, call_error, io, NULL);
      return FALSE;
    }
  if (results->len != call->gets->len)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                   "getMultiple answered %u results for %u gets", results->len, call->gets->len);
      return FALSE;
    }
  g_clear_pointer (&call->results, g_ptr_array_unref);
  call->results = g_steal_pointer (&results);
  return TRUE;
}

GPtrArray *
_hbase_table_get_generated (HBaseTable *table, GPtrArray *gets, GCancellable *cancellable,
                            GError **error)
{
  g_autoptr(TableCall) call = NULL;

  if (!_hbase_table_check (table, error))
    return NULL;
  if (gets == NULL)
    {
      _hbase_illegal (error, "the list of gets is NULL");
      return NULL;
    }
  if (gets->len == 0)
    return g_ptr_array_new_with_free_func (g_object_unref);
  call = _hbase_table_call_new (table);
  call->gets = g_ptr_array_new_full (gets->len, g_object_unref);
  for (guint i = 0; i < gets->len; i++)
    g_ptr_array_add (call->gets, g_object_ref (g_ptr_array_index (gets, i)));
  if (!_hbase_table_call_run (call, _hbase_table_get_generated_once, cancellable, error))
    return NULL;
  return g_steal_pointer (&call->results);
}


/* --- asynchronous variants ------------------------------------------------------------------ */

/**
 * hbase_table_get_async:
 * @table: a table
 * @row: the row key (copied before this returns)
 * @options: (nullable): what to read (copied before this returns)
 * @cancellable: (nullable): a #GCancellable
 * @callback: called in the caller's thread-default main context
 * @user_data: data for @callback
 *
 * Asynchronous hbase_table_get().
 *
 * Concurrent calls on the same table are gathered into getMultiple calls
 * (the client's coalesce-gets setting, see hbase_config_set_coalesce_gets()):
 * a get made while fewer than two such calls of the table are in flight
 * leaves at once, alone; gets made while they are in flight wait for one
 * to return and then leave together, up to coalesce-gets keys per call,
 * only with gets of equal @options.  Each call still completes on its
 * own, with its own row (the same, also for a missing row, as
 * hbase_table_get() gives), its own cancellation (a cancelled get
 * completes at once with %G_IO_ERROR_CANCELLED, whether or not it was
 * sent) and its own deadline (the operation timeout counted from this
 * call); when a gathered call fails, each get in it gets the error.
 * With coalesce-gets set to 1, each get is a call of its own.
 *
 * Since: 0.1
 */
void
hbase_table_get_async (HBaseTable *table, GBytes *row, const HBaseReadOptions *options,
                       GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  GError *error = NULL;
  TableCall *call;

  g_return_if_fail (HBASE_IS_TABLE (table));
  call = prepare_gets (table, &row, 1, FALSE, TRUE, options, &error);
  if (call != NULL && _hbase_get_coalescer_enabled (table))
    {
      g_autoptr(GTask) task = g_task_new (table, cancellable, callback, user_data);

      g_task_set_source_tag (task, hbase_table_get_async);
      _hbase_get_coalescer_add (table, call, task);
      return;
    }
  _hbase_table_call_start (table, call, _hbase_table_get_once, _hbase_table_return_row, error,
                           hbase_table_get_async, cancellable, callback, user_data);
}

/**
 * hbase_table_get_finish:
 * @table: a table
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_table_get_async().
 *
 * Returns: (transfer full) (nullable): the row, like hbase_table_get(), or
 *   %NULL with @error set
 *
 * Since: 0.1
 */
HBaseRow *
hbase_table_get_finish (HBaseTable *table, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, table), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == hbase_table_get_async, NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * hbase_table_get_multiple_async:
 * @table: a table
 * @rows: (element-type GBytes): the row keys (copied before this returns)
 * @options: (nullable): what to read of each row (copied)
 * @cancellable: (nullable): a #GCancellable
 * @callback: called in the caller's thread-default main context
 * @user_data: data for @callback
 *
 * Asynchronous hbase_table_get_multiple().
 *
 * Since: 0.1
 */
void
hbase_table_get_multiple_async (HBaseTable *table, GPtrArray *rows,
                                const HBaseReadOptions *options, GCancellable *cancellable,
                                GAsyncReadyCallback callback, gpointer user_data)
{
  GError *error = NULL;
  TableCall *call = NULL;

  g_return_if_fail (HBASE_IS_TABLE (table));
  if (rows == NULL)
    _hbase_illegal (&error, "the list of rows is NULL");
  else
    call = prepare_gets (table, (GBytes *const *) rows->pdata, rows->len, TRUE, TRUE, options,
                         &error);
  _hbase_table_call_start (table, call, _hbase_table_get_multiple_once, _hbase_table_return_rows, error, hbase_table_get_multiple_async, cancellable,
         callback, user_data);
}

/**
 * hbase_table_get_multiple_finish:
 * @table: a table
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_table_get_multiple_async().
 *
 * Returns: (transfer container) (element-type HBaseRow) (nullable): the rows,
 *   like hbase_table_get_multiple(), or %NULL with @error set
 *
 * Since: 0.1
 */
GPtrArray *
hbase_table_get_multiple_finish (HBaseTable *table, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, table), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == hbase_table_get_multiple_async,
                        NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
