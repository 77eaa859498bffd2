/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-deprecated.c: the functions of 0.1 that 0.2 replaced, kept for one
 * release as thin wrappers over their replacements so that code written
 * for 0.1 builds (with a deprecation warning naming the new call) and runs.
 * NEWS lists each with its replacement.  Hidden from bindings (skip): they
 * have the replacements. */
#include "config.h"

#include <hbase-glib/hbase-glib.h>

/**
 * hbase_admin_create_namespace: (skip)
 * @client: see hbase_client_create_namespace()
 * @name: see hbase_client_create_namespace()
 * @cancellable: see hbase_client_create_namespace()
 * @error: see hbase_client_create_namespace()
 *
 * The 0.1 name of hbase_client_create_namespace().
 *
 * Returns: what hbase_client_create_namespace() returns
 *
 * Since: 0.1
 *
 * Deprecated: 0.2: Use hbase_client_create_namespace().
 */
gboolean
hbase_admin_create_namespace (HBaseClient *client, const char *name, GCancellable *cancellable,
                              GError **error)
{
  return hbase_client_create_namespace (client, name, cancellable, error);
}

/**
 * hbase_admin_delete_namespace: (skip)
 * @client: see hbase_client_delete_namespace()
 * @name: see hbase_client_delete_namespace()
 * @cancellable: see hbase_client_delete_namespace()
 * @error: see hbase_client_delete_namespace()
 *
 * The 0.1 name of hbase_client_delete_namespace().
 *
 * Returns: what hbase_client_delete_namespace() returns
 *
 * Since: 0.1
 *
 * Deprecated: 0.2: Use hbase_client_delete_namespace().
 */
gboolean
hbase_admin_delete_namespace (HBaseClient *client, const char *name, GCancellable *cancellable,
                              GError **error)
{
  return hbase_client_delete_namespace (client, name, cancellable, error);
}

/**
 * hbase_admin_create_table: (skip)
 * @client: see hbase_client_create_table()
 * @table: see hbase_client_create_table()
 * @families: see hbase_client_create_table()
 * @n_families: see hbase_client_create_table()
 * @split_keys: see hbase_client_create_table()
 * @cancellable: see hbase_client_create_table()
 * @error: see hbase_client_create_table()
 *
 * The 0.1 name of hbase_client_create_table().
 *
 * Returns: what hbase_client_create_table() returns
 *
 * Since: 0.1
 *
 * Deprecated: 0.2: Use hbase_client_create_table().
 */
gboolean
hbase_admin_create_table (HBaseClient *client, const char *table, const HBaseFamilyOptions *families,
                          guint n_families, GPtrArray *split_keys, GCancellable *cancellable,
                          GError **error)
{
  return hbase_client_create_table (client, table, families, n_families, split_keys, cancellable,
                                    error);
}

/**
 * hbase_admin_delete_table: (skip)
 * @client: see hbase_client_delete_table()
 * @table: see hbase_client_delete_table()
 * @cancellable: see hbase_client_delete_table()
 * @error: see hbase_client_delete_table()
 *
 * The 0.1 name of hbase_client_delete_table().
 *
 * Returns: what hbase_client_delete_table() returns
 *
 * Since: 0.1
 *
 * Deprecated: 0.2: Use hbase_client_delete_table().
 */
gboolean
hbase_admin_delete_table (HBaseClient *client, const char *table, GCancellable *cancellable,
                          GError **error)
{
  return hbase_client_delete_table (client, table, cancellable, error);
}

/**
 * hbase_admin_disable_table: (skip)
 * @client: see hbase_client_disable_table()
 * @table: see hbase_client_disable_table()
 * @cancellable: see hbase_client_disable_table()
 * @error: see hbase_client_disable_table()
 *
 * The 0.1 name of hbase_client_disable_table().
 *
 * Returns: what hbase_client_disable_table() returns
 *
 * Since: 0.1
 *
 * Deprecated: 0.2: Use hbase_client_disable_table().
 */
gboolean
hbase_admin_disable_table (HBaseClient *client, const char *table, GCancellable *cancellable,
                           GError **error)
{
  return hbase_client_disable_table (client, table, cancellable, error);
}

/**
 * hbase_admin_enable_table: (skip)
 * @client: see hbase_client_enable_table()
 * @table: see hbase_client_enable_table()
 * @cancellable: see hbase_client_enable_table()
 * @error: see hbase_client_enable_table()
 *
 * The 0.1 name of hbase_client_enable_table().
 *
 * Returns: what hbase_client_enable_table() returns
 *
 * Since: 0.1
 *
 * Deprecated: 0.2: Use hbase_client_enable_table().
 */
gboolean
hbase_admin_enable_table (HBaseClient *client, const char *table, GCancellable *cancellable,
                          GError **error)
{
  return hbase_client_enable_table (client, table, cancellable, error);
}

/**
 * hbase_admin_is_table_enabled: (skip)
 * @client: see hbase_client_is_table_enabled()
 * @table: see hbase_client_is_table_enabled()
 * @enabled: see hbase_client_is_table_enabled()
 * @cancellable: see hbase_client_is_table_enabled()
 * @error: see hbase_client_is_table_enabled()
 *
 * The 0.1 name of hbase_client_is_table_enabled().
 *
 * Returns: what hbase_client_is_table_enabled() returns
 *
 * Since: 0.1
 *
 * Deprecated: 0.2: Use hbase_client_is_table_enabled().
 */
gboolean
hbase_admin_is_table_enabled (HBaseClient *client, const char *table, gboolean *enabled,
                              GCancellable *cancellable, GError **error)
{
  return hbase_client_is_table_enabled (client, table, enabled, cancellable, error);
}

/**
 * hbase_admin_list_tables: (skip)
 * @client: see hbase_client_list_tables()
 * @namespace_: see hbase_client_list_tables()
 * @cancellable: see hbase_client_list_tables()
 * @error: see hbase_client_list_tables()
 *
 * The 0.1 name of hbase_client_list_tables().
 *
 * Returns: (transfer full): what hbase_client_list_tables() returns
 *
 * Since: 0.1
 *
 * Deprecated: 0.2: Use hbase_client_list_tables().
 */
char **
hbase_admin_list_tables (HBaseClient *client, const char *namespace_, GCancellable *cancellable,
                         GError **error)
{
  return hbase_client_list_tables (client, namespace_, cancellable, error);
}

/**
 * hbase_admin_table_exists: (skip)
 * @client: see hbase_client_table_exists()
 * @table: see hbase_client_table_exists()
 * @exists: see hbase_client_table_exists()
 * @cancellable: see hbase_client_table_exists()
 * @error: see hbase_client_table_exists()
 *
 * The 0.1 name of hbase_client_table_exists().
 *
 * Returns: what hbase_client_table_exists() returns
 *
 * Since: 0.1
 *
 * Deprecated: 0.2: Use hbase_client_table_exists().
 */
gboolean
hbase_admin_table_exists (HBaseClient *client, const char *table, gboolean *exists,
                          GCancellable *cancellable, GError **error)
{
  return hbase_client_table_exists (client, table, exists, cancellable, error);
}

/**
 * hbase_admin_truncate_table: (skip)
 * @client: see hbase_client_truncate_table()
 * @table: see hbase_client_truncate_table()
 * @preserve_splits: see hbase_client_truncate_table()
 * @cancellable: see hbase_client_truncate_table()
 * @error: see hbase_client_truncate_table()
 *
 * The 0.1 name of hbase_client_truncate_table().
 *
 * Returns: what hbase_client_truncate_table() returns
 *
 * Since: 0.1
 *
 * Deprecated: 0.2: Use hbase_client_truncate_table().
 */
gboolean
hbase_admin_truncate_table (HBaseClient *client, const char *table, gboolean preserve_splits,
                            GCancellable *cancellable, GError **error)
{
  return hbase_client_truncate_table (client, table, preserve_splits, cancellable, error);
}

/**
 * hbase_client_ref: (skip)
 * @client: a client
 *
 * The 0.1 way to take a reference on @client, an object since 0.2.
 *
 * Returns: (transfer full): @client
 *
 * Since: 0.1
 *
 * Deprecated: 0.2: Use g_object_ref().
 */
HBaseClient *
hbase_client_ref (HBaseClient *client)
{
  g_return_val_if_fail (HBASE_IS_CLIENT (client), NULL);
  return g_object_ref (client);
}

/**
 * hbase_client_unref: (skip)
 * @client: (nullable): a client
 *
 * The 0.1 way to drop a reference on @client, an object since 0.2.
 *
 * Since: 0.1
 *
 * Deprecated: 0.2: Use g_object_unref().
 */
void
hbase_client_unref (HBaseClient *client)
{
  if (client != NULL)
    g_object_unref (client);
}

/**
 * hbase_connection_free: (skip)
 * @connection: (nullable): a #HBaseConnection
 *
 * The 0.1 way to release @connection, an object since 0.2: drops a reference.
 *
 * Since: 0.1
 *
 * Deprecated: 0.2: Use g_object_unref().
 */
void
hbase_connection_free (HBaseConnection *connection)
{
  if (connection != NULL)
    g_object_unref (connection);
}

/**
 * hbase_scanner_free: (skip)
 * @scanner: (nullable): a #HBaseScanner
 *
 * The 0.1 way to release @scanner, an object since 0.2: drops a reference.
 *
 * Since: 0.1
 *
 * Deprecated: 0.2: Use g_object_unref().
 */
void
hbase_scanner_free (HBaseScanner *scanner)
{
  if (scanner != NULL)
    g_object_unref (scanner);
}

/**
 * hbase_key_scanner_free: (skip)
 * @scanner: (nullable): a #HBaseKeyScanner
 *
 * The 0.1 way to release @scanner, an object since 0.2: drops a reference.
 *
 * Since: 0.1
 *
 * Deprecated: 0.2: Use g_object_unref().
 */
void
hbase_key_scanner_free (HBaseKeyScanner *scanner)
{
  if (scanner != NULL)
    g_object_unref (scanner);
}

/**
 * hbase_set_free: (skip)
 * @set: (nullable): a #HBaseSet
 *
 * The 0.1 way to release @set, an object since 0.2: drops a reference.
 *
 * Since: 0.1
 *
 * Deprecated: 0.2: Use g_object_unref().
 */
void
hbase_set_free (HBaseSet *set)
{
  if (set != NULL)
    g_object_unref (set);
}

/**
 * hbase_zset_free: (skip)
 * @zset: (nullable): a #HBaseZSet
 *
 * The 0.1 way to release @zset, an object since 0.2: drops a reference.
 *
 * Since: 0.1
 *
 * Deprecated: 0.2: Use g_object_unref().
 */
void
hbase_zset_free (HBaseZSet *zset)
{
  if (zset != NULL)
    g_object_unref (zset);
}

/**
 * hbase_write_buffer_free: (skip)
 * @buffer: (nullable): a #HBaseWriteBuffer
 *
 * The 0.1 way to release @buffer, an object since 0.2: drops a reference.
 *
 * Since: 0.1
 *
 * Deprecated: 0.2: Use g_object_unref().
 */
void
hbase_write_buffer_free (HBaseWriteBuffer *buffer)
{
  if (buffer != NULL)
    g_object_unref (buffer);
}

/**
 * hbase_set_iter_free: (skip)
 * @iter: (nullable): an iterator
 *
 * The 0.1 name of hbase_set_iter_unref().
 *
 * Since: 0.1
 *
 * Deprecated: 0.2: Use hbase_set_iter_unref().
 */
void
hbase_set_iter_free (HBaseSetIter *iter)
{
  hbase_set_iter_unref (iter);
}

/**
 * hbase_zset_iter_free: (skip)
 * @iter: (nullable): an iterator
 *
 * The 0.1 name of hbase_zset_iter_unref().
 *
 * Since: 0.1
 *
 * Deprecated: 0.2: Use hbase_zset_iter_unref().
 */
void
hbase_zset_iter_free (HBaseZSetIter *iter)
{
  hbase_zset_iter_unref (iter);
}
