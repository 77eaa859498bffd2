/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-admin.h: tables and namespaces: create, drop, list. */
#ifndef HBASE_ADMIN_H
#define HBASE_ADMIN_H

#if !defined(__HBASE_GLIB_INSIDE__) && !defined(HBASE_GLIB_COMPILATION)
#error "Only <hbase-glib/hbase-glib.h> can be included directly."
#endif

#include <gio/gio.h>

#include <hbase-glib/hbase-client.h>

G_BEGIN_DECLS

/**
 * HBaseCompression:
 * @HBASE_COMPRESSION_NONE: none
 * @HBASE_COMPRESSION_GZ: gzip
 * @HBASE_COMPRESSION_SNAPPY: snappy
 * @HBASE_COMPRESSION_LZ4: lz4
 * @HBASE_COMPRESSION_ZSTD: zstd
 *
 * Block compression of a column family (the gateway must have the codec).
 *
 * Since: 0.1
 */
typedef enum {
  HBASE_COMPRESSION_NONE,
  HBASE_COMPRESSION_GZ,
  HBASE_COMPRESSION_SNAPPY,
  HBASE_COMPRESSION_LZ4,
  HBASE_COMPRESSION_ZSTD,
} HBaseCompression;

/**
 * HBaseBloomFilter:
 * @HBASE_BLOOM_FILTER_DEFAULT: HBase's default (ROW)
 * @HBASE_BLOOM_FILTER_NONE: none
 * @HBASE_BLOOM_FILTER_ROW: by row
 * @HBASE_BLOOM_FILTER_ROWCOL: by row and column
 *
 * The bloom filter of a column family.
 *
 * Since: 0.1
 */
typedef enum {
  HBASE_BLOOM_FILTER_DEFAULT,
  HBASE_BLOOM_FILTER_NONE,
  HBASE_BLOOM_FILTER_ROW,
  HBASE_BLOOM_FILTER_ROWCOL,
} HBaseBloomFilter;

/**
 * HBaseFamilyOptions:
 * @name: the family's name
 * @max_versions: versions kept, 0 for HBase's default (1)
 * @time_to_live: seconds a cell lives, 0 for forever
 * @compression: block compression
 * @bloom_filter: bloom filter
 * @in_memory: give the family's blocks priority in the block cache
 * @block_cache_disabled: do not cache the family's blocks on read
 *
 * One column family of a table to create.  Initialise with
 * %HBASE_FAMILY_OPTIONS_INIT and set @name (or use
 * hbase_family_options_new() and hbase_family_options_set_name()).
 *
 * Who owns @name follows docs/api-conventions.md: a struct from
 * hbase_family_options_new() or hbase_family_options_copy() owns what its
 * setter stored (hbase_family_options_set_name() copies the name and frees
 * the previous one; hbase_family_options_free() releases it), while a
 * struct on the stack filled with initialisers only borrows @name and is
 * never passed to the setter or to hbase_family_options_free().
 *
 * Since: 0.1
 */
typedef struct {
  const char *name;
  guint max_versions;
  guint time_to_live;
  HBaseCompression compression;
  HBaseBloomFilter bloom_filter;
  gboolean in_memory;
  gboolean block_cache_disabled;
  /*< private >*/
  gpointer padding[8];
} HBaseFamilyOptions;

/**
 * HBASE_FAMILY_OPTIONS_INIT:
 *
 * The defaults, with no name yet: HBase's number of versions, no expiry,
 * no compression, HBase's bloom filter, block cache used normally.
 *
 * Since: 0.1
 */
#define HBASE_FAMILY_OPTIONS_INIT { .name = NULL }

#define HBASE_TYPE_FAMILY_OPTIONS (hbase_family_options_get_type ())
GType               hbase_family_options_get_type (void) G_GNUC_CONST;
HBaseFamilyOptions *hbase_family_options_new      (void);
HBaseFamilyOptions *hbase_family_options_copy     (const HBaseFamilyOptions *options);
void                hbase_family_options_free     (HBaseFamilyOptions       *options);
void                hbase_family_options_set_name (HBaseFamilyOptions       *options,
                                                   const char               *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseFamilyOptions, hbase_family_options_free)

gboolean   hbase_client_create_table     (HBaseClient              *client,
                                          const char               *table,
                                          const HBaseFamilyOptions *families,
                                          guint                     n_families,
                                          GPtrArray                *split_keys,
                                          GCancellable             *cancellable,
                                          GError                  **error);
gboolean   hbase_client_delete_table     (HBaseClient              *client,
                                          const char               *table,
                                          GCancellable             *cancellable,
                                          GError                  **error);
gboolean   hbase_client_truncate_table   (HBaseClient              *client,
                                          const char               *table,
                                          gboolean                  preserve_splits,
                                          GCancellable             *cancellable,
                                          GError                  **error);
gboolean   hbase_client_enable_table     (HBaseClient              *client,
                                          const char               *table,
                                          GCancellable             *cancellable,
                                          GError                  **error);
gboolean   hbase_client_disable_table    (HBaseClient              *client,
                                          const char               *table,
                                          GCancellable             *cancellable,
                                          GError                  **error);
gboolean   hbase_client_table_exists     (HBaseClient              *client,
                                          const char               *table,
                                          gboolean                 *exists,
                                          GCancellable             *cancellable,
                                          GError                  **error);
gboolean   hbase_client_is_table_enabled (HBaseClient              *client,
                                          const char               *table,
                                          gboolean                 *enabled,
                                          GCancellable             *cancellable,
                                          GError                  **error);
char     **hbase_client_list_tables      (HBaseClient              *client,
                                          const char               *namespace_,
                                          GCancellable             *cancellable,
                                          GError                  **error);
gboolean   hbase_client_create_namespace (HBaseClient              *client,
                                          const char               *name,
                                          GCancellable             *cancellable,
                                          GError                  **error);
gboolean   hbase_client_delete_namespace (HBaseClient              *client,
                                          const char               *name,
                                          GCancellable             *cancellable,
                                          GError                  **error);

/* asynchronous variants */
void       hbase_client_create_table_async      (HBaseClient              *client,
                                                 const char               *table,
                                                 const HBaseFamilyOptions *families,
                                                 guint                     n_families,
                                                 GPtrArray                *split_keys,
                                                 GCancellable             *cancellable,
                                                 GAsyncReadyCallback       callback,
                                                 gpointer                  user_data);
gboolean   hbase_client_create_table_finish     (HBaseClient              *client,
                                                 GAsyncResult             *result,
                                                 GError                  **error);
void       hbase_client_delete_table_async      (HBaseClient              *client,
                                                 const char               *table,
                                                 GCancellable             *cancellable,
                                                 GAsyncReadyCallback       callback,
                                                 gpointer                  user_data);
gboolean   hbase_client_delete_table_finish     (HBaseClient              *client,
                                                 GAsyncResult             *result,
                                                 GError                  **error);
void       hbase_client_truncate_table_async    (HBaseClient              *client,
                                                 const char               *table,
                                                 gboolean                  preserve_splits,
                                                 GCancellable             *cancellable,
                                                 GAsyncReadyCallback       callback,
                                                 gpointer                  user_data);
gboolean   hbase_client_truncate_table_finish   (HBaseClient              *client,
                                                 GAsyncResult             *result,
                                                 GError                  **error);
void       hbase_client_enable_table_async      (HBaseClient              *client,
                                                 const char               *table,
                                                 GCancellable             *cancellable,
                                                 GAsyncReadyCallback       callback,
                                                 gpointer                  user_data);
gboolean   hbase_client_enable_table_finish     (HBaseClient              *client,
                                                 GAsyncResult             *result,
                                                 GError                  **error);
void       hbase_client_disable_table_async     (HBaseClient              *client,
                                                 const char               *table,
                                                 GCancellable             *cancellable,
                                                 GAsyncReadyCallback       callback,
                                                 gpointer                  user_data);
gboolean   hbase_client_disable_table_finish    (HBaseClient              *client,
                                                 GAsyncResult             *result,
                                                 GError                  **error);
void       hbase_client_table_exists_async      (HBaseClient              *client,
                                                 const char               *table,
                                                 GCancellable             *cancellable,
                                                 GAsyncReadyCallback       callback,
                                                 gpointer                  user_data);
gboolean   hbase_client_table_exists_finish     (HBaseClient              *client,
                                                 GAsyncResult             *result,
                                                 gboolean                 *exists,
                                                 GError                  **error);
void       hbase_client_is_table_enabled_async  (HBaseClient              *client,
                                                 const char               *table,
                                                 GCancellable             *cancellable,
                                                 GAsyncReadyCallback       callback,
                                                 gpointer                  user_data);
gboolean   hbase_client_is_table_enabled_finish (HBaseClient              *client,
                                                 GAsyncResult             *result,
                                                 gboolean                 *enabled,
                                                 GError                  **error);
void       hbase_client_list_tables_async       (HBaseClient              *client,
                                                 const char               *namespace_,
                                                 GCancellable             *cancellable,
                                                 GAsyncReadyCallback       callback,
                                                 gpointer                  user_data);
char     **hbase_client_list_tables_finish      (HBaseClient              *client,
                                                 GAsyncResult             *result,
                                                 GError                  **error);
void       hbase_client_create_namespace_async  (HBaseClient              *client,
                                                 const char               *name,
                                                 GCancellable             *cancellable,
                                                 GAsyncReadyCallback       callback,
                                                 gpointer                  user_data);
gboolean   hbase_client_create_namespace_finish (HBaseClient              *client,
                                                 GAsyncResult             *result,
                                                 GError                  **error);
void       hbase_client_delete_namespace_async  (HBaseClient              *client,
                                                 const char               *name,
                                                 GCancellable             *cancellable,
                                                 GAsyncReadyCallback       callback,
                                                 gpointer                  user_data);
gboolean   hbase_client_delete_namespace_finish (HBaseClient              *client,
                                                 GAsyncResult             *result,
                                                 GError                  **error);

/**
 * HBaseRegionLocation:
 * @start_key: the region's first row; empty for the table's first region
 * @end_key: the row the region stops before; empty for the last region
 * @server_host: the host name of the region server holding the region
 * @server_port: that server's port, 0 when the gateway did not say
 * @region_id: HBase's id of the region (its creation time)
 *
 * One region of a table and where it is, from
 * hbase_client_get_table_regions().
 *
 * Since: 0.1
 */
typedef struct {
  GBytes *start_key;
  GBytes *end_key;
  char *server_host;
  guint server_port;
  gint64 region_id;
  /*< private >*/
  gpointer padding[8];
} HBaseRegionLocation;

#define HBASE_TYPE_REGION_LOCATION (hbase_region_location_get_type ())
GType                hbase_region_location_get_type (void) G_GNUC_CONST;
HBaseRegionLocation *hbase_region_location_copy     (const HBaseRegionLocation *location);
void                 hbase_region_location_free     (HBaseRegionLocation       *location);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseRegionLocation, hbase_region_location_free)

GPtrArray *hbase_client_describe_table    (HBaseClient              *client,
                                           const char               *table,
                                           GCancellable             *cancellable,
                                           GError                  **error);
GPtrArray *hbase_client_get_table_regions (HBaseClient              *client,
                                           const char               *table,
                                           GCancellable             *cancellable,
                                           GError                  **error);
gboolean   hbase_client_alter_family      (HBaseClient              *client,
                                           const char               *table,
                                           const HBaseFamilyOptions *family,
                                           GCancellable             *cancellable,
                                           GError                  **error);
gboolean   hbase_client_add_family        (HBaseClient              *client,
                                           const char               *table,
                                           const HBaseFamilyOptions *family,
                                           GCancellable             *cancellable,
                                           GError                  **error);
gboolean   hbase_client_delete_family     (HBaseClient              *client,
                                           const char               *table,
                                           const char               *family,
                                           GCancellable             *cancellable,
                                           GError                  **error);

void       hbase_client_describe_table_async     (HBaseClient              *client,
                                                  const char               *table,
                                                  GCancellable             *cancellable,
                                                  GAsyncReadyCallback       callback,
                                                  gpointer                  user_data);
GPtrArray *hbase_client_describe_table_finish    (HBaseClient              *client,
                                                  GAsyncResult             *result,
                                                  GError                  **error);
void       hbase_client_get_table_regions_async  (HBaseClient              *client,
                                                  const char               *table,
                                                  GCancellable             *cancellable,
                                                  GAsyncReadyCallback       callback,
                                                  gpointer                  user_data);
GPtrArray *hbase_client_get_table_regions_finish (HBaseClient              *client,
                                                  GAsyncResult             *result,
                                                  GError                  **error);
void       hbase_client_alter_family_async       (HBaseClient              *client,
                                                  const char               *table,
                                                  const HBaseFamilyOptions *family,
                                                  GCancellable             *cancellable,
                                                  GAsyncReadyCallback       callback,
                                                  gpointer                  user_data);
gboolean   hbase_client_alter_family_finish      (HBaseClient              *client,
                                                  GAsyncResult             *result,
                                                  GError                  **error);
void       hbase_client_add_family_async         (HBaseClient              *client,
                                                  const char               *table,
                                                  const HBaseFamilyOptions *family,
                                                  GCancellable             *cancellable,
                                                  GAsyncReadyCallback       callback,
                                                  gpointer                  user_data);
gboolean   hbase_client_add_family_finish        (HBaseClient              *client,
                                                  GAsyncResult             *result,
                                                  GError                  **error);
void       hbase_client_delete_family_async      (HBaseClient              *client,
                                                  const char               *table,
                                                  const char               *family,
                                                  GCancellable             *cancellable,
                                                  GAsyncReadyCallback       callback,
                                                  gpointer                  user_data);
gboolean   hbase_client_delete_family_finish     (HBaseClient              *client,
                                                  GAsyncResult             *result,
                                                  GError                  **error);

/* deprecated: the 0.1 names, for one release (see NEWS) */
G_GNUC_DEPRECATED_FOR (hbase_client_create_namespace)
gboolean hbase_admin_create_namespace (HBaseClient *client, const char *name,
                                       GCancellable *cancellable, GError **error);
G_GNUC_DEPRECATED_FOR (hbase_client_delete_namespace)
gboolean hbase_admin_delete_namespace (HBaseClient *client, const char *name,
                                       GCancellable *cancellable, GError **error);
G_GNUC_DEPRECATED_FOR (hbase_client_create_table)
gboolean hbase_admin_create_table (HBaseClient *client, const char *table,
                                   const HBaseFamilyOptions *families, guint n_families,
                                   GPtrArray *split_keys, GCancellable *cancellable,
                                   GError **error);
G_GNUC_DEPRECATED_FOR (hbase_client_delete_table)
gboolean hbase_admin_delete_table (HBaseClient *client, const char *table, GCancellable *cancellable,
                                   GError **error);
G_GNUC_DEPRECATED_FOR (hbase_client_disable_table)
gboolean hbase_admin_disable_table (HBaseClient *client, const char *table,
                                    GCancellable *cancellable, GError **error);
G_GNUC_DEPRECATED_FOR (hbase_client_enable_table)
gboolean hbase_admin_enable_table (HBaseClient *client, const char *table, GCancellable *cancellable,
                                   GError **error);
G_GNUC_DEPRECATED_FOR (hbase_client_is_table_enabled)
gboolean hbase_admin_is_table_enabled (HBaseClient *client, const char *table, gboolean *enabled,
                                       GCancellable *cancellable, GError **error);
G_GNUC_DEPRECATED_FOR (hbase_client_list_tables)
char **hbase_admin_list_tables (HBaseClient *client, const char *namespace_,
                                GCancellable *cancellable, GError **error);
G_GNUC_DEPRECATED_FOR (hbase_client_table_exists)
gboolean hbase_admin_table_exists (HBaseClient *client, const char *table, gboolean *exists,
                                   GCancellable *cancellable, GError **error);
G_GNUC_DEPRECATED_FOR (hbase_client_truncate_table)
gboolean hbase_admin_truncate_table (HBaseClient *client, const char *table,
                                     gboolean preserve_splits, GCancellable *cancellable,
                                     GError **error);

G_END_DECLS

#endif /* HBASE_ADMIN_H */
