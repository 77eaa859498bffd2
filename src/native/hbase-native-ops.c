/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-native-ops.c: get (and exists), put, deletes of every kind, and
 * several mutations of a row at once over HBase's own RPC (ClientService
 * Get, Mutate, and Multi with one atomic RegionAction; the mutation's cells
 * inline in the MutationProto), on the server of the region that holds the
 * row.  A
 * failed attempt is retried as the client's policy says
 * (_hbase_native_client_retry: relocate, back off, reconnect), all within
 * the operation's one deadline.
 */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-error.h>

#include "hbase-native-client.h"
#include "hbase-native-connection.h"
#include "hbase-native-pb.h"
#include "hbase-native-mutation.h"
#include "Cell.pb-c.h"
#include "Client.pb-c.h"

typedef HBaseNativeMutationParts MutationParts;

/* One call of an operation on the region's server (through the client's
 * pool). */
typedef gboolean (*RegionCall) (HBaseNativeClient *client, const HBaseNativeRegion *region,
                                Hbase__Pb__RegionSpecifier *spec, gpointer data, gint64 deadline,
                                GCancellable *cancellable, GError **error);

/* Runs @call on the region holding @row, retrying as the client's policy
 * says, all within one deadline. */
static gboolean
on_region (HBaseNativeClient *self, const char *table, GBytes *row, RegionCall call,
           gpointer data, GCancellable *cancellable, GError **error)
{
  gint64 deadline = _hbase_native_client_deadline (self);

  for (guint attempt = 0;; attempt++)
    {
      g_autoptr(HBaseNativeRegion) region = NULL;
      Hbase__Pb__RegionSpecifier spec = HBASE__PB__REGION_SPECIFIER__INIT;
      g_autoptr(GError) local = NULL;

      region = _hbase_native_client_locate_by (self, table, row, deadline, cancellable, &local);
      if (region != NULL)
        {
          spec.type = HBASE__PB__REGION_SPECIFIER__REGION_SPECIFIER_TYPE__REGION_NAME;
          spec.value.data = (guint8 *) g_bytes_get_data (region->name, &spec.value.len);
          if (call (self, region, &spec, data, deadline, cancellable, &local))
            return TRUE;
        }
      if (_hbase_native_client_retry (self, table, region, attempt, deadline, cancellable, &local))
        continue;
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
}

/* ---- get ------------------------------------------------------------------ */

typedef struct
{
  GBytes    *row;
  GPtrArray *columns;
  guint      max_versions;
  gint64     min_ts, max_ts;   /* max_ts 0: no time range */
  gboolean   existence_only;
  GPtrArray *cells;     /* out */
  gboolean   exists;    /* out, with existence_only */
  GBytes    *filter;    /* a serialized Filter message, NULL: none */
  guint      store_limit, store_offset;   /* cells per family: at most, skipped (0: none) */
  HBaseNativeCellFunc visit;   /* non-NULL: the cells go to it, not to cells */
  gpointer   visit_data;
} GetCall;

static void
view_of_pb (const Hbase__Pb__Cell *pb, HBaseNativeCellView *view)
{
  view->row = pb->row.data;
  view->row_len = pb->row.len;
  view->family = pb->family.data;
  view->family_len = pb->family.len;
  view->qualifier = pb->qualifier.data;
  view->qualifier_len = pb->qualifier.len;
  view->value = pb->value.data;
  view->value_len = pb->value.len;
  view->timestamp = pb->has_timestamp ? (gint64) pb->timestamp : HBASE_NATIVE_LATEST_TIMESTAMP;
  view->type = pb->has_cell_type ? (guint8) pb->cell_type : HBASE_NATIVE_CELL_PUT;
}

static void
view_of_cell (const HBaseNativeCell *cell, HBaseNativeCellView *view)
{
  view->row = g_bytes_get_data (cell->row, &view->row_len);
  view->family = g_bytes_get_data (cell->family, &view->family_len);
  view->qualifier = g_bytes_get_data (cell->qualifier, &view->qualifier_len);
  view->value = g_bytes_get_data (cell->value, &view->value_len);
  view->timestamp = cell->timestamp;
  view->type = cell->type;
}


static gboolean
get_call (HBaseNativeClient *client, const HBaseNativeRegion *located,
          Hbase__Pb__RegionSpecifier *region, gpointer data, gint64 deadline,
          GCancellable *cancellable, GError **error)
{
  GetCall *g = data;
  Hbase__Pb__GetRequest request = HBASE__PB__GET_REQUEST__INIT;
  Hbase__Pb__Get get = HBASE__PB__GET__INIT;
  Hbase__Pb__TimeRange range = HBASE__PB__TIME_RANGE__INIT;
  g_auto(HBaseNativePbColumns) columns = { 0 };
  ProtobufCMessage *reply = NULL;
  Hbase__Pb__Result *result;
  g_autoptr(GBytes) block = NULL;
  g_autoptr(GPtrArray) cells = NULL;
  Hbase__Pb__Filter *filter = NULL;
  HBaseNativeCellView view;
  gboolean called;

  if (!_hbase_native_pb_filter (g->filter, &filter, error))
    return FALSE;
  _hbase_native_pb_columns_init (&columns, g->columns);
  _hbase_native_pb_set_bytes (&get.row, g->row);
  get.n_column = columns.n;
  get.column = columns.pointers;
  if (g->max_versions > 0)
    {
      get.has_max_versions = TRUE;
      get.max_versions = g->max_versions;
    }
  if (g->max_ts != 0)
    {
      /* [from, to), as the Thrift2 gateway's TTimeRange */
      range.has_from = TRUE;
      range.from = (guint64) g->min_ts;
      range.has_to = TRUE;
      range.to = (guint64) g->max_ts;
      get.time_range = &range;
    }
  if (g->existence_only)
    {
      get.has_existence_only = TRUE;
      get.existence_only = TRUE;
    }
  get.filter = filter;
  if (g->store_limit > 0)
    {
      get.has_store_limit = TRUE;
      get.store_limit = g->store_limit;
    }
  if (g->store_offset > 0)
    {
      get.has_store_offset = TRUE;
      get.store_offset = g->store_offset;
    }
  request.region = region;
  request.get = &get;
  called = _hbase_native_client_call (client, located, "Get", &request.base,
                                      &hbase__pb__get_response__descriptor, &reply, &block,
                                      deadline, cancellable, error);
  if (filter != NULL)
    protobuf_c_message_free_unpacked (&filter->base, NULL);
  if (!called)
    return FALSE;
  result = ((Hbase__Pb__GetResponse *) reply)->result;
  if (g->existence_only)
    {
      g->exists = result != NULL && result->has_exists && result->exists;
      protobuf_c_message_free_unpacked (reply, NULL);
      return TRUE;
    }
  /* HBase 2.6 puts a Get's cells in the cellblock only for clients that
   * sent a version_info of 1.3 or newer; ours sends none, so they come
   * inline, in the Result (before any in the cellblock) */
  if (g->visit == NULL)
    {
      cells = _hbase_native_pb_reply_cells (result, block, g->row, "Get", error);
      protobuf_c_message_free_unpacked (reply, NULL);
      if (cells == NULL)
        return FALSE;
      g->cells = g_steal_pointer (&cells);
      return TRUE;
    }
  /* straight from the reply: every cell checked first, then given */
  cells = _hbase_native_pb_block_cells (result, block, "Get", error);
  if (cells == NULL || !_hbase_native_pb_check_rows (result, cells, g->row, "Get", error))
    {
      protobuf_c_message_free_unpacked (reply, NULL);
      return FALSE;
    }
  for (gsize i = 0; result != NULL && i < result->n_cell; i++)
    {
      view_of_pb (result->cell[i], &view);
      g->visit (&view, g->visit_data);
    }
  for (guint i = 0; i < cells->len; i++)
    {
      view_of_cell (cells->pdata[i], &view);
      g->visit (&view, g->visit_data);
    }
  protobuf_c_message_free_unpacked (reply, NULL);
  return TRUE;
}

GPtrArray *
_hbase_native_client_get (HBaseNativeClient *self, const char *table, GBytes *row,
                          GPtrArray *columns, guint max_versions,
                          GCancellable *cancellable, GError **error)
{
  return _hbase_native_client_get_range (self, table, row, columns, max_versions, 0, 0,
                                         cancellable, error);
}

GPtrArray *
_hbase_native_client_get_range (HBaseNativeClient *self, const char *table, GBytes *row,
                                GPtrArray *columns, guint max_versions, gint64 min_ts,
                                gint64 max_ts, GCancellable *cancellable, GError **error)
{
  return _hbase_native_client_get_filtered (self, table, row, columns, max_versions, min_ts,
                                            max_ts, NULL, cancellable, error);
}

GPtrArray *
_hbase_native_client_get_filtered (HBaseNativeClient *self, const char *table, GBytes *row,
                                   GPtrArray *columns, guint max_versions, gint64 min_ts,
                                   gint64 max_ts, GBytes *filter, GCancellable *cancellable,
                                   GError **error)
{
  return _hbase_native_client_get_paged (self, table, row, columns, max_versions, min_ts, max_ts,
                                         filter, 0, 0, cancellable, error);
}

gboolean
_hbase_native_client_get_visit (HBaseNativeClient *self, const char *table, GBytes *row,
                                GPtrArray *columns, guint max_versions, gint64 min_ts,
                                gint64 max_ts, GBytes *filter, HBaseNativeCellFunc func,
                                gpointer user_data, GCancellable *cancellable, GError **error)
{
  GetCall g = { row, columns, max_versions, min_ts, max_ts, FALSE, NULL, FALSE, filter, 0, 0,
                func, user_data };

  return on_region (self, table, row, get_call, &g, cancellable, error);
}

gboolean
_hbase_native_client_exists (HBaseNativeClient *self, const char *table, GBytes *row,
                             GPtrArray *columns, guint max_versions, gint64 min_ts,
                             gint64 max_ts, gboolean *exists, GCancellable *cancellable,
                             GError **error)
{
  return _hbase_native_client_exists_filtered (self, table, row, columns, max_versions, min_ts,
                                               max_ts, NULL, exists, cancellable, error);
}

gboolean
_hbase_native_client_exists_filtered (HBaseNativeClient *self, const char *table, GBytes *row,
                                      GPtrArray *columns, guint max_versions, gint64 min_ts,
                                      gint64 max_ts, GBytes *filter, gboolean *exists,
                                      GCancellable *cancellable, GError **error)
{
  GetCall g = { row, columns, max_versions, min_ts, max_ts, TRUE, NULL, FALSE, filter, 0, 0,
                NULL, NULL };

  if (!on_region (self, table, row, get_call, &g, cancellable, error))
    return FALSE;
  *exists = g.exists;
  return TRUE;
}

/* ---- put and delete ------------------------------------------------------- */

static gboolean
mutate_call (HBaseNativeClient *client, const HBaseNativeRegion *located,
             Hbase__Pb__RegionSpecifier *region, gpointer data, gint64 deadline,
             GCancellable *cancellable, GError **error)
{
  Hbase__Pb__MutateRequest request = HBASE__PB__MUTATE_REQUEST__INIT;
  ProtobufCMessage *reply = NULL;

  request.region = region;
  request.mutation = data;
  if (!_hbase_native_client_call (client, located, "Mutate", &request.base,
                                  &hbase__pb__mutate_response__descriptor, &reply, NULL,
                                  deadline, cancellable, error))
    return FALSE;
  protobuf_c_message_free_unpacked (reply, NULL);
  return TRUE;
}

gboolean
_hbase_native_client_put (HBaseNativeClient *self, const char *table, GBytes *row,
                          GPtrArray *cells, GCancellable *cancellable, GError **error)
{
  Hbase__Pb__MutationProto mutation = HBASE__PB__MUTATION_PROTO__INIT;
  guint n = cells->len;
  g_autofree Hbase__Pb__MutationProto__ColumnValue *values =
    g_new0 (Hbase__Pb__MutationProto__ColumnValue, MAX (n, 1));
  g_autofree Hbase__Pb__MutationProto__ColumnValue **value_pointers =
    g_new0 (Hbase__Pb__MutationProto__ColumnValue *, MAX (n, 1));
  g_autofree Hbase__Pb__MutationProto__ColumnValue__QualifierValue *qvs =
    g_new0 (Hbase__Pb__MutationProto__ColumnValue__QualifierValue, MAX (n, 1));
  g_autofree Hbase__Pb__MutationProto__ColumnValue__QualifierValue **qv_pointers =
    g_new0 (Hbase__Pb__MutationProto__ColumnValue__QualifierValue *, MAX (n, 1));

  if (n == 0)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT, "a put needs at least one cell");
      return FALSE;
    }
  /* one ColumnValue per cell: the server adds them one by one */
  for (guint i = 0; i < n; i++)
    {
      const HBaseNativeCell *cell = cells->pdata[i];

      hbase__pb__mutation_proto__column_value__init (&values[i]);
      hbase__pb__mutation_proto__column_value__qualifier_value__init (&qvs[i]);
      _hbase_native_pb_set_bytes (&values[i].family, cell->family);
      qvs[i].has_qualifier = TRUE;
      _hbase_native_pb_set_bytes (&qvs[i].qualifier, cell->qualifier);
      qvs[i].has_value = TRUE;
      _hbase_native_pb_set_bytes (&qvs[i].value, cell->value);
      if (cell->timestamp != HBASE_NATIVE_LATEST_TIMESTAMP)
        {
          qvs[i].has_timestamp = TRUE;
          qvs[i].timestamp = (guint64) cell->timestamp;
        }
      qv_pointers[i] = &qvs[i];
      values[i].n_qualifier_value = 1;
      values[i].qualifier_value = &qv_pointers[i];
      value_pointers[i] = &values[i];
    }
  mutation.has_row = TRUE;
  _hbase_native_pb_set_bytes (&mutation.row, row);
  mutation.has_mutate_type = TRUE;
  mutation.mutate_type = HBASE__PB__MUTATION_PROTO__MUTATION_TYPE__PUT;
  mutation.n_column_value = n;
  mutation.column_value = value_pointers;
  return on_region (self, table, row, mutate_call, &mutation, cancellable, error);
}

gboolean
_hbase_native_client_delete_row (HBaseNativeClient *self, const char *table, GBytes *row,
                                 GCancellable *cancellable, GError **error)
{
  Hbase__Pb__MutationProto mutation = HBASE__PB__MUTATION_PROTO__INIT;

  /* no column values: the whole row, every family, up to now */
  mutation.has_row = TRUE;
  _hbase_native_pb_set_bytes (&mutation.row, row);
  mutation.has_mutate_type = TRUE;
  mutation.mutate_type = HBASE__PB__MUTATION_PROTO__MUTATION_TYPE__DELETE;
  return on_region (self, table, row, mutate_call, &mutation, cancellable, error);
}

/* ---- mutations with every kind of delete ---------------------------------- */

void
_hbase_native_mutation_parts_clear (MutationParts *parts)
{
  g_free (parts->values);
  g_free (parts->value_pointers);
  g_free (parts->qvs);
  g_free (parts->qv_pointers);
}

gboolean
_hbase_native_mutation_fill (MutationParts *parts, GBytes *row, gboolean is_put,
                             GPtrArray *cells, gint64 timestamp, guint durability,
                             GError **error)
{
  Hbase__Pb__MutationProto *mutation = &parts->proto;
  guint n = cells != NULL ? cells->len : 0;

  hbase__pb__mutation_proto__init (mutation);
  parts->values = g_new0 (Hbase__Pb__MutationProto__ColumnValue, MAX (n, 1));
  parts->value_pointers = g_new0 (Hbase__Pb__MutationProto__ColumnValue *, MAX (n, 1));
  parts->qvs = g_new0 (Hbase__Pb__MutationProto__ColumnValue__QualifierValue, MAX (n, 1));
  parts->qv_pointers = g_new0 (Hbase__Pb__MutationProto__ColumnValue__QualifierValue *, MAX (n, 1));
  if (is_put && n == 0)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT, "a put needs at least one cell");
      return FALSE;
    }
  if (durability > HBASE__PB__MUTATION_PROTO__DURABILITY__FSYNC_WAL)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT, "unknown durability %u", durability);
      return FALSE;
    }
  /* one ColumnValue per cell, in the order given, as the server applies them */
  for (guint i = 0; i < n; i++)
    {
      const HBaseNativeCell *cell = cells->pdata[i];
      Hbase__Pb__MutationProto__ColumnValue *value = &parts->values[i];
      Hbase__Pb__MutationProto__ColumnValue__QualifierValue *qv = &parts->qvs[i];

      hbase__pb__mutation_proto__column_value__init (value);
      hbase__pb__mutation_proto__column_value__qualifier_value__init (qv);
      _hbase_native_pb_set_bytes (&value->family, cell->family);
      if (cell->type != HBASE_NATIVE_CELL_DELETE_FAMILY)
        {
          qv->has_qualifier = TRUE;
          _hbase_native_pb_set_bytes (&qv->qualifier, cell->qualifier);
        }
      if (is_put)
        {
          qv->has_value = TRUE;
          _hbase_native_pb_set_bytes (&qv->value, cell->value);
        }
      else
        {
          qv->has_delete_type = TRUE;
          switch (cell->type)
            {
            case HBASE_NATIVE_CELL_DELETE:
              qv->delete_type = HBASE__PB__MUTATION_PROTO__DELETE_TYPE__DELETE_ONE_VERSION;
              break;
            case HBASE_NATIVE_CELL_DELETE_COLUMN:
              qv->delete_type = HBASE__PB__MUTATION_PROTO__DELETE_TYPE__DELETE_MULTIPLE_VERSIONS;
              break;
            case HBASE_NATIVE_CELL_DELETE_FAMILY:
              qv->delete_type = HBASE__PB__MUTATION_PROTO__DELETE_TYPE__DELETE_FAMILY;
              break;
            default:
              g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                           "a delete of cell type %u is not supported", cell->type);
              return FALSE;
            }
        }
      if (cell->timestamp != HBASE_NATIVE_LATEST_TIMESTAMP)
        {
          qv->has_timestamp = TRUE;
          qv->timestamp = (guint64) cell->timestamp;
        }
      parts->qv_pointers[i] = qv;
      value->n_qualifier_value = 1;
      value->qualifier_value = &parts->qv_pointers[i];
      parts->value_pointers[i] = value;
    }
  mutation->has_row = TRUE;
  _hbase_native_pb_set_bytes (&mutation->row, row);
  mutation->has_mutate_type = TRUE;
  mutation->mutate_type = is_put ? HBASE__PB__MUTATION_PROTO__MUTATION_TYPE__PUT
                                 : HBASE__PB__MUTATION_PROTO__MUTATION_TYPE__DELETE;
  mutation->n_column_value = n;
  mutation->column_value = parts->value_pointers;
  if (timestamp != HBASE_NATIVE_LATEST_TIMESTAMP)
    {
      mutation->has_timestamp = TRUE;
      mutation->timestamp = (guint64) timestamp;
    }
  if (durability != 0)
    {
      mutation->has_durability = TRUE;
      mutation->durability = (Hbase__Pb__MutationProto__Durability) durability;
    }
  return TRUE;
}

gboolean
_hbase_native_client_mutate (HBaseNativeClient *self, const char *table, GBytes *row,
                             gboolean is_put, GPtrArray *cells, gint64 timestamp,
                             guint durability, GCancellable *cancellable, GError **error)
{
  MutationParts parts = { 0 };
  gboolean ok = _hbase_native_mutation_fill (&parts, row, is_put, cells, timestamp, durability,
                                             error) &&
                on_region (self, table, row, mutate_call, &parts.proto, cancellable, error);

  _hbase_native_mutation_parts_clear (&parts);
  return ok;
}

/* ---- several mutations of one row, atomically ------------------------------ */

typedef struct
{
  GPtrArray *mutations;   /* HBaseNativeMutation * */
  MutationParts *parts;
} RowCall;

/* A server's exception in a Multi reply, as the connection makes one from
 * an ExceptionResponse. */
static void
set_pair_error (GError **error, const Hbase__Pb__NameBytesPair *pair)
{
  g_autofree char *text = pair->has_value ? g_strndup ((const char *) pair->value.data,
                                                       pair->value.len) : NULL;

  _hbase_native_set_exception_error (error, pair->name, text, FALSE);
}

static gboolean
row_call (HBaseNativeClient *client, const HBaseNativeRegion *located,
          Hbase__Pb__RegionSpecifier *region, gpointer data, gint64 deadline,
          GCancellable *cancellable, GError **error)
{
  RowCall *r = data;
  guint n = r->mutations->len;
  g_autofree Hbase__Pb__Action *actions = g_new0 (Hbase__Pb__Action, n);
  g_autofree Hbase__Pb__Action **pointers = g_new0 (Hbase__Pb__Action *, n);
  Hbase__Pb__RegionAction action = HBASE__PB__REGION_ACTION__INIT;
  Hbase__Pb__RegionAction *actions_of_regions[1] = { &action };
  Hbase__Pb__MultiRequest request = HBASE__PB__MULTI_REQUEST__INIT;
  ProtobufCMessage *reply = NULL;
  Hbase__Pb__MultiResponse *response;
  gboolean ok = TRUE;

  for (guint i = 0; i < n; i++)
    {
      hbase__pb__action__init (&actions[i]);
      actions[i].has_index = TRUE;
      actions[i].index = i;
      actions[i].mutation = &r->parts[i].proto;
      pointers[i] = &actions[i];
    }
  action.region = region;
  action.has_atomic = TRUE;
  action.atomic = TRUE;
  action.n_action = n;
  action.action = pointers;
  request.n_regionaction = 1;
  request.regionaction = actions_of_regions;
  if (!_hbase_native_client_call (client, located, "Multi", &request.base,
                                  &hbase__pb__multi_response__descriptor, &reply, NULL, deadline,
                                  cancellable, error))
    return FALSE;
  response = (Hbase__Pb__MultiResponse *) reply;
  if (response->n_regionactionresult != 1)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                   "malformed Multi reply: %" G_GSIZE_FORMAT " region results for 1 region",
                   response->n_regionactionresult);
      ok = FALSE;
    }
  else if (response->regionactionresult[0]->exception != NULL)
    {
      set_pair_error (error, response->regionactionresult[0]->exception);
      ok = FALSE;
    }
  else
    for (gsize k = 0; k < response->regionactionresult[0]->n_resultorexception && ok; k++)
      if (response->regionactionresult[0]->resultorexception[k]->exception != NULL)
        {
          set_pair_error (error, response->regionactionresult[0]->resultorexception[k]->exception);
          ok = FALSE;
        }
  protobuf_c_message_free_unpacked (reply, NULL);
  return ok;
}

gboolean
_hbase_native_client_mutate_row (HBaseNativeClient *self, const char *table, GBytes *row,
                                 GPtrArray *mutations, GCancellable *cancellable, GError **error)
{
  g_autofree MutationParts *parts = g_new0 (MutationParts, MAX (mutations->len, 1));
  RowCall r = { mutations, parts };
  gboolean ok = mutations->len > 0;

  if (!ok)
    g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT, "mutate_row needs a mutation");
  for (guint i = 0; i < mutations->len && ok; i++)
    {
      const HBaseNativeMutation *m = mutations->pdata[i];

      ok = _hbase_native_mutation_fill (&parts[i], row, m->is_put, m->cells, m->timestamp,
                                        m->durability, error);
    }
  if (ok)
    ok = on_region (self, table, row, row_call, &r, cancellable, error);
  for (guint i = 0; i < mutations->len; i++)
    _hbase_native_mutation_parts_clear (&parts[i]);
  return ok;
}

GPtrArray *
_hbase_native_client_get_paged (HBaseNativeClient *self, const char *table, GBytes *row,
                                GPtrArray *columns, guint max_versions, gint64 min_ts,
                                gint64 max_ts, GBytes *filter, guint store_limit,
                                guint store_offset, GCancellable *cancellable, GError **error)
{
  GetCall g = { row, columns, max_versions, min_ts, max_ts, FALSE, NULL, FALSE, filter,
                store_limit, store_offset, NULL, NULL };

  if (!on_region (self, table, row, get_call, &g, cancellable, error))
    return NULL;
  return g.cells;
}
