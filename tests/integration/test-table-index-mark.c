/* SPDX-License-Identifier: Apache-2.0 */
/* Integration test of the mark a secondary index puts on its table
 * (src/table/hbase-table-index-mark.c), against the real gateways:
 *
 * - setting and removing the mark sends the table's descriptor back to
 *   HBase (modifyTable); every table and family setting, including those
 *   HBaseFamilyOptions cannot express, must come back unchanged;
 * - on a marked table every write path of a handle without write hooks
 *   is refused with HBASE_ERROR_INDEXED_TABLE and sends nothing, reads
 *   work, an explicit opt-out writes, and a handle with hooks writes;
 * - a client that read the table unmarked sees a mark set (or removed) by
 *   another client of the same process at once;
 * - a client of the native backend reads the mark from the master: a
 *   table marked through the gateway refuses its writes (the handle has not
 *   allowed unindexed writes), an unmarked one takes them. */
#include "config.h"

#include <string.h>

#include "../../src/table/hbase-table-private.h"
#include "../support/test-rows.h"
#include "../support/test-stack.h"
#include "../support/test-waiter.h"

/* --- the descriptor, read and written through the generated layer ------------------------- */

typedef struct {
  HbaseThriftTTableName *name;
  HbaseThriftTTableDescriptor *descriptor;
} DescriptorCall;

static gboolean
get_descriptor_once (HbaseThriftTHBaseServiceIf *service, gpointer user_data, GError **error)
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
create_table_once (HbaseThriftTHBaseServiceIf *service, gpointer user_data, GError **error)
{
  DescriptorCall *call = user_data;
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;

  if (hbase_thrift_t_h_base_service_if_create_table (service, call->descriptor, NULL, &io, &call_error))
    return TRUE;
  hbase_error_take_call_error (error, call_error, io, NULL);
  return FALSE;
}

static GByteArray *
bytes_of (const char *text)
{
  GByteArray *array = g_byte_array_new ();

  g_byte_array_append (array, (const guint8 *) text, (guint) strlen (text));
  return array;
}

static HbaseThriftTTableName *
table_name_new (const char *name)
{
  HbaseThriftTTableName *table_name = g_object_new (HBASE_THRIFT_TYPE_T_TABLE_NAME, NULL);

  table_name->qualifier = bytes_of (name);
  return table_name;
}

static void
map_put (GHashTable *map, const char *key, const char *value)
{
  g_hash_table_replace (map, bytes_of (key), bytes_of (value));
}

static gint
compare_texts (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* "k=v;k=v" of a binary map, keys sorted, @skip left out. */
static char *
map_text (GHashTable *map, const char *skip)
{
  g_autoptr(GPtrArray) pairs = g_ptr_array_new_with_free_func (g_free);
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, map);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const GByteArray *k = key, *v = value;
      g_autofree char *name = g_strndup ((const char *) k->data, k->len);

      if (skip != NULL && strcmp (name, skip) == 0)
        continue;
      g_ptr_array_add (pairs, g_strdup_printf ("%s=%.*s", name, (int) v->len, (const char *) v->data));
    }
  g_ptr_array_sort (pairs, compare_texts);
  g_ptr_array_add (pairs, NULL);
  return g_strjoinv (";", (char **) pairs->pdata);
}

/* "k=v;k=v" of a string map, keys sorted. */
static char *
string_map_text (GHashTable *map)
{
  g_autoptr(GPtrArray) pairs = g_ptr_array_new_with_free_func (g_free);
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, map);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_ptr_array_add (pairs, g_strdup_printf ("%s=%s", (const char *) key, (const char *) value));
  g_ptr_array_sort (pairs, compare_texts);
  g_ptr_array_add (pairs, NULL);
  return g_strjoinv (";", (char **) pairs->pdata);
}

/* Everything a descriptor says, but the index mark, as one text. */
static char *
descriptor_text (const HbaseThriftTTableDescriptor *d)
{
  GString *text = g_string_new (NULL);
  g_autofree char *attributes = map_text (d->attributes, HBASE_TABLE_INDEX_MARK);

  g_string_append_printf (text, "table attributes {%s} durability %d/%d\n", attributes,
                          d->__isset_durability, d->durability);
  for (guint i = 0; d->columns != NULL && i < d->columns->len; i++)
    {
      const HbaseThriftTColumnFamilyDescriptor *f = g_ptr_array_index (d->columns, i);
      g_autofree char *fa = map_text (f->attributes, NULL);
      g_autofree char *fc = string_map_text (f->configuration);

      g_string_append_printf (text,
                              "family %.*s {%s} conf {%s} block %d bloom %d compression %d "
                              "replication %d encoding %d keep-deleted %d versions %d..%d scope %d "
                              "ttl %d cache %d blooms-on-write %d data-on-write %d "
                              "indexes-on-write %d compress-tags %d evict %d in-memory %d\n",
                              (int) f->name->len, (const char *) f->name->data, fa, fc, f->blockSize,
                              f->bloomnFilterType, f->compressionType, f->dfsReplication,
                              f->dataBlockEncoding, f->keepDeletedCells, f->minVersions,
                              f->maxVersions, f->scope, f->timeToLive, f->blockCacheEnabled,
                              f->cacheBloomsOnWrite, f->cacheDataOnWrite, f->cacheIndexesOnWrite,
                              f->compressTags, f->evictBlocksOnClose, f->inMemory);
    }
  return g_string_free (text, FALSE);
}

static HbaseThriftTTableDescriptor *
read_descriptor (HBaseClient *client, const char *name)
{
  DescriptorCall call = { table_name_new (name), NULL };
  g_autoptr(GError) error = NULL;

  g_assert_true (hbase_client_call (client, HBASE_CALL_IDEMPOTENT | HBASE_CALL_READ_ONLY,
                                    get_descriptor_once, &call, NULL, &error));
  g_assert_no_error (error);
  g_object_unref (call.name);
  return call.descriptor;
}

static char *
read_mark (HBaseClient *client, const char *name)
{
  g_autoptr(HbaseThriftTTableDescriptor) d = read_descriptor (client, name);
  g_autoptr(GByteArray) key = bytes_of (HBASE_TABLE_INDEX_MARK);
  GByteArray *value = g_hash_table_lookup (d->attributes, key);

  return value != NULL ? g_strndup ((const char *) value->data, value->len) : NULL;
}

/* A table whose settings are far from HBase's defaults, made through the
 * generated createTable (HBaseFamilyOptions cannot say most of them). */
static void
create_unusual_table (HBaseClient *client, const char *name)
{
  DescriptorCall call = { NULL, g_object_new (HBASE_THRIFT_TYPE_T_TABLE_DESCRIPTOR, NULL) };
  HbaseThriftTColumnFamilyDescriptor *a = g_object_new (HBASE_THRIFT_TYPE_T_COLUMN_FAMILY_DESCRIPTOR, NULL);
  HbaseThriftTColumnFamilyDescriptor *b = g_object_new (HBASE_THRIFT_TYPE_T_COLUMN_FAMILY_DESCRIPTOR, NULL);
  g_autoptr(GError) error = NULL;

  g_clear_object (&call.descriptor->tableName);
  call.descriptor->tableName = table_name_new (name);
  map_put (call.descriptor->attributes, "MAX_FILESIZE", "2147483648");
  map_put (call.descriptor->attributes, "a-user-note", "kept as it is");
  call.descriptor->__isset_attributes = TRUE;
  call.descriptor->durability = HBASE_THRIFT_T_DURABILITY_ASYNC_WAL;
  call.descriptor->__isset_durability = TRUE;

  a->name = bytes_of ("a");
  a->blockSize = 16384, a->__isset_blockSize = TRUE;
  a->bloomnFilterType = HBASE_THRIFT_T_BLOOM_FILTER_TYPE_ROWCOL, a->__isset_bloomnFilterType = TRUE;
  a->dataBlockEncoding = HBASE_THRIFT_T_DATA_BLOCK_ENCODING_FAST_DIFF, a->__isset_dataBlockEncoding = TRUE;
  a->keepDeletedCells = HBASE_THRIFT_T_KEEP_DELETED_CELLS_TRUE, a->__isset_keepDeletedCells = TRUE;
  a->maxVersions = 7, a->__isset_maxVersions = TRUE;
  a->minVersions = 2, a->__isset_minVersions = TRUE;
  a->timeToLive = 86400, a->__isset_timeToLive = TRUE;
  a->inMemory = TRUE, a->__isset_inMemory = TRUE;
  a->cacheDataOnWrite = TRUE, a->__isset_cacheDataOnWrite = TRUE;
  g_hash_table_replace (a->configuration, g_strdup ("hbase.hstore.blockingStoreFiles"), g_strdup ("33"));
  a->__isset_configuration = TRUE;
  map_put (a->attributes, "a-family-note", "also kept");
  a->__isset_attributes = TRUE;

  b->name = bytes_of ("b");
  b->maxVersions = 3, b->__isset_maxVersions = TRUE;
  b->blockCacheEnabled = FALSE, b->__isset_blockCacheEnabled = TRUE;
  b->evictBlocksOnClose = TRUE, b->__isset_evictBlocksOnClose = TRUE;
  b->scope = 1, b->__isset_scope = TRUE;

  g_ptr_array_add (call.descriptor->columns, a);
  g_ptr_array_add (call.descriptor->columns, b);
  call.descriptor->__isset_columns = TRUE;
  g_assert_true (hbase_client_call (client, HBASE_CALL_DEFAULT, create_table_once, &call, NULL, &error));
  g_assert_no_error (error);
  g_object_unref (call.descriptor);
}

/* A client of a gateway of the kind given that tries each call once;
 * NULL when the gateway is down (the test is then skipped or failed). */
static HBaseClient *
client_of (HBaseProtocol protocol, HBaseTransport transport)
{
  g_autoptr(GPtrArray) gateways = test_stack_gateways ();
  const TestGateway *gateway = test_stack_require_gateway (gateways, protocol, transport);
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(GError) error = NULL;

  if (gateway == NULL || !test_stack_check_gateway (gateway))
    return NULL;
  config = test_stack_config (gateway);
  g_assert_true (hbase_config_set_max_attempts (config, 1, &error));
  return hbase_client_new (config);
}

static void
drop (HBaseClient *client, const char *name)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (hbase_client_delete_table (client, name, NULL, &error));
  g_assert_no_error (error);
}

/* --- the round trip ------------------------------------------------------------------------ */

/* The mark set and removed through a table of @protocol/@transport's
 * gateway, or with @native of a native client (the descriptors read through
 * the gateway either way). */
static void
round_trip (HBaseProtocol protocol, HBaseTransport transport, gboolean native)
{
  g_autofree char *name = test_stack_unique_name ("hbase_glib_mark_trip");
  g_autoptr(HBaseClient) client = client_of (protocol, transport);
  g_autoptr(HBaseClient) native_client = NULL;
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(HbaseThriftTTableDescriptor) original = NULL;
  g_autoptr(HbaseThriftTTableDescriptor) marked = NULL;
  g_autoptr(HbaseThriftTTableDescriptor) unmarked = NULL;
  g_autofree char *original_text = NULL;
  g_autofree char *marked_text = NULL;
  g_autofree char *unmarked_text = NULL;
  g_autofree char *mark = NULL;
  g_autoptr(GError) error = NULL;
  gboolean changed = FALSE;

  if (client == NULL)
    return;
  create_unusual_table (client, name);
  if (native)
    {
      g_autoptr(HBaseConfig) config = test_stack_native_config ();

      native_client = hbase_client_new (config);
    }
  table = hbase_table_new (native ? native_client : client, name, &error);
  g_assert_no_error (error);
  original = read_descriptor (client, name);
  original_text = descriptor_text (original);
  /* what was asked for is what HBase holds (else the comparison below
   * would prove little) */
  g_assert_nonnull (strstr (original_text, "a-user-note=kept as it is"));
  g_assert_nonnull (strstr (original_text, "hbase.hstore.blockingStoreFiles=33"));
  g_assert_nonnull (strstr (original_text, "block 16384"));
  g_assert_nonnull (strstr (original_text, "versions 2..7"));

  g_assert_true (_hbase_table_set_index_mark (table, "ns_x:definitions", &changed, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (changed);
  marked = read_descriptor (client, name);
  marked_text = descriptor_text (marked);
  g_assert_cmpstr (marked_text, ==, original_text);
  mark = read_mark (client, name);
  g_assert_cmpstr (mark, ==, "ns_x:definitions");

  /* the same mark again changes nothing (no modifyTable) */
  g_assert_true (_hbase_table_set_index_mark (table, "ns_x:definitions", &changed, NULL, &error));
  g_assert_false (changed);

  g_assert_true (_hbase_table_set_index_mark (table, NULL, &changed, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (changed);
  unmarked = read_descriptor (client, name);
  unmarked_text = descriptor_text (unmarked);
  g_assert_cmpstr (unmarked_text, ==, original_text);
  g_clear_pointer (&mark, g_free);
  mark = read_mark (client, name);
  g_assert_null (mark);

  /* the table still opens and serves */
  {
    g_autoptr(GBytes) key = test_key ("after");
    g_autoptr(GBytes) value = test_text ("v");
    g_autoptr(HBaseMutation) put = hbase_mutation_new_put (key);
    g_autoptr(HBaseRow) row = NULL;

    hbase_mutation_put (put, "a", "q", value);
    g_assert_true (hbase_table_apply (table, put, NULL, &error));
    g_assert_no_error (error);
    row = hbase_table_get (table, key, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_nonnull (hbase_row_lookup (row, "a", "q"));
  }
  drop (client, name);
}

static void
test_round_trip_binary_buffered (void)
{
  round_trip (HBASE_PROTOCOL_BINARY, HBASE_TRANSPORT_BUFFERED, FALSE);
}

static void
test_round_trip_compact_buffered (void)
{
  round_trip (HBASE_PROTOCOL_COMPACT, HBASE_TRANSPORT_BUFFERED, FALSE);
}

/* set and removed by the native backend's ModifyTable */
static void
test_round_trip_native (void)
{
  round_trip (HBASE_PROTOCOL_BINARY, HBASE_TRANSPORT_BUFFERED, TRUE);
}

/* The 2.6 gateway reads the attributes of descriptors sent over framed
 * transport as the whole request frame (a table made there shows one
 * attribute, the frame's first bytes, instead of those sent): the mark is
 * refused there, before anything is sent. */

static void
test_framed_refused (void)
{
  g_autofree char *name = test_stack_unique_name ("hbase_glib_mark_framed");
  g_autoptr(HBaseClient) buffered = client_of (HBASE_PROTOCOL_BINARY, HBASE_TRANSPORT_BUFFERED);
  g_autoptr(HBaseClient) framed = client_of (HBASE_PROTOCOL_BINARY, HBASE_TRANSPORT_FRAMED);
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(HbaseThriftTTableDescriptor) before = NULL;
  g_autoptr(HbaseThriftTTableDescriptor) after = NULL;
  g_autofree char *before_text = NULL;
  g_autofree char *after_text = NULL;
  g_autoptr(GError) error = NULL;
  gboolean changed = TRUE;

  if (buffered == NULL || framed == NULL)
    return;
  create_unusual_table (buffered, name);
  before = read_descriptor (framed, name);
  before_text = descriptor_text (before);
  g_assert_nonnull (strstr (before_text, "a-user-note=kept as it is"));
  table = hbase_table_new (framed, name, &error);
  g_assert_false (_hbase_table_set_index_mark (table, "definitions", &changed, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "framed"));
  g_assert_false (changed);
  after = read_descriptor (buffered, name);
  after_text = descriptor_text (after);
  g_assert_cmpstr (after_text, ==, before_text);
  drop (buffered, name);
}

/* --- writes on a marked table -------------------------------------------------------------- */

static void
assert_refused (GError **error, const char *table, const char *what)
{
  if (!g_error_matches (*error, HBASE_ERROR, HBASE_ERROR_INDEXED_TABLE))
    g_error ("%s: expected HBASE_ERROR_INDEXED_TABLE, got %s", what,
             *error != NULL ? (*error)->message : "no error");
  g_assert_nonnull (strstr ((*error)->message, table));
  g_assert_nonnull (strstr ((*error)->message, "hbase_table_set_allow_unindexed_writes"));
  g_clear_error (error);
}

static HBaseMutation *
put_of (const char *suffix)
{
  g_autoptr(GBytes) key = test_key (suffix);
  g_autoptr(GBytes) value = test_text ("v");
  HBaseMutation *put = hbase_mutation_new_put (key);

  hbase_mutation_put (put, "f", "q", value);
  return put;
}

static GPtrArray *
one_put (const char *suffix)
{
  GPtrArray *mutations = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);

  g_ptr_array_add (mutations, put_of (suffix));
  return mutations;
}

static gboolean
accept_all (HBaseTable *table, GPtrArray *mutations, gpointer user_data, GCancellable *cancellable,
            GError **error)
{
  (*(guint *) user_data)++;
  return TRUE;
}

static const HBaseTableWriteHooks counting_hooks = { accept_all, NULL };

static void
test_writes_refused (void)
{
  g_autofree char *name = test_stack_unique_name ("hbase_glib_mark_writes");
  g_autoptr(HBaseClient) marker = client_of (HBASE_PROTOCOL_BINARY, HBASE_TRANSPORT_BUFFERED);
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(HBaseClient) early = NULL;
  g_autoptr(HBaseTable) early_table = NULL;
  g_autoptr(HBaseTable) marking = NULL;
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(GError) error = NULL;
  HBaseFamilyOptions families[2] = { HBASE_FAMILY_OPTIONS_INIT, HBASE_FAMILY_OPTIONS_INIT };
  const char *suffixes[] = { "apply", "multiple", "row", "checked", "string", "buffer", "async",
                             "early-again", NULL };

  if (marker == NULL)
    return;
  families[0].name = "f";
  families[1].name = "s";    /* sets' default family */
  g_assert_true (hbase_client_create_table (marker, name, families, 2, NULL, NULL, &error));
  g_assert_no_error (error);
  marking = hbase_table_new (marker, name, &error);

  /* a client that wrote while the table was unmarked */
  early = hbase_client_new (hbase_client_get_config (marker));
  early_table = hbase_table_new (early, name, &error);
  {
    g_autoptr(HBaseMutation) put = put_of ("early");

    g_assert_true (hbase_table_apply (early_table, put, NULL, &error));
    g_assert_no_error (error);
  }

  g_assert_true (_hbase_table_set_index_mark (marking, "definitions_of_test", NULL, NULL, &error));
  g_assert_no_error (error);

  /* ... sees the mark at once: it was set by this process */
  {
    g_autoptr(HBaseMutation) put = put_of ("early-again");

    g_assert_false (hbase_table_apply (early_table, put, NULL, &error));
    assert_refused (&error, name, "a client that wrote before the mark");
  }

  /* another client, which never saw the table */
  client = hbase_client_new (hbase_client_get_config (marker));
  table = hbase_table_new (client, name, &error);
  g_assert_false (hbase_table_get_allow_unindexed_writes (table));

  {
    g_autoptr(HBaseMutation) put = put_of ("apply");

    g_assert_false (hbase_table_apply (table, put, NULL, &error));
    assert_refused (&error, name, "apply");
  }
  {
    g_autoptr(GPtrArray) puts = one_put ("multiple");

    g_assert_false (hbase_table_apply_multiple (table, puts, NULL, &error));
    assert_refused (&error, name, "apply multiple");
  }
  {
    g_autoptr(GPtrArray) puts = one_put ("row");

    g_assert_false (hbase_table_mutate_row (table, puts, NULL, &error));
    assert_refused (&error, name, "mutate row");
  }
  {
    g_autoptr(GPtrArray) puts = one_put ("checked");
    g_autoptr(HBaseCondition) absent = hbase_condition_new_absent ("f", "q");
    gboolean applied = TRUE;

    g_assert_false (hbase_table_check_and_mutate (table, absent, puts, &applied, NULL, &error));
    assert_refused (&error, name, "check and mutate");
  }
  {
    g_autoptr(GBytes) key = test_key ("counter");

    g_assert_false (hbase_table_increment_counter (table, key, "f", "n", 1, NULL, NULL, &error));
    assert_refused (&error, name, "increment");
  }
  {
    g_autoptr(GBytes) key = test_key ("string");
    g_autofree char *row = g_strndup (g_bytes_get_data (key, NULL), g_bytes_get_size (key));

    g_assert_false (hbase_table_put_string (table, row, "f:q", "v", NULL, &error));
    assert_refused (&error, name, "put string");
  }
  {
    g_autoptr(HBaseWriteBuffer) buffer = hbase_write_buffer_new (table, NULL, &error);
    g_autoptr(HBaseMutation) put = put_of ("buffer");
    g_autoptr(GPtrArray) failures = NULL;

    g_assert_no_error (error);
    if (hbase_write_buffer_add (buffer, put, NULL, &error))
      g_assert_false (hbase_write_buffer_flush (buffer, NULL, &error));
    assert_refused (&error, name, "write buffer");
    hbase_write_buffer_close (buffer, NULL, NULL);
    failures = hbase_write_buffer_take_failures (buffer);
    g_assert_cmpuint (failures->len, ==, 1);
  }
  {
    g_autoptr(HBaseMutation) put = put_of ("async");
    TestWaiter waiter;

    test_waiter_init (&waiter);
    hbase_table_apply_async (table, put, NULL, test_waiter_done, &waiter);
    g_assert_false (hbase_table_apply_finish (table, test_waiter_run (&waiter), &error));
    test_waiter_clear (&waiter);
    assert_refused (&error, name, "apply async");
  }
  {
    g_autoptr(GBytes) key = test_key ("set");
    g_autoptr(HBaseSet) set = hbase_set_new (table, key, NULL, &error);
    g_autoptr(GBytes) member = test_text ("m");

    g_assert_no_error (error);
    g_assert_false (hbase_set_add_one (set, member, NULL, NULL, &error));
    assert_refused (&error, name, "set add");
  }

  /* nothing of it reached HBase; reads are not refused */
  for (guint i = 0; suffixes[i] != NULL; i++)
    {
      g_autoptr(GBytes) key = test_key (suffixes[i]);
      g_autoptr(HBaseRow) row = hbase_table_get (table, key, NULL, NULL, &error);

      g_assert_no_error (error);
      g_assert_true (hbase_row_is_empty (row));
    }

  /* a handle with write hooks (an index's) writes */
  {
    g_autoptr(HBaseTable) hooked = hbase_table_new (client, name, &error);
    g_autoptr(HBaseMutation) put = put_of ("hooked");
    guint *seen = g_new0 (guint, 1);

    _hbase_table_set_write_hooks (hooked, &counting_hooks, seen, g_free);
    g_assert_true (hbase_table_apply (hooked, put, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (*seen, ==, 1);
  }

  /* the opt-out writes */
  {
    g_autoptr(HBaseMutation) put = put_of ("allowed");
    g_autoptr(GBytes) key = test_key ("allowed");
    g_autoptr(HBaseRow) row = NULL;

    hbase_table_set_allow_unindexed_writes (table, TRUE);
    g_assert_true (hbase_table_get_allow_unindexed_writes (table));
    g_assert_true (hbase_table_apply (table, put, NULL, &error));
    g_assert_no_error (error);
    row = hbase_table_get (table, key, NULL, NULL, &error);
    g_assert_nonnull (hbase_row_lookup (row, "f", "q"));
    hbase_table_set_allow_unindexed_writes (table, FALSE);
  }

  /* unmarked by the marking client: its own handles write at once */
  {
    g_autoptr(HBaseTable) again = hbase_table_new (marker, name, &error);
    g_autoptr(HBaseMutation) put = put_of ("unmarked");

    g_assert_true (_hbase_table_set_index_mark (marking, NULL, NULL, NULL, &error));
    g_assert_no_error (error);
    g_assert_true (hbase_table_apply (again, put, NULL, &error));
    g_assert_no_error (error);
    /* and so do the other clients of this process */
    g_assert_true (hbase_table_apply (early_table, put, NULL, &error));
    g_assert_no_error (error);
    g_assert_true (hbase_table_apply (table, put, NULL, &error));
    g_assert_no_error (error);
  }
  drop (marker, name);
}

/* A missing table is not "cannot tell": the write fails as it always did. */
static void
test_missing_table (void)
{
  g_autoptr(HBaseClient) client = client_of (HBASE_PROTOCOL_BINARY, HBASE_TRANSPORT_BUFFERED);
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(HBaseMutation) put = put_of ("x");
  g_autoptr(GError) error = NULL;

  if (client == NULL)
    return;
  table = hbase_table_new (client, "hbase_glib_mark_no_such_table", &error);
  g_assert_false (hbase_table_apply (table, put, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND);
  g_clear_error (&error);
  /* marking it (what hbase_index_define() does) says so too */
  g_assert_false (_hbase_table_set_index_mark (table, "definitions", NULL, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "hbase_glib_mark_no_such_table"));
}

/* --- the native backend -------------------------------------------------------------------- */

static HBaseClient *
native_client_new (void)
{
  g_autoptr(HBaseConfig) config = test_stack_native_config ();

  return hbase_client_new (config);
}

static void
test_native (void)
{
  g_autofree char *name = test_stack_unique_name ("hbase_glib_mark_native");
  g_autoptr(HBaseClient) marker = client_of (HBASE_PROTOCOL_BINARY, HBASE_TRANSPORT_BUFFERED);
  g_autoptr(HBaseClient) native = NULL;
  g_autoptr(HBaseTable) marking = NULL;
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(HBaseTable) reader = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *definitions = NULL;
  HBaseFamilyOptions families[1] = { HBASE_FAMILY_OPTIONS_INIT };

  if (marker == NULL)
    return;
  families[0].name = "f";
  g_assert_true (hbase_client_create_table (marker, name, families, 1, NULL, NULL, &error));
  g_assert_no_error (error);
  marking = hbase_table_new (marker, name, &error);
  reader = hbase_table_new (marker, name, &error);
  native = native_client_new ();
  table = hbase_table_new (native, name, &error);
  g_assert_no_error (error);
  g_assert_false (hbase_table_get_allow_unindexed_writes (table));

  /* unmarked: the native write goes through, and the gateway reads it */
  {
    g_autoptr(HBaseMutation) put = put_of ("native-unmarked");
    g_autoptr(GBytes) key = test_key ("native-unmarked");
    g_autoptr(HBaseRow) row = NULL;

    g_assert_true (hbase_table_apply (table, put, NULL, &error));
    g_assert_no_error (error);
    row = hbase_table_get (reader, key, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_false (hbase_row_is_empty (row));
  }
  g_assert_true (_hbase_table_get_index_mark (table, &definitions, NULL, &error));
  g_assert_no_error (error);
  g_assert_null (definitions);

  /* marked through the gateway: refused, nothing written */
  g_assert_true (_hbase_table_set_index_mark (marking, "definitions_native", NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (_hbase_table_get_index_mark (table, &definitions, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (definitions, ==, "definitions_native");
  {
    g_autoptr(HBaseMutation) put = put_of ("native-marked");
    g_autoptr(GPtrArray) puts = one_put ("native-marked");
    g_autoptr(GBytes) key = test_key ("native-marked");
    g_autoptr(HBaseRow) row = NULL;

    g_assert_false (hbase_table_apply (table, put, NULL, &error));
    assert_refused (&error, name, "native apply");
    g_assert_false (hbase_table_apply_multiple (table, puts, NULL, &error));
    assert_refused (&error, name, "native apply_multiple");
    row = hbase_table_get (reader, key, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_true (hbase_row_is_empty (row));
  }
  /* a new native client, which never saw the table, refuses too */
  {
    g_autoptr(HBaseClient) other = native_client_new ();
    g_autoptr(HBaseTable) other_table = hbase_table_new (other, name, &error);
    g_autoptr(HBaseMutation) put = put_of ("native-other");

    g_assert_false (hbase_table_apply (other_table, put, NULL, &error));
    assert_refused (&error, name, "a second native client");
    /* the explicit opt-out still writes */
    hbase_table_set_allow_unindexed_writes (other_table, TRUE);
    g_assert_true (hbase_table_apply (other_table, put, NULL, &error));
    g_assert_no_error (error);
  }

  /* unmarked again: accepted */
  g_assert_true (_hbase_table_set_index_mark (marking, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  {
    g_autoptr(HBaseMutation) put = put_of ("native-unmarked-again");

    g_assert_true (hbase_table_apply (table, put, NULL, &error));
    g_assert_no_error (error);
  }
  g_clear_pointer (&definitions, g_free);
  /* a missing table: NOT_FOUND, as on the gateway */
  {
    g_autoptr(HBaseTable) missing = hbase_table_new (native, "hbase_glib_mark_no_such_table", &error);

    gboolean changed = TRUE;

    g_assert_false (_hbase_table_get_index_mark (missing, &definitions, NULL, &error));
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND);
    g_assert_nonnull (strstr (error->message, "hbase_glib_mark_no_such_table"));
    g_clear_error (&error);
    /* marking it says so too, and changes nothing */
    g_assert_false (_hbase_table_set_index_mark (missing, "definitions", &changed, NULL, &error));
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND);
    g_assert_cmpstr (error->message, ==, "table 'hbase_glib_mark_no_such_table' does not exist");
    g_assert_false (changed);
    g_clear_error (&error);
  }
  drop (marker, name);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/integration/index-mark/round-trip/binary-buffered", test_round_trip_binary_buffered);
  g_test_add_func ("/integration/index-mark/round-trip/compact-buffered", test_round_trip_compact_buffered);
  g_test_add_func ("/integration/index-mark/round-trip/native", test_round_trip_native);
  g_test_add_func ("/integration/index-mark/framed-refused", test_framed_refused);
  g_test_add_func ("/integration/index-mark/writes-refused", test_writes_refused);
  g_test_add_func ("/integration/index-mark/missing-table", test_missing_table);
  g_test_add_func ("/integration/index-mark/native", test_native);
  return g_test_run ();
}
