/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-native-multi.c: many gets in few calls over HBase's own RPC: the
 * rows are grouped by region and the regions by server, and each server
 * gets one Multi call with one RegionAction per region (results match
 * their RegionAction by order, and their Action by index).  A region or a
 * row the server answers with an exception is retried as the client's
 * policy says (relocated, after the backoff), the rest kept; every row's
 * cells come back in the caller's order.
 */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-error.h>

#include "../core/hbase-error-private.h"
#include "hbase-native-client.h"
#include "hbase-native-connection.h"
#include "hbase-native-pb.h"
#include "Client.pb-c.h"

/* The rows of one region, by their place in the caller's list. */
typedef struct
{
  HBaseNativeRegion *region;
  GArray            *places;   /* guint */
} RegionRows;

static void
region_rows_free (RegionRows *r)
{
  _hbase_native_region_free (r->region);
  g_array_unref (r->places);
  g_free (r);
}

/* For arrays of results that may still hold NULLs. */
static void
cells_unref (gpointer cells)
{
  if (cells != NULL)
    g_ptr_array_unref (cells);
}

/* A server's exception (NameBytesPair: class, stringified exception) as
 * the connection makes one from an ExceptionResponse. */
static GError *
exception_error (const Hbase__Pb__NameBytesPair *pair)
{
  GError *error = NULL;
  g_autofree char *text = pair->has_value ? g_strndup ((const char *) pair->value.data,
                                                       pair->value.len) : NULL;

  _hbase_native_set_exception_error (&error, pair->name, text, FALSE);
  return error;
}

typedef struct
{
  GPtrArray *rows;            /* GBytes *, the caller's */
  GPtrArray *columns;
  guint      max_versions;
  gint64     min_ts, max_ts;
  GPtrArray *results;         /* GPtrArray * of HBaseNativeCell *, NULL while missing */
  Hbase__Pb__Filter *filter;  /* NULL: none */
} MultiGet;

/* One Multi call for @groups (RegionRows *, all on one server).  Rows
 * answered are stored; a region or row that failed with a retryable
 * error leaves its rows missing and its error in *@retry (the last one);
 * any other failure is returned. */
static gboolean
multi_call (HBaseNativeClient *self, const char *table, MultiGet *m, GPtrArray *groups,
            gint64 deadline, GCancellable *cancellable, GError **retry, GError **error)
{
  guint n_regions = groups->len, n_actions = 0, a = 0;
  g_autofree Hbase__Pb__RegionAction *ras = g_new0 (Hbase__Pb__RegionAction, n_regions);
  g_autofree Hbase__Pb__RegionAction **ra_pointers = g_new0 (Hbase__Pb__RegionAction *, n_regions);
  g_autofree Hbase__Pb__RegionSpecifier *specs = g_new0 (Hbase__Pb__RegionSpecifier, n_regions);
  g_autofree Hbase__Pb__Action *actions = NULL;
  g_autofree Hbase__Pb__Action **action_pointers = NULL;
  g_autofree Hbase__Pb__Get *gets = NULL;
  g_auto(HBaseNativePbColumns) columns = { 0 };
  Hbase__Pb__TimeRange range = HBASE__PB__TIME_RANGE__INIT;
  Hbase__Pb__MultiRequest request = HBASE__PB__MULTI_REQUEST__INIT;
  ProtobufCMessage *reply = NULL;
  Hbase__Pb__MultiResponse *response;
  g_autoptr(GBytes) block = NULL;
  g_autoptr(GPtrArray) block_cells = NULL;
  guint next_cell = 0;
  gboolean ok = TRUE;

  for (guint i = 0; i < n_regions; i++)
    n_actions += ((RegionRows *) groups->pdata[i])->places->len;
  actions = g_new0 (Hbase__Pb__Action, n_actions);
  action_pointers = g_new0 (Hbase__Pb__Action *, n_actions);
  gets = g_new0 (Hbase__Pb__Get, n_actions);
  _hbase_native_pb_columns_init (&columns, m->columns);
  if (m->max_ts != 0)
    {
      range.has_from = TRUE;
      range.from = (guint64) m->min_ts;
      range.has_to = TRUE;
      range.to = (guint64) m->max_ts;
    }
  for (guint i = 0; i < n_regions; i++)
    {
      RegionRows *group = groups->pdata[i];

      hbase__pb__region_action__init (&ras[i]);
      hbase__pb__region_specifier__init (&specs[i]);
      specs[i].type = HBASE__PB__REGION_SPECIFIER__REGION_SPECIFIER_TYPE__REGION_NAME;
      _hbase_native_pb_set_bytes (&specs[i].value, group->region->name);
      ras[i].region = &specs[i];
      ras[i].n_action = group->places->len;
      ras[i].action = &action_pointers[a];
      for (guint j = 0; j < group->places->len; j++, a++)
        {
          guint place = g_array_index (group->places, guint, j);

          hbase__pb__action__init (&actions[a]);
          hbase__pb__get__init (&gets[a]);
          _hbase_native_pb_set_bytes (&gets[a].row, m->rows->pdata[place]);
          gets[a].n_column = columns.n;
          gets[a].column = columns.pointers;
          if (m->max_versions > 0)
            {
              gets[a].has_max_versions = TRUE;
              gets[a].max_versions = m->max_versions;
            }
          if (m->max_ts != 0)
            gets[a].time_range = &range;
          gets[a].filter = m->filter;
          actions[a].has_index = TRUE;
          actions[a].index = j;
          actions[a].get = &gets[a];
          action_pointers[a] = &actions[a];
        }
      ra_pointers[i] = &ras[i];
    }
  request.n_regionaction = n_regions;
  request.regionaction = ra_pointers;
  if (!_hbase_native_client_call (self, ((RegionRows *) groups->pdata[0])->region, "Multi",
                                  &request.base, &hbase__pb__multi_response__descriptor, &reply,
                                  &block, deadline, cancellable, error))
    return FALSE;
  response = (Hbase__Pb__MultiResponse *) reply;
  block_cells = block != NULL ? _hbase_native_decode_cellblock (block, error)
                              : g_ptr_array_new_with_free_func ((GDestroyNotify) _hbase_native_cell_free);
  if (block_cells == NULL || response->n_regionactionresult != n_regions)
    {
      if (block_cells != NULL)
        g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                     "malformed Multi reply: %" G_GSIZE_FORMAT " region results for %u regions",
                     response->n_regionactionresult, n_regions);
      protobuf_c_message_free_unpacked (reply, NULL);
      return FALSE;
    }
  for (guint i = 0; i < n_regions && ok; i++)
    {
      const Hbase__Pb__RegionActionResult *rar = response->regionactionresult[i];
      RegionRows *group = groups->pdata[i];

      if (rar->exception != NULL)
        {
          GError *region_error = exception_error (rar->exception);

          if (_hbase_native_error_kind (region_error) == HBASE_NATIVE_EXCEPTION_FINAL ||
              _hbase_error_is_permanent (region_error))
            {
              g_propagate_error (error, region_error);
              ok = FALSE;
              break;
            }
          if (_hbase_native_error_kind (region_error) == HBASE_NATIVE_EXCEPTION_RELOCATE)
            _hbase_native_client_forget (self, table, group->region->name);
          g_clear_error (retry);
          *retry = region_error;
          continue;
        }
      for (gsize k = 0; k < rar->n_resultorexception && ok; k++)
        {
          const Hbase__Pb__ResultOrException *roe = rar->resultorexception[k];
          const Hbase__Pb__Result *result = roe->result;
          GPtrArray *cells;
          guint place, count;

          if (!roe->has_index || roe->index >= group->places->len)
            {
              g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                           "malformed Multi reply: a result of no action sent");
              ok = FALSE;
              break;
            }
          place = g_array_index (group->places, guint, roe->index);
          if (roe->exception != NULL)
            {
              GError *row_error = exception_error (roe->exception);

              if (_hbase_native_error_kind (row_error) == HBASE_NATIVE_EXCEPTION_FINAL ||
                  _hbase_error_is_permanent (row_error))
                {
                  g_propagate_error (error, row_error);
                  ok = FALSE;
                  break;
                }
              if (_hbase_native_error_kind (row_error) == HBASE_NATIVE_EXCEPTION_RELOCATE)
                _hbase_native_client_forget (self, table, group->region->name);
              g_clear_error (retry);
              *retry = row_error;
              continue;
            }
          count = result != NULL && result->has_associated_cell_count &&
                  result->associated_cell_count > 0 ? (guint) result->associated_cell_count : 0;
          if (next_cell + count > block_cells->len)
            {
              g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                           "malformed Multi reply: results count more cells than the cellblock holds");
              ok = FALSE;
              break;
            }
          /* inline cells first (clients without version_info get them so),
           * then those of the cellblock */
          cells = _hbase_native_pb_result_cells (result);
          for (guint c = 0; c < count; c++)
            g_ptr_array_add (cells, g_steal_pointer (&block_cells->pdata[next_cell + c]));
          next_cell += count;
          for (guint c = 0; c < cells->len && ok; c++)
            if (!g_bytes_equal (((HBaseNativeCell *) cells->pdata[c])->row, m->rows->pdata[place]))
              {
                g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                             "malformed Multi reply: a cell of another row");
                ok = FALSE;
              }
          if (m->results->pdata[place] != NULL)
            g_ptr_array_unref (m->results->pdata[place]);
          m->results->pdata[place] = cells;
        }
    }
  protobuf_c_message_free_unpacked (reply, NULL);
  return ok;
}

GPtrArray *
_hbase_native_client_get_multi (HBaseNativeClient *self, const char *table, GPtrArray *rows,
                                GPtrArray *columns, guint max_versions, gint64 min_ts,
                                gint64 max_ts, GCancellable *cancellable, GError **error)
{
  return _hbase_native_client_get_multi_filtered (self, table, rows, columns, max_versions,
                                                  min_ts, max_ts, NULL, cancellable, error);
}

static void
filter_free (Hbase__Pb__Filter *filter)
{
  protobuf_c_message_free_unpacked (&filter->base, NULL);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Hbase__Pb__Filter, filter_free)

GPtrArray *
_hbase_native_client_get_multi_filtered (HBaseNativeClient *self, const char *table,
                                         GPtrArray *rows, GPtrArray *columns,
                                         guint max_versions, gint64 min_ts, gint64 max_ts,
                                         GBytes *filter, GCancellable *cancellable,
                                         GError **error)
{
  gint64 deadline = _hbase_native_client_deadline (self);
  g_autoptr(Hbase__Pb__Filter) filter_message = NULL;
  MultiGet m = { rows, columns, max_versions, min_ts, max_ts, NULL, NULL };
  g_autoptr(GPtrArray) results = g_ptr_array_new_full (rows->len, cells_unref);

  if (!_hbase_native_pb_filter (filter, &filter_message, error))
    return NULL;
  m.filter = filter_message;
  g_ptr_array_set_size (results, rows->len);
  m.results = results;
  for (guint attempt = 0;; attempt++)
    {
      g_autoptr(GHashTable) servers =
        g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
      g_autoptr(GError) local = NULL;
      GHashTableIter iter;
      gpointer groups;
      HBaseNativeRegion *failed_region = NULL;
      RegionRows *last = NULL;    /* the group of the row before */

      /* the missing rows, by region, by server */
      for (guint i = 0; i < rows->len && local == NULL; i++)
        {
          HBaseNativeRegion *region;
          g_autofree char *key = NULL;
          GPtrArray *list;
          RegionRows *group = NULL;

          if (results->pdata[i] != NULL)
            continue;
          region = _hbase_native_client_locate_by (self, table, rows->pdata[i], deadline,
                                                   cancellable, &local);
          if (region == NULL)
            break;
          /* the region of the row before (the cache lends the same one):
           * its group, without a lookup */
          if (last != NULL && last->region == region)
            {
              _hbase_native_region_free (region);
              g_array_append_val (last->places, i);
              continue;
            }
          key = g_strdup_printf ("%s:%u", region->host, region->port);
          list = g_hash_table_lookup (servers, key);
          if (list == NULL)
            {
              list = g_ptr_array_new_with_free_func ((GDestroyNotify) region_rows_free);
              g_hash_table_insert (servers, g_steal_pointer (&key), list);
            }
          for (guint g = 0; g < list->len && group == NULL; g++)
            if (g_bytes_equal (((RegionRows *) list->pdata[g])->region->name, region->name))
              group = list->pdata[g];
          if (group == NULL)
            {
              group = g_new0 (RegionRows, 1);
              group->region = region;
              group->places = g_array_new (FALSE, FALSE, sizeof (guint));
              g_ptr_array_add (list, group);
            }
          else
            _hbase_native_region_free (region);
          g_array_append_val (group->places, i);
          last = group;
        }
      g_hash_table_iter_init (&iter, servers);
      while (local == NULL && g_hash_table_iter_next (&iter, NULL, &groups))
        {
          GError *retry = NULL;

          if (!multi_call (self, table, &m, groups, deadline, cancellable, &retry, &local))
            {
              /* the whole call failed: its regions may be elsewhere */
              failed_region = ((RegionRows *) ((GPtrArray *) groups)->pdata[0])->region;
              g_clear_error (&retry);
              break;
            }
          if (retry != NULL)
            local = retry;
        }
      if (local == NULL)
        {
          gboolean complete = TRUE;

          for (guint i = 0; i < rows->len; i++)
            complete &= results->pdata[i] != NULL;
          if (complete)
            return g_steal_pointer (&results);
          g_set_error (&local, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                       "malformed Multi reply: a get had no result");
        }
      if (failed_region != NULL)
        {
          /* _retry forgets it when relocating; the groups go with servers */
          g_autoptr(HBaseNativeRegion) kept = _hbase_native_region_ref (failed_region);

          g_clear_pointer (&servers, g_hash_table_unref);
          if (_hbase_native_client_retry (self, table, kept, attempt, deadline, cancellable, &local))
            continue;
        }
      else
        {
          g_clear_pointer (&servers, g_hash_table_unref);
          if (_hbase_native_client_retry (self, table, NULL, attempt, deadline, cancellable, &local))
            continue;
        }
      g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
}
