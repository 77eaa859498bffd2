/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-native-scan.c: scanning over HBase's own RPC, as HBase 2.6's
 * ClientScanner does.  A scanner is opened on the region holding the
 * current position (ScanRequest with a Scan), read with
 * ScanRequest{scanner_id, number_of_rows}, and left when the server says
 * the region has no more rows (it closes its scanner then); the scan goes
 * on in the next region, until the stop row, the table's edge or the
 * server's more_results = false.  Forward, the next region starts at the
 * region's end key (inclusive).  Reversed, the scan goes on from the
 * region's start key, excluded, in the region just before it: found as
 * the region holding a key just below it (HBase's createClosestRowBefore)
 * and then, since a region may start between the two, the regions after
 * that one until the one ending at the key; a reversed scan from the
 * table's end starts in its last region, found the same way.  The rows
 * come in the cellblock, counted by cells_per_result.  Heartbeats are
 * asked for: a reply without rows whose heartbeat_message is set is not
 * the end, the scanner asks again.  With a batch, partial rows are asked
 * for (client_handles_partials) and come as pieces, one after the other.
 * The server's mvcc read point of a region is kept while the scan is in
 * that region, so a scanner opened again there after a failure reads as
 * the first one did; it is dropped on moving to the next region.  A failed
 * open is retried as the client's policy says (relocate, back off,
 * reconnect); a failed next is not (the server may have moved on): it
 * ends _next() with its error, and the caller may restart the scanner
 * after the last row it kept.
 */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-error.h>

#include "hbase-native-connection.h"
#include "hbase-native-scan.h"
#include "hbase-native-pb.h"
#include "Client.pb-c.h"

/* replies in one region with no row, no heartbeat and no end, before the
 * server is not believed */
#define MAX_EMPTY_REPLIES 10000
/* the start of the error of a next answered for a scanner the server no
 * longer has */
#define SCANNER_GONE "the server's scanner is gone"

struct _HBaseNativeScanner
{
  HBaseNativeClient  *client;
  char               *table;
  HBaseNativeScanSpec spec;         /* owned: start_row, stop_row (never NULL), columns */
  GBytes             *position;     /* where the next open starts (empty: the range's edge) */
  gboolean            include_position;
  guint               limit;        /* rows still wanted (0: all) */
  guint64             read_point;   /* of read_point_region (0: none) */
  GBytes             *read_point_region;
  GBytes             *filter;       /* a serialized Filter message, NULL: none */
  HBaseNativeRegion  *region;       /* of the open scanner */
  guint64             scanner_id;
  gboolean            open;
  gboolean            done;
  guint               n_calls;
};

static void
column_free (HBaseNativeColumn *c)
{
  g_bytes_unref (c->family);
  if (c->qualifier != NULL)
    g_bytes_unref (c->qualifier);
  g_free (c);
}

static GBytes *
bytes_or_empty (GBytes *bytes)
{
  return bytes != NULL ? g_bytes_ref (bytes) : g_bytes_new (NULL, 0);
}

HBaseNativeScanner *
_hbase_native_scanner_new_full (HBaseNativeClient *client, const char *table,
                                const HBaseNativeScanSpec *spec)
{
  HBaseNativeScanner *self = g_new0 (HBaseNativeScanner, 1);

  self->client = client;
  self->table = g_strdup (table);
  self->spec = *spec;
  self->spec.start_row = bytes_or_empty (spec->start_row);
  self->spec.stop_row = bytes_or_empty (spec->stop_row);
  self->spec.columns = g_ptr_array_new_with_free_func ((GDestroyNotify) column_free);
  for (guint i = 0; spec->columns != NULL && i < spec->columns->len; i++)
    {
      const HBaseNativeColumn *c = spec->columns->pdata[i];
      HBaseNativeColumn *copy = g_new0 (HBaseNativeColumn, 1);

      copy->family = g_bytes_ref (c->family);
      copy->qualifier = c->qualifier != NULL ? g_bytes_ref (c->qualifier) : NULL;
      g_ptr_array_add (self->spec.columns, copy);
    }
  if (self->spec.caching == 0)
    self->spec.caching = 100;
  if (self->spec.batch > 0)
    self->spec.limit = 0;
  /* an empty start row is the range's edge, whatever it says */
  if (g_bytes_get_size (self->spec.start_row) == 0)
    self->spec.include_start = TRUE;
  self->position = g_bytes_ref (self->spec.start_row);
  self->include_position = self->spec.include_start;
  self->limit = self->spec.limit;
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

HBaseNativeScanner *
_hbase_native_scanner_new (HBaseNativeClient *client, const char *table, GBytes *start_row,
                           GBytes *stop_row, GPtrArray *columns, guint max_versions, guint caching)
{
  HBaseNativeScanSpec spec = { 0 };

  spec.start_row = start_row;
  spec.include_start = TRUE;
  spec.stop_row = stop_row;
  spec.columns = columns;
  spec.max_versions = max_versions;
  spec.caching = caching;
  return _hbase_native_scanner_new_full (client, table, &spec);
}

guint
_hbase_native_scanner_get_n_calls (HBaseNativeScanner *self)
{
  return self->n_calls;
}

const HBaseNativeRegion *
_hbase_native_scanner_get_open (HBaseNativeScanner *self, guint64 *scanner_id)
{
  if (!self->open)
    return NULL;
  *scanner_id = self->scanner_id;
  return self->region;
}

guint64
_hbase_native_scanner_get_read_point (HBaseNativeScanner *self)
{
  return self->read_point;
}

/* Rows to ask for in one call. */
static guint
rows_wanted (HBaseNativeScanner *self)
{
  return self->limit > 0 ? MIN (self->limit, self->spec.caching) : self->spec.caching;
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

/* A key below @key with no or few keys between them (@key not empty):
 * @key without its last byte when that is 0x00, else with it decremented
 * and nine 0xFF bytes after it, as HBase's createClosestRowBefore. */
static GBytes *
key_before (GBytes *key)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (key, &len);
  GByteArray *out = g_byte_array_sized_new (len + 9);
  guint8 last = data[len - 1];

  g_byte_array_append (out, data, len - 1);
  if (last != 0)
    {
      static const guint8 ff[9] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

      last--;
      g_byte_array_append (out, &last, 1);
      g_byte_array_append (out, ff, sizeof ff);
    }
  return g_byte_array_free_to_bytes (out);
}

/* The region of @from, then the following ones while they end at or
 * before @until (empty: the table's end), stopping at the first that
 * ends after it: the region holding the keys just below @until. */
static HBaseNativeRegion *
locate_walking (HBaseNativeScanner *self, GBytes *from, GBytes *until, gint64 deadline,
                GCancellable *cancellable, GError **error)
{
  HBaseNativeRegion *region = _hbase_native_client_locate_by (self->client, self->table, from,
                                                              deadline, cancellable, error);

  while (region != NULL && g_bytes_get_size (region->end_key) > 0 &&
         (g_bytes_get_size (until) == 0 || g_bytes_compare (region->end_key, until) < 0))
    {
      HBaseNativeRegion *next = _hbase_native_client_locate_by (self->client, self->table,
                                                                region->end_key, deadline,
                                                                cancellable, error);

      /* a region not after the one before (a stale cache during a
       * split or merge): never walk in circles */
      if (next != NULL && g_bytes_compare (next->start_key, region->start_key) <= 0)
        {
          _hbase_native_client_forget (self->client, self->table, next->name);
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_SERVER,
                       "the regions of %s do not follow each other in hbase:meta "
                       "(a split or merge under way?): scan again", self->table);
          g_clear_pointer (&next, _hbase_native_region_free);
        }
      _hbase_native_region_free (region);
      region = next;
    }
  return region;
}

/* The region where the next open starts. */
static HBaseNativeRegion *
locate_position (HBaseNativeScanner *self, gint64 deadline, GCancellable *cancellable,
                 GError **error)
{
  g_autoptr(GBytes) below = NULL;
  g_autoptr(GBytes) end = NULL;

  if (!self->spec.reversed || (self->include_position && g_bytes_get_size (self->position) > 0))
    return _hbase_native_client_locate_by (self->client, self->table, self->position, deadline,
                                           cancellable, error);
  if (g_bytes_get_size (self->position) == 0)
    {
      /* from the table's end: its last region */
      end = g_bytes_new_static ("\xff", 1);
      return locate_walking (self, end, self->position, deadline, cancellable, error);
    }
  below = key_before (self->position);
  return locate_walking (self, below, self->position, deadline, cancellable, error);
}

/* Opens a scanner at the position, reading the first rows with it. */
static gboolean
open_scanner (HBaseNativeScanner *self, GPtrArray *rows, Hbase__Pb__ScanResponse **response,
              GCancellable *cancellable, GError **error)
{
  gint64 deadline = _hbase_native_client_deadline (self->client);
  g_auto(HBaseNativePbColumns) columns = { 0 };
  Hbase__Pb__RegionSpecifier spec = HBASE__PB__REGION_SPECIFIER__INIT;
  Hbase__Pb__TimeRange range = HBASE__PB__TIME_RANGE__INIT;
  Hbase__Pb__Scan scan = HBASE__PB__SCAN__INIT;
  Hbase__Pb__ScanRequest request = HBASE__PB__SCAN_REQUEST__INIT;
  Hbase__Pb__Filter *filter = NULL;
  gboolean opened = TRUE;

  _hbase_native_pb_columns_init (&columns, self->spec.columns);
  scan.n_column = columns.n;
  scan.column = columns.pointers;
  if (g_bytes_get_size (self->position) > 0)
    {
      scan.has_start_row = TRUE;
      _hbase_native_pb_set_bytes (&scan.start_row, self->position);
      if (!self->include_position)
        {
          scan.has_include_start_row = TRUE;
          scan.include_start_row = FALSE;
        }
    }
  if (g_bytes_get_size (self->spec.stop_row) > 0)
    {
      scan.has_stop_row = TRUE;
      _hbase_native_pb_set_bytes (&scan.stop_row, self->spec.stop_row);
      if (self->spec.include_stop)
        {
          scan.has_include_stop_row = TRUE;
          scan.include_stop_row = TRUE;
        }
    }
  if (self->spec.reversed)
    {
      scan.has_reversed = TRUE;
      scan.reversed = TRUE;
    }
  if (self->spec.max_versions > 0)
    {
      scan.has_max_versions = TRUE;
      scan.max_versions = self->spec.max_versions;
    }
  if (self->spec.max_ts != 0)
    {
      /* [from, to), as the Thrift2 gateway's TTimeRange */
      range.has_from = TRUE;
      range.from = (guint64) self->spec.min_ts;
      range.has_to = TRUE;
      range.to = (guint64) self->spec.max_ts;
      scan.time_range = &range;
    }
  if (self->spec.batch > 0)
    {
      scan.has_batch_size = TRUE;
      scan.batch_size = self->spec.batch;
      request.has_client_handles_partials = TRUE;
      request.client_handles_partials = TRUE;
    }
  scan.has_caching = TRUE;
  scan.caching = self->spec.caching;
  spec.type = HBASE__PB__REGION_SPECIFIER__REGION_SPECIFIER_TYPE__REGION_NAME;
  request.region = &spec;
  request.scan = &scan;
  request.has_number_of_rows = TRUE;
  request.number_of_rows = rows_wanted (self);
  request.has_client_handles_heartbeats = TRUE;
  request.client_handles_heartbeats = TRUE;

  /* nothing is read before the open succeeds, so every failure of it is
   * retried as the client's policy says, within one deadline */
  if (!_hbase_native_pb_filter (self->filter, &filter, error))
    return FALSE;
  scan.filter = filter;
  for (guint attempt = 0;; attempt++)
    {
      g_autoptr(GError) local = NULL;

      g_clear_pointer (&self->region, _hbase_native_region_free);
      self->region = locate_position (self, deadline, cancellable, &local);
      if (self->region != NULL)
        {
          _hbase_native_pb_set_bytes (&spec.value, self->region->name);
          /* the read point of this very region only */
          scan.has_mvcc_read_point = self->read_point > 0 && self->read_point_region != NULL &&
                                     g_bytes_equal (self->read_point_region, self->region->name);
          scan.mvcc_read_point = scan.has_mvcc_read_point ? self->read_point : 0;
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
  if ((*response)->has_mvcc_read_point && (*response)->mvcc_read_point > 0)
    {
      self->read_point = (*response)->mvcc_read_point;
      g_clear_pointer (&self->read_point_region, g_bytes_unref);
      self->read_point_region = g_bytes_ref (self->region->name);
    }
  return TRUE;
}

/* Whether the scan has nothing left after the current region, as
 * ClientScanner's noMoreResultsForScan / noMoreResultsForReverseScan. */
static gboolean
last_region (HBaseNativeScanner *self)
{
  GBytes *stop = self->spec.stop_row;

  if (!self->spec.reversed)
    {
      GBytes *end = self->region->end_key;
      int cmp;

      if (g_bytes_get_size (end) == 0)
        return TRUE;
      if (g_bytes_get_size (stop) == 0)
        return FALSE;
      cmp = g_bytes_compare (end, stop);
      return cmp > 0 || (cmp == 0 && !self->spec.include_stop);
    }
  if (g_bytes_get_size (self->region->start_key) == 0)
    return TRUE;
  return g_bytes_get_size (stop) > 0 && g_bytes_compare (stop, self->region->start_key) >= 0;
}

/* After a reply: whether the scan goes on in this region, in the next
 * one, or is over; TRUE when it moved on (to the next region or the end). */
static gboolean
advance (HBaseNativeScanner *self, const Hbase__Pb__ScanResponse *response, guint n_rows)
{
  if (self->limit > 0)
    {
      self->limit = n_rows >= self->limit ? 0 : self->limit - n_rows;
      if (self->limit == 0)
        {
          /* the last row wanted came: nothing more to read */
          if (!(response->has_more_results && !response->more_results) &&
              !(response->has_more_results_in_region && !response->more_results_in_region))
            _hbase_native_scanner_close (self, NULL, NULL);
          self->open = FALSE;
          self->done = TRUE;
          return TRUE;
        }
    }
  if (response->has_more_results && !response->more_results)
    {
      /* the server closed its scanner: nothing more at all */
      self->open = FALSE;
      self->done = TRUE;
      return TRUE;
    }
  if (!response->has_more_results_in_region || response->more_results_in_region)
    return FALSE;
  /* the region is done and the server closed its scanner */
  self->open = FALSE;
  if (last_region (self))
    {
      self->done = TRUE;
      return TRUE;
    }
  g_bytes_unref (self->position);
  if (!self->spec.reversed)
    {
      self->position = g_bytes_ref (self->region->end_key);
      self->include_position = TRUE;
    }
  else
    {
      self->position = g_bytes_ref (self->region->start_key);
      self->include_position = FALSE;
    }
  /* a read point is the region's own */
  self->read_point = 0;
  g_clear_pointer (&self->read_point_region, g_bytes_unref);
  return TRUE;
}

GPtrArray *
_hbase_native_scanner_next (HBaseNativeScanner *self, GCancellable *cancellable, GError **error)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify) _hbase_native_row_free);
  guint empty_replies = 0;

  /* a region may have nothing in range, and a heartbeat has no row: go
   * on until a row or the end */
  while (rows->len == 0 && !self->done)
    {
      Hbase__Pb__ScanResponse *response = NULL;
      gboolean heartbeat, opened = !self->open;

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
          request.number_of_rows = rows_wanted (self);
          request.has_client_handles_heartbeats = TRUE;
          request.client_handles_heartbeats = TRUE;
          if (self->spec.batch > 0)
            {
              request.has_client_handles_partials = TRUE;
              request.client_handles_partials = TRUE;
            }
          if (!scan_call (self, &request, rows, &response,
                          _hbase_native_client_deadline (self->client), cancellable, error))
            {
              self->open = FALSE;
              self->done = TRUE;
              return NULL;
            }
        }
      heartbeat = response->has_heartbeat_message && response->heartbeat_message;
      if (!opened && rows->len == 0 && !heartbeat && !response->has_more_results &&
          !response->has_more_results_in_region)
        {
          /* HBase answers a next for a scanner it has closed (on a close
           * request: "Scanner already closed") with an empty reply, no
           * more_results, no more_results_in_region: not the region's end */
          protobuf_c_message_free_unpacked (&response->base, NULL);
          self->open = FALSE;
          self->done = TRUE;
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND,
                       SCANNER_GONE " (scanner %" G_GUINT64_FORMAT " of %s was answered with an "
                       "empty reply, without more_results_in_region: it was closed on the server)",
                       self->scanner_id, self->table);
          return NULL;
        }
      if (advance (self, response, self->spec.batch > 0 ? 0 : rows->len) || heartbeat)
        empty_replies = 0;
      protobuf_c_message_free_unpacked (&response->base, NULL);
      /* a server that keeps sending nothing in one region while saying
       * there is more, without calling it a heartbeat, is not believed
       * for ever */
      if (rows->len == 0 && !self->done && ++empty_replies == MAX_EMPTY_REPLIES)
        {
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                       "malformed Scan replies: %u without a row or an end", empty_replies);
          _hbase_native_scanner_close (self, cancellable, NULL);
          return NULL;
        }
    }
  return g_steal_pointer (&rows);
}

gboolean
_hbase_native_scan_error_resumable (const GError *error)
{
  static const char *const classes[] = {
    "UnknownScannerException",
    "exceptions.ScannerResetException",
    "exceptions.OutOfOrderScannerNextException",
    "regionserver.LeaseException",
    "NotServingRegionException",
    "exceptions.RegionMovedException",
  };
  static const char prefix[] = "org.apache.hadoop.hbase.";
  const char *message;

  if (error == NULL || error->domain != HBASE_ERROR)
    return FALSE;
  if (error->code == HBASE_ERROR_CONNECTION || error->code == HBASE_ERROR_TIMEOUT ||
      (error->code == HBASE_ERROR_NOT_FOUND && g_str_has_prefix (error->message, SCANNER_GONE)))
    return TRUE;
  /* a server's exception: its class leads the server trace */
  message = hbase_error_get_server_trace (error);
  if (message == NULL)
    message = error->message;
  if (!g_str_has_prefix (message, prefix))
    return FALSE;
  message += strlen (prefix);
  for (gsize i = 0; i < G_N_ELEMENTS (classes); i++)
    {
      gsize len = strlen (classes[i]);

      if (strncmp (message, classes[i], len) == 0 &&
          (message[len] == ':' || message[len] == '\0' || message[len] == '\n'))
        return TRUE;
    }
  return FALSE;
}

void
_hbase_native_scanner_restart (HBaseNativeScanner *self, GBytes *start_row, gboolean inclusive,
                               guint limit)
{
  g_bytes_unref (self->position);
  if (start_row != NULL && g_bytes_get_size (start_row) > 0)
    {
      self->position = g_bytes_ref (start_row);
      self->include_position = inclusive;
    }
  else
    {
      self->position = g_bytes_ref (self->spec.start_row);
      self->include_position = self->spec.include_start;
    }
  self->open = FALSE;
  self->done = FALSE;
  self->limit = self->spec.batch > 0 ? 0 : limit;
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
  g_bytes_unref (self->spec.start_row);
  g_bytes_unref (self->spec.stop_row);
  g_ptr_array_unref (self->spec.columns);
  g_bytes_unref (self->position);
  g_clear_pointer (&self->read_point_region, g_bytes_unref);
  g_clear_pointer (&self->filter, g_bytes_unref);
  _hbase_native_region_free (self->region);
  g_free (self);
}
