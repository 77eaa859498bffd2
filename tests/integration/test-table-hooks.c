/* SPDX-License-Identifier: Apache-2.0 */
/* Integration test of the table's write hooks (src/table/hbase-table-
 * private.h) against the real stack: they see every write path with the
 * mutations sent, can veto a write before anything is sent, and learn
 * per mutation whether it was applied, not applied, or unknown (a batch
 * that failed in flight); set and sorted-set writes pass through them. */
#include "config.h"

#include <string.h>

#include "../../src/table/hbase-mutation-private.h"
#include "../../src/table/hbase-table-private.h"
#include "../support/test-rows.h"
#include "../support/test-stack.h"
#include "../support/test-waiter.h"

typedef struct {
  guint before_calls;
  guint after_calls;
  GString *outcomes;        /* "A" applied, "N" not applied, "U" unknown, per mutation */
  guint mutations_seen;
  gint64 incremented;       /* from the result row of an increment */
  gboolean veto;
} Record;

static gboolean
record_before (HBaseTable *table, GPtrArray *mutations, gpointer user_data,
               GCancellable *cancellable, GError **error)
{
  Record *record = user_data;

  record->before_calls++;
  record->mutations_seen = mutations->len;
  if (record->veto)
    {
      g_set_error_literal (error, HBASE_ERROR, HBASE_ERROR_IO, "vetoed by the hook");
      return FALSE;
    }
  return TRUE;
}

static void
record_after (HBaseTable *table, GPtrArray *mutations, const HBaseWriteOutcome *outcomes,
              HBaseRow *result, gpointer user_data)
{
  Record *record = user_data;

  record->after_calls++;
  g_string_truncate (record->outcomes, 0);
  for (guint i = 0; i < mutations->len; i++)
    g_string_append_c (record->outcomes, "ANU"[outcomes[i]]);
  if (result != NULL && hbase_row_lookup (result, "f", "n") != NULL)
    g_assert_true (hbase_counter_decode (hbase_row_lookup (result, "f", "n"), &record->incremented,
                                         NULL));
}

static const HBaseTableWriteHooks hooks = { record_before, record_after };

static void
record_free (gpointer data)
{
  Record *record = data;

  g_string_free (record->outcomes, TRUE);
  g_free (record);
}

static HBaseMutation *
put_new (const char *suffix, const char *family)
{
  g_autoptr(GBytes) row = test_key (suffix);
  g_autoptr(GBytes) value = test_text ("v");
  HBaseMutation *put = hbase_mutation_new_put (row);

  hbase_mutation_put (put, family, "q", value);
  return put;
}

/* A client that tries each call once, and a new table @name with the
 * family "f" (made through the binary/buffered gateway); NULL when the
 * gateway is down.  The client is of that gateway, or with @data
 * (NATIVE) of the native backend. */
#define NATIVE GINT_TO_POINTER (1)

static HBaseClient *
client_with_table (const char *name, gconstpointer data)
{
  g_autoptr(GPtrArray) gateways = test_stack_gateways ();
  const TestGateway *gateway = test_stack_require_gateway (gateways, HBASE_PROTOCOL_BINARY,
                                                           HBASE_TRANSPORT_BUFFERED);
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(GError) error = NULL;
  HBaseFamilyOptions family = HBASE_FAMILY_OPTIONS_INIT;
  HBaseClient *client;

  if (gateway == NULL || !test_stack_check_gateway (gateway))
    return NULL;
  config = test_stack_config (gateway);
  g_assert_true (hbase_config_set_max_attempts (config, 1, &error));
  client = hbase_client_new (config);
  g_assert_no_error (error);
  family.name = "f";
  g_assert_true (hbase_client_create_table (client, name, &family, 1, NULL, NULL, &error));
  g_assert_no_error (error);
  if (data == NATIVE)
    {
      g_autoptr(HBaseConfig) native = test_stack_native_config ();

      g_assert_true (hbase_config_set_max_attempts (native, 1, &error));
      g_object_unref (client);
      client = hbase_client_new (native);
    }
  return client;
}

/* Drops @name through the binary/buffered gateway (the native backend has
 * no admin calls). */
static void
drop_table (const char *name)
{
  g_autoptr(GPtrArray) gateways = test_stack_gateways ();
  const TestGateway *gateway = test_stack_require_gateway (gateways, HBASE_PROTOCOL_BINARY,
                                                           HBASE_TRANSPORT_BUFFERED);
  g_autoptr(HBaseConfig) config = test_stack_config (gateway);
  g_autoptr(HBaseClient) client = hbase_client_new (config);
  g_autoptr(GError) error = NULL;

  hbase_client_delete_table (client, name, NULL, &error);
  g_assert_no_error (error);
}

static void
test_hooks (gconstpointer data)
{
  g_autofree char *name = test_stack_unique_name ("hbase_glib_hooks");
  g_autoptr(HBaseClient) client = client_with_table (name, data);
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(GError) error = NULL;
  Record *record;

  if (client == NULL)
    return;
  record = g_new0 (Record, 1);
  record->outcomes = g_string_new (NULL);
  table = hbase_table_new (client, name, &error);
  g_assert_no_error (error);
  _hbase_table_set_write_hooks (table, &hooks, record, record_free);

  /* one put */
  {
    g_autoptr(HBaseMutation) put = put_new ("a", "f");

    g_assert_true (hbase_table_apply (table, put, NULL, &error));
    g_assert_cmpuint (record->before_calls, ==, 1);
    g_assert_cmpstr (record->outcomes->str, ==, "A");
  }

  /* a batch failing in its third run: puts, deletes, then a put to an
   * unknown family among good ones */
  {
    g_autoptr(GPtrArray) batch = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
    g_autoptr(GBytes) row_b = test_key ("b");
    HBaseMutation *remove = hbase_mutation_new_delete (row_b);

    g_ptr_array_add (batch, put_new ("a", "f"));
    g_ptr_array_add (batch, put_new ("a2", "f"));
    g_ptr_array_add (batch, remove);
    g_ptr_array_add (batch, put_new ("bad", "nofamily"));
    g_ptr_array_add (batch, put_new ("c", "f"));
    g_assert_false (hbase_table_apply_multiple (table, batch, NULL, &error));
    g_assert_nonnull (error);
    g_clear_error (&error);
    g_assert_cmpuint (record->mutations_seen, ==, 5);
    g_assert_cmpstr (record->outcomes->str, ==, "AAAUU");
  }

  /* a check-and-mutate whose check fails, then one that passes */
  {
    g_autoptr(HBaseCondition) absent = hbase_condition_new_absent ("f", "q");
    g_autoptr(GPtrArray) one = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
    gboolean applied = TRUE;

    g_ptr_array_add (one, put_new ("a", "f"));
    g_assert_true (hbase_table_check_and_mutate (table, absent, one, &applied, NULL, &error));
    g_assert_false (applied);
    g_assert_cmpstr (record->outcomes->str, ==, "N");
    g_ptr_array_set_size (one, 0);
    g_ptr_array_add (one, put_new ("fresh", "f"));
    g_assert_true (hbase_table_check_and_mutate (table, absent, one, &applied, NULL, &error));
    g_assert_true (applied);
    g_assert_cmpstr (record->outcomes->str, ==, "A");
  }

  /* an increment hands its new values to the hook */
  {
    g_autoptr(GBytes) row = test_key ("counter");

    g_assert_true (hbase_table_increment_counter (table, row, "f", "n", 41, NULL, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpint (record->incremented, ==, 41);
  }

  /* async writes pass through the hooks too */
  {
    g_autoptr(HBaseMutation) put = put_new ("async", "f");
    guint before = record->before_calls;
    TestWaiter waiter;

    test_waiter_init (&waiter);
    hbase_table_apply_async (table, put, NULL, test_waiter_done, &waiter);
    g_assert_true (hbase_table_apply_finish (table, test_waiter_run (&waiter), &error));
    g_assert_no_error (error);
    test_waiter_clear (&waiter);
    g_assert_cmpuint (record->before_calls, ==, before + 1);
    g_assert_cmpstr (record->outcomes->str, ==, "A");
  }

  /* a veto stops the write before anything is sent */
  {
    g_autoptr(HBaseMutation) put = put_new ("vetoed", "f");
    g_autoptr(GBytes) row = test_key ("vetoed");
    g_autoptr(HBaseRow) read = NULL;
    guint after = record->after_calls;

    record->veto = TRUE;
    g_assert_false (hbase_table_apply (table, put, NULL, &error));
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_IO);
    g_assert_cmpstr (error->message, ==, "vetoed by the hook");
    g_clear_error (&error);
    g_assert_cmpuint (record->after_calls, ==, after);
    record->veto = FALSE;
    read = hbase_table_get (table, row, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_true (hbase_row_is_empty (read));
  }

  /* reads never call the hooks */
  {
    g_autoptr(GBytes) row = test_key ("a");
    g_autoptr(HBaseRow) read = NULL;
    guint before = record->before_calls;

    read = hbase_table_get (table, row, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (record->before_calls, ==, before);
  }

  drop_table (name);
}

/* --- a write buffer's background flushes ------------------------------------------------------- */

/* Which thread ran the hooks: the one adding to the buffer, or another. */
typedef struct {
  GMutex lock;
  GThread *adder;
  guint before_in_adder, before_elsewhere;
  guint after_in_adder, after_elsewhere;
  GString *outcomes;        /* of every after call, in order */
  GString *before_order;    /* the first row of each write, per hook */
  GString *after_order;
} ThreadRecord;

static void
append_first_row (GString *order, GPtrArray *mutations)
{
  GBytes *row = hbase_mutation_get_row (g_ptr_array_index (mutations, 0));

  g_string_append_len (order, g_bytes_get_data (row, NULL), (gssize) g_bytes_get_size (row));
  g_string_append_c (order, ',');
}

static gboolean
thread_before (HBaseTable *table, GPtrArray *mutations, gpointer user_data,
               GCancellable *cancellable, GError **error)
{
  ThreadRecord *record = user_data;

  g_mutex_lock (&record->lock);
  if (g_thread_self () == record->adder)
    record->before_in_adder++;
  else
    record->before_elsewhere++;
  append_first_row (record->before_order, mutations);
  g_mutex_unlock (&record->lock);
  return TRUE;
}

static void
thread_after (HBaseTable *table, GPtrArray *mutations, const HBaseWriteOutcome *outcomes,
              HBaseRow *result, gpointer user_data)
{
  ThreadRecord *record = user_data;

  g_mutex_lock (&record->lock);
  if (g_thread_self () == record->adder)
    record->after_in_adder++;
  else
    record->after_elsewhere++;
  for (guint i = 0; i < mutations->len; i++)
    g_string_append_c (record->outcomes, "ANU"[outcomes[i]]);
  append_first_row (record->after_order, mutations);
  g_mutex_unlock (&record->lock);
}

static const HBaseTableWriteHooks thread_hooks = { thread_before, thread_after };

static void
thread_record_free (gpointer data)
{
  ThreadRecord *record = data;

  g_mutex_clear (&record->lock);
  g_string_free (record->outcomes, TRUE);
  g_string_free (record->before_order, TRUE);
  g_string_free (record->after_order, TRUE);
  g_free (record);
}

static HBaseTable *
hooked_table (HBaseClient *client, const char *name, ThreadRecord **record)
{
  g_autoptr(GError) error = NULL;
  HBaseTable *table = hbase_table_new (client, name, &error);

  g_assert_no_error (error);
  *record = g_new0 (ThreadRecord, 1);
  g_mutex_init (&(*record)->lock);
  (*record)->adder = g_thread_self ();
  (*record)->outcomes = g_string_new (NULL);
  (*record)->before_order = g_string_new (NULL);
  (*record)->after_order = g_string_new (NULL);
  _hbase_table_set_write_hooks (table, &thread_hooks, *record, thread_record_free);
  return table;
}

/* With background flushes, the thread that fills a batch runs the before
 * hook (so that work overlaps the write of the batch before); the after
 * hook of a written batch runs once, in the order the batches were
 * written, in the thread that adds (or the sender when nothing is queued
 * for it), and before close returns; a batch that failed tells its after
 * hooks from the sender at once, and one prepared and never sent (the
 * table is gone): not applied. */
static void
test_background_buffer (gconstpointer data)
{
  HBaseWriteBufferOptions options = HBASE_WRITE_BUFFER_OPTIONS_INIT;
  g_autofree char *name = test_stack_unique_name ("hbase_glib_hooks_bg");
  g_autoptr(HBaseClient) client = client_with_table (name, data);
  g_autoptr(GError) error = NULL;

  if (client == NULL)
    return;
  options.background_flush = TRUE;

  /* 20 puts in batches of 5 */
  {
    ThreadRecord *record = NULL;
    g_autoptr(HBaseTable) table = hooked_table (client, name, &record);
    g_autoptr(HBaseWriteBuffer) buffer = NULL;

    options.max_mutations = 5;
    buffer = hbase_write_buffer_new (table, &options, &error);
    g_assert_no_error (error);
    for (guint i = 0; i < 20; i++)
      {
        g_autofree char *suffix = g_strdup_printf ("bg%02u", i);
        g_autoptr(HBaseMutation) put = put_new (suffix, "f");

        g_assert_true (hbase_write_buffer_add (buffer, put, NULL, &error));
        g_assert_no_error (error);
      }
    g_assert_true (hbase_write_buffer_close (buffer, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (record->before_in_adder, ==, 4);
    g_assert_cmpuint (record->before_elsewhere, ==, 0);
    g_assert_cmpuint (record->after_in_adder + record->after_elsewhere, ==, 4);
    g_assert_cmpstr (record->outcomes->str, ==, "AAAAAAAAAAAAAAAAAAAA");
    g_assert_cmpstr (record->after_order->str, ==, record->before_order->str);
  }

  drop_table (name);

  /* puts then deletes: two requests, both prepared; the puts fail on the
   * missing table, which fails the deletes too without sending them */
  {
    ThreadRecord *record = NULL;
    g_autoptr(HBaseTable) table = hooked_table (client, name, &record);
    g_autoptr(HBaseWriteBuffer) buffer = NULL;
    g_autoptr(GPtrArray) failures = NULL;
    g_autoptr(GBytes) row = test_key ("gone");

    options.max_mutations = 4;
    buffer = hbase_write_buffer_new (table, &options, &error);
    g_assert_no_error (error);
    for (guint i = 0; i < 4; i++)
      {
        g_autoptr(HBaseMutation) mutation = i < 2 ? put_new ("gone", "f")
                                                  : hbase_mutation_new_delete (row);

        g_assert_true (hbase_write_buffer_add (buffer, mutation, NULL, &error));
        g_assert_no_error (error);
      }
    g_assert_false (hbase_write_buffer_close (buffer, NULL, &error));
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND);
    g_clear_error (&error);
    failures = hbase_write_buffer_take_failures (buffer);
    g_assert_cmpuint (failures->len, ==, 4);
    g_assert_cmpuint (record->before_in_adder, ==, 2);
    g_assert_cmpuint (record->after_elsewhere, ==, 2);
    g_assert_cmpuint (record->after_in_adder, ==, 0);
    g_assert_cmpuint (record->outcomes->len, ==, 4);
    g_assert_cmpstr (record->outcomes->str + 2, ==, "NN");
  }
}

/* --- sets and sorted sets ------------------------------------------------------------------ */

/* What the hooks saw of the structures' writes: per write, the kinds of
 * its mutations ("P" put, "D" delete) and its outcomes. */
typedef struct {
  GString *writes;          /* "PD:AA;P:A;" ... */
  GBytes *member;           /* a member whose qualifier a put must carry */
  guint puts_with_member;
  gboolean veto;
} StructRecord;

static gboolean
struct_before (HBaseTable *table, GPtrArray *mutations, gpointer user_data,
               GCancellable *cancellable, GError **error)
{
  StructRecord *record = user_data;

  if (record->veto)
    {
      g_set_error_literal (error, HBASE_ERROR, HBASE_ERROR_IO, "vetoed by the hook");
      return FALSE;
    }
  for (guint i = 0; i < mutations->len; i++)
    {
      HBaseMutation *mutation = g_ptr_array_index (mutations, i);

      g_string_append_c (record->writes, hbase_mutation_is_put (mutation) ? 'P' : 'D');
      for (guint j = 0; j < _hbase_mutation_get_n_entries (mutation); j++)
        {
          GBytes *family, *qualifier, *value;
          gint64 timestamp;
          gsize q_len, m_len;
          const guint8 *q, *m = g_bytes_get_data (record->member, &m_len);

          if (_hbase_mutation_get_entry (mutation, j, &family, &qualifier, &value, &timestamp) !=
              _HBASE_MUTATION_ENTRY_PUT)
            continue;
          q = g_bytes_get_data (qualifier, &q_len);
          /* the member's cell: 'm' then the member's bytes */
          if (q_len == m_len + 1 && q[0] == 'm' && memcmp (q + 1, m, m_len) == 0)
            record->puts_with_member++;
        }
    }
  g_string_append_c (record->writes, ':');
  return TRUE;
}

static void
struct_after (HBaseTable *table, GPtrArray *mutations, const HBaseWriteOutcome *outcomes,
              HBaseRow *result, gpointer user_data)
{
  StructRecord *record = user_data;

  for (guint i = 0; i < mutations->len; i++)
    g_string_append_c (record->writes, "ANU"[outcomes[i]]);
  g_string_append_c (record->writes, ';');
}

static const HBaseTableWriteHooks struct_hooks = { struct_before, struct_after };

static void
struct_record_free (gpointer data)
{
  StructRecord *record = data;

  g_string_free (record->writes, TRUE);
  g_bytes_unref (record->member);
  g_free (record);
}

/* Set and sorted-set writes go through the table: its hooks see each
 * change (the meta cell and the member cells in one put, removals as a
 * delete) with its outcome, and a veto fails the write with the hook's
 * error, changing nothing. */
static void
test_structures (gconstpointer data)
{
  g_autofree char *name = test_stack_unique_name ("hbase_glib_hooks_struct");
  g_autoptr(HBaseClient) client = client_with_table (name, data);
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(HBaseSet) set = NULL;
  g_autoptr(GBytes) set_key = test_key ("set");
  g_autoptr(GBytes) zset_key = test_key ("zset");
  HBaseSetOptions set_options = HBASE_SET_OPTIONS_INIT;
  HBaseZSetOptions zset_options = HBASE_ZSET_OPTIONS_INIT;
  HBaseZSet *zset;
  g_autoptr(GError) error = NULL;
  StructRecord *record;
  gboolean changed = FALSE;
  guint64 card = 0;

  if (client == NULL)
    return;
  table = hbase_table_new (client, name, &error);
  g_assert_no_error (error);
  record = g_new0 (StructRecord, 1);
  record->writes = g_string_new (NULL);
  record->member = g_bytes_new ("x\0\xff", 3);
  _hbase_table_set_write_hooks (table, &struct_hooks, record, struct_record_free);
  set_options.family = "f";
  set = hbase_set_new (table, set_key, &set_options, &error);
  g_assert_no_error (error);

  g_assert_true (hbase_set_add_one (set, record->member, &changed, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (changed);
  g_assert_cmpstr (record->writes->str, ==, "P:A;");
  g_assert_cmpuint (record->puts_with_member, ==, 1);

  g_string_truncate (record->writes, 0);
  g_assert_true (hbase_set_remove_one (set, record->member, &changed, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (changed);
  g_assert_cmpstr (record->writes->str, ==, "PD:AA;");

  /* a veto: the hook's error at once, nothing written */
  g_string_truncate (record->writes, 0);
  record->veto = TRUE;
  g_assert_false (hbase_set_add_one (set, record->member, &changed, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "vetoed by the hook"));
  g_clear_error (&error);
  g_assert_false (changed);
  g_assert_cmpstr (record->writes->str, ==, "");
  record->veto = FALSE;
  g_assert_true (hbase_set_card (set, &card, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (card, ==, 0);

  /* a sorted set */
  zset_options.family = "f";
  zset = hbase_zset_new (table, zset_key, &zset_options, &error);
  g_assert_no_error (error);
  {
    g_autoptr(GPtrArray) members = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
    const gdouble scores[] = { 1.5 };
    guint64 added = 0;

    g_ptr_array_add (members, g_bytes_ref (record->member));
    record->puts_with_member = 0;
    g_string_truncate (record->writes, 0);
    g_assert_true (hbase_zset_add (zset, HBASE_ZADD_NONE, members, scores, &added, NULL,
                                   &error));
    g_assert_no_error (error);
    g_assert_cmpuint (added, ==, 1);
    g_assert_cmpstr (record->writes->str, ==, "P:A;");
    g_assert_cmpuint (record->puts_with_member, ==, 1);
  }
  g_object_unref (zset);
}

/* Through the table layer, a set on a missing table fails with
 * HBASE_ERROR_NOT_FOUND, for reads and writes. */
static void
test_structures_missing_table (gconstpointer data)
{
  g_autofree char *name = test_stack_unique_name ("hbase_glib_hooks_none");
  g_autoptr(GPtrArray) gateways = test_stack_gateways ();
  const TestGateway *gateway = test_stack_require_gateway (gateways, HBASE_PROTOCOL_BINARY,
                                                           HBASE_TRANSPORT_BUFFERED);
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(HBaseSet) set = NULL;
  g_autoptr(GBytes) key = test_key ("set");
  g_autoptr(GBytes) member = test_text ("m");
  g_autoptr(GError) error = NULL;
  gboolean changed = TRUE;
  guint64 card = 7;

  if (gateway == NULL || !test_stack_check_gateway (gateway))
    return;
  config = data == NATIVE ? test_stack_native_config () : test_stack_config (gateway);
  client = hbase_client_new (config);
  g_assert_no_error (error);
  table = hbase_table_new (client, name, &error);
  g_assert_no_error (error);
  set = hbase_set_new (table, key, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (hbase_set_card (set, &card, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_false (hbase_set_add_one (set, member, &changed, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  /* each through the gateway, then on the native backend */
  for (guint i = 0; i < 2; i++)
    {
      gconstpointer data = i == 0 ? NULL : NATIVE;
      const char *end = i == 0 ? "binary-buffered" : "native";
      g_autofree char *hooks_path = g_strdup_printf ("/integration/table-hooks/%s/every-write-path", end);
      g_autofree char *buffer_path =
        g_strdup_printf ("/integration/table-hooks/%s/background-write-buffer", end);
      g_autofree char *structures_path = g_strdup_printf ("/integration/table-hooks/%s/structures", end);
      g_autofree char *missing_path =
        g_strdup_printf ("/integration/table-hooks/%s/structures-missing-table", end);

      g_test_add_data_func (hooks_path, data, test_hooks);
      g_test_add_data_func (buffer_path, data, test_background_buffer);
      g_test_add_data_func (structures_path, data, test_structures);
      g_test_add_data_func (missing_path, data, test_structures_missing_table);
    }
  return g_test_run ();
}
