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
 * %HBASE_FAMILY_OPTIONS_INIT and set @name.
 */
typedef struct {
  const char *name;
  guint max_versions;
  guint time_to_live;
  HBaseCompression compression;
  HBaseBloomFilter bloom_filter;
  gboolean in_memory;
  gboolean block_cache_disabled;
} HBaseFamilyOptions;

#define HBASE_FAMILY_OPTIONS_INIT { NULL, 0, 0, HBASE_COMPRESSION_NONE, HBASE_BLOOM_FILTER_DEFAULT, FALSE, FALSE }

gboolean   hbase_admin_create_table    (HBaseClient              *client,
                                        const char               *table,
                                        const HBaseFamilyOptions *families,
                                        guint                     n_families,
                                        GPtrArray                *split_keys,
                                        GCancellable             *cancellable,
                                        GError                  **error);
gboolean   hbase_admin_delete_table    (HBaseClient              *client,
                                        const char               *table,
                                        GCancellable             *cancellable,
                                        GError                  **error);
gboolean   hbase_admin_truncate_table  (HBaseClient              *client,
                                        const char               *table,
                                        gboolean                  preserve_splits,
                                        GCancellable             *cancellable,
                                        GError                  **error);
gboolean   hbase_admin_enable_table    (HBaseClient              *client,
                                        const char               *table,
                                        GCancellable             *cancellable,
                                        GError                  **error);
gboolean   hbase_admin_disable_table   (HBaseClient              *client,
                                        const char               *table,
                                        GCancellable             *cancellable,
                                        GError                  **error);
gboolean   hbase_admin_table_exists    (HBaseClient              *client,
                                        const char               *table,
                                        gboolean                 *exists,
                                        GCancellable             *cancellable,
                                        GError                  **error);
gboolean   hbase_admin_is_table_enabled (HBaseClient             *client,
                                        const char               *table,
                                        gboolean                 *enabled,
                                        GCancellable             *cancellable,
                                        GError                  **error);
char     **hbase_admin_list_tables     (HBaseClient              *client,
                                        const char               *namespace_,
                                        GCancellable             *cancellable,
                                        GError                  **error);
gboolean   hbase_admin_create_namespace (HBaseClient             *client,
                                        const char               *name,
                                        GCancellable             *cancellable,
                                        GError                  **error);
gboolean   hbase_admin_delete_namespace (HBaseClient             *client,
                                        const char               *name,
                                        GCancellable             *cancellable,
                                        GError                  **error);

G_END_DECLS

#endif /* HBASE_ADMIN_H */
