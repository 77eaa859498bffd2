/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-native-scan.c: scanning over HBase's own RPC.  A scanner is opened
 * on the region holding the current start key (ScanRequest with a Scan),
 * read with ScanRequest{scanner_id, number_of_rows}, and left when the
 * server says the region has no more rows (it closes its scanner then);
 * the scan goes on at that region's end key, until the stop row, the
 * table's end or the server's more_results = false.  The rows come in the
 * cellblock, counted by cells_per_result.  Partial rows and heartbeats
 * are not asked for, so every row arrives whole.  A failed open is
 * retried as the client's policy says (relocate, back off, reconnect);
 * a failed next is not (the server may have moved on), it ends the scan
 * with its error.
 */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-error.h>

#include "hbase-native-connection.h"
#include "hbase-native-scan.h"
#include "hbase-native-pb.h"
#include "Client.pb-c.h"

struct _HBaseNativeScanner
{
  HBaseNativeClient *client;
  char              *table;
  GBytes            *position;     /* where the next region's scan starts */
  GBytes            *stop_row;     /* empty: the table's end */
  GPtrArray         *columns;      /* HBaseNativeColumn * (owned copies) */
  guint              max_versions;
  guint              caching;
  GBytes            *filter;       /* a serialized Filter message, NULL: none */
  HBaseNativeRegion *region;       /* of the open scanner */
  guint64            scanner_id;
  gboolean           open;
  gboolean           done;
  guint              n_calls;
};

static void
column_free (HBaseNativeColumn *c)
{
  g_bytes_unref (c->family);
  if (c->qualifier != NULL)
    g_bytes_unref (c->qualifier);
  g_free (c);
}

HBaseNativeScanner *
_hbase_native_scanner_new (HBaseNativeClient *client, const char *table, GBytes *start_row,
                           GBytes *stop_row, GPtrArray *columns, guint max_versions, guint caching)
{
  HBaseNativeScanner *self = g_new0 (HBaseNativeScanner, 1);

  self->client = client;
  self->table = g_strdup (table);
  self->position = start_row != NULL ? g_bytes_ref (start_row) : g_bytes_new (NULL, 0);
  self->stop_row = stop_row != NULL ? g_bytes_ref (stop_row) : g_bytes_new (NULL, 0);
  self->columns = g_ptr_array_new_with_free_func ((GDestroyNotify) column_free);
  for (guint i = 0; columns != NULL && i < columns->len; i++)
    {
      const HBaseNativeColumn *c = columns->pdata[i];
      HBaseNativeColumn *copy = g_new0 (HBaseNativeColumn, 1);

      copy->family = g_bytes_ref (c->family);
      copy->qualifier = c->qualifier != NULL ? g_bytes_ref (c->qualifier) : NULL;
      g_ptr_array_add (self->columns, copy);
    }
  self->max_versions = max_versions;
  self->caching = caching > 0 ? caching : 100;
  return self;
}

void
_hbase_native_scanner_set_filter (HBaseNativeScanner *self, GBytes *filter)
{
  if (filter != NULL)
    g_bytes_ref (filter);
  g_clear_pointer (&self->filter, g_bytes_unref);
  self->filter = filter;
}

guint
_hbase_native_scanner_get_n_calls (HBaseNativeScanner *self)
{
  return self->n_calls;
}

/* One Scan call on the open region's server: the request is filled in by
 * the caller; the reply's rows are appended to @rows. */
static gboolean
scan_call (HBaseNativeScanner *self, Hbase__Pb__ScanRequest *request, GPtrArray *rows,
           Hbase__Pb__ScanResponse **response, gint64 deadline, GCancellable *cancellable,
           GError **error)
{
  ProtobufCMessage *reply = NULL;
  g_autoptr(GBytes) block = NULL;
  g_autoptr(GPtrArray) cells = NULL;
  g_autoptr(GPtrArray) got = NULL;
  Hbase__Pb__ScanResponse *scanned;

  self->n_calls++;
  if (!_hbase_native_client_call (self->client, self->region, "Scan", &request->base,
                                  &hbase__pb__scan_response__descriptor, &reply, &block, deadline,
                                  cancellable, error))
    return FALSE;
  scanned = (Hbase__Pb__ScanResponse *) reply;
  if (scanned->n_results > 0)
    {
      protobuf_c_message_free_unpacked (reply, NULL);
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                   "malformed Scan reply: results inline, though a cellblock codec was asked for");
      return FALSE;
    }
  cells = block != NULL ? _hbase_native_decode_cellblock (block, error)
                        : g_ptr_array_new_with_free_func ((GDestroyNotify) _hbase_native_cell_free);
  if (cells != NULL)
    got = _hbase_native_split_rows (g_steal_pointer (&cells), scanned->cells_per_result,
                                    scanned->n_cells_per_result, error);
  if (got == NULL)
    {
      protobuf_c_message_free_unpacked (reply, NULL);
      return FALSE;
    }
  g_ptr_array_extend_and_steal (rows, g_steal_pointer (&got));
  *response = scanned;
  return TRUE;
}

/* Opens a scanner on the region holding the position, reading the first
 * rows with it. */
static gboolean
open_scanner (HBaseNativeScanner *self, GPtrArray *rows, Hbase__Pb__ScanResponse **response,
              GCancellable *cancellable, GError **error)
{
  gint64 deadline = _hbase_native_client_deadline (self->client);
  g_auto(HBaseNativePbColumns) columns = { 0 };
  Hbase__Pb__RegionSpecifier spec = HBASE__PB__REGION_SPECIFIER__INIT;
  Hbase__Pb__Scan scan = HBASE__PB__SCAN__INIT;
  Hbase__Pb__ScanRequest request = HBASE__PB__SCAN_REQUEST__INIT;
  Hbase__Pb__Filter *filter = NULL;
  gboolean opened = TRUE;

  if (!_hbase_native_pb_filter (self->filter, &filter, error))
    return FALSE;
  scan.filter = filter;
  _hbase_native_pb_columns_init (&columns, self->columns);
  scan.n_column = columns.n;
  scan.column = columns.pointers;
  scan.has_start_row = TRUE;
  _hbase_native_pb_set_bytes (&scan.start_row, self->position);
  if (g_bytes_get_size (self->stop_row) > 0)
    {
      scan.has_stop_row = TRUE;
      _hbase_native_pb_set_bytes (&scan.stop_row, self->stop_row);
    }
  if (self->max_versions > 0)
    {
      scan.has_max_versions = TRUE;
      scan.max_versions = self->max_versions;
    }
  scan.has_caching = TRUE;
  scan.caching = self->caching;
  spec.type = HBASE__PB__REGION_SPECIFIER__REGION_SPECIFIER_TYPE__REGION_NAME;
  request.region = &spec;
  request.scan = &scan;
  request.has_number_of_rows = TRUE;
  request.number_of_rows = self->caching;

  /* nothing is read before the open succeeds, so every failure of it is
   * retried as the client's policy says, within one deadline */
  for (guint attempt = 0;; attempt++)
    {
      g_autoptr(GError) local = NULL;

      g_clear_pointer (&self->region, _hbase_native_region_free);
      self->region = _hbase_native_client_locate_by (self->client, self->table, self->position,
                                                     deadline, cancellable, &local);
      if (self->region != NULL)
        {
          _hbase_native_pb_set_bytes (&spec.value, self->region->name);
          if (scan_call (self, &request, rows, response, deadline, cancellable, &local))
            break;
        }
      if (_hbase_native_client_retry (self->client, self->table, self->region, attempt, deadline,
                                      cancellable, &local))
        continue;
      g_propagate_error (error, g_steal_pointer (&local));
      opened = FALSE;
      break;
    }
  if (filter != NULL)
    protobuf_c_message_free_unpacked (&filter->base, NULL);
  if (!opened)
    return FALSE;
  if (!(*response)->has_scanner_id)
    {
      protobuf_c_message_free_unpacked (&(*response)->base, NULL);
      *response = NULL;
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL, "malformed Scan reply: no scanner id");
      return FALSE;
    }
  self->scanner_id = (*response)->scanner_id;
  self->open = TRUE;
  return TRUE;
}

/* After a reply: whether the scan goes on in this region, in the next
 * one, or is over. */
static void
advance (HBaseNativeScanner *self, const Hbase__Pb__ScanResponse *response)
{
  GBytes *end = self->region->end_key;

  if (response->has_more_results && !response->more_results)
    {
      /* the server closed its scanner: nothing more at all */
      self->open = FALSE;
      self->done = TRUE;
      return;
    }
  if (!response->has_more_results_in_region || response->more_results_in_region)
    return;
  /* the region is done and the server closed its scanner */
  self->open = FALSE;
  if (g_bytes_get_size (end) == 0 ||
      (g_bytes_get_size (self->stop_row) > 0 && g_bytes_compare (end, self->stop_row) >= 0))
    {
      self->done = TRUE;
      return;
    }
  g_bytes_unref (self->position);
  self->position = g_bytes_ref (end);
}

GPtrArray *
_hbase_native_scanner_next (HBaseNativeScanner *self, GCancellable *cancellable, GError **error)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify) _hbase_native_row_free);

  guint empty_replies = 0;

  /* a region may have nothing in range: go on to the next one */
  while (rows->len == 0 && !self->done)
    {
      Hbase__Pb__ScanResponse *response = NULL;

      /* heartbeats are not asked for: a server that keeps sending nothing
       * while saying there is more is not believed for ever */
      if (empty_replies++ == 10000)
        {
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                       "malformed Scan replies: %u without a row or an end", empty_replies - 1);
          _hbase_native_scanner_close (self, cancellable, NULL);
          return NULL;
        }

      if (!self->open)
        {
          if (!open_scanner (self, rows, &response, cancellable, error))
            {
              self->done = TRUE;
              return NULL;
            }
        }
      else
        {
          Hbase__Pb__ScanRequest request = HBASE__PB__SCAN_REQUEST__INIT;

          request.has_scanner_id = TRUE;
          request.scanner_id = self->scanner_id;
          request.has_number_of_rows = TRUE;
          request.number_of_rows = self->caching;
          if (!scan_call (self, &request, rows, &response,
                          _hbase_native_client_deadline (self->client), cancellable, error))
            {
              self->open = FALSE;
              self->done = TRUE;
              return NULL;
            }
        }
      advance (self, response);
      protobuf_c_message_free_unpacked (&response->base, NULL);
    }
  return g_steal_pointer (&rows);
}

gboolean
_hbase_native_scanner_close (HBaseNativeScanner *self, GCancellable *cancellable, GError **error)
{
  Hbase__Pb__ScanRequest request = HBASE__PB__SCAN_REQUEST__INIT;
  ProtobufCMessage *reply = NULL;
  gboolean ok;

  self->done = TRUE;
  if (!self->open)
    return TRUE;
  self->open = FALSE;
  request.has_scanner_id = TRUE;
  request.scanner_id = self->scanner_id;
  request.has_number_of_rows = TRUE;
  request.number_of_rows = 0;
  request.has_close_scanner = TRUE;
  request.close_scanner = TRUE;
  self->n_calls++;
  ok = _hbase_native_client_call (self->client, self->region, "Scan", &request.base,
                                  &hbase__pb__scan_response__descriptor, &reply, NULL,
                                  _hbase_native_client_deadline (self->client), cancellable, error);
  if (ok)
    protobuf_c_message_free_unpacked (reply, NULL);
  return ok;
}

void
_hbase_native_scanner_free (HBaseNativeScanner *self)
{
  if (self == NULL)
    return;
  if (self->open)
    _hbase_native_scanner_close (self, NULL, NULL);
  g_free (self->table);
  g_bytes_unref (self->position);
  g_bytes_unref (self->stop_row);
  g_ptr_array_unref (self->columns);
  g_clear_pointer (&self->filter, g_bytes_unref);
  _hbase_native_region_free (self->region);
  g_free (self);
}
