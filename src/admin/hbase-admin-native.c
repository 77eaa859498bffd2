/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-admin-native.c: the table and namespace calls of hbase-admin.c on
 * a client of the native backend, through the master's MasterService
 * (src/native/hbase-native-master.h).  The results and errors are those of
 * the Thrift2 path: the same checks before anything is sent (done by the
 * caller), the same families (a family's descriptor holds HBase's default
 * values plus what HBaseFamilyOptions set, as the gateway's
 * ColumnFamilyDescriptorBuilder makes it), "no such table" and "no such
 * namespace" as HBASE_ERROR_NOT_FOUND, HBase's other errors with their
 * class and message; a described family reads as the gateway reads it.
 */
#include "config.h"

#include <string.h>

#include "hbase-admin-private.h"
#include "../connection/hbase-connection-private.h"
#include "../table/hbase-table-native.h"
#include "../core/hbase-error-private.h"
#include "../native/hbase-native-master.h"

gboolean
_hbase_admin_is_native (HBaseClient *client)
{
  return _hbase_client_get_backend (client) != HBASE_BACKEND_THRIFT2;
}

static HBaseNativeClient *
native_of (HBaseClient *client)
{
  return _hbase_table_native_client_of (client);
}

static const char *
compression_name (HBaseCompression compression)
{
  switch (compression)
    {
    case HBASE_COMPRESSION_GZ: return "GZ";
    case HBASE_COMPRESSION_SNAPPY: return "SNAPPY";
    case HBASE_COMPRESSION_LZ4: return "LZ4";
    case HBASE_COMPRESSION_ZSTD: return "ZSTD";
    case HBASE_COMPRESSION_NONE:
    default: return "NONE";
    }
}

static void
put_value (GHashTable *values, const char *key, char *value)
{
  g_hash_table_replace (values, g_strdup (key), value);
}

/* The family the gateway would make of @options: the builder's default
 * values (ColumnFamilyDescriptorBuilder.DEFAULT_VALUES), then each value
 * _hbase_admin_family_descriptor_new() sets, as its setter writes it. */
static HBaseNativeFamily *
family_of (const HBaseFamilyOptions *options)
{
  HBaseNativeFamily *family = g_new0 (HBaseNativeFamily, 1);
  GHashTable *values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  family->name = g_strdup (options->name);
  family->values = values;
  put_value (values, "BLOOMFILTER", g_strdup ("ROW"));
  put_value (values, "REPLICATION_SCOPE", g_strdup ("0"));
  put_value (values, "VERSIONS", g_strdup ("1"));
  put_value (values, "MIN_VERSIONS", g_strdup ("0"));
  put_value (values, "COMPRESSION", g_strdup ("NONE"));
  put_value (values, "TTL", g_strdup_printf ("%d", G_MAXINT32));
  put_value (values, "BLOCKSIZE", g_strdup ("65536"));
  put_value (values, "IN_MEMORY", g_strdup ("false"));
  put_value (values, "BLOCKCACHE", g_strdup ("true"));
  put_value (values, "KEEP_DELETED_CELLS", g_strdup ("FALSE"));
  put_value (values, "DATA_BLOCK_ENCODING", g_strdup ("NONE"));
  if (options->max_versions > 0)
    put_value (values, "VERSIONS", g_strdup_printf ("%u", (guint) options->max_versions));
  if (options->time_to_live > 0)
    put_value (values, "TTL", g_strdup_printf ("%u", (guint) options->time_to_live));
  put_value (values, "COMPRESSION", g_strdup (compression_name (options->compression)));
  if (options->bloom_filter != HBASE_BLOOM_FILTER_DEFAULT)
    put_value (values, "BLOOMFILTER",
               g_strdup (options->bloom_filter == HBASE_BLOOM_FILTER_ROWCOL ? "ROWCOL"
                         : options->bloom_filter == HBASE_BLOOM_FILTER_ROW ? "ROW" : "NONE"));
  put_value (values, "IN_MEMORY", g_strdup (options->in_memory ? "true" : "false"));
  put_value (values, "BLOCKCACHE", g_strdup (options->block_cache_disabled ? "false" : "true"));
  return family;
}

gboolean
_hbase_admin_native_create_table (HBaseClient *client, const char *table,
                                  const HBaseFamilyOptions *families, guint n_families,
                                  GPtrArray *split_keys, GCancellable *cancellable, GError **error)
{
  g_autoptr(GPtrArray) natives =
    g_ptr_array_new_with_free_func ((GDestroyNotify) _hbase_native_family_free);

  for (guint i = 0; i < n_families; i++)
    g_ptr_array_add (natives, family_of (&families[i]));
  return _hbase_native_master_create_table (native_of (client), table, natives, split_keys,
                                            cancellable, error);
}

/* Java's Integer.parseInt of a descriptor value, or @fallback when absent
 * or not a number (HBase would refuse to read such a descriptor). */
static gint64
int_value (GHashTable *values, const char *key, gint64 fallback)
{
  const char *text = g_hash_table_lookup (values, key);
  gint64 value;

  if (text == NULL || !g_ascii_string_to_signed (text, 10, G_MININT32, G_MAXINT32, &value, NULL))
    return fallback;
  return value;
}

/* Java's Boolean.parseBoolean, @fallback when absent. */
static gboolean
bool_value (GHashTable *values, const char *key, gboolean fallback)
{
  const char *text = g_hash_table_lookup (values, key);

  return text == NULL ? fallback : g_ascii_strcasecmp (text, "true") == 0;
}

/* What the Thrift2 path reads of a family: the gateway takes HBase's
 * getters (the default where a value is absent) and maps them to its
 * enums (LZO, BZIP2 to NONE; a row prefix bloom filter to what the options
 * read as DEFAULT); hbase-table-schema.c then makes the options. */
static HBaseFamilyOptions *
options_of (const HBaseNativeFamily *family)
{
  HBaseFamilyOptions *options = hbase_family_options_new ();
  const char *compression = g_hash_table_lookup (family->values, "COMPRESSION");
  const char *bloom = g_hash_table_lookup (family->values, "BLOOMFILTER");
  gint64 versions = int_value (family->values, "VERSIONS", 1);
  gint64 ttl = int_value (family->values, "TTL", G_MAXINT32);

  hbase_family_options_set_name (options, family->name);
  if (versions > 0)
    options->max_versions = (guint) versions;
  if (ttl > 0 && ttl != G_MAXINT32)
    options->time_to_live = (guint) ttl;
  options->compression = HBASE_COMPRESSION_NONE;
  if (compression != NULL)
    {
      if (g_ascii_strcasecmp (compression, "GZ") == 0)
        options->compression = HBASE_COMPRESSION_GZ;
      else if (g_ascii_strcasecmp (compression, "SNAPPY") == 0)
        options->compression = HBASE_COMPRESSION_SNAPPY;
      else if (g_ascii_strcasecmp (compression, "LZ4") == 0)
        options->compression = HBASE_COMPRESSION_LZ4;
      else if (g_ascii_strcasecmp (compression, "ZSTD") == 0)
        options->compression = HBASE_COMPRESSION_ZSTD;
    }
  if (bloom == NULL || g_ascii_strcasecmp (bloom, "ROW") == 0)
    options->bloom_filter = HBASE_BLOOM_FILTER_ROW;
  else if (g_ascii_strcasecmp (bloom, "NONE") == 0)
    options->bloom_filter = HBASE_BLOOM_FILTER_NONE;
  else if (g_ascii_strcasecmp (bloom, "ROWCOL") == 0)
    options->bloom_filter = HBASE_BLOOM_FILTER_ROWCOL;
  else
    options->bloom_filter = HBASE_BLOOM_FILTER_DEFAULT;
  options->in_memory = bool_value (family->values, "IN_MEMORY", FALSE);
  options->block_cache_disabled = !bool_value (family->values, "BLOCKCACHE", TRUE);
  return options;
}

GPtrArray *
_hbase_admin_native_describe_table (HBaseClient *client, const char *table,
                                    GCancellable *cancellable, GError **error)
{
  g_autoptr(GPtrArray) families = _hbase_native_master_table_families (native_of (client), table,
                                                                       cancellable, error);
  GPtrArray *described;

  if (families == NULL)
    return NULL;
  described = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_family_options_free);
  for (guint i = 0; i < families->len; i++)
    g_ptr_array_add (described, options_of (families->pdata[i]));
  return described;
}

gboolean
_hbase_admin_native_family_op (HBaseClient *client, gboolean add, const char *table,
                               const HBaseFamilyOptions *family, const char *family_name,
                               GCancellable *cancellable, GError **error)
{
  HBaseNativeClient *native = native_of (client);

  if (family_name != NULL)
    {
      HBaseNativeFamily named = { (char *) family_name, NULL };

      return _hbase_native_master_family_op (native, HBASE_NATIVE_FAMILY_DELETE, table, &named,
                                             cancellable, error);
    }
  {
    HBaseNativeFamily *made = family_of (family);
    gboolean ok = _hbase_native_master_family_op (native, add ? HBASE_NATIVE_FAMILY_ADD
                                                              : HBASE_NATIVE_FAMILY_MODIFY,
                                                  table, made, cancellable, error);

    _hbase_native_family_free (made);
    return ok;
  }
}

GPtrArray *
_hbase_admin_native_table_regions (HBaseClient *client, const char *table,
                                   GCancellable *cancellable, GError **error)
{
  HBaseNativeClient *native = native_of (client);
  g_autoptr(GPtrArray) regions =
    g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_region_location_free);
  g_autoptr(GBytes) row = g_bytes_new (NULL, 0);
  gint64 deadline = _hbase_native_client_deadline (native);

  /* region after region from hbase:meta, each read afresh (a cached one is
   * dropped and looked up again), as the gateway's RegionLocator reads
   * them all from hbase:meta */
  for (;;)
    {
      g_autoptr(HBaseNativeRegion) region = NULL;
      HBaseRegionLocation *location;
      GError *local = NULL;

      region = _hbase_native_client_locate_by (native, table, row, deadline, cancellable, &local);
      if (region != NULL)
        {
          _hbase_native_client_forget (native, region->table, region->name);
          g_clear_pointer (&region, _hbase_native_region_free);
          region = _hbase_native_client_locate_by (native, table, row, deadline, cancellable, &local);
        }
      if (region == NULL)
        {
          if (g_error_matches (local, HBASE_ERROR, HBASE_ERROR_NOT_FOUND) && regions->len == 0)
            {
              _hbase_error_set_server_trace (local, local->message);
              g_free (local->message);
              local->message = g_strdup ("no such table");
            }
          g_propagate_error (error, local);
          return NULL;
        }
      location = g_new0 (HBaseRegionLocation, 1);
      location->start_key = g_bytes_ref (region->start_key);
      location->end_key = g_bytes_ref (region->end_key);
      location->server_host = g_strdup (region->host);
      location->server_port = region->port;
      location->region_id = (gint64) region->region_id;
      g_ptr_array_add (regions, location);
      if (g_bytes_get_size (region->end_key) == 0)
        break;
      g_bytes_unref (row);
      row = g_bytes_ref (region->end_key);
    }
  return g_steal_pointer (&regions);
}

gboolean
_hbase_admin_native_table_exists (HBaseClient *client, const char *table, gboolean *exists,
                                  GCancellable *cancellable, GError **error)
{
  return _hbase_native_master_table_exists (native_of (client), table, exists, cancellable, error);
}

gboolean
_hbase_admin_native_is_table_enabled (HBaseClient *client, const char *table, gboolean *enabled,
                                      GCancellable *cancellable, GError **error)
{
  return _hbase_native_master_is_table_enabled (native_of (client), table, enabled, cancellable,
                                                error);
}

gboolean
_hbase_admin_native_table_op (HBaseClient *client, HBaseAdminNativeOp op, const char *table,
                              gboolean preserve_splits, GCancellable *cancellable, GError **error)
{
  HBaseNativeClient *native = native_of (client);
  gboolean enabled = FALSE;

  switch (op)
    {
    case HBASE_ADMIN_NATIVE_ENABLE:
      return _hbase_native_master_table_op (native, HBASE_NATIVE_TABLE_ENABLE, table, cancellable, error);
    case HBASE_ADMIN_NATIVE_DISABLE:
      return _hbase_native_master_table_op (native, HBASE_NATIVE_TABLE_DISABLE, table, cancellable, error);
    case HBASE_ADMIN_NATIVE_DELETE:
    case HBASE_ADMIN_NATIVE_TRUNCATE:
      /* HBase deletes and truncates only disabled tables: disabled first,
       * as on the Thrift2 path */
      if (!_hbase_native_master_is_table_enabled (native, table, &enabled, cancellable, error))
        return FALSE;
      if (enabled &&
          !_hbase_native_master_table_op (native, HBASE_NATIVE_TABLE_DISABLE, table, cancellable, error))
        return FALSE;
      if (op == HBASE_ADMIN_NATIVE_DELETE)
        return _hbase_native_master_table_op (native, HBASE_NATIVE_TABLE_DELETE, table, cancellable, error);
      return _hbase_native_master_table_op (native,
                                            preserve_splits ? HBASE_NATIVE_TABLE_TRUNCATE_PRESERVING_SPLITS
                                                            : HBASE_NATIVE_TABLE_TRUNCATE,
                                            table, cancellable, error);
    }
  g_return_val_if_reached (FALSE);
}

static gint
compare_strings (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

char **
_hbase_admin_native_list_tables (HBaseClient *client, const char *namespace_,
                                 GCancellable *cancellable, GError **error)
{
  GPtrArray *names = _hbase_native_master_list_tables (native_of (client), namespace_, cancellable,
                                                       error);

  if (names == NULL)
    return NULL;
  g_ptr_array_sort (names, compare_strings);
  g_ptr_array_add (names, NULL);
  return (char **) g_ptr_array_free (names, FALSE);
}

gboolean
_hbase_admin_native_namespace_op (HBaseClient *client, const char *name, gboolean create,
                                  GCancellable *cancellable, GError **error)
{
  if (create)
    return _hbase_native_master_create_namespace (native_of (client), name, cancellable, error);
  return _hbase_native_master_delete_namespace (native_of (client), name, cancellable, error);
}
