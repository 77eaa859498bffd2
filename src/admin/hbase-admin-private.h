/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-admin-private.h: what the files of the admin layer share (names,
 * checks and descriptors of hbase-admin.c). */
#ifndef HBASE_ADMIN_PRIVATE_H
#define HBASE_ADMIN_PRIVATE_H

#include <hbase-glib/hbase-admin.h>
#include "../table/hbase-table-private.h"

G_BEGIN_DECLS

/* "ns:name" or "name" as a TTableName (the name already checked). */
HbaseThriftTTableName              *_hbase_admin_table_name_new        (const char *table);
/* HBase's rule for a family name; HBASE_ERROR_ILLEGAL_ARGUMENT otherwise. */
gboolean                            _hbase_admin_check_family_name     (const char *name,
                                                                        GError    **error);
/* The descriptor sent for @options (only the fields they set). */
HbaseThriftTColumnFamilyDescriptor *_hbase_admin_family_descriptor_new (const HBaseFamilyOptions *options);
/* An I/O error about a table that does not exist becomes
 * HBASE_ERROR_NOT_FOUND ("no such table: ..."). */
void                                _hbase_admin_classify_table_error  (HBaseClient           *client,
                                                                        HbaseThriftTTableName *name,
                                                                        GCancellable          *cancellable,
                                                                        GError                *error);

/* The native backend (hbase-admin-native.c): the same calls through the
 * master, names and arguments already checked. */
typedef enum {
  HBASE_ADMIN_NATIVE_ENABLE,
  HBASE_ADMIN_NATIVE_DISABLE,
  HBASE_ADMIN_NATIVE_DELETE,     /* disabled first when enabled */
  HBASE_ADMIN_NATIVE_TRUNCATE,   /* the same */
} HBaseAdminNativeOp;

gboolean _hbase_admin_is_native                (HBaseClient              *client);
gboolean _hbase_admin_native_create_table      (HBaseClient              *client,
                                                const char               *table,
                                                const HBaseFamilyOptions *families,
                                                guint                     n_families,
                                                GPtrArray                *split_keys,
                                                GCancellable             *cancellable,
                                                GError                  **error);
/* HBaseFamilyOptions *, as hbase_client_describe_table() gives them. */
GPtrArray *_hbase_admin_native_describe_table  (HBaseClient              *client,
                                                const char               *table,
                                                GCancellable             *cancellable,
                                                GError                  **error);
/* HBaseRegionLocation *, in key order, read from hbase:meta. */
GPtrArray *_hbase_admin_native_table_regions   (HBaseClient              *client,
                                                const char               *table,
                                                GCancellable             *cancellable,
                                                GError                  **error);
/* Adds (@add) or replaces @family, or deletes the family @family_name
 * when it is not NULL. */
gboolean _hbase_admin_native_family_op         (HBaseClient              *client,
                                                gboolean                  add,
                                                const char               *table,
                                                const HBaseFamilyOptions *family,
                                                const char               *family_name,
                                                GCancellable             *cancellable,
                                                GError                  **error);
gboolean _hbase_admin_native_table_exists      (HBaseClient              *client,
                                                const char               *table,
                                                gboolean                 *exists,
                                                GCancellable             *cancellable,
                                                GError                  **error);
gboolean _hbase_admin_native_is_table_enabled  (HBaseClient              *client,
                                                const char               *table,
                                                gboolean                 *enabled,
                                                GCancellable             *cancellable,
                                                GError                  **error);
gboolean _hbase_admin_native_table_op          (HBaseClient              *client,
                                                HBaseAdminNativeOp        op,
                                                const char               *table,
                                                gboolean                  preserve_splits,
                                                GCancellable             *cancellable,
                                                GError                  **error);
/* Sorted, NULL-terminated. */
char   **_hbase_admin_native_list_tables       (HBaseClient              *client,
                                                const char               *namespace_,
                                                GCancellable             *cancellable,
                                                GError                  **error);
gboolean _hbase_admin_native_namespace_op      (HBaseClient              *client,
                                                const char               *name,
                                                gboolean                  create,
                                                GCancellable             *cancellable,
                                                GError                  **error);

G_END_DECLS

#endif /* HBASE_ADMIN_PRIVATE_H */
