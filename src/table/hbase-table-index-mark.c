/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-table-index-mark.c: the "indexed" mark of a table and the guard
 * that keeps plain handles from writing an indexed table behind its
 * index's back.
 *
 * A secondary index (the Redis index library) stores, when it is defined,
 * an attribute in the HBase descriptor of the indexed table naming its
 * definitions table.  Every process sees it.  Before the first write of a
 * table through a handle without write hooks (a plain hbase_table_new()
 * handle), the table layer reads the descriptor once per client and table
 * (then remembers the answer for the client's lifetime) and refuses the
 * write when the mark is there, unless the handle opted out with
 * hbase_table_set_index_bypass().  The index's own handle carries write
 * hooks and is never checked. */
#include "config.h"

#include <string.h>

#include "hbase-table-private.h"

typedef HbaseThriftTHBaseServiceIf Service;

#define MARK_ATTRIBUTE "hbase-glib.index.meta-table"

/* What a client learned of its tables' marks. */
typedef struct {
  GMutex lock;
  GHashTable *marks;     /* table name -> meta table name, "" for no mark */
  guint reads;           /* descriptors read, for tests and measurements */
} MarkCache;

static void
mark_cache_free (gpointer data)
{
  MarkCache *cache = data;

  g_mutex_clear (&cache->lock);
  g_hash_table_unref (cache->marks);
  g_free (cache);
}

static MarkCache *
mark_cache_of (HBaseClient *client)
{
  static GMutex create_lock;
  GQuark quark = g_quark_from_static_string ("hbase-glib-index-marks");
  MarkCache *cache;

  g_mutex_lock (&create_lock);
  cache = g_object_get_qdata (G_OBJECT (client), quark);
  if (cache == NULL)
    {
      cache = g_new0 (MarkCache, 1);
      g_mutex_init (&cache->lock);
      cache->marks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      g_object_set_qdata_full (G_OBJECT (client), quark, cache, mark_cache_free);
    }
  g_mutex_unlock (&create_lock);
  return cache;
}

static void
mark_cache_store (HBaseClient *client, const char *table, const char *meta_table)
{
  MarkCache *cache = mark_cache_of (client);

  g_mutex_lock (&cache->lock);
  g_hash_table_replace (cache->marks, g_strdup (table), g_strdup (meta_table != NULL ? meta_table : ""));
  g_mutex_unlock (&cache->lock);
}

/* --- the descriptor ----------------------------------------------------------------- */

typedef struct {
  HbaseThriftTTableName *name;
  HbaseThriftTTableDescriptor *desc;   /* read, or to send */
  gboolean exists;                     /* tableExists */
} DescriptorCall;

static gboolean
get_descriptor_once (Service *service, gpointer user_data, GError **error)
{
  DescriptorCall *call = user_data;
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;

  /* the generated client reads into a struct the caller made */
  g_clear_object (&call->desc);
  call->desc = g_object_new (HBASE_THRIFT_TYPE_T_TABLE_DESCRIPTOR, NULL);
  if (hbase_thrift_t_h_base_service_if_get_table_descriptor (service, &call->desc, call->name, &io,
                                                              &call_error))
    return TRUE;
  hbase_error_take_call_error (error, call_error, io, NULL);
  return FALSE;
}

static gboolean
modify_once (Service *service, gpointer user_data, GError **error)
{
  DescriptorCall *call = user_data;
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;

  if (hbase_thrift_t_h_base_service_if_modify_table (service, call->desc, &io, &call_error))
    return TRUE;
  hbase_error_take_call_error (error, call_error, io, NULL);
  return FALSE;
}

/* As the admin calls name tables: ns only when given. */
static HbaseThriftTTableName *
table_name_new (const char *table)
{
  const char *colon = strchr (table, ':');
  g_autofree char *ns = colon != NULL ? g_strndup (table, (gsize) (colon - table)) : NULL;
  g_autoptr(GByteArray) qualifier = _hbase_byte_array_from_string (colon != NULL ? colon + 1 : table);
  g_autoptr(GByteArray) ns_bytes = ns != NULL ? _hbase_byte_array_from_string (ns) : NULL;

  if (ns_bytes != NULL)
    return g_object_new (HBASE_THRIFT_TYPE_T_TABLE_NAME, "ns", ns_bytes, "qualifier", qualifier, NULL);
  return g_object_new (HBASE_THRIFT_TYPE_T_TABLE_NAME, "qualifier", qualifier, NULL);
}

/* The attribute's value in @desc, or NULL.  The generated map hashes its
 * GByteArray keys as strings, so it is searched, never looked up. */
static GByteArray *
find_mark (HbaseThriftTTableDescriptor *desc, GByteArray **key)
{
  GHashTableIter iter;
  gpointer k, v;

  if (desc->attributes == NULL)
    return NULL;
  g_hash_table_iter_init (&iter, desc->attributes);
  while (g_hash_table_iter_next (&iter, &k, &v))
    {
      GByteArray *name = k;

      if (name->len == strlen (MARK_ATTRIBUTE) && memcmp (name->data, MARK_ATTRIBUTE, name->len) == 0)
        {
          if (key != NULL)
            *key = name;
          return v;
        }
    }
  return NULL;
}

static gboolean
exists_once (Service *service, gpointer user_data, GError **error)
{
  DescriptorCall *call = user_data;
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;
  gboolean exists = FALSE;

  if (!hbase_thrift_t_h_base_service_if_table_exists (service, &exists, call->name, &io, &call_error))
    {
      hbase_error_take_call_error (error, call_error, io, NULL);
      return FALSE;
    }
  call->exists = exists;
  return TRUE;
}

/* The table certainly does not exist (FALSE when it does, or when that
 * cannot be told). */
static gboolean
table_missing (HBaseClient *client, const char *table, GCancellable *cancellable)
{
  DescriptorCall call = { table_name_new (table), NULL, TRUE };
  gboolean ok;

  ok = hbase_client_call (client, HBASE_CALL_IDEMPOTENT | HBASE_CALL_READ_ONLY, exists_once, &call,
                          cancellable, NULL);
  g_object_unref (call.name);
  return ok && !call.exists;
}

static HbaseThriftTTableDescriptor *
read_descriptor (HBaseClient *client, const char *table, GCancellable *cancellable, GError **error)
{
  DescriptorCall call = { table_name_new (table), NULL, TRUE };
  gboolean ok;

  ok = hbase_client_call (client, HBASE_CALL_IDEMPOTENT | HBASE_CALL_READ_ONLY, get_descriptor_once,
                          &call, cancellable, error);
  g_object_unref (call.name);
  if (!ok)
    g_clear_object (&call.desc);
  else
    {
      MarkCache *cache = mark_cache_of (client);

      g_mutex_lock (&cache->lock);
      cache->reads++;
      g_mutex_unlock (&cache->lock);
    }
  return call.desc;
}

gboolean
_hbase_table_get_index_mark (HBaseClient *client, const char *table, char **meta_table,
                             GCancellable *cancellable, GError **error)
{
  g_autoptr(HbaseThriftTTableDescriptor) desc = read_descriptor (client, table, cancellable, error);
  GByteArray *value;

  if (desc == NULL)
    return FALSE;
  value = find_mark (desc, NULL);
  *meta_table = value != NULL ? g_strndup ((const char *) value->data, value->len) : NULL;
  mark_cache_store (client, table, *meta_table);
  return TRUE;
}

gboolean
_hbase_table_set_index_mark (HBaseClient *client, const char *table, const char *meta_table,
                             GCancellable *cancellable, GError **error)
{
  g_autoptr(HbaseThriftTTableDescriptor) desc = NULL;
  DescriptorCall call = { NULL, NULL, TRUE };
  GByteArray *key = NULL, *value;
  g_autoptr(GError) local = NULL;
  gboolean ok;

  if (!_hbase_check_table_name (table, error))
    return FALSE;
  desc = read_descriptor (client, table, cancellable, &local);
  if (desc == NULL)
    {
      /* no table, no mark to remove */
      if (meta_table == NULL && table_missing (client, table, cancellable))
        return TRUE;
      g_propagate_prefixed_error (error, g_steal_pointer (&local), "marking table %s as indexed: ",
                                  table);
      return FALSE;
    }
  value = find_mark (desc, &key);
  if (meta_table == NULL ? value == NULL
                         : value != NULL && value->len == strlen (meta_table) &&
                           memcmp (value->data, meta_table, value->len) == 0)
    {
      mark_cache_store (client, table, meta_table);
      return TRUE;  /* already so: no schema change */
    }
  /* The HBase 2.6 gateway reads descriptor attributes with
   * ByteBuffer.array(), which under framed transport is the whole request
   * frame (as for split keys): the mark would be garbage. */
  if (hbase_config_get_transport (hbase_client_get_config (client)) == HBASE_TRANSPORT_FRAMED)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "marking table %s as indexed: table attributes cannot be sent over framed "
                   "transport (the HBase Thrift2 gateway reads them wrongly); use a buffered gateway",
                   table);
      return FALSE;
    }
  if (key != NULL)
    g_hash_table_remove (desc->attributes, key);
  if (meta_table != NULL)
    {
      /* the generated descriptor always has its map (freeing with
       * g_byte_array_unref) */
      g_hash_table_insert (desc->attributes, _hbase_byte_array_from_string (MARK_ATTRIBUTE),
                           _hbase_byte_array_from_string (meta_table));
    }
  desc->__isset_attributes = TRUE;
  call.desc = desc;
  ok = hbase_client_call (client, HBASE_CALL_DEFAULT, modify_once, &call, cancellable, error);
  if (!ok)
    {
      g_prefix_error (error, "marking table %s as indexed: ", table);
      return FALSE;
    }
  mark_cache_store (client, table, meta_table);
  return TRUE;
}

guint
_hbase_table_index_mark_reads (HBaseClient *client)
{
  MarkCache *cache = mark_cache_of (client);
  guint reads;

  g_mutex_lock (&cache->lock);
  reads = cache->reads;
  g_mutex_unlock (&cache->lock);
  return reads;
}

/* --- the guard ------------------------------------------------------------------------ */

gboolean
_hbase_table_check_index_mark (HBaseTable *table, GCancellable *cancellable, GError **error)
{
  MarkCache *cache;
  g_autofree char *meta_table = NULL;
  gboolean known;
  g_autoptr(GError) local = NULL;

  if (g_atomic_int_get (&table->index_bypass))
    return TRUE;
  cache = mark_cache_of (table->client);
  g_mutex_lock (&cache->lock);
  known = g_hash_table_lookup_extended (cache->marks, table->name, NULL, (gpointer *) &meta_table);
  meta_table = g_strdup (meta_table);
  g_mutex_unlock (&cache->lock);
  if (!known)
    {
      g_clear_pointer (&meta_table, g_free);
      if (!_hbase_table_get_index_mark (table->client, table->name, &meta_table, cancellable, &local))
        {
          /* a missing table: the write reports it in its own words */
          if (table_missing (table->client, table->name, cancellable))
            return TRUE;
          g_propagate_prefixed_error (error, g_steal_pointer (&local),
                                      "write to %s: cannot tell whether the table has a secondary "
                                      "index: ", table->name);
          return FALSE;
        }
    }
  if (meta_table == NULL || meta_table[0] == '\0')
    return TRUE;
  g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
               "table %s has a secondary index (definitions in table %s): write it through the "
               "index's table, hbase_index_get_table() of hbase_index_open(), so the index stays "
               "right; or opt this handle out with hbase_table_set_index_bypass() (a bulk load "
               "followed by hbase_index_rebuild())", table->name, meta_table);
  return FALSE;
}

/**
 * hbase_table_set_index_bypass:
 * @table: a table handle
 * @bypass: %TRUE to let this handle write a table that has a secondary
 *   index without maintaining it
 *
 * A table with a secondary index (hbase_index_define() marks it in HBase)
 * is written through its index's table handle, which keeps the index up to
 * date.  Writes through any other handle are refused with
 * %HBASE_ERROR_ILLEGAL_ARGUMENT naming the index's definitions table,
 * unless the handle opts out here: for a bulk load followed by a rebuild
 * of the index (hbase_index_rebuild()), since until then the index lacks
 * what such a handle writes.
 *
 * Whether a table has an index is read from its HBase descriptor once per
 * client and table, before the first write of a handle that has not opted
 * out, and then remembered for the client's lifetime (an index defined
 * later by another process is seen by clients created after it).
 *
 * Since: 0.1
 */
void
hbase_table_set_index_bypass (HBaseTable *table, gboolean bypass)
{
  g_return_if_fail (HBASE_IS_TABLE (table));
  g_atomic_int_set (&table->index_bypass, bypass ? 1 : 0);
}

/**
 * hbase_table_get_index_bypass:
 * @table: a table handle
 *
 * Whether @table writes tables with a secondary index without maintaining
 * it (see hbase_table_set_index_bypass()).
 *
 * Returns: %TRUE when the handle opted out
 *
 * Since: 0.1
 */
gboolean
hbase_table_get_index_bypass (HBaseTable *table)
{
  g_return_val_if_fail (HBASE_IS_TABLE (table), FALSE);
  return g_atomic_int_get (&table->index_bypass) != 0;
}
