/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-native-locator.c: finding regions over HBase's own RPC.  hbase:meta's
 * location comes from ClientMetaService.GetMetaRegionLocations on the first
 * bootstrap server that answers (masters and region servers both serve it
 * in 2.6).  A row's region comes from a reversed scan of hbase:meta from
 * "table,row,:" (the newest region whose start is at or before the row),
 * one row of family info: info:regioninfo is "PBUF" + RegionInfo,
 * info:server "host:port".  Found regions are cached per table; a lookup
 * takes the greatest start key at or before the row whose end key is
 * after it (or empty).  Also the client itself, shared by threads: its
 * bootstrap list, the cache and hbase:meta's location under one lock, a
 * bounded pool of ClientService connections per server (each lent to one
 * call at a time, dropped when its call failed on the wire), and the
 * retry policy every operation follows.
 * Long because: the registry, the region cache, the connection pools and
 * the hbase:meta lookup share the client's state and its one lock, and the
 * setters and checks that read its fields (the settings it refuses among
 * them) stay beside the cache and the pools they guard.
 */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-error.h>

#include "../core/hbase-error-private.h"
#include "hbase-native-client.h"
#include "hbase-native-connection.h"
#include "hbase-native-replies.h"
#include "Client.pb-c.h"
#include "Registry.pb-c.h"

/* The connections to one server: idle ones ready for a call, and how many
 * exist (idle or lent to a call), never more than the pool size. */
typedef struct
{
  GPtrArray *idle;      /* HBaseNativeConnection * */
  guint      n_open;
  guint      peak;
} ServerPool;

struct _HBaseNativeClient
{
  GStrv              bootstrap;
  guint              timeout_ms;
  guint              connect_timeout_ms;
  guint              pool_size;
  guint              pause_ms;
  gsize              max_frame;     /* largest reply frame of a connection */
  GMutex             lock;          /* guards what follows */
  GCond              released;      /* a connection went back to a pool */
  guint              n_waiting;     /* calls waiting on released */
  HBaseNativeRegion *meta;          /* NULL until located */
  GPtrArray         *regions;       /* HBaseNativeRegion *, the cache */
  GHashTable        *pools;         /* "host:port" -> ServerPool * */
  guint              n_made;
  char              *master;        /* "host:port" of the active master, NULL until asked */
  char              *refusal;       /* NULL, or why every call fails */
};

static void
server_pool_free (ServerPool *pool)
{
  g_ptr_array_unref (pool->idle);
  g_free (pool);
}

void
_hbase_native_region_free (HBaseNativeRegion *region)
{
  /* the value before: above 0, another holder remains */
  if (region == NULL || g_atomic_int_add (&region->extra_refs, -1) > 0)
    return;
  g_free (region->table);
  g_bytes_unref (region->name);
  g_bytes_unref (region->start_key);
  g_bytes_unref (region->end_key);
  g_free (region->host);
  g_free (region);
}

HBaseNativeRegion *
_hbase_native_region_ref (HBaseNativeRegion *region)
{
  g_atomic_int_inc (&region->extra_refs);
  return region;
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
  self->pool_size = 8;
  self->pause_ms = 100;
  self->max_frame = HBASE_NATIVE_MAX_FRAME;
  g_mutex_init (&self->lock);
  g_cond_init (&self->released);
  self->regions = g_ptr_array_new_with_free_func ((GDestroyNotify) _hbase_native_region_free);
  self->pools = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                       (GDestroyNotify) server_pool_free);
  return self;
}

void
_hbase_native_client_set_pool_size (HBaseNativeClient *self, guint pool_size)
{
  self->pool_size = pool_size > 0 ? pool_size : 8;
}

void
_hbase_native_client_set_connect_timeout (HBaseNativeClient *self, guint connect_timeout_ms)
{
  self->connect_timeout_ms = connect_timeout_ms;
}

void
_hbase_native_client_set_max_message (HBaseNativeClient *self, gsize max_message)
{
  self->max_frame = max_message > 0 ? max_message : HBASE_NATIVE_MAX_FRAME;
}

HBaseNativeConnection *
_hbase_native_client_connection_new (HBaseNativeClient *self, const char *host, guint port,
                                     const char *service)
{
  HBaseNativeConnection *conn =
    _hbase_native_connection_new (host, port, service, _hbase_native_client_get_connect_timeout (self));

  _hbase_native_connection_set_max_frame (conn, self->max_frame);
  return conn;
}

void
_hbase_native_client_refuse (HBaseNativeClient *self, const char *message)
{
  g_free (self->refusal);
  self->refusal = g_strdup (message);
}

gboolean
_hbase_native_client_check_refused (HBaseNativeClient *self, GError **error)
{
  if (G_UNLIKELY (self->refusal != NULL))
    g_set_error_literal (error, HBASE_ERROR, HBASE_ERROR_NOT_SUPPORTED, self->refusal);
  return self->refusal == NULL;
}

void
_hbase_native_client_set_pause (HBaseNativeClient *self, guint pause_ms)
{
  self->pause_ms = pause_ms > 0 ? pause_ms : 100;
}

void
_hbase_native_client_free (HBaseNativeClient *self)
{
  if (self == NULL)
    return;
  g_strfreev (self->bootstrap);
  g_free (self->master);
  g_free (self->refusal);
  _hbase_native_region_free (self->meta);
  g_ptr_array_unref (self->regions);
  g_hash_table_unref (self->pools);
  g_cond_clear (&self->released);
  g_mutex_clear (&self->lock);
  g_free (self);
}

gint64
_hbase_native_client_deadline (HBaseNativeClient *self)
{
  return self->timeout_ms == 0 ? 0 : g_get_monotonic_time () + (gint64) self->timeout_ms * 1000;
}

static guint
connect_timeout (HBaseNativeClient *self)
{
  return self->connect_timeout_ms > 0 ? self->connect_timeout_ms : self->timeout_ms;
}

/* ---- the connection pools ------------------------------------------------ */

/* "host:port" of @region in @buffer (printf's cost, about a thousand
 * instructions, is not worth it on every call), or NULL when it does not
 * fit. */
static const char *
pool_key (char *buffer, gsize size, const HBaseNativeRegion *region)
{
  gsize host_len = strlen (region->host);
  char digits[16];
  guint n = 0, port = region->port;

  do
    {
      digits[n++] = (char) ('0' + port % 10);
      port /= 10;
    }
  while (port != 0);
  if (host_len + 1 + n + 1 > size)
    return NULL;
  memcpy (buffer, region->host, host_len);
  buffer[host_len] = ':';
  for (guint i = 0; i < n; i++)
    buffer[host_len + 1 + i] = digits[n - 1 - i];
  buffer[host_len + 1 + n] = '\0';
  return buffer;
}

/* A connection to @region's server for one call: an idle one, a new one
 * while the pool has room, or the first one given back before @deadline. */
static HBaseNativeConnection *
acquire (HBaseNativeClient *self, const HBaseNativeRegion *region, gint64 deadline,
         GCancellable *cancellable, GError **error)
{
  /* the pool's "host:port" key, on the stack unless the host is long */
  char buffer[128];
  g_autofree char *heap_key = NULL;
  const char *key = pool_key (buffer, sizeof buffer, region);
  ServerPool *pool;

  if (!_hbase_native_client_check_refused (self, error))
    return NULL;
  if (key == NULL)
    key = heap_key = g_strdup_printf ("%s:%u", region->host, region->port);
  g_mutex_lock (&self->lock);
  pool = g_hash_table_lookup (self->pools, key);
  if (pool == NULL)
    {
      pool = g_new0 (ServerPool, 1);
      pool->idle = g_ptr_array_new_with_free_func ((GDestroyNotify) _hbase_native_connection_free);
      g_hash_table_insert (self->pools, g_strdup (key), pool);
    }
  for (;;)
    {
      gint64 now, until;

      if (pool->idle->len > 0)
        {
          HBaseNativeConnection *conn = g_ptr_array_steal_index_fast (pool->idle, pool->idle->len - 1);

          g_mutex_unlock (&self->lock);
          return conn;
        }
      if (pool->n_open < self->pool_size)
        {
          pool->n_open++;
          pool->peak = MAX (pool->peak, pool->n_open);
          self->n_made++;
          g_mutex_unlock (&self->lock);
          return _hbase_native_client_connection_new (self, region->host, region->port,
                                                      HBASE_NATIVE_CLIENT_SERVICE);
        }
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          g_mutex_unlock (&self->lock);
          return NULL;
        }
      now = g_get_monotonic_time ();
      if (deadline != 0 && now >= deadline)
        {
          g_mutex_unlock (&self->lock);
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_TIMEOUT,
                       "HBase server %s: all %u connections stayed busy until the operation's deadline",
                       key, self->pool_size);
          return NULL;
        }
      /* woken by a release; cancellation is looked at every 50 ms */
      until = now + 50 * 1000;
      if (deadline != 0)
        until = MIN (until, deadline);
      self->n_waiting++;
      g_cond_wait_until (&self->released, &self->lock, until);
      self->n_waiting--;
    }
}

/* Gives @conn back to its pool; one that is no longer connected (its
 * call failed on the wire) is dropped, so the next call makes a new one. */
static void
release (HBaseNativeClient *self, HBaseNativeConnection *conn)
{
  ServerPool *pool;
  gboolean drop = !_hbase_native_connection_is_connected (conn);

  g_mutex_lock (&self->lock);
  pool = g_hash_table_lookup (self->pools, _hbase_native_connection_get_address (conn));
  if (pool == NULL || drop)
    {
      if (pool != NULL)
        pool->n_open--;
    }
  else
    {
      g_ptr_array_add (pool->idle, conn);
      conn = NULL;
    }
  /* only when a call waits: a broadcast is a system call even for nobody */
  if (self->n_waiting > 0)
    g_cond_broadcast (&self->released);
  g_mutex_unlock (&self->lock);
  if (conn != NULL)
    _hbase_native_connection_free (conn);
}

gboolean
_hbase_native_client_call (HBaseNativeClient *self, const HBaseNativeRegion *region,
                           const char *method, const ProtobufCMessage *param,
                           const ProtobufCMessageDescriptor *descriptor,
                           ProtobufCMessage **response, GBytes **cellblock, gint64 deadline,
                           GCancellable *cancellable, GError **error)
{
  return _hbase_native_client_call_sent (self, region, method, param, descriptor, response,
                                         cellblock, deadline, NULL, cancellable, error);
}

gboolean
_hbase_native_client_call_sent (HBaseNativeClient *self, const HBaseNativeRegion *region,
                                const char *method, const ProtobufCMessage *param,
                                const ProtobufCMessageDescriptor *descriptor,
                                ProtobufCMessage **response, GBytes **cellblock, gint64 deadline,
                                gboolean *sent, GCancellable *cancellable, GError **error)
{
  HBaseNativeConnection *conn = acquire (self, region, deadline, cancellable, error);
  gboolean ok;

  *response = NULL;
  if (cellblock != NULL)
    *cellblock = NULL;
  if (sent != NULL)
    *sent = FALSE;
  if (conn == NULL)
    return FALSE;
  ok = _hbase_native_connection_call (conn, method, param, descriptor, response, cellblock,
                                      deadline, cancellable, error);
  if (sent != NULL)
    *sent = _hbase_native_connection_request_sent (conn);
  release (self, conn);
  return ok;
}

void
_hbase_native_client_pool_stats (HBaseNativeClient *self, const char *address,
                                 guint *n_open, guint *peak, guint *n_made)
{
  ServerPool *pool;

  g_mutex_lock (&self->lock);
  pool = g_hash_table_lookup (self->pools, address);
  *n_open = pool != NULL ? pool->n_open : 0;
  *peak = pool != NULL ? pool->peak : 0;
  *n_made = self->n_made;
  g_mutex_unlock (&self->lock);
}

/* ---- retries ------------------------------------------------------------- */

HBaseNativeRetry
_hbase_native_retry_decide (const GError *error, guint attempt, guint pause_ms,
                            gint64 now, gint64 deadline, gint64 *wait_us)
{
  /* the Java client's pauses, in units of the base pause */
  static const guint steps[] = { 1, 2, 3, 5, 10, 20, 40, 100 };
  HBaseNativeRetry action;

  *wait_us = 0;
  if (error == NULL || error->domain != HBASE_ERROR || attempt + 1 >= HBASE_NATIVE_MAX_ATTEMPTS ||
      _hbase_error_is_permanent (error))
    return HBASE_NATIVE_RETRY_NO;
  switch (_hbase_native_error_kind (error))
    {
    case HBASE_NATIVE_EXCEPTION_RELOCATE:
      action = HBASE_NATIVE_RETRY_RELOCATE;
      break;
    case HBASE_NATIVE_EXCEPTION_RETRY:
      action = HBASE_NATIVE_RETRY_SAME;
      break;
    case HBASE_NATIVE_EXCEPTION_SERVER_GONE:
      action = HBASE_NATIVE_RETRY_RELOCATE;
      break;
    case HBASE_NATIVE_EXCEPTION_FINAL:
    default:
      /* a server that cannot be reached (refused, reset, a connect
       * timed out): it may have gone, and its regions with it.  A
       * time-out at the operation's deadline ends below, as no wait fits
       * before it. */
      if (error->code != HBASE_ERROR_CONNECTION && error->code != HBASE_ERROR_TIMEOUT)
        return HBASE_NATIVE_RETRY_NO;
      action = HBASE_NATIVE_RETRY_RELOCATE;
      break;
    }
  /* a region found elsewhere is tried there at once the first time */
  if (!(attempt == 0 && _hbase_native_error_kind (error) == HBASE_NATIVE_EXCEPTION_RELOCATE))
    *wait_us = (gint64) pause_ms * 1000 * steps[MIN (attempt, G_N_ELEMENTS (steps) - 1)];
  if (deadline != 0 && now + *wait_us >= deadline)
    return HBASE_NATIVE_RETRY_NO;
  return action;
}

gboolean
_hbase_native_client_retry (HBaseNativeClient *self, const char *table,
                            const HBaseNativeRegion *region, guint attempt, gint64 deadline,
                            GCancellable *cancellable, GError **local)
{
  gint64 wait_us, until;
  HBaseNativeRetry action = _hbase_native_retry_decide (*local, attempt, self->pause_ms,
                                                        g_get_monotonic_time (), deadline, &wait_us);

  if (action == HBASE_NATIVE_RETRY_NO)
    return FALSE;
  if (action == HBASE_NATIVE_RETRY_RELOCATE && region != NULL)
    _hbase_native_client_forget (self, table, region->name);
  until = g_get_monotonic_time () + wait_us;
  while (g_get_monotonic_time () < until)
    {
      if (g_cancellable_is_cancelled (cancellable))
        {
          g_clear_error (local);
          g_cancellable_set_error_if_cancelled (cancellable, local);
          return FALSE;
        }
      g_usleep (MIN (until - g_get_monotonic_time (), 20 * 1000));
    }
  g_clear_error (local);
  return TRUE;
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

/* @table without the default namespace's prefix (the cache's names). */
static const char *
normalize_table (const char *table)
{
  return g_str_has_prefix (table, "default:") ? table + 8 : table;
}

/* ---- the registry -------------------------------------------------------- */

static HBaseNativeRegion *
meta_from_registry (HBaseNativeClient *self, const char *address, gint64 deadline,
                    GCancellable *cancellable, GError **error)
{
  g_autofree char *host = NULL;
  guint port;
  g_autoptr(HBaseNativeConnection) conn = NULL;
  Hbase__Pb__GetMetaRegionLocationsRequest request = HBASE__PB__GET_META_REGION_LOCATIONS_REQUEST__INIT;
  ProtobufCMessage *reply = NULL;
  HBaseNativeRegion *meta;

  if (!parse_address (address, strlen (address), &host, &port))
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "bootstrap server '%s' is not host:port", address);
      return NULL;
    }
  conn = _hbase_native_client_connection_new (self, host, port, HBASE_NATIVE_META_SERVICE);
  if (!_hbase_native_connection_call (conn, "GetMetaRegionLocations", &request.base,
                                      &hbase__pb__get_meta_region_locations_response__descriptor,
                                      &reply, NULL, deadline, cancellable, error))
    return NULL;
  meta = _hbase_native_meta_from_locations ((Hbase__Pb__GetMetaRegionLocationsResponse *) reply,
                                            address, error);
  protobuf_c_message_free_unpacked (reply, NULL);
  return meta;
}

HBaseNativeRegion *
_hbase_native_meta_from_locations (const Hbase__Pb__GetMetaRegionLocationsResponse *locations,
                                   const char *address, GError **error)
{
  HBaseNativeRegion *meta = NULL;

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
  if (meta == NULL)
    g_set_error (error, HBASE_ERROR, HBASE_ERROR_SERVER,
                 "bootstrap server %s knows no location of hbase:meta", address);
  return meta;
}

static HBaseNativeRegion *
locate_meta (HBaseNativeClient *self, gint64 deadline, GCancellable *cancellable, GError **error)
{
  g_autoptr(GError) last = NULL;

  if (!_hbase_native_client_check_refused (self, error))
    return NULL;
  g_mutex_lock (&self->lock);
  if (self->meta != NULL)
    {
      HBaseNativeRegion *meta = _hbase_native_region_ref (self->meta);

      g_mutex_unlock (&self->lock);
      return meta;
    }
  g_mutex_unlock (&self->lock);
  /* asked without the lock: threads that race here each ask, the last
   * answer is kept */
  for (guint i = 0; self->bootstrap != NULL && self->bootstrap[i] != NULL; i++)
    {
      HBaseNativeRegion *meta;

      g_clear_error (&last);
      meta = meta_from_registry (self, self->bootstrap[i], deadline,
                                 cancellable, &last);
      if (meta != NULL)
        {
          g_mutex_lock (&self->lock);
          _hbase_native_region_free (self->meta);
          /* regions are not changed once made: shared, not copied */
          self->meta = _hbase_native_region_ref (meta);
          g_mutex_unlock (&self->lock);
          return meta;
        }
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

void
_hbase_native_client_cache_meta (HBaseNativeClient *self, const HBaseNativeRegion *meta)
{
  g_mutex_lock (&self->lock);
  _hbase_native_region_free (self->meta);
  self->meta = region_copy (meta);
  g_mutex_unlock (&self->lock);
}

HBaseNativeRegion *
_hbase_native_client_locate_meta (HBaseNativeClient *self, GCancellable *cancellable, GError **error)
{
  return locate_meta (self, _hbase_native_client_deadline (self), cancellable, error);
}

/* ---- the region cache ---------------------------------------------------- */

static gint
compare_bytes (GBytes *a, const guint8 *b, gsize b_len)
{
  gsize a_len;
  const guint8 *a_data = g_bytes_get_data (a, &a_len);
  /* an empty key's data may be NULL, which memcmp() must not see */
  gint c = MIN (a_len, b_len) > 0 ? memcmp (a_data, b, MIN (a_len, b_len)) : 0;

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
  guint n;

  g_mutex_lock (&self->lock);
  n = self->regions->len;
  g_mutex_unlock (&self->lock);
  return n;
}

void
_hbase_native_client_forget (HBaseNativeClient *self, const char *table, GBytes *region_name)
{
  const char *name = normalize_table (table);

  g_mutex_lock (&self->lock);
  for (guint i = self->regions->len; i-- > 0;)
    {
      const HBaseNativeRegion *r = self->regions->pdata[i];

      if (strcmp (r->table, name) == 0 && g_bytes_equal (r->name, region_name))
        g_ptr_array_remove_index (self->regions, i);
    }
  if (self->meta != NULL && g_bytes_equal (self->meta->name, region_name))
    g_clear_pointer (&self->meta, _hbase_native_region_free);
  g_mutex_unlock (&self->lock);
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

/* As the Thrift2 path words it; the server trace is the exception the
 * Java client, which finds it the same way, raises. */
static void
table_not_found (GError **error, const char *table)
{
  GError *made = g_error_new (HBASE_ERROR, HBASE_ERROR_NOT_FOUND, "table '%s' does not exist", table);
  g_autofree char *trace =
    g_strdup_printf ("org.apache.hadoop.hbase.TableNotFoundException: %s (no region in hbase:meta)", table);

  _hbase_error_set_permanent (made);
  _hbase_error_set_server_trace (made, trace);
  g_propagate_error (error, made);
}

void
_hbase_native_error_unassigned (GError **error, const char *table, gboolean offline)
{
  /* the Java client's classes for the same finds, which it retries too */
  if (offline)
    g_set_error (error, HBASE_ERROR, HBASE_ERROR_SERVER,
                 "org.apache.hadoop.hbase.client.RegionOfflineException: no online region of %s holds "
                 "the row (the region is offline, or hbase:meta has a hole)", table);
  else
    g_set_error (error, HBASE_ERROR, HBASE_ERROR_SERVER,
                 "org.apache.hadoop.hbase.client.NoServerForRegionException: the region of %s is not "
                 "assigned to a server yet (no info:server in hbase:meta)", table);
}

HBaseNativeRegion *
_hbase_native_region_from_meta_row (HBaseNativeRow *row, const char *table, GBytes *key, GError **error)
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
      _hbase_native_error_unassigned (error, table, TRUE);
      return NULL;
    }
  hbase__pb__region_info__free_unpacked (info, NULL);
  if (server_cell == NULL)
    {
      _hbase_native_error_unassigned (error, table, FALSE);
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
meta_lookup (HBaseNativeClient *self, const char *table, GBytes *row, gint64 deadline,
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

  meta = locate_meta (self, deadline, cancellable, error);
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
  ok = _hbase_native_client_call (self, meta, "Scan", &request.base,
                                  &hbase__pb__scan_response__descriptor, &reply, &block,
                                  deadline, cancellable, error);
  if (!ok)
    {
      gint64 wait_us;

      /* hbase:meta moved, or its server is gone (stopped, crashed: its
       * port refuses): asked of the registry again on the next attempt,
       * or every later lookup would go to the same place */
      if (error != NULL &&
          _hbase_native_retry_decide (*error, 0, 0, g_get_monotonic_time (), 0, &wait_us) ==
            HBASE_NATIVE_RETRY_RELOCATE)
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
  return _hbase_native_region_from_meta_row (rows->pdata[0], table, row, error);
}

HBaseNativeRegion *
_hbase_native_client_locate_by (HBaseNativeClient *self, const char *table, GBytes *row,
                                gint64 deadline, GCancellable *cancellable, GError **error)
{
  const char *name = normalize_table (table);
  const HBaseNativeRegion *cached;
  HBaseNativeRegion *found;

  g_mutex_lock (&self->lock);
  cached = cache_lookup (self, name, row);
  /* the cached region itself, lent (cache hits are every call's first step) */
  found = cached != NULL ? _hbase_native_region_ref ((HBaseNativeRegion *) cached) : NULL;
  g_mutex_unlock (&self->lock);
  if (found != NULL)
    return found;
  found = meta_lookup (self, name, row, deadline, cancellable, error);
  if (found != NULL)
    _hbase_native_client_cache (self, found);
  return found;
}

HBaseNativeRegion *
_hbase_native_client_locate (HBaseNativeClient *self, const char *table, GBytes *row,
                             GCancellable *cancellable, GError **error)
{
  return _hbase_native_client_locate_by (self, table, row, _hbase_native_client_deadline (self),
                                         cancellable, error);
}

void
_hbase_native_client_cache (HBaseNativeClient *self, const HBaseNativeRegion *region)
{
  g_mutex_lock (&self->lock);
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
  g_mutex_unlock (&self->lock);
}

/* ---- for the master's calls (hbase-native-master.c) ------------------------ */

const char *const *
_hbase_native_client_get_bootstrap (HBaseNativeClient *self)
{
  return (const char *const *) self->bootstrap;
}

guint
_hbase_native_client_get_connect_timeout (HBaseNativeClient *self)
{
  return connect_timeout (self);
}

char *
_hbase_native_client_dup_master (HBaseNativeClient *self)
{
  char *master;

  g_mutex_lock (&self->lock);
  master = g_strdup (self->master);
  g_mutex_unlock (&self->lock);
  return master;
}

void
_hbase_native_client_set_master (HBaseNativeClient *self, const char *master)
{
  g_mutex_lock (&self->lock);
  g_free (self->master);
  self->master = g_strdup (master);
  g_mutex_unlock (&self->lock);
}
