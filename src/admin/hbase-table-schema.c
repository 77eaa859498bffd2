/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-table-schema.c: a table's definition read back (its column
 * families and regions) and changed family by family (alter, add,
 * delete), through the gateway's getTableDescriptor,
 * getAllRegionLocations and *ColumnFamily calls; on the native backend,
 * describe and the family changes through the master, the regions from
 * hbase:meta (hbase-admin-native.c). */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-admin.h>

#include "hbase-admin-private.h"

typedef HbaseThriftTHBaseServiceIf Service;

/* HBase's HConstants.FOREVER: a time to live that never expires */
#define TTL_FOREVER G_MAXINT32

G_DEFINE_BOXED_TYPE (HBaseRegionLocation, hbase_region_location, hbase_region_location_copy,
                     hbase_region_location_free)

/**
 * hbase_region_location_copy:
 * @location: a region location
 *
 * Copies @location and what it holds.
 *
 * Returns: (transfer full): a copy, freed with hbase_region_location_free()
 *
 * Since: 0.1
 */
HBaseRegionLocation *
hbase_region_location_copy (const HBaseRegionLocation *location)
{
  HBaseRegionLocation *copy;

  g_return_val_if_fail (location != NULL, NULL);
  copy = g_new0 (HBaseRegionLocation, 1);
  copy->start_key = location->start_key != NULL ? g_bytes_ref (location->start_key) : NULL;
  copy->end_key = location->end_key != NULL ? g_bytes_ref (location->end_key) : NULL;
  copy->server_host = g_strdup (location->server_host);
  copy->server_port = location->server_port;
  copy->region_id = location->region_id;
  return copy;
}

/**
 * hbase_region_location_free:
 * @location: (nullable): a region location
 *
 * Frees @location and what it holds.
 *
 * Since: 0.1
 */
void
hbase_region_location_free (HBaseRegionLocation *location)
{
  if (location == NULL)
    return;
  g_clear_pointer (&location->start_key, g_bytes_unref);
  g_clear_pointer (&location->end_key, g_bytes_unref);
  g_free (location->server_host);
  g_free (location);
}

/* --- conversions ------------------------------------------------------------------ */

static GBytes *
bytes_from_array (const GByteArray *array)
{
  if (array == NULL || array->len == 0)
    return g_bytes_new (NULL, 0);
  return g_bytes_new (array->data, array->len);
}

/* What HBaseFamilyOptions can say of a family descriptor.  LZO and BZIP2
 * compression read as %HBASE_COMPRESSION_NONE, a fixed-length row prefix
 * bloom filter as %HBASE_BLOOM_FILTER_DEFAULT: the options have no value
 * for them. */
static HBaseFamilyOptions *
family_options_from_thrift (const HbaseThriftTColumnFamilyDescriptor *family)
{
  HBaseFamilyOptions *options = hbase_family_options_new ();
  g_autofree char *name = g_strndup ((const char *) family->name->data, family->name->len);

  hbase_family_options_set_name (options, name);
  if (family->__isset_maxVersions && family->maxVersions > 0)
    options->max_versions = (guint) family->maxVersions;
  if (family->__isset_timeToLive && family->timeToLive > 0 && family->timeToLive != TTL_FOREVER)
    options->time_to_live = (guint) family->timeToLive;
  if (family->__isset_compressionType)
    switch (family->compressionType)
      {
      case HBASE_THRIFT_T_COMPRESSION_ALGORITHM_GZ: options->compression = HBASE_COMPRESSION_GZ; break;
      case HBASE_THRIFT_T_COMPRESSION_ALGORITHM_SNAPPY: options->compression = HBASE_COMPRESSION_SNAPPY; break;
      case HBASE_THRIFT_T_COMPRESSION_ALGORITHM_LZ4: options->compression = HBASE_COMPRESSION_LZ4; break;
      case HBASE_THRIFT_T_COMPRESSION_ALGORITHM_ZSTD: options->compression = HBASE_COMPRESSION_ZSTD; break;
      default: options->compression = HBASE_COMPRESSION_NONE; break;
      }
  if (family->__isset_bloomnFilterType)
    switch (family->bloomnFilterType)
      {
      case HBASE_THRIFT_T_BLOOM_FILTER_TYPE_NONE: options->bloom_filter = HBASE_BLOOM_FILTER_NONE; break;
      case HBASE_THRIFT_T_BLOOM_FILTER_TYPE_ROW: options->bloom_filter = HBASE_BLOOM_FILTER_ROW; break;
      case HBASE_THRIFT_T_BLOOM_FILTER_TYPE_ROWCOL: options->bloom_filter = HBASE_BLOOM_FILTER_ROWCOL; break;
      default: options->bloom_filter = HBASE_BLOOM_FILTER_DEFAULT; break;
      }
  options->in_memory = family->__isset_inMemory && family->inMemory;
  options->block_cache_disabled = family->__isset_blockCacheEnabled && !family->blockCacheEnabled;
  return options;
}

static HBaseRegionLocation *
region_location_from_thrift (const HbaseThriftTHRegionLocation *thrift)
{
  HBaseRegionLocation *location = g_new0 (HBaseRegionLocation, 1);
  const HbaseThriftTHRegionInfo *info = thrift->regionInfo;
  const HbaseThriftTServerName *server = thrift->serverName;

  location->start_key = bytes_from_array (info != NULL && info->__isset_startKey ? info->startKey : NULL);
  location->end_key = bytes_from_array (info != NULL && info->__isset_endKey ? info->endKey : NULL);
  location->region_id = info != NULL ? info->regionId : 0;
  location->server_host = g_strdup (server != NULL && server->hostName != NULL ? server->hostName : "");
  location->server_port = server != NULL && server->__isset_port && server->port > 0 ? (guint) server->port : 0;
  return location;
}

/* --- the calls --------------------------------------------------------------------- */

typedef enum {
  SCHEMA_DESCRIBE,
  SCHEMA_REGIONS,
  SCHEMA_ALTER_FAMILY,
  SCHEMA_ADD_FAMILY,
  SCHEMA_DELETE_FAMILY,
} SchemaOp;

typedef struct {
  SchemaOp op;
  HbaseThriftTTableName *name;
  GByteArray *table_bytes;                        /* SCHEMA_REGIONS */
  HbaseThriftTColumnFamilyDescriptor *family;     /* SCHEMA_ALTER_FAMILY, SCHEMA_ADD_FAMILY */
  GByteArray *family_name;                        /* SCHEMA_DELETE_FAMILY */
  GPtrArray *result;                              /* set by a successful attempt */
} SchemaCall;

static gboolean
schema_once (Service *service, gpointer user_data, GError **error)
{
  SchemaCall *call = user_data;
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;
  gboolean ok = FALSE;

  switch (call->op)
    {
    case SCHEMA_DESCRIBE:
      {
        g_autoptr(HbaseThriftTTableDescriptor) desc = g_object_new (HBASE_THRIFT_TYPE_T_TABLE_DESCRIPTOR, NULL);

        ok = hbase_thrift_t_h_base_service_if_get_table_descriptor (service, &desc, call->name, &io, &call_error);
        if (ok)
          {
            g_clear_pointer (&call->result, g_ptr_array_unref);
            call->result = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_family_options_free);
            for (guint i = 0; desc->__isset_columns && desc->columns != NULL && i < desc->columns->len; i++)
              g_ptr_array_add (call->result, family_options_from_thrift (g_ptr_array_index (desc->columns, i)));
          }
        break;
      }
    case SCHEMA_REGIONS:
      {
        g_autoptr(GPtrArray) found = g_ptr_array_new_with_free_func (g_object_unref);

        ok = hbase_thrift_t_h_base_service_if_get_all_region_locations (service, &found, call->table_bytes,
                                                                        &io, &call_error);
        if (ok)
          {
            g_clear_pointer (&call->result, g_ptr_array_unref);
            call->result = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_region_location_free);
            for (guint i = 0; i < found->len; i++)
              g_ptr_array_add (call->result, region_location_from_thrift (g_ptr_array_index (found, i)));
          }
        break;
      }
    case SCHEMA_ALTER_FAMILY:
      ok = hbase_thrift_t_h_base_service_if_modify_column_family (service, call->name, call->family,
                                                                 &io, &call_error);
      break;
    case SCHEMA_ADD_FAMILY:
      ok = hbase_thrift_t_h_base_service_if_add_column_family (service, call->name, call->family, &io, &call_error);
      break;
    case SCHEMA_DELETE_FAMILY:
      ok = hbase_thrift_t_h_base_service_if_delete_column_family (service, call->name, call->family_name,
                                                                 &io, &call_error);
      break;
    }
  if (!ok)
    hbase_error_take_call_error (error, call_error, io, NULL);
  return ok;
}

static const char *const schema_what[] = {
  "describe table", "list the regions of table", "alter a family of table", "add a family to table",
  "delete a family of table",
};

/* Runs @op on @table; returns the result array (describe, regions), or
 * an empty one for the others; NULL with @error set on failure. */
static GPtrArray *
schema_run (HBaseClient *client, SchemaOp op, const char *table, const HBaseFamilyOptions *family,
            const char *family_name, GCancellable *cancellable, GError **error)
{
  SchemaCall call = { op, NULL, NULL, NULL, NULL, NULL };
  gboolean read_only = op == SCHEMA_DESCRIBE || op == SCHEMA_REGIONS;
  GError *local = NULL;

  if (!_hbase_check_table_name (table, error))
    return NULL;
  if (family != NULL && !_hbase_admin_check_family_name (family->name, error))
    return NULL;
  if (family_name != NULL && !_hbase_admin_check_family_name (family_name, error))
    return NULL;
  if (_hbase_admin_is_native (client) && !read_only)
    {
      if (_hbase_admin_native_family_op (client, op == SCHEMA_ADD_FAMILY, table, family, family_name,
                                         cancellable, error))
        return g_ptr_array_new ();
      g_prefix_error (error, "%s %s: ", schema_what[op], table);
      return NULL;
    }
  call.name = _hbase_admin_table_name_new (table);
  if (op == SCHEMA_REGIONS)
    call.table_bytes = _hbase_byte_array_from_string (table);
  if (family != NULL)
    call.family = _hbase_admin_family_descriptor_new (family);
  if (family_name != NULL)
    call.family_name = _hbase_byte_array_from_string (family_name);
  /* a change resent after it reached the server fails ("already exists"),
   * so only reads are retried */
  if (!hbase_client_call (client, read_only ? HBASE_CALL_IDEMPOTENT | HBASE_CALL_READ_ONLY : HBASE_CALL_DEFAULT,
                          schema_once, &call, cancellable, &local))
    {
      g_clear_pointer (&call.result, g_ptr_array_unref);
      _hbase_admin_classify_table_error (client, call.name, cancellable, local);
      g_prefix_error (&local, "%s %s: ", schema_what[op], table);
      g_propagate_error (error, local);
    }
  else if (call.result == NULL)
    call.result = g_ptr_array_new ();
  g_clear_object (&call.name);
  g_clear_pointer (&call.table_bytes, g_byte_array_unref);
  g_clear_object (&call.family);
  g_clear_pointer (&call.family_name, g_byte_array_unref);
  return call.result;
}

static gboolean
schema_change (HBaseClient *client, SchemaOp op, const char *table, const HBaseFamilyOptions *family,
               const char *family_name, GCancellable *cancellable, GError **error)
{
  g_autoptr(GPtrArray) done = schema_run (client, op, table, family, family_name, cancellable, error);

  return done != NULL;
}

/**
 * hbase_client_describe_table:
 * @client: a client
 * @table: the table's name, "name" or "namespace:name"
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * The column families of a table, with their options as HBase has them:
 * @max_versions is HBase's number (1 by default), @time_to_live is 0 for
 * cells that never expire.  A compression or bloom filter these options
 * cannot name (LZO, BZIP2; a row prefix bloom filter) reads as
 * %HBASE_COMPRESSION_NONE or %HBASE_BLOOM_FILTER_DEFAULT.  A missing table
 * fails with %HBASE_ERROR_NOT_FOUND.
 *
 * Returns: (transfer container) (element-type HBaseFamilyOptions) (nullable):
 *   the families, in HBase's order, each owning its name; %NULL with
 *   @error set
 *
 * Since: 0.1
 */
GPtrArray *
hbase_client_describe_table (HBaseClient *client, const char *table, GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (HBASE_IS_CLIENT (client), NULL);
  if (_hbase_admin_is_native (client))
    {
      GPtrArray *described;

      if (!_hbase_check_table_name (table, error))
        return NULL;
      described = _hbase_admin_native_describe_table (client, table, cancellable, error);
      if (described == NULL)
        g_prefix_error (error, "%s %s: ", schema_what[SCHEMA_DESCRIBE], table);
      return described;
    }
  return schema_run (client, SCHEMA_DESCRIBE, table, NULL, NULL, cancellable, error);
}

/**
 * hbase_client_get_table_regions:
 * @client: a client
 * @table: the table's name, "name" or "namespace:name"
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * The regions of a table, in key order, with the server of each.  The
 * first region's start key and the last one's end key are empty.
 *
 * Returns: (transfer container) (element-type HBaseRegionLocation) (nullable):
 *   the regions, or %NULL with @error set
 *
 * Since: 0.1
 */
GPtrArray *
hbase_client_get_table_regions (HBaseClient *client, const char *table, GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (HBASE_IS_CLIENT (client), NULL);
  if (_hbase_admin_is_native (client))
    {
      GPtrArray *regions;

      if (!_hbase_check_table_name (table, error))
        return NULL;
      regions = _hbase_admin_native_table_regions (client, table, cancellable, error);
      if (regions == NULL)
        g_prefix_error (error, "%s %s: ", schema_what[SCHEMA_REGIONS], table);
      return regions;
    }
  return schema_run (client, SCHEMA_REGIONS, table, NULL, NULL, cancellable, error);
}

/**
 * hbase_client_alter_family:
 * @client: a client
 * @table: the table's name, "name" or "namespace:name"
 * @family: the family's new options; @family->name names the family
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Replaces the options of an existing column family with @family: an
 * option left at its default goes back to HBase's default.  To change
 * one option, start from the family as hbase_client_describe_table()
 * returns it.  The family's settings that #HBaseFamilyOptions does not
 * hold (block size, data block encoding, minimum versions, replication
 * scope, its configuration; an LZO or BZIP2 compression) go back to
 * HBase's defaults too: the gateway builds the new descriptor from the
 * fields sent only.  HBase reopens the table's regions; the data stays.
 * The call is not retried once it may have reached the gateway.
 *
 * Returns: %TRUE when HBase changed the family
 *
 * Since: 0.1
 */
gboolean
hbase_client_alter_family (HBaseClient *client, const char *table, const HBaseFamilyOptions *family,
                           GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (HBASE_IS_CLIENT (client), FALSE);
  g_return_val_if_fail (family != NULL, FALSE);
  return schema_change (client, SCHEMA_ALTER_FAMILY, table, family, NULL, cancellable, error);
}

/**
 * hbase_client_add_family:
 * @client: a client
 * @table: the table's name, "name" or "namespace:name"
 * @family: the new family and its options
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Adds a column family to an existing table.  A family that exists
 * already fails with %HBASE_ERROR_IO and HBase's message.
 *
 * Returns: %TRUE when the family was added
 *
 * Since: 0.1
 */
gboolean
hbase_client_add_family (HBaseClient *client, const char *table, const HBaseFamilyOptions *family,
                         GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (HBASE_IS_CLIENT (client), FALSE);
  g_return_val_if_fail (family != NULL, FALSE);
  return schema_change (client, SCHEMA_ADD_FAMILY, table, family, NULL, cancellable, error);
}

/**
 * hbase_client_delete_family:
 * @client: a client
 * @table: the table's name, "name" or "namespace:name"
 * @family: the name of the family to delete
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Deletes a column family and all its cells.  HBase refuses to delete
 * the last family of a table (%HBASE_ERROR_IO).  Not possible over
 * %HBASE_TRANSPORT_FRAMED (%HBASE_ERROR_ILLEGAL_ARGUMENT, nothing sent):
 * the HBase 2.6 gateway reads the family name there as the whole request
 * frame, as it does split keys (see hbase_client_create_table()).
 *
 * Returns: %TRUE when the family was deleted
 *
 * Since: 0.1
 */
gboolean
hbase_client_delete_family (HBaseClient *client, const char *table, const char *family,
                            GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (HBASE_IS_CLIENT (client), FALSE);
  g_return_val_if_fail (family != NULL, FALSE);
  if (!_hbase_admin_is_native (client) &&
      hbase_config_get_transport (hbase_client_get_config (client)) == HBASE_TRANSPORT_FRAMED)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "delete a family of table %s: not possible over framed transport (the HBase Thrift2 "
                   "gateway reads the family name wrongly there); use a buffered gateway", table);
      return FALSE;
    }
  return schema_change (client, SCHEMA_DELETE_FAMILY, table, NULL, family, cancellable, error);
}
