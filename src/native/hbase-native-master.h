/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-native-master.h (private): table and namespace administration over
 * HBase's own RPC, on the active master's MasterService (the master comes
 * from ClientMetaService.GetActiveMaster on the bootstrap servers): table
 * descriptors (a table's attributes, such as the secondary-index mark, and
 * its families),
 * existence, state, listing, create, delete, enable, disable, truncate,
 * adding, changing and deleting a family, namespaces.  Changes carry a nonce, so a call resent after a lost reply
 * starts no second procedure, and wait for the master's procedure to end
 * (getProcedureResult) as HBase's own admin client does.  Failed calls are
 * retried as the client's policy says (PleaseHold: the same master after a
 * pause; a master that is gone, not running yet or unreachable: ask the
 * registry again).  Only GLib types here: the admin layer needs no
 * protobuf.
 */
#ifndef HBASE_NATIVE_MASTER_H
#define HBASE_NATIVE_MASTER_H

#include <gio/gio.h>

#include "hbase-native-client.h"

G_BEGIN_DECLS

/* A column family to create: its name and its descriptor's values
 * (HBase's attribute keys and their text, e.g. "VERSIONS" "3"). */
typedef struct
{
  char       *name;
  GHashTable *values;   /* char * -> char * */
} HBaseNativeFamily;

void        _hbase_native_family_free (HBaseNativeFamily *family);

/* The value of table attribute @key of @table (*@value NULL when unset);
 * a missing table is HBASE_ERROR_NOT_FOUND ("no such table"). */
gboolean    _hbase_native_master_table_attribute (HBaseNativeClient *self,
                                                  const char        *table,
                                                  const char        *key,
                                                  char             **value,
                                                  GCancellable      *cancellable,
                                                  GError           **error);
/* Sets @table's attribute @key to @value (NULL: removes it) with a
 * ModifyTable of the descriptor the master has, every other setting as it
 * is; waited for.  A missing table is HBASE_ERROR_NOT_FOUND. */
gboolean    _hbase_native_master_set_table_attribute (HBaseNativeClient *self,
                                                      const char        *table,
                                                      const char        *key,
                                                      const char        *value,
                                                      GCancellable      *cancellable,
                                                      GError           **error);
/* The families of @table in the master's order, each with every value
 * its descriptor holds (HBaseNativeFamily *); a missing table is
 * HBASE_ERROR_NOT_FOUND ("no such table"). */
GPtrArray  *_hbase_native_master_table_families  (HBaseNativeClient *self,
                                                  const char        *table,
                                                  GCancellable      *cancellable,
                                                  GError           **error);
gboolean    _hbase_native_master_table_exists    (HBaseNativeClient *self,
                                                  const char        *table,
                                                  gboolean          *exists,
                                                  GCancellable      *cancellable,
                                                  GError           **error);
/* Enabled: the table's state is ENABLED; a missing table is
 * HBASE_ERROR_NOT_FOUND. */
gboolean    _hbase_native_master_is_table_enabled (HBaseNativeClient *self,
                                                   const char        *table,
                                                   gboolean          *enabled,
                                                   GCancellable      *cancellable,
                                                   GError           **error);
/* The user tables ("name" in the default namespace, "ns:name" elsewhere),
 * or those of @namespace_ (system tables too when it is "hbase"); not
 * sorted.  A missing namespace is HBASE_ERROR_NOT_FOUND. */
GPtrArray  *_hbase_native_master_list_tables     (HBaseNativeClient *self,
                                                  const char        *namespace_,
                                                  GCancellable      *cancellable,
                                                  GError           **error);

typedef enum
{
  HBASE_NATIVE_TABLE_ENABLE,
  HBASE_NATIVE_TABLE_DISABLE,
  HBASE_NATIVE_TABLE_DELETE,
  HBASE_NATIVE_TABLE_TRUNCATE,
  HBASE_NATIVE_TABLE_TRUNCATE_PRESERVING_SPLITS,
} HBaseNativeTableOp;

/* One change of @table, waited for until its procedure ends (or the
 * operation's deadline). */
gboolean    _hbase_native_master_table_op        (HBaseNativeClient  *self,
                                                  HBaseNativeTableOp  op,
                                                  const char         *table,
                                                  GCancellable       *cancellable,
                                                  GError            **error);
/* @families: HBaseNativeFamily *; @split_keys: GBytes * or NULL. */
gboolean    _hbase_native_master_create_table    (HBaseNativeClient *self,
                                                  const char        *table,
                                                  GPtrArray         *families,
                                                  GPtrArray         *split_keys,
                                                  GCancellable      *cancellable,
                                                  GError           **error);
/* AddColumn (@family), ModifyColumn (@family) or DeleteColumn (@family's
 * name only), waited for; a missing table is HBASE_ERROR_NOT_FOUND. */
typedef enum
{
  HBASE_NATIVE_FAMILY_ADD,
  HBASE_NATIVE_FAMILY_MODIFY,
  HBASE_NATIVE_FAMILY_DELETE,
} HBaseNativeFamilyOp;

gboolean    _hbase_native_master_family_op       (HBaseNativeClient       *self,
                                                  HBaseNativeFamilyOp      op,
                                                  const char              *table,
                                                  const HBaseNativeFamily *family,
                                                  GCancellable            *cancellable,
                                                  GError                 **error);
gboolean    _hbase_native_master_create_namespace (HBaseNativeClient *self,
                                                   const char        *name,
                                                   GCancellable      *cancellable,
                                                   GError           **error);
gboolean    _hbase_native_master_delete_namespace (HBaseNativeClient *self,
                                                   const char        *name,
                                                   GCancellable      *cancellable,
                                                   GError           **error);
/* The namespaces' names, not sorted. */
GPtrArray  *_hbase_native_master_list_namespaces  (HBaseNativeClient *self,
                                                   GCancellable      *cancellable,
                                                   GError           **error);

G_END_DECLS

#endif /* HBASE_NATIVE_MASTER_H */
