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

G_END_DECLS

#endif /* HBASE_ADMIN_PRIVATE_H */
