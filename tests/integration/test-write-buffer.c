/* SPDX-License-Identifier: Apache-2.0 */
/* Integration test of HBaseWriteBuffer against the real stack, on every
 * protocol/transport combination (see tests/support/test-stack.h): flushes
 * by count, by bytes, by interval, on demand, at close and at free; adds
 * from several threads; failures pinned to the failing mutation (callback
 * and list), at flush, at close and at free; bad mutations refused at add;
 * a table deleted under the buffer and an unreachable gateway; background
 * flushes (order kept, failures from the sender thread, close).  Every
 * case but the deleted table also runs on the native backend.
 *
 * Each gateway gets one table (families "f", 3 versions, and "g"),
 * created on its first test and dropped at the end; every test writes
 * only rows starting with its own test path.  Rows are read back with
 * gets, not scanners (test-scanner closes gateway scanners of others).
 *
 * Long because: every case runs on the one table per gateway this file
 * creates and reads back with the same helpers. */
#include "config.h"

#include <string.h>

#include "../support/test-rows.h"
#include "../support/test-table-fixture.h"

typedef TestTableFixture Fixture;

#define SKIP_IF_UNREACHABLE TEST_SKIP_IF_UNREACHABLE

static HBaseClient *
client_for (HBaseConfig *config)
{
  g_autoptr(GError) error = NULL;
  HBaseClient *client = hbase_client_new (config);

  g_assert_no_error (error);
  return client;
}

static char *
create_table (HBaseClient *client, const char *prefix)
{
  g_autofree char *name = test_stack_unique_name (prefix);
  HBaseFamilyOptions families[2] = { HBASE_FAMILY_OPTIONS_INIT, HBASE_FAMILY_OPTIONS_INIT };
  g_autoptr(GError) error = NULL;

  families[0].name = "f";
  families[0].max_versions = 3;
  families[1].name = "g";
  g_assert_true (hbase_client_create_table (client, name, families, 2, NULL, NULL, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&name);
}


/* --- helpers ------------------------------------------------------------------------------ */

/* A row key of this test: its path, a separator and @suffix. */
/* A put of f:q = "v-SUFFIX" on test_key (SUFFIX). */
static HBaseMutation *
put_new (const char *suffix)
{
  g_autoptr(GBytes) row = test_key (suffix);
  g_autofree char *value = g_strconcat ("v-", suffix, NULL);
  g_autoptr(GBytes) bytes = test_text (value);
  HBaseMutation *put = hbase_mutation_new_put (row);

  hbase_mutation_put (put, "f", "q", bytes);
  return put;
}

/* A put of f:q and of the missing family "nope" on @row. */
static HBaseMutation *
bad_put_new (GBytes *row)
{
  g_autoptr(GBytes) value = test_text ("bad");
  HBaseMutation *put = hbase_mutation_new_put (row);

  hbase_mutation_put (put, "f", "q", value);
  hbase_mutation_put (put, "nope", "q", value);
  return put;
}

/* The row "bad\x01\xff" of this test: not printable, so escaped in messages. */
static GBytes *
bad_key (void)
{
  return test_key ("bad\x01\xff");
}

#define BAD_KEY_ESCAPED "|bad\\x01\\xff\""

static void
add_ok (HBaseWriteBuffer *buffer, HBaseMutation *mutation)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (hbase_write_buffer_add (buffer, mutation, NULL, &error));
  g_assert_no_error (error);
}

static void
add_put (HBaseWriteBuffer *buffer, const char *suffix)
{
  g_autoptr(HBaseMutation) put = put_new (suffix);

  add_ok (buffer, put);
}

static HBaseWriteBuffer *
buffer_new (Fixture *fixture, const HBaseWriteBufferOptions *options)
{
  g_autoptr(GError) error = NULL;
  HBaseWriteBuffer *buffer = hbase_write_buffer_new (fixture->table, options, &error);

  g_assert_no_error (error);
  g_assert_nonnull (buffer);
  g_assert_true (hbase_write_buffer_get_table (buffer) == fixture->table);
  return buffer;
}

/* The versions of f:q on test_key (@suffix), newest first, joined by spaces;
 * "" when the row is missing. */
static char *
read_back (HBaseTable *table, const char *suffix)
{
  static const char *const column[] = { "f:q", NULL };
  HBaseReadOptions options = HBASE_READ_OPTIONS_INIT;
  g_autoptr(GBytes) row = test_key (suffix);
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseRow) result = NULL;
  GString *out = g_string_new (NULL);

  options.columns = column;
  options.max_versions = 3;
  result = hbase_table_get (table, row, &options, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < hbase_row_get_n_cells (result); i++)
    {
      GBytes *value = hbase_cell_get_value (hbase_row_get_cell (result, i));

      if (i > 0)
        g_string_append_c (out, ' ');
      g_string_append_len (out, g_bytes_get_data (value, NULL), (gssize) g_bytes_get_size (value));
    }
  return g_string_free (out, FALSE);
}

/* test_key (@suffix) holds f:q = "v-SUFFIX", written once. */
static void
assert_written (HBaseTable *table, const char *suffix)
{
  g_autofree char *values = read_back (table, suffix);
  g_autofree char *expected = g_strconcat ("v-", suffix, NULL);

  g_assert_cmpstr (values, ==, expected);
}

/* test_key (@suffix) holds f:q = "v-SUFFIX" as its newest version.  For the
 * good mutations of a batch that failed: HBase may have written them
 * before the batch failed (and at each retry of it), and they are sent
 * again one at a time, each time with a new timestamp. */
static void
assert_newest (HBaseTable *table, const char *suffix)
{
  g_autofree char *values = read_back (table, suffix);
  g_autofree char *expected = g_strconcat ("v-", suffix, NULL);
  g_auto(GStrv) versions = g_strsplit (values, " ", -1);

  g_assert_nonnull (versions[0]);
  g_assert_cmpstr (versions[0], ==, expected);
}

static void
assert_absent (HBaseTable *table, const char *suffix)
{
  g_autofree char *values = read_back (table, suffix);

  g_assert_cmpstr (values, ==, "");
}

/* What the failure callback saw, in order. */
typedef struct {
  GMutex lock;
  GPtrArray *mutations;  /* HBaseMutation */
  GPtrArray *errors;     /* GError */
} Recorder;

static void
recorder_init (Recorder *recorder)
{
  g_mutex_init (&recorder->lock);
  recorder->mutations = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
  recorder->errors = g_ptr_array_new_with_free_func ((GDestroyNotify) g_error_free);
}

static void
recorder_clear (Recorder *recorder)
{
  g_mutex_clear (&recorder->lock);
  g_ptr_array_unref (recorder->mutations);
  g_ptr_array_unref (recorder->errors);
}

static void
record_failure (HBaseWriteBuffer *buffer, HBaseMutation *mutation, const GError *error,
                gpointer user_data)
{
  Recorder *recorder = user_data;

  g_assert_nonnull (buffer);
  g_mutex_lock (&recorder->lock);
  g_ptr_array_add (recorder->mutations, hbase_mutation_ref (mutation));
  g_ptr_array_add (recorder->errors, g_error_copy (error));
  g_mutex_unlock (&recorder->lock);
}

static guint
recorded (Recorder *recorder)
{
  guint n;

  g_mutex_lock (&recorder->lock);
  n = recorder->mutations->len;
  g_mutex_unlock (&recorder->lock);
  return n;
}

/* The error is the gateway's for the family "nope". */
static void
assert_unknown_family (const GError *error)
{
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "nope"));
}

/* A flush or close error: how many failed, the first row and its error. */
static void
assert_summary (const GError *error, const char *count, const char *row_escaped,
                const char *server_text)
{
  g_test_message ("flush error: %s", error->message);
  g_assert_nonnull (strstr (error->message, count));
  g_assert_nonnull (strstr (error->message, row_escaped));
  g_assert_nonnull (strstr (error->message, server_text));
}

/* --- thresholds and flushes ------------------------------------------------------------------ */

static void
test_flush_by_count (Fixture *fixture, gconstpointer data)
{
  HBaseWriteBufferOptions options = HBASE_WRITE_BUFFER_OPTIONS_INIT;
  g_autoptr(HBaseWriteBuffer) buffer = NULL;
  g_autoptr(GError) error = NULL;
  char suffix[8];

  SKIP_IF_UNREACHABLE (fixture);
  options.max_mutations = 5;
  buffer = buffer_new (fixture, &options);
  for (guint i = 0; i < 4; i++)
    {
      g_snprintf (suffix, sizeof suffix, "r%u", i);
      add_put (buffer, suffix);
    }
  g_assert_cmpuint (hbase_write_buffer_get_pending_count (buffer), ==, 4);
  g_assert_cmpuint (hbase_write_buffer_get_pending_bytes (buffer), >, 0);
  for (guint i = 0; i < 4; i++)
    {
      g_snprintf (suffix, sizeof suffix, "r%u", i);
      assert_absent (fixture->table, suffix);
    }

  add_put (buffer, "r4");   /* the fifth: flushed before add returns */
  g_assert_cmpuint (hbase_write_buffer_get_pending_count (buffer), ==, 0);
  g_assert_cmpuint (hbase_write_buffer_get_pending_bytes (buffer), ==, 0);
  for (guint i = 0; i < 5; i++)
    {
      g_snprintf (suffix, sizeof suffix, "r%u", i);
      assert_written (fixture->table, suffix);
    }

  add_put (buffer, "r5");
  g_assert_cmpuint (hbase_write_buffer_get_pending_count (buffer), ==, 1);
  g_assert_true (hbase_write_buffer_close (buffer, NULL, &error));
  g_assert_no_error (error);
  assert_written (fixture->table, "r5");
}

static void
test_flush_by_bytes (Fixture *fixture, gconstpointer data)
{
  HBaseWriteBufferOptions options = HBASE_WRITE_BUFFER_OPTIONS_INIT;
  g_autoptr(HBaseWriteBuffer) buffer = NULL;
  g_autofree char *large = g_strnfill (1000, 'x');
  g_autoptr(GBytes) value = test_text (large);
  g_autoptr(GError) error = NULL;
  gsize bytes;

  SKIP_IF_UNREACHABLE (fixture);
  /* each put is a little above 1000 bytes: the fourth reaches the limit */
  options.max_bytes = 4000;
  buffer = buffer_new (fixture, &options);
  for (guint i = 0; i < 4; i++)
    {
      g_autofree char *suffix = g_strdup_printf ("r%u", i);
      g_autoptr(GBytes) row = test_key (suffix);
      g_autoptr(HBaseMutation) put = hbase_mutation_new_put (row);

      hbase_mutation_put (put, "f", "q", value);
      add_ok (buffer, put);
      if (i < 3)
        {
          bytes = hbase_write_buffer_get_pending_bytes (buffer);
          g_assert_cmpuint (bytes, >=, 1000 * (i + 1));
          g_assert_cmpuint (bytes, <, 4000);
          g_assert_cmpuint (hbase_write_buffer_get_pending_count (buffer), ==, i + 1);
          assert_absent (fixture->table, suffix);
        }
    }
  g_assert_cmpuint (hbase_write_buffer_get_pending_count (buffer), ==, 0);
  g_assert_cmpuint (hbase_write_buffer_get_pending_bytes (buffer), ==, 0);
  for (guint i = 0; i < 4; i++)
    {
      g_autofree char *suffix = g_strdup_printf ("r%u", i);
      g_autofree char *values = read_back (fixture->table, suffix);

      g_assert_cmpstr (values, ==, large);
    }
  g_assert_true (hbase_write_buffer_close (buffer, NULL, &error));
  g_assert_no_error (error);
}

/* Waits (at most 20 s) until test_key (@suffix) is written; returns when. */
static gint64
wait_written (HBaseTable *table, const char *suffix)
{
  gint64 deadline = g_get_monotonic_time () + 20 * G_TIME_SPAN_SECOND;

  for (;;)
    {
      g_autofree char *values = read_back (table, suffix);

      if (values[0] != '\0')
        {
          assert_written (table, suffix);
          return g_get_monotonic_time ();
        }
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_usleep (20 * 1000);
    }
}

static void
test_flush_by_interval (Fixture *fixture, gconstpointer data)
{
  HBaseWriteBufferOptions options = HBASE_WRITE_BUFFER_OPTIONS_INIT;
  g_autoptr(HBaseWriteBuffer) buffer = NULL;
  g_autoptr(GError) error = NULL;

  SKIP_IF_UNREACHABLE (fixture);
  options.flush_interval_ms = 300;
  buffer = buffer_new (fixture, &options);

  /* twice: the thread goes on after a flush, and sleeps in between */
  for (guint round = 0; round < 2; round++)
    {
      g_autofree char *first = g_strdup_printf ("round%u-a", round);
      g_autofree char *second = g_strdup_printf ("round%u-b", round);
      gint64 added = g_get_monotonic_time ();
      gint64 seen;

      add_put (buffer, first);
      add_put (buffer, second);
      seen = wait_written (fixture->table, first);
      wait_written (fixture->table, second);
      /* not sent at once: the oldest waited the interval */
      g_assert_cmpint (seen - added, >=, 300 * G_TIME_SPAN_MILLISECOND);
      g_assert_cmpuint (hbase_write_buffer_get_pending_count (buffer), ==, 0);
      g_usleep (500 * 1000);
    }
  g_assert_true (hbase_write_buffer_close (buffer, NULL, &error));
  g_assert_no_error (error);
}

static void
test_flush_on_demand (Fixture *fixture, gconstpointer data)
{
  g_autoptr(HBaseWriteBuffer) buffer = NULL;
  g_autoptr(HBaseMutation) delete = NULL;
  g_autoptr(GBytes) r1 = test_key ("r1");
  g_autoptr(GPtrArray) failures = NULL;
  g_autoptr(GError) error = NULL;

  SKIP_IF_UNREACHABLE (fixture);
  buffer = buffer_new (fixture, NULL);   /* defaults: 2 MiB, no count, no interval */
  g_assert_true (hbase_write_buffer_flush (buffer, NULL, &error));   /* nothing to send */
  g_assert_no_error (error);

  /* order kept across a put run, a delete run and a put run */
  add_put (buffer, "r1");
  add_put (buffer, "r2");
  delete = hbase_mutation_new_delete (r1);
  add_ok (buffer, delete);
  add_put (buffer, "r3");
  g_assert_cmpuint (hbase_write_buffer_get_pending_count (buffer), ==, 4);
  assert_absent (fixture->table, "r2");
  assert_absent (fixture->table, "r3");

  g_assert_true (hbase_write_buffer_flush (buffer, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (hbase_write_buffer_get_pending_count (buffer), ==, 0);
  assert_absent (fixture->table, "r1");
  assert_written (fixture->table, "r2");
  assert_written (fixture->table, "r3");
  failures = hbase_write_buffer_take_failures (buffer);
  g_assert_cmpuint (failures->len, ==, 0);
}

static void
test_flush_at_close (Fixture *fixture, gconstpointer data)
{
  g_autoptr(HBaseWriteBuffer) buffer = NULL;
  g_autoptr(HBaseMutation) late = NULL;
  g_autoptr(GError) error = NULL;

  SKIP_IF_UNREACHABLE (fixture);
  buffer = buffer_new (fixture, NULL);
  add_put (buffer, "r1");
  add_put (buffer, "r2");
  assert_absent (fixture->table, "r1");
  g_assert_true (hbase_write_buffer_close (buffer, NULL, &error));
  g_assert_no_error (error);
  assert_written (fixture->table, "r1");
  assert_written (fixture->table, "r2");

  late = put_new ("late");
  g_assert_false (hbase_write_buffer_add (buffer, late, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_test_message ("add after close: %s", error->message);
  g_assert_nonnull (strstr (error->message, "closed"));
  g_clear_error (&error);
  g_assert_cmpuint (hbase_write_buffer_get_pending_count (buffer), ==, 0);

  g_assert_false (hbase_write_buffer_flush (buffer, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  g_assert_true (hbase_write_buffer_close (buffer, NULL, &error));   /* again: nothing */
  g_assert_no_error (error);
  assert_absent (fixture->table, "late");
}

static void
test_free_without_close (Fixture *fixture, gconstpointer data)
{
  HBaseWriteBufferOptions options = HBASE_WRITE_BUFFER_OPTIONS_INIT;
  HBaseWriteBuffer *buffer;
  g_autoptr(GBytes) bad_row = bad_key ();
  g_autoptr(HBaseMutation) bad = bad_put_new (bad_row);
  Recorder recorder;

  SKIP_IF_UNREACHABLE (fixture);
  /* a buffer with an interval thread, freed with mutations pending */
  options.flush_interval_ms = 60000;
  buffer = buffer_new (fixture, &options);
  add_put (buffer, "r1");
  add_put (buffer, "r2");
  g_object_unref (buffer);
  assert_written (fixture->table, "r1");
  assert_written (fixture->table, "r2");

  /* a failure at free goes to the callback */
  recorder_init (&recorder);
  options = (HBaseWriteBufferOptions) HBASE_WRITE_BUFFER_OPTIONS_INIT;
  options.on_failure = record_failure;
  options.user_data = &recorder;
  buffer = buffer_new (fixture, &options);
  add_ok (buffer, bad);
  add_put (buffer, "r3");
  g_object_unref (buffer);
  g_assert_cmpuint (recorded (&recorder), ==, 1);
  g_assert_true (recorder.mutations->pdata[0] == bad);
  assert_unknown_family (recorder.errors->pdata[0]);
  assert_newest (fixture->table, "r3");
  recorder_clear (&recorder);

  /* without a callback, on stderr rather than lost */
  buffer = buffer_new (fixture, NULL);
  add_ok (buffer, bad);
  add_put (buffer, "r4");
  g_test_expect_message (G_LOG_DOMAIN, G_LOG_LEVEL_WARNING,
                         "*freed with a failed mutation not taken: row \"*" BAD_KEY_ESCAPED
                         ": *nope*");
  g_object_unref (buffer);
  g_test_assert_expected_messages ();
  assert_newest (fixture->table, "r4");
}

/* More than a framed gateway takes in one frame (2 MB), at the default
 * threshold: sent in several requests, each row once. */
static void
test_large_flush (Fixture *fixture, gconstpointer data)
{
  static const char *const column[] = { "f:q", NULL };
  HBaseReadOptions read = HBASE_READ_OPTIONS_INIT;
  g_autoptr(HBaseWriteBuffer) buffer = NULL;
  g_autofree char *filler = g_strnfill (100 * 1024, 'x');
  g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GPtrArray) failures = NULL;
  g_autoptr(GError) error = NULL;

  SKIP_IF_UNREACHABLE (fixture);
  buffer = buffer_new (fixture, NULL);
  for (guint i = 0; i < 24; i++)
    {
      g_autofree char *suffix = g_strdup_printf ("r%02u", i);
      g_autofree char *value = g_strconcat (suffix, filler, NULL);
      g_autoptr(GBytes) bytes = test_text (value);
      GBytes *row = test_key (suffix);
      g_autoptr(HBaseMutation) put = hbase_mutation_new_put (row);

      g_ptr_array_add (keys, row);
      hbase_mutation_put (put, "f", "q", bytes);
      add_ok (buffer, put);
    }
  /* the 21st add passed 2 MiB and flushed */
  g_assert_cmpuint (hbase_write_buffer_get_pending_count (buffer), ==, 3);
  g_assert_true (hbase_write_buffer_flush (buffer, NULL, &error));
  g_assert_no_error (error);
  failures = hbase_write_buffer_take_failures (buffer);
  g_assert_cmpuint (failures->len, ==, 0);

  read.columns = column;
  read.max_versions = 3;
  rows = hbase_table_get_multiple (fixture->table, keys, &read, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, keys->len);
  for (guint i = 0; i < keys->len; i++)
    {
      HBaseRow *row = g_ptr_array_index (rows, i);
      g_autofree char *expected = g_strdup_printf ("r%02u%s", i, filler);
      g_autoptr(GBytes) value = test_text (expected);

      g_assert_cmpuint (hbase_row_get_n_cells (row), ==, 1);
      g_assert_true (g_bytes_equal (hbase_row_lookup (row, "f", "q"), value));
    }
}

/* --- several threads -------------------------------------------------------------------------- */

#define N_THREADS 4
#define N_PER_THREAD 200

typedef struct {
  HBaseWriteBuffer *buffer;
  const char *path;
  guint thread;
} Adder;

static gpointer
adder_main (gpointer data)
{
  Adder *adder = data;

  for (guint i = 0; i < N_PER_THREAD; i++)
    {
      g_autofree char *row = g_strdup_printf ("%s|t%u-%03u", adder->path, adder->thread, i);
      g_autofree char *value = g_strdup_printf ("v-t%u-%03u", adder->thread, i);
      g_autoptr(GBytes) row_bytes = test_text (row);
      g_autoptr(GBytes) value_bytes = test_text (value);
      g_autoptr(HBaseMutation) put = hbase_mutation_new_put (row_bytes);
      GError *error = NULL;

      hbase_mutation_put (put, "f", "q", value_bytes);
      if (!hbase_write_buffer_add (adder->buffer, put, NULL, &error))
        g_error ("add from thread %u: %s", adder->thread, error->message);
    }
  return NULL;
}

static void
concurrent_adds (Fixture *fixture, gboolean background)
{
  HBaseWriteBufferOptions options = HBASE_WRITE_BUFFER_OPTIONS_INIT;
  static const char *const column[] = { "f:q", NULL };
  HBaseReadOptions read = HBASE_READ_OPTIONS_INIT;
  g_autoptr(HBaseWriteBuffer) buffer = NULL;
  g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GPtrArray) failures = NULL;
  g_autoptr(GError) error = NULL;
  Adder adders[N_THREADS];
  GThread *threads[N_THREADS];

  SKIP_IF_UNREACHABLE (fixture);
  /* count flushes from the adding threads, interval flushes from the buffer's */
  options.max_mutations = 37;
  options.flush_interval_ms = 20;
  options.background_flush = background;
  buffer = buffer_new (fixture, &options);
  for (guint t = 0; t < N_THREADS; t++)
    {
      adders[t].buffer = buffer;
      adders[t].path = g_test_get_path ();
      adders[t].thread = t;
      threads[t] = g_thread_new ("adder", adder_main, &adders[t]);
    }
  for (guint t = 0; t < N_THREADS; t++)
    g_thread_join (threads[t]);
  g_assert_true (hbase_write_buffer_close (buffer, NULL, &error));
  g_assert_no_error (error);
  failures = hbase_write_buffer_take_failures (buffer);
  g_assert_cmpuint (failures->len, ==, 0);

  /* every row, each written exactly once (a resent put adds a version) */
  for (guint t = 0; t < N_THREADS; t++)
    for (guint i = 0; i < N_PER_THREAD; i++)
      {
        g_autofree char *suffix = g_strdup_printf ("t%u-%03u", t, i);

        g_ptr_array_add (keys, test_key (suffix));
      }
  read.columns = column;
  read.max_versions = 3;
  rows = hbase_table_get_multiple (fixture->table, keys, &read, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, N_THREADS * N_PER_THREAD);
  for (guint t = 0; t < N_THREADS; t++)
    for (guint i = 0; i < N_PER_THREAD; i++)
      {
        HBaseRow *row = g_ptr_array_index (rows, t * N_PER_THREAD + i);
        g_autofree char *expected = g_strdup_printf ("v-t%u-%03u", t, i);
        g_autoptr(GBytes) value = test_text (expected);

        g_assert_cmpuint (hbase_row_get_n_cells (row), ==, 1);
        g_assert_true (g_bytes_equal (hbase_row_lookup (row, "f", "q"), value));
      }
}

static void
test_concurrent_adds (Fixture *fixture, gconstpointer data)
{
  concurrent_adds (fixture, FALSE);
}

/* --- failures ------------------------------------------------------------------------------------ */

/* Adds r0..r3, the bad put, r4..r5 to @buffer (nothing flushed). */
static void
add_with_bad (HBaseWriteBuffer *buffer, HBaseMutation *bad)
{
  char suffix[4];

  for (guint i = 0; i < 6; i++)
    {
      g_snprintf (suffix, sizeof suffix, "r%u", i);
      add_put (buffer, suffix);
      if (i == 3)
        add_ok (buffer, bad);
    }
  g_assert_cmpuint (hbase_write_buffer_get_pending_count (buffer), ==, 7);
}

static void
assert_good_written (HBaseTable *table, GBytes *bad_row)
{
  char suffix[4];
  g_autoptr(HBaseRow) row = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < 6; i++)
    {
      g_snprintf (suffix, sizeof suffix, "r%u", i);
      assert_newest (table, suffix);
    }
  row = hbase_table_get (table, bad_row, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (hbase_row_is_empty (row));
}

static void
test_unknown_family_callback (Fixture *fixture, gconstpointer data)
{
  HBaseWriteBufferOptions options = HBASE_WRITE_BUFFER_OPTIONS_INIT;
  g_autoptr(HBaseWriteBuffer) buffer = NULL;
  g_autoptr(GBytes) bad_row = bad_key ();
  g_autoptr(HBaseMutation) bad = bad_put_new (bad_row);
  g_autoptr(GPtrArray) failures = NULL;
  g_autoptr(GError) error = NULL;
  Recorder recorder;

  SKIP_IF_UNREACHABLE (fixture);
  recorder_init (&recorder);
  options.on_failure = record_failure;
  options.user_data = &recorder;
  buffer = buffer_new (fixture, &options);
  add_with_bad (buffer, bad);

  g_assert_false (hbase_write_buffer_flush (buffer, NULL, &error));
  assert_unknown_family (error);
  assert_summary (error, "1 of 7 mutations", BAD_KEY_ESCAPED, "nope");

  g_assert_cmpuint (recorded (&recorder), ==, 1);
  g_assert_true (recorder.mutations->pdata[0] == bad);
  g_assert_true (g_bytes_equal (hbase_mutation_get_row (recorder.mutations->pdata[0]), bad_row));
  assert_unknown_family (recorder.errors->pdata[0]);
  /* with a callback, nothing is kept */
  failures = hbase_write_buffer_take_failures (buffer);
  g_assert_cmpuint (failures->len, ==, 0);
  assert_good_written (fixture->table, bad_row);

  g_clear_error (&error);
  g_assert_true (hbase_write_buffer_close (buffer, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (recorded (&recorder), ==, 1);
  g_clear_object (&buffer);
  recorder_clear (&recorder);
}

static void
test_unknown_family_list (Fixture *fixture, gconstpointer data)
{
  g_autoptr(HBaseWriteBuffer) buffer = NULL;
  g_autoptr(GBytes) bad_row = bad_key ();
  g_autoptr(HBaseMutation) bad = bad_put_new (bad_row);
  g_autoptr(GPtrArray) failures = NULL;
  g_autoptr(GPtrArray) again = NULL;
  g_autoptr(HBaseWriteFailure) copy = NULL;
  g_autoptr(GError) error = NULL;
  const HBaseWriteFailure *failure;

  SKIP_IF_UNREACHABLE (fixture);
  buffer = buffer_new (fixture, NULL);
  add_with_bad (buffer, bad);
  g_assert_false (hbase_write_buffer_flush (buffer, NULL, &error));
  assert_unknown_family (error);
  assert_summary (error, "1 of 7 mutations", BAD_KEY_ESCAPED, "nope");

  failures = hbase_write_buffer_take_failures (buffer);
  g_assert_cmpuint (failures->len, ==, 1);
  failure = g_ptr_array_index (failures, 0);
  g_assert_true (hbase_write_failure_get_mutation (failure) == bad);
  g_assert_true (g_bytes_equal (hbase_write_failure_get_row (failure), bad_row));
  assert_unknown_family (hbase_write_failure_get_error (failure));
  g_test_message ("failure: %s", hbase_write_failure_get_error (failure)->message);
  copy = hbase_write_failure_copy (failure);
  g_assert_true (hbase_write_failure_get_mutation (copy) == bad);
  assert_unknown_family (hbase_write_failure_get_error (copy));
  g_assert_true (G_TYPE_IS_BOXED (HBASE_TYPE_WRITE_FAILURE));

  again = hbase_write_buffer_take_failures (buffer);
  g_assert_cmpuint (again->len, ==, 0);
  assert_good_written (fixture->table, bad_row);
  g_clear_error (&error);
  g_assert_true (hbase_write_buffer_close (buffer, NULL, &error));
  g_assert_no_error (error);
}

static void
test_bad_mutation (Fixture *fixture, gconstpointer data)
{
  g_autoptr(HBaseWriteBuffer) buffer = NULL;
  g_autoptr(GBytes) empty = g_bytes_new (NULL, 0);
  g_autoptr(GBytes) row = test_key ("r");
  g_autoptr(GBytes) value = test_text ("v");
  g_autoptr(HBaseMutation) no_row = hbase_mutation_new_put (NULL);
  g_autoptr(HBaseMutation) empty_row = hbase_mutation_new_put (empty);
  g_autoptr(HBaseMutation) no_cells = hbase_mutation_new_put (row);
  g_autoptr(HBaseMutation) empty_delete = hbase_mutation_new_delete (empty);
  HBaseMutation *bad[] = { NULL, no_row, empty_row, no_cells, empty_delete };
  g_autoptr(GError) error = NULL;

  SKIP_IF_UNREACHABLE (fixture);
  g_assert_null (hbase_write_buffer_new (NULL, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);

  buffer = buffer_new (fixture, NULL);
  hbase_mutation_put (no_row, "f", "q", value);
  hbase_mutation_put (empty_row, "f", "q", value);
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_assert_false (hbase_write_buffer_add (buffer, bad[i], NULL, &error));
      g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
      g_test_message ("bad mutation %u: %s", i, error->message);
      g_clear_error (&error);
    }
  g_assert_cmpuint (hbase_write_buffer_get_pending_count (buffer), ==, 0);
  g_assert_cmpuint (hbase_write_buffer_get_pending_bytes (buffer), ==, 0);
  g_assert_true (hbase_write_buffer_close (buffer, NULL, &error));
  g_assert_no_error (error);
}

static void
test_failures_at_close (Fixture *fixture, gconstpointer data)
{
  HBaseWriteBufferOptions options = HBASE_WRITE_BUFFER_OPTIONS_INIT;
  g_autoptr(HBaseWriteBuffer) buffer = NULL;
  g_autoptr(GBytes) bad_row = bad_key ();
  g_autoptr(HBaseMutation) bad = bad_put_new (bad_row);
  g_autoptr(GPtrArray) failures = NULL;
  g_autoptr(GError) error = NULL;
  Recorder recorder;

  SKIP_IF_UNREACHABLE (fixture);
  /* the final flush fails: close says so, the failure is kept */
  buffer = buffer_new (fixture, NULL);
  add_put (buffer, "r1");
  add_ok (buffer, bad);
  add_put (buffer, "r2");
  g_assert_false (hbase_write_buffer_close (buffer, NULL, &error));
  assert_unknown_family (error);
  assert_summary (error, "1 of 3 mutations", BAD_KEY_ESCAPED, "nope");
  g_clear_error (&error);
  failures = hbase_write_buffer_take_failures (buffer);
  g_assert_cmpuint (failures->len, ==, 1);
  g_assert_true (hbase_write_failure_get_mutation (failures->pdata[0]) == bad);
  assert_newest (fixture->table, "r1");
  assert_newest (fixture->table, "r2");
  g_clear_pointer (&failures, g_ptr_array_unref);
  g_clear_object (&buffer);

  /* ... or goes to the callback */
  recorder_init (&recorder);
  options.on_failure = record_failure;
  options.user_data = &recorder;
  buffer = buffer_new (fixture, &options);
  add_ok (buffer, bad);
  add_put (buffer, "r3");
  g_assert_false (hbase_write_buffer_close (buffer, NULL, &error));
  assert_summary (error, "1 of 2 mutations", BAD_KEY_ESCAPED, "nope");
  g_clear_error (&error);
  g_assert_cmpuint (recorded (&recorder), ==, 1);
  g_assert_true (recorder.mutations->pdata[0] == bad);
  assert_newest (fixture->table, "r3");
  g_clear_object (&buffer);
  recorder_clear (&recorder);

  /* a failure of an earlier, automatic flush left untaken fails close */
  options = (HBaseWriteBufferOptions) HBASE_WRITE_BUFFER_OPTIONS_INIT;
  options.max_mutations = 2;
  buffer = buffer_new (fixture, &options);
  add_ok (buffer, bad);
  add_put (buffer, "r4");    /* flushes; add still succeeds */
  g_assert_cmpuint (hbase_write_buffer_get_pending_count (buffer), ==, 0);
  add_put (buffer, "r5");
  g_assert_false (hbase_write_buffer_close (buffer, NULL, &error));
  assert_unknown_family (error);
  assert_summary (error, "1 mutation to table", BAD_KEY_ESCAPED, "nope");
  g_assert_nonnull (strstr (error->message, "not taken"));
  assert_newest (fixture->table, "r4");
  assert_written (fixture->table, "r5");
  failures = hbase_write_buffer_take_failures (buffer);
  g_assert_cmpuint (failures->len, ==, 1);
}

static void
test_table_deleted (Fixture *fixture, gconstpointer data)
{
  HBaseWriteBufferOptions options = HBASE_WRITE_BUFFER_OPTIONS_INIT;
  g_autofree char *name = NULL;
  g_autoptr(HBaseTable) doomed = NULL;
  g_autoptr(HBaseWriteBuffer) buffer = NULL;
  g_autoptr(GBytes) r5 = test_key ("r5");
  g_autoptr(HBaseMutation) delete = hbase_mutation_new_delete (r5);
  g_autoptr(GError) error = NULL;
  Recorder recorder;
  char suffix[4];

  SKIP_IF_UNREACHABLE (fixture);
  name = create_table (fixture->client, "hbase_glib_write_buffer_doomed");
  doomed = hbase_table_new (fixture->client, name, &error);
  g_assert_no_error (error);
  recorder_init (&recorder);
  options.on_failure = record_failure;
  options.user_data = &recorder;
  buffer = hbase_write_buffer_new (doomed, &options, &error);
  g_assert_no_error (error);

  /* one write first, so the gateway knows the table's region */
  add_put (buffer, "r0");
  g_assert_true (hbase_write_buffer_flush (buffer, NULL, &error));
  g_assert_no_error (error);
  for (guint i = 1; i < 5; i++)
    {
      g_snprintf (suffix, sizeof suffix, "r%u", i);
      add_put (buffer, suffix);
    }
  add_ok (buffer, delete);
  add_put (buffer, "r6");
  g_assert_true (hbase_client_delete_table (fixture->client, name, NULL, &error));
  g_assert_no_error (error);

  g_assert_false (hbase_write_buffer_flush (buffer, NULL, &error));
  g_test_message ("flush to a deleted table: %s", error->message);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "6 of 6 mutations"));
  g_assert_nonnull (strstr (error->message, "|r1\""));
  g_assert_cmpuint (recorded (&recorder), ==, 6);
  for (guint i = 0; i < 6; i++)
    {
      g_autoptr(GBytes) expected = NULL;

      g_snprintf (suffix, sizeof suffix, "r%u", i + 1);
      expected = test_key (suffix);
      g_assert_true (g_bytes_equal (hbase_mutation_get_row (recorder.mutations->pdata[i]), expected));
      g_assert_error ((GError *) recorder.errors->pdata[i], HBASE_ERROR, HBASE_ERROR_NOT_FOUND);
    }
  g_assert_true (recorder.mutations->pdata[4] == delete);
  g_clear_error (&error);
  g_assert_true (hbase_write_buffer_close (buffer, NULL, &error));
  g_assert_no_error (error);
  g_clear_object (&buffer);
  recorder_clear (&recorder);
}

static void
test_cancelled (Fixture *fixture, gconstpointer data)
{
  g_autoptr(HBaseWriteBuffer) buffer = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GPtrArray) failures = NULL;
  g_autoptr(GError) error = NULL;

  SKIP_IF_UNREACHABLE (fixture);
  buffer = buffer_new (fixture, NULL);
  add_put (buffer, "r1");
  add_put (buffer, "r2");
  g_cancellable_cancel (cancellable);
  g_assert_false (hbase_write_buffer_flush (buffer, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_nonnull (strstr (error->message, "2 of 2 mutations"));
  failures = hbase_write_buffer_take_failures (buffer);
  g_assert_cmpuint (failures->len, ==, 2);
  for (guint i = 0; i < failures->len; i++)
    g_assert_error ((GError *) hbase_write_failure_get_error (failures->pdata[i]), G_IO_ERROR,
                    G_IO_ERROR_CANCELLED);
  assert_absent (fixture->table, "r1");
}

/* --- background flushes ------------------------------------------------------------------------ */

static void
test_background_concurrent_adds (Fixture *fixture, gconstpointer data)
{
  concurrent_adds (fixture, TRUE);
}

/* Batches written by the sender thread reach HBase in the order added: a
 * row put in every batch keeps the value of the last one. */
static void
test_background_order (Fixture *fixture, gconstpointer data)
{
  HBaseWriteBufferOptions options = HBASE_WRITE_BUFFER_OPTIONS_INIT;
  g_autoptr(HBaseWriteBuffer) buffer = NULL;
  g_autoptr(GError) error = NULL;
  char suffix[8];

  SKIP_IF_UNREACHABLE (fixture);
  options.max_mutations = 10;
  options.background_flush = TRUE;
  buffer = buffer_new (fixture, &options);
  for (guint round = 0; round < 20; round++)
    for (guint i = 0; i < 10; i++)
      {
        g_autoptr(GBytes) row = NULL;
        g_autofree char *value = g_strdup_printf ("round %02u", round);
        g_autoptr(GBytes) bytes = test_text (value);
        g_autoptr(HBaseMutation) put = NULL;

        g_snprintf (suffix, sizeof suffix, "r%u", i);
        row = test_key (suffix);
        put = hbase_mutation_new_put (row);
        hbase_mutation_put (put, "f", "q", bytes);
        add_ok (buffer, put);
        /* a full batch was taken from the buffer before add returned */
        g_assert_cmpuint (hbase_write_buffer_get_pending_count (buffer), ==, (i + 1) % 10);
      }
  g_assert_true (hbase_write_buffer_flush (buffer, NULL, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < 10; i++)
    {
      g_autofree char *values = NULL;
      g_auto(GStrv) versions = NULL;

      g_snprintf (suffix, sizeof suffix, "r%u", i);
      values = read_back (fixture->table, suffix);
      versions = g_strsplit (values, " ", -1);
      g_assert_cmpstr (versions[0], ==, "round");
      g_assert_cmpstr (versions[1], ==, "19");
    }
  g_assert_true (hbase_write_buffer_close (buffer, NULL, &error));
  g_assert_no_error (error);
}

typedef struct {
  Recorder recorder;
  GThread *thread;        /* where the callback ran */
} ThreadRecorder;

static void
record_failure_thread (HBaseWriteBuffer *buffer, HBaseMutation *mutation, const GError *error,
                       gpointer user_data)
{
  ThreadRecorder *recorder = user_data;

  recorder->thread = g_thread_self ();
  record_failure (buffer, mutation, error, &recorder->recorder);
}

/* A failure in a batch written in the background goes to the callback
 * from the sender thread, and the next flush reports it. */
static void
test_background_failure (Fixture *fixture, gconstpointer data)
{
  HBaseWriteBufferOptions options = HBASE_WRITE_BUFFER_OPTIONS_INIT;
  g_autoptr(HBaseWriteBuffer) buffer = NULL;
  g_autoptr(GBytes) bad_row = bad_key ();
  g_autoptr(HBaseMutation) bad = bad_put_new (bad_row);
  g_autoptr(GError) error = NULL;
  ThreadRecorder recorder = { 0 };

  SKIP_IF_UNREACHABLE (fixture);
  recorder_init (&recorder.recorder);
  options.on_failure = record_failure_thread;
  options.user_data = &recorder;
  options.max_mutations = 7;
  options.background_flush = TRUE;
  buffer = buffer_new (fixture, &options);
  /* the seventh add hands the batch to the sender thread */
  for (guint i = 0; i < 6; i++)
    {
      char suffix[4];

      g_snprintf (suffix, sizeof suffix, "r%u", i);
      add_put (buffer, suffix);
      if (i == 3)
        add_ok (buffer, bad);
    }
  g_assert_cmpuint (hbase_write_buffer_get_pending_count (buffer), ==, 0);
  add_put (buffer, "late");

  g_assert_false (hbase_write_buffer_flush (buffer, NULL, &error));
  assert_unknown_family (error);
  assert_summary (error, "1 of 8 mutations", BAD_KEY_ESCAPED, "nope");
  g_assert_cmpuint (recorded (&recorder.recorder), ==, 1);
  g_assert_true (recorder.recorder.mutations->pdata[0] == bad);
  g_assert_nonnull (recorder.thread);
  g_assert_true (recorder.thread != g_thread_self ());
  assert_good_written (fixture->table, bad_row);
  assert_written (fixture->table, "late");

  /* reported once: the next flush starts afresh */
  g_clear_error (&error);
  g_assert_true (hbase_write_buffer_flush (buffer, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (hbase_write_buffer_close (buffer, NULL, &error));
  g_assert_no_error (error);
  g_clear_object (&buffer);
  recorder_clear (&recorder.recorder);
}

/* Close waits for the batches in the sender thread and writes the rest. */
static void
test_background_close (Fixture *fixture, gconstpointer data)
{
  HBaseWriteBufferOptions options = HBASE_WRITE_BUFFER_OPTIONS_INIT;
  g_autoptr(HBaseWriteBuffer) buffer = NULL;
  g_autoptr(GPtrArray) failures = NULL;
  g_autoptr(GError) error = NULL;
  char suffix[8];

  SKIP_IF_UNREACHABLE (fixture);
  options.max_mutations = 4;
  options.background_flush = TRUE;
  buffer = buffer_new (fixture, &options);
  for (guint i = 0; i < 25; i++)
    {
      g_snprintf (suffix, sizeof suffix, "r%02u", i);
      add_put (buffer, suffix);
    }
  g_assert_true (hbase_write_buffer_close (buffer, NULL, &error));
  g_assert_no_error (error);
  failures = hbase_write_buffer_take_failures (buffer);
  g_assert_cmpuint (failures->len, ==, 0);
  for (guint i = 0; i < 25; i++)
    {
      g_snprintf (suffix, sizeof suffix, "r%02u", i);
      assert_written (fixture->table, suffix);
    }
}

/* No gateway at all: every mutation reported with the connection error. */
static void
test_gateway_down (void)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(HBaseWriteBuffer) buffer = NULL;
  g_autoptr(GPtrArray) failures = NULL;
  g_autoptr(GBytes) r3 = test_key ("r3");
  g_autoptr(HBaseMutation) delete = hbase_mutation_new_delete (r3);
  g_autofree char *spec = g_strdup_printf ("127.0.0.1:%u", test_closed_port ());
  g_autoptr(GError) error = NULL;

  g_assert_true (hbase_config_set_gateways (config, spec, &error));
  g_assert_true (hbase_config_set_max_attempts (config, 2, &error));
  g_assert_true (hbase_config_set_retry_backoff (config, 10, 10, &error));
  g_assert_no_error (error);
  client = client_for (config);
  table = hbase_table_new (client, "hbase_glib_write_buffer_nowhere", &error);
  g_assert_no_error (error);
  buffer = hbase_write_buffer_new (table, NULL, &error);
  g_assert_no_error (error);
  add_put (buffer, "r1");
  add_put (buffer, "r2");
  add_ok (buffer, delete);
  add_put (buffer, "r4");

  g_assert_false (hbase_write_buffer_flush (buffer, NULL, &error));
  g_test_message ("gateway down: %s", error->message);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION);
  g_assert_nonnull (strstr (error->message, "4 of 4 mutations"));
  g_assert_nonnull (strstr (error->message, "|r1\""));
  failures = hbase_write_buffer_take_failures (buffer);
  g_assert_cmpuint (failures->len, ==, 4);
  for (guint i = 0; i < failures->len; i++)
    g_assert_error ((GError *) hbase_write_failure_get_error (failures->pdata[i]), HBASE_ERROR,
                    HBASE_ERROR_CONNECTION);
  g_assert_true (hbase_write_failure_get_mutation (failures->pdata[2]) == delete);
  g_clear_error (&error);
  g_assert_true (hbase_write_buffer_close (buffer, NULL, &error));
  g_assert_no_error (error);
}

/* --- main ---------------------------------------------------------------------------------- */

int
main (int argc, char **argv)
{
  static const TestTableCase cases[] = {
    { "flush-by-count", test_flush_by_count },
    { "flush-by-bytes", test_flush_by_bytes },
    { "flush-by-interval", test_flush_by_interval },
    { "flush-on-demand", test_flush_on_demand },
    { "flush-at-close", test_flush_at_close },
    { "free-without-close", test_free_without_close },
    { "large-flush", test_large_flush },
    { "concurrent-adds", test_concurrent_adds },
    { "unknown-family-callback", test_unknown_family_callback },
    { "unknown-family-list", test_unknown_family_list },
    { "bad-mutation", test_bad_mutation },
    { "failures-at-close", test_failures_at_close },
    { "table-deleted", test_table_deleted },
    { "cancelled", test_cancelled },
    { "background-order", test_background_order },
    { "background-concurrent-adds", test_background_concurrent_adds },
    { "background-failure", test_background_failure },
    { "background-close", test_background_close },
  };
  static HBaseFamilyOptions families[2] = { HBASE_FAMILY_OPTIONS_INIT, HBASE_FAMILY_OPTIONS_INIT };
  static const TestTableSuite suite = {
    "/integration/write-buffer", "hbase_glib_write_buffer", families, 2, TEST_GATEWAYS_ALL
  };

  /* every case (table-deleted makes and drops its table through the
   * native client's admin calls) */
  static const char *const native_cases[] = {
    "table-deleted", "flush-by-count", "flush-by-bytes", "flush-by-interval", "flush-on-demand", "flush-at-close",
    "free-without-close", "large-flush", "concurrent-adds", "unknown-family-callback",
    "unknown-family-list", "bad-mutation", "failures-at-close", "cancelled",
    "background-order", "background-concurrent-adds", "background-failure", "background-close",
    NULL
  };
  /* a flush to a deleted table sits in the gateway's retries for ~16 s */
  static const char *const first_gateway_cases[] = { "table-deleted", NULL };
  static const TestTableSuiteOptions options = {
    .native_cases = native_cases, .first_gateway_cases = first_gateway_cases
  };

  g_test_init (&argc, &argv, NULL);
  families[0].name = "f";
  families[0].max_versions = 3;
  families[1].name = "g";
  g_test_add_func ("/integration/write-buffer/gateway-down", test_gateway_down);
  test_table_suite_add_full (&suite, &options, cases, G_N_ELEMENTS (cases));
  return test_table_suite_run ();
}
