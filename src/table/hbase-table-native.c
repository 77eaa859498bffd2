/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-table-native.c: HBaseTable operations on a client of the native
 * backend (HBase's own RPC, src/native/), reached from
 * _hbase_table_call_run(), so the sync and async variants both come here
 * (an async one on the client's worker pool, as on the Thrift2 path).
 * Today: get and get_multiple with their read options (columns, versions,
 * time range), each row built with the row builder exactly as the Thrift2
 * path builds it (the server's cell order, an empty row without a key for
 * a missing one); and the writes of hbase_table_apply(),
 * hbase_table_apply_multiple() and the write buffer, from the very items
 * the Thrift2 path would send (puts as HBaseMutations, deletes as the
 * TDeletes the gateway would turn into HBase Deletes), in order, each run
 * of puts or deletes as one Multi call per region server; mutate_row (the
 * same TPuts and TDeletes as one atomic RegionAction); exists (a Get with
 * existence_only); increment, append and check-and-mutate
 * (hbase-table-native-atomic.c).  Reads take typed filters (sent as
 * FilterProtos messages), not filter strings.  Everything else fails with
 * HBASE_ERROR_NOT_SUPPORTED before anything is sent.
 */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-error.h>

#include "hbase-filter-private.h"
#include "hbase-get-request.h"
#include "hbase-mutation-private.h"
#include "hbase-row-builder.h"
#include "hbase-table-call.h"
#include "hbase-table-native.h"
#include "../connection/hbase-connection-private.h"

/* The first setting of @config the native backend cannot honour, or NULL.
 * It speaks SIMPLE authentication over plain TCP only: taking such a
 * setting and connecting without it would run the calls unauthenticated
 * and unencrypted while the caller believes otherwise. */
static const char *
unsupported_setting (const HBaseConfig *config)
{
  if (hbase_config_get_kerberos (config))
    return "kerberos";
  if (hbase_config_get_proxy_user (config) != NULL)
    return "proxy-user";
  if (hbase_config_get_tls_ca_file (config) != NULL)
    return "tls-ca-file";
  if (hbase_config_get_tls_ca_path (config) != NULL)
    return "tls-ca-path";
  if (hbase_config_get_tls_client_cert (config) != NULL)
    return "tls-client-cert";
  if (!hbase_config_get_tls_verify_hostname (config))
    return "tls-verify-hostname";
  return NULL;
}

static gpointer
make_native (const HBaseConfig *config)
{
  const char *unsupported = unsupported_setting (config);
  HBaseNativeClient *native =
    _hbase_native_client_new (hbase_config_get_bootstrap_servers (config),
                              hbase_config_get_operation_timeout (config));

  _hbase_native_client_set_pool_size (native, hbase_config_get_pool_size (config));
  _hbase_native_client_set_connect_timeout (native, hbase_config_get_connect_timeout (config));
  _hbase_native_client_set_pause (native, hbase_config_get_retry_backoff (config));
  _hbase_native_client_set_max_message (native, hbase_config_get_max_message_size (config));
  if (unsupported != NULL)
    {
      g_autofree char *message =
        g_strdup_printf ("%s is not supported by the native backend (bootstrap servers are "
                         "set): it speaks only SIMPLE authentication over plain TCP, and would "
                         "ignore the setting; use Thrift2 gateways for it, or unset it",
                         unsupported);

      _hbase_native_client_refuse (native, message);
    }
  return native;
}

HBaseNativeClient *
_hbase_table_native_client_of (HBaseClient *client)
{
  return _hbase_client_get_native (client, make_native, (GDestroyNotify) _hbase_native_client_free);
}

HBaseNativeClient *
_hbase_table_native_client (HBaseTable *table)
{
  return _hbase_table_native_client_of (table->client);
}

static HBaseNativeClient *
native_of (TableCall *call)
{
  return _hbase_table_native_client (call->table);
}

gboolean
_hbase_table_native_not_supported (GError **error, const char *what)
{
  g_set_error (error, HBASE_ERROR, HBASE_ERROR_NOT_SUPPORTED,
               "%s is not supported on the native backend yet (bootstrap servers are set): "
               "it needs the Thrift2 gateway, so use a client with gateways for it", what);
  return FALSE;
}

static void
append (HBaseRowBuilder *builder, GBytes *bytes, gsize *offset, gsize *len)
{
  const guint8 *data = g_bytes_get_data (bytes, len);
  guint8 *at = _hbase_row_builder_reserve (builder, *len, offset);

  if (*len > 0)
    memcpy (at, data, *len);
}

/* An HBaseRow of @cells (HBaseNativeCell *, all of one row, in the
 * server's order); no cell: an empty row without a key, as a TResult
 * without a row gives. */
HBaseRow *
_hbase_table_native_row (GPtrArray *cells)
{
  HBaseRowBuilder builder;
  HBaseRow *row;

  _hbase_row_builder_init (&builder);
  for (guint i = 0; i < cells->len; i++)
    {
      const HBaseNativeCell *c = cells->pdata[i];
      HBaseRowBuilderCell cell = { 0 };

      if (i == 0)
        {
          gsize key, key_len;

          append (&builder, c->row, &key, &key_len);
          _hbase_row_builder_set_key (&builder, key, key_len);
        }
      append (&builder, c->family, &cell.family, &cell.family_len);
      append (&builder, c->qualifier, &cell.qualifier, &cell.qualifier_len);
      append (&builder, c->value, &cell.value, &cell.value_len);
      cell.timestamp = c->timestamp;
      _hbase_row_builder_add_cell (&builder, &cell);
    }
  row = _hbase_row_builder_finish (&builder);
  _hbase_row_builder_clear (&builder);
  return row;
}

static void
column_free (HBaseNativeColumn *c)
{
  g_bytes_unref (c->family);
  if (c->qualifier != NULL)
    g_bytes_unref (c->qualifier);
  g_free (c);
}

GPtrArray *
_hbase_table_native_columns (GPtrArray *columns)
{
  GPtrArray *native_columns;

  if (columns == NULL || columns->len == 0)
    return NULL;
  native_columns = g_ptr_array_new_with_free_func ((GDestroyNotify) column_free);
  for (guint i = 0; i < columns->len; i++)
    {
      HBaseColumn *column = columns->pdata[i];
      HBaseNativeColumn *c = g_new0 (HBaseNativeColumn, 1);
      GBytes *qualifier = hbase_column_get_qualifier (column);

      c->family = g_bytes_ref (hbase_column_get_family (column));
      c->qualifier = qualifier != NULL ? g_bytes_ref (qualifier) : NULL;
      g_ptr_array_add (native_columns, c);
    }
  return native_columns;
}

/* A get's cell, straight from the reply into the row being built (as
 * _hbase_table_native_row() builds it from HBaseNativeCells). */
typedef struct
{
  HBaseRowBuilder builder;
  gboolean        keyed;    /* the first cell gave the row's key */
} ViewRow;

static void
add_view (const HBaseNativeCellView *c, gpointer user_data)
{
  ViewRow *v = user_data;
  HBaseRowBuilder *builder = &v->builder;
  HBaseRowBuilderCell cell = { 0 };
  guint8 *at;

  if (!v->keyed)
    {
      gsize key;

      at = _hbase_row_builder_reserve (builder, c->row_len, &key);
      if (c->row_len > 0)
        memcpy (at, c->row, c->row_len);
      _hbase_row_builder_set_key (builder, key, c->row_len);
      v->keyed = TRUE;
    }
  at = _hbase_row_builder_reserve (builder, c->family_len + c->qualifier_len + c->value_len,
                                   &cell.family);
  if (c->family_len > 0)
    memcpy (at, c->family, c->family_len);
  cell.family_len = c->family_len;
  cell.qualifier = cell.family + c->family_len;
  if (c->qualifier_len > 0)
    memcpy (at + c->family_len, c->qualifier, c->qualifier_len);
  cell.qualifier_len = c->qualifier_len;
  cell.value = cell.qualifier + c->qualifier_len;
  if (c->value_len > 0)
    memcpy (at + c->family_len + c->qualifier_len, c->value, c->value_len);
  cell.value_len = c->value_len;
  cell.timestamp = c->timestamp;
  _hbase_row_builder_add_cell (builder, &cell);
}

/* One get request over the native client: the reply's cells go straight
 * into the row builder. */
static HBaseRow *
native_get (HBaseNativeClient *native, const char *table, const HBaseGetRequest *request,
            HBaseFilter *typed_filter, GCancellable *cancellable, GError **error)
{
  GBytes *row, *filter;
  GPtrArray *columns;
  gint32 max_versions;
  gint64 min_ts, max_ts;
  g_autoptr(GPtrArray) native_columns = NULL;
  g_autoptr(GBytes) native_filter = NULL;
  ViewRow v = { .keyed = FALSE };
  HBaseRow *got = NULL;

  _hbase_get_request_peek (request, &row, &columns, &max_versions, &min_ts, &max_ts, &filter);
  if (!_hbase_filter_native_form (typed_filter, filter != NULL, &native_filter, error))
    return NULL;
  native_columns = _hbase_table_native_columns (columns);
  _hbase_row_builder_init (&v.builder);
  if (_hbase_native_client_get_visit (native, table, row, native_columns,
                                      max_versions > 0 ? (guint) max_versions : 0,
                                      min_ts, max_ts, native_filter, add_view, &v,
                                      cancellable, error))
    got = _hbase_row_builder_finish (&v.builder);
  _hbase_row_builder_clear (&v.builder);
  return got;
}

static GPtrArray *
new_cells (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) _hbase_native_cell_free);
}

static GBytes *
bytes_of (const GByteArray *array)
{
  return array != NULL ? g_bytes_new (array->data, array->len) : g_bytes_new (NULL, 0);
}

/* @put as a native mutation (its cells into m->cells). */
static gboolean
put_of_mutation (HBaseMutation *put, HBaseNativeMutation *m, GError **error)
{
  guint n = _hbase_mutation_get_n_entries (put);
  gint64 ts = _hbase_mutation_get_timestamp (put);

  m->is_put = TRUE;
  m->timestamp = ts >= 0 ? ts : HBASE_NATIVE_LATEST_TIMESTAMP;
  m->durability = _hbase_mutation_get_durability (put);
  for (guint i = 0; i < n; i++)
    {
      GBytes *family, *qualifier, *value;
      gint64 cell_ts;
      HBaseNativeCell *cell;

      if (_hbase_mutation_get_entry (put, i, &family, &qualifier, &value, &cell_ts) !=
          _HBASE_MUTATION_ENTRY_PUT)
        return _hbase_table_native_not_supported (error, "a put with other entries than cells");
      cell = g_new0 (HBaseNativeCell, 1);
      cell->family = g_bytes_ref (family);
      cell->qualifier = g_bytes_ref (qualifier);
      cell->value = g_bytes_ref (value);
      cell->timestamp = cell_ts >= 0 ? cell_ts : HBASE_NATIVE_LATEST_TIMESTAMP;
      cell->type = HBASE_NATIVE_CELL_PUT;
      g_ptr_array_add (m->cells, cell);
    }
  return TRUE;
}

static gboolean
native_put (HBaseNativeClient *native, const char *table, HBaseMutation *put,
            GCancellable *cancellable, GError **error)
{
  g_autoptr(GPtrArray) cells = new_cells ();
  HBaseNativeMutation m = { TRUE, cells, 0, 0 };

  if (!put_of_mutation (put, &m, error))
    return FALSE;
  return _hbase_native_client_mutate (native, table, hbase_mutation_get_row (put), TRUE, cells,
                                      m.timestamp, m.durability, cancellable, error);
}

/* A TDelete as the gateway turns it into an HBase Delete: with columns,
 * each column at its own timestamp (TDelete.timestamp is then ignored);
 * without, the whole row up to TDelete.timestamp.  Fills @m (cells owned
 * by the caller's free). */
static gboolean
delete_of_tdelete (HbaseThriftTDelete *tdelete, HBaseNativeMutation *m, GError **error)
{
  guint8 type;

  m->is_put = FALSE;
  m->timestamp = HBASE_NATIVE_LATEST_TIMESTAMP;
  m->durability = tdelete->__isset_durability ? (guint) tdelete->durability : 0;
  if (tdelete->__isset_columns && tdelete->columns->len > 0)
    {
      switch (tdelete->deleteType)
        {
        case HBASE_THRIFT_T_DELETE_TYPE_DELETE_COLUMN:
          type = HBASE_NATIVE_CELL_DELETE;
          break;
        case HBASE_THRIFT_T_DELETE_TYPE_DELETE_COLUMNS:
          type = HBASE_NATIVE_CELL_DELETE_COLUMN;
          break;
        case HBASE_THRIFT_T_DELETE_TYPE_DELETE_FAMILY:
          type = HBASE_NATIVE_CELL_DELETE_FAMILY;
          break;
        default:
          return _hbase_table_native_not_supported (error, "this kind of delete");
        }
      for (guint i = 0; i < tdelete->columns->len; i++)
        {
          HbaseThriftTColumn *column = g_ptr_array_index (tdelete->columns, i);
          HBaseNativeCell *cell = g_new0 (HBaseNativeCell, 1);

          cell->family = bytes_of (column->family);
          cell->qualifier = bytes_of (column->__isset_qualifier ? column->qualifier : NULL);
          cell->timestamp = column->__isset_timestamp ? column->timestamp : HBASE_NATIVE_LATEST_TIMESTAMP;
          cell->type = type;
          g_ptr_array_add (m->cells, cell);
        }
    }
  else if (tdelete->__isset_timestamp)
    m->timestamp = tdelete->timestamp;
  return TRUE;
}

static gboolean
native_delete (HBaseNativeClient *native, const char *table, HbaseThriftTDelete *tdelete,
               GCancellable *cancellable, GError **error)
{
  g_autoptr(GPtrArray) cells = new_cells ();
  g_autoptr(GBytes) row = bytes_of (tdelete->row);
  HBaseNativeMutation m = { FALSE, cells, 0, 0 };

  if (!delete_of_tdelete (tdelete, &m, error))
    return FALSE;
  return _hbase_native_client_mutate (native, table, row, FALSE, cells, m.timestamp, m.durability,
                                      cancellable, error);
}

static void
mutation_free (HBaseNativeMutation *m)
{
  g_ptr_array_unref (m->cells);
  g_free (m);
}

/* The TRowMutations the Thrift2 path sends for mutate_row and
 * check-and-mutate (TPuts and TDeletes of one row), as
 * HBaseNativeMutations. */
GPtrArray *
_hbase_table_native_row_mutations (HbaseThriftTRowMutations *rm, GError **error)
{
  g_autoptr(GPtrArray) mutations = g_ptr_array_new_with_free_func ((GDestroyNotify) mutation_free);

  for (guint i = 0; i < rm->mutations->len; i++)
    {
      HbaseThriftTMutation *tm = g_ptr_array_index (rm->mutations, i);
      HBaseNativeMutation *m = g_new0 (HBaseNativeMutation, 1);

      m->cells = new_cells ();
      g_ptr_array_add (mutations, m);
      if (tm->__isset_put)
        {
          HbaseThriftTPut *put = tm->put;

          m->is_put = TRUE;
          m->timestamp = put->__isset_timestamp ? put->timestamp : HBASE_NATIVE_LATEST_TIMESTAMP;
          m->durability = put->__isset_durability ? (guint) put->durability : 0;
          for (guint j = 0; j < put->columnValues->len; j++)
            {
              HbaseThriftTColumnValue *cv = g_ptr_array_index (put->columnValues, j);
              HBaseNativeCell *cell = g_new0 (HBaseNativeCell, 1);

              cell->family = bytes_of (cv->family);
              cell->qualifier = bytes_of (cv->qualifier);
              cell->value = bytes_of (cv->value);
              cell->timestamp = cv->__isset_timestamp ? cv->timestamp : HBASE_NATIVE_LATEST_TIMESTAMP;
              cell->type = HBASE_NATIVE_CELL_PUT;
              g_ptr_array_add (m->cells, cell);
            }
        }
      else if (tm->__isset_deleteSingle)
        {
          if (!delete_of_tdelete (tm->deleteSingle, m, error))
            return NULL;
        }
      else
        {
          _hbase_table_native_not_supported (error, "this kind of row mutation");
          return NULL;
        }
    }
  return g_steal_pointer (&mutations);
}

/* mutate_row: the row mutations as one atomic RegionAction. */
static gboolean
native_mutate_row (HBaseNativeClient *native, TableCall *call, GCancellable *cancellable,
                   GError **error)
{
  g_autoptr(GBytes) row = bytes_of (call->row_mutations->row);
  g_autoptr(GPtrArray) mutations = _hbase_table_native_row_mutations (call->row_mutations, error);

  if (mutations == NULL)
    return FALSE;
  return _hbase_native_client_mutate_row (native, hbase_table_get_name (call->table), row,
                                          mutations, cancellable, error);
}

/* A batch of several puts or deletes: one Multi call per region server
 * (hbase-native-multi-write.c), as the gateway's client sends the
 * putMultiple or deleteMultiple. */
static gboolean
native_write_batch (HBaseNativeClient *native, const char *table, TableBatch *batch,
                    GCancellable *cancellable, GError **error)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GPtrArray) mutations = g_ptr_array_new_with_free_func ((GDestroyNotify) mutation_free);

  for (guint i = 0; i < batch->items->len; i++)
    {
      HBaseNativeMutation *m = g_new0 (HBaseNativeMutation, 1);

      m->cells = new_cells ();
      g_ptr_array_add (mutations, m);
      if (batch->puts)
        {
          HBaseMutation *put = batch->items->pdata[i];

          g_ptr_array_add (rows, g_bytes_ref (hbase_mutation_get_row (put)));
          if (!put_of_mutation (put, m, error))
            return FALSE;
        }
      else
        {
          HbaseThriftTDelete *tdelete = batch->items->pdata[i];

          g_ptr_array_add (rows, bytes_of (tdelete->row));
          if (!delete_of_tdelete (tdelete, m, error))
            return FALSE;
        }
    }
  return _hbase_native_client_mutate_multi (native, table, rows, mutations, cancellable, error);
}

/* The batches of a write, in order: one Mutate for a batch of one, one
 * Multi call per region server for a larger one.  As on the Thrift2 path,
 * batches before call->next_batch are applied, the one at it may be in
 * part, later ones were not sent. */
static gboolean
native_write (HBaseNativeClient *native, TableCall *call, GCancellable *cancellable,
              GError **error)
{
  const char *table = hbase_table_get_name (call->table);

  for (; call->next_batch < call->batches->len; call->next_batch++)
    {
      TableBatch *batch = g_ptr_array_index (call->batches, call->next_batch);
      gboolean ok;

      if (batch->items->len > 1)
        ok = native_write_batch (native, table, batch, cancellable, error);
      else if (batch->puts)
        ok = native_put (native, table, batch->items->pdata[0], cancellable, error);
      else
        ok = native_delete (native, table, batch->items->pdata[0], cancellable, error);
      if (!ok)
        return FALSE;
    }
  return TRUE;
}

/* An exists: the generated TGet of hbase_table_exists(). */
static gboolean
native_exists (HBaseNativeClient *native, TableCall *call, GCancellable *cancellable,
               GError **error)
{
  HbaseThriftTGet *tget = g_ptr_array_index (call->gets, 0);
  g_autoptr(GBytes) row = bytes_of (tget->row);
  g_autoptr(GPtrArray) columns = _hbase_table_native_tget_columns (tget);
  g_autoptr(GBytes) native_filter = NULL;

  if (!_hbase_filter_native_form (call->typed_filter, tget->__isset_filterString,
                                  &native_filter, error))
    return FALSE;
  return _hbase_native_client_exists_filtered (native, hbase_table_get_name (call->table), row,
                                               columns,
                                               tget->__isset_maxVersions ? (guint) tget->maxVersions : 0,
                                               tget->__isset_timeRange ? tget->timeRange->minStamp : 0,
                                               tget->__isset_timeRange ? tget->timeRange->maxStamp : 0,
                                               native_filter, &call->exists, cancellable, error);
}

gboolean
_hbase_table_native_supports (TableCall *call, HBaseCallFunc func)
{
  /* writes: apply, apply_multiple and the write buffer fill batches and
   * nothing else (mutate_row, check-and-mutate, increments do not) */
  return func == _hbase_table_get_once || func == _hbase_table_get_multiple_once ||
         func == _hbase_table_exists_once || func == _hbase_table_get_generated_once ||
         /* increment, append, check-and-mutate: hbase-table-native-atomic.c */
         _hbase_table_native_atomic_supports (call) ||
         (call->batches != NULL && call->row_mutations == NULL && call->increment == NULL &&
          call->append == NULL && call->check_family == NULL) ||
         /* mutate_row (and a delete of several kinds): row mutations, no check */
         (call->row_mutations != NULL && call->batches == NULL && call->check_family == NULL &&
          call->increment == NULL && call->append == NULL);
}

gboolean
_hbase_table_native_run (TableCall *call, HBaseCallFunc func, GCancellable *cancellable,
                         GError **error)
{
  HBaseNativeClient *native;
  const char *table = hbase_table_get_name (call->table);

  if (!_hbase_table_native_supports (call, func))
    return _hbase_table_native_not_supported (error, "this operation");
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  native = native_of (call);
  if (_hbase_table_native_atomic_supports (call))
    return _hbase_table_native_atomic_run (native, call, cancellable, error);
  if (call->batches != NULL)
    return native_write (native, call, cancellable, error);
  if (func == _hbase_table_exists_once)
    return native_exists (native, call, cancellable, error);
  if (func == _hbase_table_get_generated_once)
    return _hbase_table_native_get_generated (native, call, cancellable, error);
  if (call->row_mutations != NULL)
    return native_mutate_row (native, call, cancellable, error);
  if (func == _hbase_table_get_once)
    {
      HBaseRow *row = native_get (native, table, g_ptr_array_index (call->gets, 0),
                                  call->typed_filter, cancellable, error);

      if (row == NULL)
        return FALSE;
      g_clear_pointer (&call->row, hbase_row_unref);
      call->row = row;
      return TRUE;
    }
  else
    {
      g_autoptr(GPtrArray) rows =
        g_ptr_array_new_full (call->gets->len, (GDestroyNotify) hbase_row_unref);

      g_autoptr(GPtrArray) keys = g_ptr_array_new ();
      g_autoptr(GPtrArray) cells = NULL;
      g_autoptr(GPtrArray) native_columns = NULL;
      g_autoptr(GBytes) native_filter = NULL;
      GBytes *row, *filter;
      GPtrArray *columns;
      gint32 max_versions;
      gint64 min_ts, max_ts;

      /* the requests of a get_multiple all read what the first reads */
      for (guint i = 0; i < call->gets->len; i++)
        {
          _hbase_get_request_peek (call->gets->pdata[i], &row, &columns, &max_versions,
                                   &min_ts, &max_ts, &filter);
          g_ptr_array_add (keys, row);
        }
      _hbase_get_request_peek (call->gets->pdata[0], &row, &columns, &max_versions,
                               &min_ts, &max_ts, &filter);
      if (!_hbase_filter_native_form (call->typed_filter, filter != NULL, &native_filter, error))
        return FALSE;
      native_columns = _hbase_table_native_columns (columns);
      /* one Multi call per region server, the rows in the caller's order */
      cells = _hbase_native_client_get_multi_filtered (native, table, keys, native_columns,
                                                       max_versions > 0 ? (guint) max_versions : 0,
                                                       min_ts, max_ts, native_filter,
                                                       cancellable, error);
      if (cells == NULL)
        return FALSE;
      for (guint i = 0; i < cells->len; i++)
        g_ptr_array_add (rows, _hbase_table_native_row (cells->pdata[i]));
      g_clear_pointer (&call->rows, g_ptr_array_unref);
      call->rows = g_steal_pointer (&rows);
      return TRUE;
    }
}
