/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-table-index-mark.c: the mark a secondary index puts on its table,
 * and the check that refuses writes which would bypass the index.
 *
 * The Redis index (libhbase-glib-index-1.0) follows a table's writes
 * through write hooks on the handle hbase_index_open() gives.  A write
 * through any other handle would change the data without its index
 * entries, and nothing would say so.  Defining an index therefore marks
 * the table: a table attribute (kept by HBase in the table descriptor,
 * so every client and process sees it) naming the definitions table.
 * Before a handle without write hooks writes, it looks at the table's
 * mark (one getTableDescriptor, remembered per client for 10 seconds) and
 * refuses the write when the table is marked, unless the handle allows
 * unindexed writes (hbase_table_set_allow_unindexed_writes()).  A mark set
 * or removed in this process is seen at once by every client of it; one
 * set by another process, within MARK_TTL_US.
 *
 * On the native backend the mark is read the same way, from the master
 * (MasterService.GetTableDescriptors, hbase-native-master.h): same value,
 * same cache, same refusal.
 *
 * Setting the mark sends the table's descriptor back with one attribute
 * more (modifyTable): the descriptor must survive the round trip intact,
 * which tests/table/test-table-index-mark checks family setting by family
 * setting on the real gateway. */
#include "config.h"

#include <string.h>

#include "hbase-table-call.h"
#include "hbase-table-native.h"
#include "../connection/hbase-connection-private.h"
#include "../native/hbase-native-master.h"

/* How long a client trusts what it read of a table's mark: a table marked
 * by another process is noticed at most this long after.  What it costs:
 * one getTableDescriptor (answered from the master's memory) per table and
 * client every 10 s of writing. */
#define MARK_TTL_US (10 * G_USEC_PER_SEC)

typedef struct {
  gint64 read_at;      /* g_get_monotonic_time() */
  guint generation;    /* the table name's generation when the read began */
  char *definitions;   /* the mark's value, NULL when the table is not marked */
} MarkEntry;

/* A counter per table name, advanced whenever this process sets or
 * removes a mark of a table of that name (on whatever cluster): what a
 * client read before is then stale, whichever client it is. */
static GMutex generations_lock;
static GHashTable *generations;

static guint
generation_of (const char *table)
{
  guint generation;

  g_mutex_lock (&generations_lock);
  generation = generations != NULL ? GPOINTER_TO_UINT (g_hash_table_lookup (generations, table)) : 0;
  g_mutex_unlock (&generations_lock);
  return generation;
}

static guint
advance_generation (const char *table)
{
  guint generation;

  g_mutex_lock (&generations_lock);
  if (generations == NULL)
    generations = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  generation = GPOINTER_TO_UINT (g_hash_table_lookup (generations, table)) + 1;
  g_hash_table_replace (generations, g_strdup (table), GUINT_TO_POINTER (generation));
  g_mutex_unlock (&generations_lock);
  return generation;
}

static void
mark_entry_free (gpointer data)
{
  MarkEntry *entry = data;

  g_free (entry->definitions);
  g_free (entry);
}

/* Each client's marks, as the client's qdata so they go with it. */
typedef struct {
  GMutex lock;          /* tables; the critical sections are lookups */
  GMutex read_lock;     /* held while a descriptor is read: threads that
                         * write first at once wait for one read instead of
                         * each asking the gateway */
  GHashTable *tables;   /* table name -> MarkEntry */
} ClientMarks;

static void
client_marks_free (gpointer data)
{
  ClientMarks *marks = data;

  g_hash_table_unref (marks->tables);
  g_mutex_clear (&marks->lock);
  g_mutex_clear (&marks->read_lock);
  g_free (marks);
}

static GQuark
marks_quark (void)
{
  return g_quark_from_static_string ("hbase-table-index-marks");
}

static ClientMarks *
client_marks (HBaseClient *client)
{
  static GMutex create_lock;
  ClientMarks *marks;

  /* qdata reads are thread-safe; the lock only keeps two threads from
   * both making the first one */
  marks = g_object_get_qdata (G_OBJECT (client), marks_quark ());
  if (marks != NULL)
    return marks;
  g_mutex_lock (&create_lock);
  marks = g_object_get_qdata (G_OBJECT (client), marks_quark ());
  if (marks == NULL)
    {
      marks = g_new0 (ClientMarks, 1);
      g_mutex_init (&marks->lock);
      g_mutex_init (&marks->read_lock);
      marks->tables = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, mark_entry_free);
      g_object_set_qdata_full (G_OBJECT (client), marks_quark (), marks, client_marks_free);
    }
  g_mutex_unlock (&create_lock);
  return marks;
}

/* What @marks remember of @table's mark: TRUE when it is fresh, with the
 * definitions table (or NULL) in @definitions. */
static gboolean
remembered_mark (ClientMarks *marks, const char *table, char **definitions)
{
  MarkEntry *entry;
  gboolean fresh = FALSE;

  g_mutex_lock (&marks->lock);
  entry = g_hash_table_lookup (marks->tables, table);
  if (entry != NULL && g_get_monotonic_time () - entry->read_at < MARK_TTL_US &&
      entry->generation == generation_of (table))
    {
      *definitions = g_strdup (entry->definitions);
      fresh = TRUE;
    }
  g_mutex_unlock (&marks->lock);
  return fresh;
}

/* Keeps what a read begun at @generation found. */
static void
remember_mark (HBaseClient *client, const char *table, const char *definitions, guint generation)
{
  ClientMarks *marks = client_marks (client);
  MarkEntry *entry = g_new0 (MarkEntry, 1);

  entry->read_at = g_get_monotonic_time ();
  entry->generation = generation;
  entry->definitions = g_strdup (definitions);
  g_mutex_lock (&marks->lock);
  g_hash_table_replace (marks->tables, g_strdup (table), entry);
  g_mutex_unlock (&marks->lock);
}

/* --- the table descriptor ---------------------------------------------------------------- */

typedef struct {
  HbaseThriftTTableName *name;
  HbaseThriftTTableDescriptor *descriptor;   /* read, or to send */
} DescriptorCall;

static gboolean
read_descriptor_once (HbaseThriftTHBaseServiceIf *service, gpointer user_data, GError **error)
{
  DescriptorCall *call = user_data;
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;

  g_clear_object (&call->descriptor);
  call->descriptor = g_object_new (HBASE_THRIFT_TYPE_T_TABLE_DESCRIPTOR, NULL);
  if (hbase_thrift_t_h_base_service_if_get_table_descriptor (service, &call->descriptor, call->name,
                                                             &io, &call_error))
    return TRUE;
  hbase_error_take_call_error (error, call_error, io, NULL);
  return FALSE;
}

static gboolean
modify_table_once (HbaseThriftTHBaseServiceIf *service, gpointer user_data, GError **error)
{
  DescriptorCall *call = user_data;
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;

  if (hbase_thrift_t_h_base_service_if_modify_table (service, call->descriptor, &io, &call_error))
    return TRUE;
  hbase_error_take_call_error (error, call_error, io, NULL);
  return FALSE;
}

static GByteArray *
byte_array_new_from_text (const char *text)
{
  GByteArray *array = g_byte_array_new ();

  g_byte_array_append (array, (const guint8 *) text, (guint) strlen (text));
  return array;
}

/* The mark's value in a descriptor read from the gateway, or NULL. */
static char *
descriptor_mark (HbaseThriftTTableDescriptor *descriptor)
{
  g_autoptr(GByteArray) key = byte_array_new_from_text (HBASE_TABLE_INDEX_MARK);
  GByteArray *value;

  if (!descriptor->__isset_attributes || descriptor->attributes == NULL)
    return NULL;
  value = g_hash_table_lookup (descriptor->attributes, key);
  if (value == NULL)
    return NULL;
  return g_strndup ((const char *) value->data, value->len);
}

/* A family as read has its settings twice: every value HBase holds in its
 * attributes, and each typed field filled in (HBase's defaults where
 * nothing was set).  Sent back so, HBase would store every default as a
 * value set by hand; sent with the attributes alone, the family comes
 * back exactly as it was. */
static void
keep_family_values_only (HbaseThriftTColumnFamilyDescriptor *family)
{
  family->__isset_blockSize = FALSE;
  family->__isset_bloomnFilterType = FALSE;
  family->__isset_compressionType = FALSE;
  family->__isset_dfsReplication = FALSE;
  family->__isset_dataBlockEncoding = FALSE;
  family->__isset_keepDeletedCells = FALSE;
  family->__isset_maxVersions = FALSE;
  family->__isset_minVersions = FALSE;
  family->__isset_scope = FALSE;
  family->__isset_timeToLive = FALSE;
  family->__isset_blockCacheEnabled = FALSE;
  family->__isset_cacheBloomsOnWrite = FALSE;
  family->__isset_cacheDataOnWrite = FALSE;
  family->__isset_cacheIndexesOnWrite = FALSE;
  family->__isset_compressTags = FALSE;
  family->__isset_evictBlocksOnClose = FALSE;
  family->__isset_inMemory = FALSE;
}

/* Reads @table's descriptor into @call (its name set).  A missing table
 * is HBASE_ERROR_NOT_FOUND. */
static gboolean
read_descriptor (HBaseTable *table, DescriptorCall *call, GCancellable *cancellable, GError **error)
{
  call->name = g_object_ref (table->table_name);
  return hbase_client_call (table->client, HBASE_CALL_IDEMPOTENT | HBASE_CALL_READ_ONLY,
                            read_descriptor_once, call, cancellable, error);
}

static void
descriptor_call_clear (DescriptorCall *call)
{
  g_clear_object (&call->name);
  g_clear_object (&call->descriptor);
}

/* --- the check before a write ------------------------------------------------------------ */

static gboolean
table_is_missing (HBaseTable *table, const GError *error, GCancellable *cancellable)
{
  gboolean exists = TRUE;

  if (g_error_matches (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND))
    return TRUE;
  return g_error_matches (error, HBASE_ERROR, HBASE_ERROR_IO) &&
         _hbase_table_probe_exists (table, &exists, cancellable, NULL) && !exists;
}

static gboolean
is_access_denied (const GError *error)
{
  const char *text = hbase_error_get_server_trace (error);

  return strstr (text != NULL ? text : error->message, "AccessDeniedException") != NULL;
}

/* read_descriptor() for the mark's setters: a missing table is
 * HBASE_ERROR_NOT_FOUND saying so (the 2.6 gateway's own error names only
 * the table; the server's text stays with the error). */
static gboolean
read_descriptor_or_not_found (HBaseTable *table, DescriptorCall *call, GCancellable *cancellable,
                              GError **error)
{
  GError *local = NULL;

  if (read_descriptor (table, call, cancellable, &local))
    return TRUE;
  if (table_is_missing (table, local, cancellable))
    {
      local->domain = HBASE_ERROR;
      local->code = HBASE_ERROR_NOT_FOUND;
      g_free (local->message);
      local->message = g_strdup_printf ("table '%s' does not exist", table->name);
    }
  g_propagate_error (error, local);
  return FALSE;
}

static gboolean
is_native (HBaseTable *table)
{
  return _hbase_client_get_backend (table->client) != HBASE_BACKEND_THRIFT2;
}

/* @table's mark read from the master (native backend); a missing table is
 * HBASE_ERROR_NOT_FOUND saying so, as on the gateway. */
static gboolean
read_native_mark (HBaseTable *table, char **definitions, GCancellable *cancellable, GError **error)
{
  GError *local = NULL;

  if (_hbase_native_master_table_attribute (_hbase_table_native_client (table), table->name,
                                            HBASE_TABLE_INDEX_MARK, definitions, cancellable, &local))
    return TRUE;
  if (g_error_matches (local, HBASE_ERROR, HBASE_ERROR_NOT_FOUND))
    {
      g_free (local->message);
      local->message = g_strdup_printf ("table '%s' does not exist", table->name);
    }
  g_propagate_error (error, local);
  return FALSE;
}

/* Reads @table's mark from the gateway (or the master) into the client's
 * memory; FALSE with @error when it cannot tell. */
static gboolean
read_mark (HBaseTable *table, char **definitions, GCancellable *cancellable, GError **error)
{
  DescriptorCall call = { NULL, NULL };
  g_autoptr(GError) local = NULL;
  guint generation = generation_of (table->name);

  if (is_native (table))
    {
      if (read_native_mark (table, definitions, cancellable, &local))
        {
          remember_mark (table->client, table->name, *definitions, generation);
          return TRUE;
        }
      /* a missing table: the write itself fails, with its own error */
      if (g_error_matches (local, HBASE_ERROR, HBASE_ERROR_NOT_FOUND))
        return TRUE;
    }
  else if (read_descriptor (table, &call, cancellable, &local))
    {
      *definitions = descriptor_mark (call.descriptor);
      descriptor_call_clear (&call);
      remember_mark (table->client, table->name, *definitions, generation);
      return TRUE;
    }
  descriptor_call_clear (&call);
  /* A missing table: the write itself fails, with its own error (the 2.6
   * gateway's getTableDescriptor says only the table's name then, so
   * tableExists settles it). */
  if (!is_native (table) && table_is_missing (table, local, cancellable))
    return TRUE;
  /* A caller who may write but not read table descriptors (HBase's access
   * control asks ADMIN or CREATE for that): the mark cannot be read, so it
   * cannot be enforced either. */
  if (is_access_denied (local))
    {
      g_debug ("cannot read the descriptor of table %s to see whether it is indexed: %s",
               table->name, local->message);
      remember_mark (table->client, table->name, NULL, generation);
      return TRUE;
    }
  g_propagate_prefixed_error (error, g_steal_pointer (&local),
                              "cannot tell whether table %s is indexed: ", table->name);
  return FALSE;
}

gboolean
_hbase_table_check_index_mark (HBaseTable *table, GCancellable *cancellable, GError **error)
{
  ClientMarks *marks;
  g_autofree char *definitions = NULL;
  gboolean known;

  if (g_atomic_int_get (&table->allow_unindexed_writes))
    return TRUE;
  marks = client_marks (table->client);
  if (!remembered_mark (marks, table->name, &definitions))
    {
      g_mutex_lock (&marks->read_lock);
      /* another thread may have read it meanwhile */
      known = remembered_mark (marks, table->name, &definitions) ||
              read_mark (table, &definitions, cancellable, error);
      g_mutex_unlock (&marks->read_lock);
      if (!known)
        return FALSE;
    }
  if (definitions == NULL)
    return TRUE;
  g_set_error (error, HBASE_ERROR, HBASE_ERROR_INDEXED_TABLE,
               "table %s has a secondary index (definitions in %s) that this handle does not "
               "maintain: write through the index's table (hbase_index_get_table()), or allow "
               "unindexed writes on this handle (hbase_table_set_allow_unindexed_writes())",
               table->name, definitions);
  return FALSE;
}

/* --- setting the mark -------------------------------------------------------------------- */

/* The writers of the mark: FALSE with @error, else *modified when the
 * table's mark was not @definitions already (and now is). */
typedef gboolean (*MarkWriter) (HBaseTable *table, const char *definitions, gboolean *modified,
                                GCancellable *cancellable, GError **error);

/* On the native backend: the attribute set (or removed) with the master's
 * ModifyTable, the rest of the descriptor as the master has it. */
static gboolean
write_native_mark (HBaseTable *table, const char *definitions, gboolean *modified,
                   GCancellable *cancellable, GError **error)
{
  g_autofree char *current = NULL;

  if (!read_native_mark (table, &current, cancellable, error))
    return FALSE;
  if (g_strcmp0 (current, definitions) == 0)
    return TRUE;
  if (!_hbase_native_master_set_table_attribute (_hbase_table_native_client (table), table->name,
                                                 HBASE_TABLE_INDEX_MARK, definitions, cancellable,
                                                 error))
    {
      g_prefix_error (error, "%s the index mark of table %s: ", definitions != NULL ? "set" : "remove",
                      table->name);
      return FALSE;
    }
  *modified = TRUE;
  return TRUE;
}

/* Through the gateway: the descriptor read, the attribute replaced, the
 * descriptor sent back with modifyTable. */
static gboolean
write_gateway_mark (HBaseTable *table, const char *definitions, gboolean *modified,
                    GCancellable *cancellable, GError **error)
{
  DescriptorCall call = { NULL, NULL };
  g_autofree char *current = NULL;
  g_autoptr(GByteArray) key = NULL;
  gboolean ok;

  if (hbase_config_get_transport (hbase_client_get_config (table->client)) == HBASE_TRANSPORT_FRAMED)
    {
      /* HBase 2.6's gateway reads every attribute of a table or family
       * descriptor sent over framed transport as the whole request frame
       * (seen on the real gateway, binary and compact): the descriptor
       * sent back would lose every setting */
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "%s the index mark of table %s: not possible over framed transport (the HBase "
                   "Thrift2 gateway reads table attributes wrongly there); use a buffered gateway",
                   definitions != NULL ? "set" : "remove", table->name);
      return FALSE;
    }
  if (!read_descriptor_or_not_found (table, &call, cancellable, error))
    {
      descriptor_call_clear (&call);
      return FALSE;
    }
  current = descriptor_mark (call.descriptor);
  if (g_strcmp0 (current, definitions) == 0)
    {
      descriptor_call_clear (&call);
      return TRUE;
    }
  key = byte_array_new_from_text (HBASE_TABLE_INDEX_MARK);
  if (definitions != NULL)
    {
      g_hash_table_replace (call.descriptor->attributes, g_steal_pointer (&key),
                            byte_array_new_from_text (definitions));
      call.descriptor->__isset_attributes = TRUE;
    }
  else
    g_hash_table_remove (call.descriptor->attributes, key);
  for (guint i = 0; call.descriptor->columns != NULL && i < call.descriptor->columns->len; i++)
    keep_family_values_only (g_ptr_array_index (call.descriptor->columns, i));
  /* a change resent after it reached the server would only set the same
   * attribute again, but a modifyTable reopens every region: no retries */
  ok = hbase_client_call (table->client, HBASE_CALL_DEFAULT, modify_table_once, &call, cancellable, error);
  descriptor_call_clear (&call);
  if (!ok)
    {
      g_prefix_error (error, "%s the index mark of table %s: ", definitions != NULL ? "set" : "remove",
                      table->name);
      return FALSE;
    }
  *modified = TRUE;
  return TRUE;
}

gboolean
_hbase_table_set_index_mark (HBaseTable *table, const char *definitions, gboolean *changed,
                             GCancellable *cancellable, GError **error)
{
  MarkWriter write = NULL;
  guint generation = generation_of (table->name);
  gboolean modified = FALSE;

  if (changed != NULL)
    *changed = FALSE;
  if (!_hbase_table_check (table, error))
    return FALSE;
  write = is_native (table) ? write_native_mark : write_gateway_mark;
  if (!write (table, definitions, &modified, cancellable, error))
    return FALSE;
  if (modified)
    {
      if (changed != NULL)
        *changed = TRUE;
      /* every client of this process reads the table's mark anew */
      generation = advance_generation (table->name);
    }
  remember_mark (table->client, table->name, definitions, generation);
  return TRUE;
}

gboolean
_hbase_table_get_index_mark (HBaseTable *table, char **definitions, GCancellable *cancellable,
                             GError **error)
{
  DescriptorCall call = { NULL, NULL };
  guint generation = generation_of (table->name);
  gboolean ok;

  *definitions = NULL;
  if (!_hbase_table_check (table, error))
    return FALSE;
  if (is_native (table))
    {
      if (!read_native_mark (table, definitions, cancellable, error))
        return FALSE;
      remember_mark (table->client, table->name, *definitions, generation);
      return TRUE;
    }
  ok = read_descriptor_or_not_found (table, &call, cancellable, error);
  if (ok)
    {
      *definitions = descriptor_mark (call.descriptor);
      remember_mark (table->client, table->name, *definitions, generation);
    }
  descriptor_call_clear (&call);
  return ok;
}

/* --- the opt-out ------------------------------------------------------------------------- */

/**
 * hbase_table_set_allow_unindexed_writes:
 * @table: a table
 * @allow: %TRUE to let this handle write to a table with a secondary index
 *   without maintaining it
 *
 * A table with a secondary index (hbase_index_define()) carries a mark
 * that every handle sees.  Writes through a handle that does not maintain
 * the index (any handle but hbase_index_get_table()'s) are refused with
 * %HBASE_ERROR_INDEXED_TABLE, since they would leave the index out of
 * date without a word.  A program that knows what it does (a bulk load
 * followed by a rebuild or repair of the index, a test of the index's
 * verification) allows them here.  The handle notices a table marked by
 * another process at most 10 seconds later (by this process: at once).
 *
 * This is #HBaseTable:allow-unindexed-writes.
 *
 * Since: 0.1
 */
void
hbase_table_set_allow_unindexed_writes (HBaseTable *table, gboolean allow)
{
  g_return_if_fail (HBASE_IS_TABLE (table));
  if (g_atomic_int_get (&table->allow_unindexed_writes) == !!allow)
    return;
  g_atomic_int_set (&table->allow_unindexed_writes, !!allow);
  g_object_notify (G_OBJECT (table), "allow-unindexed-writes");
}

/**
 * hbase_table_get_allow_unindexed_writes:
 * @table: a table
 *
 * Whether @table writes to a table with a secondary index without
 * maintaining it (hbase_table_set_allow_unindexed_writes()).
 *
 * Returns: %TRUE if it does
 *
 * Since: 0.1
 */
gboolean
hbase_table_get_allow_unindexed_writes (HBaseTable *table)
{
  g_return_val_if_fail (HBASE_IS_TABLE (table), FALSE);
  return g_atomic_int_get (&table->allow_unindexed_writes);
}
