/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-native-locator.c: finding regions over HBase's own RPC.  hbase:meta's
 * location comes from ClientMetaService.GetMetaRegionLocations on the first
 * bootstrap server that answers (masters and region servers both serve it
 * in 2.6).  A row's region comes from a reversed scan of hbase:meta from
 * "table,row,:" (the newest region whose start is at or before the row),
 * one row of family info: info:regioninfo is "PBUF" + RegionInfo,
 * info:server "host:port".  Found regions are cached per table; a lookup
 * takes the greatest start key at or before the row whose end key is
 * after it (or empty).  Also the client itself: its bootstrap list and one
 * ClientService connection per server.
 */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-error.h>

#include "../core/hbase-error-private.h"
#include "hbase-native-client.h"
#include "hbase-native-connection.h"
#include "Client.pb-c.h"
#include "Registry.pb-c.h"

struct _HBaseNativeClient
{
  GStrv              bootstrap;
  guint              timeout_ms;
  HBaseNativeRegion *meta;          /* NULL until located */
  GPtrArray         *regions;       /* HBaseNativeRegion *, the cache */
  GHashTable        *connections;   /* "host:port" -> HBaseNativeConnection * */
};

void
_hbase_native_region_free (HBaseNativeRegion *region)
{
  if (region == NULL)
    return;
  g_free (region->table);
  g_bytes_unref (region->name);
  g_bytes_unref (region->start_key);
  g_bytes_unref (region->end_key);
  g_free (region->host);
  g_free (region);
}

static HBaseNativeRegion *
region_copy (const HBaseNativeRegion *r)
{
  HBaseNativeRegion *copy = g_new0 (HBaseNativeRegion, 1);

  copy->table = g_strdup (r->table);
  copy->name = g_bytes_ref (r->name);
  copy->start_key = g_bytes_ref (r->start_key);
  copy->end_key = g_bytes_ref (r->end_key);
  copy->region_id = r->region_id;
  copy->host = g_strdup (r->host);
  copy->port = r->port;
  return copy;
}

HBaseNativeClient *
_hbase_native_client_new (const char *const *bootstrap, guint timeout_ms)
{
  HBaseNativeClient *self = g_new0 (HBaseNativeClient, 1);

  self->bootstrap = g_strdupv ((char **) bootstrap);
  self->timeout_ms = timeout_ms;
  self->regions = g_ptr_array_new_with_free_func ((GDestroyNotify) _hbase_native_region_free);
  self->connections = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                             (GDestroyNotify) _hbase_native_connection_free);
  return self;
}

void
_hbase_native_client_free (HBaseNativeClient *self)
{
  if (self == NULL)
    return;
  g_strfreev (self->bootstrap);
  _hbase_native_region_free (self->meta);
  g_ptr_array_unref (self->regions);
  g_hash_table_unref (self->connections);
  g_free (self);
}

gint64
_hbase_native_client_deadline (HBaseNativeClient *self)
{
  return self->timeout_ms == 0 ? 0 : g_get_monotonic_time () + (gint64) self->timeout_ms * 1000;
}

HBaseNativeConnection *
_hbase_native_client_connection (HBaseNativeClient *self, const HBaseNativeRegion *region)
{
  g_autofree char *key = g_strdup_printf ("%s:%u", region->host, region->port);
  HBaseNativeConnection *conn = g_hash_table_lookup (self->connections, key);

  if (conn == NULL)
    {
      conn = _hbase_native_connection_new (region->host, region->port,
                                           HBASE_NATIVE_CLIENT_SERVICE, self->timeout_ms);
      g_hash_table_insert (self->connections, g_steal_pointer (&key), conn);
    }
  return conn;
}

/* "host:port" -> its parts; FALSE when it is not of that form. */
static gboolean
parse_address (const char *text, gsize len, char **host, guint *port)
{
  const char *colon = memrchr (text, ':', len);
  guint64 value;
  g_autofree char *digits = NULL;

  if (colon == NULL || colon == text)
    return FALSE;
  digits = g_strndup (colon + 1, len - (colon + 1 - text));
  if (!g_ascii_string_to_unsigned (digits, 10, 1, 65535, &value, NULL))
    return FALSE;
  *host = g_strndup (text, colon - text);
  *port = value;
  return TRUE;
}

/* The table part of hbase:meta's keys: the default namespace is left out. */
static char *
meta_table_name (const ProtobufCBinaryData *ns, const ProtobufCBinaryData *qualifier)
{
  if (ns->len == 0 || (ns->len == 7 && memcmp (ns->data, "default", 7) == 0))
    return g_strndup ((const char *) qualifier->data, qualifier->len);
  return g_strdup_printf ("%.*s:%.*s", (int) ns->len, ns->data, (int) qualifier->len, qualifier->data);
}

static char *
normalize_table (const char *table)
{
  return g_str_has_prefix (table, "default:") ? g_strdup (table + 8) : g_strdup (table);
}

/* ---- the registry -------------------------------------------------------- */

static HBaseNativeRegion *
meta_from_registry (const char *address, gint64 deadline, guint timeout_ms,
                    GCancellable *cancellable, GError **error)
{
  g_autofree char *host = NULL;
  guint port;
  g_autoptr(HBaseNativeConnection) conn = NULL;
  Hbase__Pb__GetMetaRegionLocationsRequest request = HBASE__PB__GET_META_REGION_LOCATIONS_REQUEST__INIT;
  ProtobufCMessage *reply = NULL;
  Hbase__Pb__GetMetaRegionLocationsResponse *locations;
  HBaseNativeRegion *meta = NULL;

  if (!parse_address (address, strlen (address), &host, &port))
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "bootstrap server '%s' is not host:port", address);
      return NULL;
    }
  conn = _hbase_native_connection_new (host, port, HBASE_NATIVE_META_SERVICE, timeout_ms);
  if (!_hbase_native_connection_call (conn, "GetMetaRegionLocations", &request.base,
                                      &hbase__pb__get_meta_region_locations_response__descriptor,
                                      &reply, NULL, deadline, cancellable, error))
    return NULL;
  locations = (Hbase__Pb__GetMetaRegionLocationsResponse *) reply;
  for (gsize i = 0; i < locations->n_meta_locations && meta == NULL; i++)
    {
      Hbase__Pb__RegionLocation *loc = locations->meta_locations[i];
      Hbase__Pb__RegionInfo *info = loc->region_info;

      if (info == NULL || info->table_name == NULL || loc->server_name == NULL ||
          !loc->server_name->has_port || (info->has_replica_id && info->replica_id != 0))
        continue;
      meta = g_new0 (HBaseNativeRegion, 1);
      meta->table = meta_table_name (&info->table_name->namespace_, &info->table_name->qualifier);
      meta->region_id = info->region_id;
      meta->start_key = g_bytes_new (info->start_key.data, info->start_key.len);
      meta->end_key = g_bytes_new (info->end_key.data, info->end_key.len);
      /* hbase:meta's region name has no encoded suffix: "hbase:meta,,1" */
      {
        g_autofree char *name = g_strdup_printf ("%s,%.*s,%" G_GUINT64_FORMAT, meta->table,
                                                 (int) info->start_key.len, info->start_key.data,
                                                 info->region_id);
        meta->name = g_bytes_new (name, strlen (name));
      }
      meta->host = g_strdup (loc->server_name->host_name);
      meta->port = loc->server_name->port;
    }
  protobuf_c_message_free_unpacked (reply, NULL);
  if (meta == NULL)
    g_set_error (error, HBASE_ERROR, HBASE_ERROR_SERVER,
                 "bootstrap server %s knows no location of hbase:meta", address);
  return meta;
}

HBaseNativeRegion *
_hbase_native_client_locate_meta (HBaseNativeClient *self, GCancellable *cancellable, GError **error)
{
  g_autoptr(GError) last = NULL;
  gint64 deadline = _hbase_native_client_deadline (self);

  if (self->meta != NULL)
    return region_copy (self->meta);
  for (guint i = 0; self->bootstrap != NULL && self->bootstrap[i] != NULL; i++)
    {
      g_clear_error (&last);
      self->meta = meta_from_registry (self->bootstrap[i], deadline, self->timeout_ms,
                                       cancellable, &last);
      if (self->meta != NULL)
        return region_copy (self->meta);
      /* an unreachable server is skipped; any other answer is final */
      if (!g_error_matches (last, HBASE_ERROR, HBASE_ERROR_CONNECTION))
        break;
    }
  if (last == NULL)
    g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT, "no bootstrap server is configured");
  else
    g_propagate_error (error, g_steal_pointer (&last));
  return NULL;
}

/* ---- the region cache ---------------------------------------------------- */

static gint
compare_bytes (GBytes *a, const guint8 *b, gsize b_len)
{
  gsize a_len;
  const guint8 *a_data = g_bytes_get_data (a, &a_len);
  gint c = memcmp (a_data, b, MIN (a_len, b_len));

  if (c != 0 || a_len == b_len)
    return c;
  return a_len < b_len ? -1 : 1;
}

static gboolean
region_holds (const HBaseNativeRegion *r, GBytes *row)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (row, &len);

  return compare_bytes (r->start_key, data, len) <= 0 &&
         (g_bytes_get_size (r->end_key) == 0 || compare_bytes (r->end_key, data, len) > 0);
}

static const HBaseNativeRegion *
cache_lookup (HBaseNativeClient *self, const char *table, GBytes *row)
{
  const HBaseNativeRegion *best = NULL;

  for (guint i = 0; i < self->regions->len; i++)
    {
      const HBaseNativeRegion *r = self->regions->pdata[i];

      if (strcmp (r->table, table) == 0 && region_holds (r, row) &&
          (best == NULL || g_bytes_compare (r->start_key, best->start_key) > 0))
        best = r;
    }
  return best;
}

guint
_hbase_native_client_n_cached (HBaseNativeClient *self)
{
  return self->regions->len;
}

void
_hbase_native_client_forget (HBaseNativeClient *self, const char *table, GBytes *region_name)
{
  g_autofree char *name = normalize_table (table);

  for (guint i = self->regions->len; i-- > 0;)
    {
      const HBaseNativeRegion *r = self->regions->pdata[i];

      if (strcmp (r->table, name) == 0 && g_bytes_equal (r->name, region_name))
        g_ptr_array_remove_index (self->regions, i);
    }
  if (self->meta != NULL && g_bytes_equal (self->meta->name, region_name))
    g_clear_pointer (&self->meta, _hbase_native_region_free);
}

/* ---- hbase:meta lookups -------------------------------------------------- */

static const HBaseNativeCell *
find_cell (HBaseNativeRow *row, const char *qualifier)
{
  for (guint i = 0; i < row->cells->len; i++)
    {
      const HBaseNativeCell *cell = row->cells->pdata[i];
      gsize len;
      const char *q = g_bytes_get_data (cell->qualifier, &len);

      if (len == strlen (qualifier) && memcmp (q, qualifier, len) == 0)
        return cell;
    }
  return NULL;
}

/* As the Java client, which finds it the same way, reports it. */
static void
table_not_found (GError **error, const char *table)
{
  GError *made = g_error_new (HBASE_ERROR, HBASE_ERROR_NOT_FOUND,
                              "org.apache.hadoop.hbase.TableNotFoundException: %s "
                              "(no region in hbase:meta)", table);

  _hbase_error_set_permanent (made);
  g_propagate_error (error, made);
}

/* The region of @table holding @row, from one row of hbase:meta. */
static HBaseNativeRegion *
region_from_meta_row (HBaseNativeRow *row, const char *table, GBytes *key, GError **error)
{
  const HBaseNativeCell *info_cell = find_cell (row, "regioninfo");
  const HBaseNativeCell *server_cell = find_cell (row, "server");
  Hbase__Pb__RegionInfo *info;
  g_autoptr(HBaseNativeRegion) region = g_new0 (HBaseNativeRegion, 1);
  gsize len;
  const guint8 *data;

  if (info_cell == NULL)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL, "hbase:meta row of %s has no info:regioninfo", table);
      return NULL;
    }
  data = g_bytes_get_data (info_cell->value, &len);
  if (len < 4 || memcmp (data, "PBUF", 4) != 0 ||
      (info = hbase__pb__region_info__unpack (NULL, len - 4, data + 4)) == NULL)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                   "hbase:meta row of %s: info:regioninfo is not PBUF + RegionInfo", table);
      return NULL;
    }
  region->table = meta_table_name (&info->table_name->namespace_, &info->table_name->qualifier);
  region->name = g_bytes_ref (row->key);
  region->region_id = info->region_id;
  region->start_key = g_bytes_new (info->start_key.data, info->start_key.len);
  region->end_key = g_bytes_new (info->end_key.data, info->end_key.len);
  if (strcmp (region->table, table) != 0)
    {
      hbase__pb__region_info__free_unpacked (info, NULL);
      table_not_found (error, table);
      return NULL;
    }
  if ((info->has_offline && info->offline) || !region_holds (region, key))
    {
      hbase__pb__region_info__free_unpacked (info, NULL);
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_SERVER,
                   "no online region of %s holds the row (hbase:meta has a hole or the region is offline)",
                   table);
      return NULL;
    }
  hbase__pb__region_info__free_unpacked (info, NULL);
  if (server_cell == NULL)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_SERVER,
                   "the region of %s is not assigned to a server (no info:server)", table);
      return NULL;
    }
  data = g_bytes_get_data (server_cell->value, &len);
  if (!parse_address ((const char *) data, len, &region->host, &region->port))
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                   "hbase:meta row of %s: info:server is not host:port", table);
      return NULL;
    }
  return g_steal_pointer (&region);
}

static HBaseNativeRegion *
meta_lookup (HBaseNativeClient *self, const char *table, GBytes *row,
             GCancellable *cancellable, GError **error)
{
  g_autoptr(HBaseNativeRegion) meta = NULL;
  g_autoptr(GByteArray) start = g_byte_array_new ();
  Hbase__Pb__RegionSpecifier spec = HBASE__PB__REGION_SPECIFIER__INIT;
  Hbase__Pb__Column column = HBASE__PB__COLUMN__INIT;
  Hbase__Pb__Column *columns[1] = { &column };
  Hbase__Pb__Scan scan = HBASE__PB__SCAN__INIT;
  Hbase__Pb__ScanRequest request = HBASE__PB__SCAN_REQUEST__INIT;
  ProtobufCMessage *reply = NULL;
  Hbase__Pb__ScanResponse *scanned;
  g_autoptr(GBytes) block = NULL;
  g_autoptr(GPtrArray) cells = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  gsize row_len;
  const guint8 *row_data = g_bytes_get_data (row, &row_len);
  gboolean ok;

  meta = _hbase_native_client_locate_meta (self, cancellable, error);
  if (meta == NULL)
    return NULL;
  /* "table,row,:" ':' sorts after the digits of every region id */
  g_byte_array_append (start, (const guint8 *) table, strlen (table));
  g_byte_array_append (start, (const guint8 *) ",", 1);
  g_byte_array_append (start, row_data, row_len);
  g_byte_array_append (start, (const guint8 *) ",:", 2);
  spec.type = HBASE__PB__REGION_SPECIFIER__REGION_SPECIFIER_TYPE__REGION_NAME;
  spec.value.data = (guint8 *) g_bytes_get_data (meta->name, &spec.value.len);
  column.family.data = (guint8 *) "info";
  column.family.len = 4;
  scan.n_column = 1;
  scan.column = columns;
  scan.has_start_row = TRUE;
  scan.start_row.data = start->data;
  scan.start_row.len = start->len;
  scan.has_stop_row = TRUE;
  scan.stop_row.data = (guint8 *) table;
  scan.stop_row.len = strlen (table);
  scan.has_reversed = TRUE;
  scan.reversed = TRUE;
  scan.has_caching = TRUE;
  scan.caching = 1;
  request.region = &spec;
  request.scan = &scan;
  request.has_number_of_rows = TRUE;
  request.number_of_rows = 1;
  request.has_close_scanner = TRUE;
  request.close_scanner = TRUE;
  ok = _hbase_native_connection_call (_hbase_native_client_connection (self, meta), "Scan",
                                      &request.base, &hbase__pb__scan_response__descriptor,
                                      &reply, &block, _hbase_native_client_deadline (self),
                                      cancellable, error);
  if (!ok)
    {
      if (error != NULL && _hbase_native_error_kind (*error) == HBASE_NATIVE_EXCEPTION_RELOCATE)
        _hbase_native_client_forget (self, meta->table, meta->name);
      return NULL;
    }
  scanned = (Hbase__Pb__ScanResponse *) reply;
  cells = block != NULL ? _hbase_native_decode_cellblock (block, error)
                        : g_ptr_array_new_with_free_func ((GDestroyNotify) _hbase_native_cell_free);
  if (cells != NULL)
    rows = _hbase_native_split_rows (g_steal_pointer (&cells), scanned->cells_per_result,
                                     scanned->n_cells_per_result, error);
  protobuf_c_message_free_unpacked (reply, NULL);
  if (rows == NULL)
    return NULL;
  if (rows->len == 0)
    {
      table_not_found (error, table);
      return NULL;
    }
  return region_from_meta_row (rows->pdata[0], table, row, error);
}

HBaseNativeRegion *
_hbase_native_client_locate (HBaseNativeClient *self, const char *table, GBytes *row,
                             GCancellable *cancellable, GError **error)
{
  g_autofree char *name = normalize_table (table);
  const HBaseNativeRegion *cached = cache_lookup (self, name, row);
  HBaseNativeRegion *found;

  if (cached != NULL)
    return region_copy (cached);
  found = meta_lookup (self, name, row, cancellable, error);
  if (found != NULL)
    _hbase_native_client_cache (self, found);
  return found;
}

void
_hbase_native_client_cache (HBaseNativeClient *self, const HBaseNativeRegion *region)
{
  /* a newer region replaces the cached ones it overlaps (after a split) */
  for (guint i = self->regions->len; i-- > 0;)
    {
      const HBaseNativeRegion *r = self->regions->pdata[i];

      if (strcmp (r->table, region->table) == 0 &&
          (g_bytes_get_size (r->end_key) == 0 || g_bytes_compare (r->end_key, region->start_key) > 0) &&
          (g_bytes_get_size (region->end_key) == 0 || g_bytes_compare (region->end_key, r->start_key) > 0))
        g_ptr_array_remove_index (self->regions, i);
    }
  g_ptr_array_add (self->regions, region_copy (region));
}
