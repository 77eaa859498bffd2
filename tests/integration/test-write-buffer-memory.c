/* SPDX-License-Identifier: Apache-2.0 */
/* Integration test of the memory an HBaseWriteBuffer holds, against the
 * real stack: thousands of puts through a buffer of a small max_bytes,
 * from one thread and from several, with and without background flushes,
 * never make the buffer's own estimate of what it holds (the mutations
 * waiting for a flush and those of batches taken and not yet written)
 * exceed what hbase-write-buffer.h documents: max_bytes while the adding
 * thread flushes, twice that when other threads add meanwhile, three times
 * with background flushes; each batch may pass max_bytes by the mutations
 * that filled it, one per adding thread.  Every put is then read back.
 *
 * The estimate is read through a private getter (hbase-write-buffer-
 * private.h); bench/bench-memory.c measures the resident set. */
#include "config.h"

#include <string.h>

#include "../../src/table/hbase-write-buffer-private.h"
#include "../support/test-rows.h"
#include "../support/test-table-fixture.h"

typedef TestTableFixture Fixture;

#define MAX_BYTES (32 * 1024)
#define N_PUTS 6000
#define VALUE_BYTES 100
/* More than the buffer's estimate of one put of this file (its key is the
 * test path and a suffix: under 100 bytes; the value; some overhead). */
#define PUT_BYTES_AT_MOST 512

typedef struct {
  HBaseWriteBuffer *buffer;
  guint first, count;
} Adder;

static char *
suffix_of (guint i)
{
  return g_strdup_printf ("m%05u", i);
}

static gpointer
adder_main (gpointer data)
{
  Adder *adder = data;
  g_autofree char *text = g_strnfill (VALUE_BYTES, 'v');
  g_autoptr(GBytes) value = test_text (text);

  for (guint i = adder->first; i < adder->first + adder->count; i++)
    {
      g_autofree char *suffix = suffix_of (i);
      g_autoptr(GBytes) row = test_key (suffix);
      g_autoptr(HBaseMutation) put = hbase_mutation_new_put (row);
      GError *error = NULL;

      hbase_mutation_put (put, "f", "q", value);
      if (!hbase_write_buffer_add (adder->buffer, put, NULL, &error))
        g_error ("add of row %u: %s", i, error->message);
    }
  return NULL;
}

/* Every 7th put and the last one, read back. */
static void
assert_written (Fixture *fixture)
{
  g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < N_PUTS; i += 7)
    {
      g_autofree char *suffix = suffix_of (i);

      g_ptr_array_add (keys, test_key (suffix));
    }
  {
    g_autofree char *last = suffix_of (N_PUTS - 1);

    g_ptr_array_add (keys, test_key (last));
  }
  rows = hbase_table_get_multiple (fixture->table, keys, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, keys->len);
  for (guint i = 0; i < rows->len; i++)
    {
      GBytes *value = hbase_row_lookup (g_ptr_array_index (rows, i), "f", "q");

      g_assert_nonnull (value);
      g_assert_cmpuint (g_bytes_get_size (value), ==, VALUE_BYTES);
    }
}

static void
run (Fixture *fixture, gboolean background, guint n_threads)
{
  HBaseWriteBufferOptions options = HBASE_WRITE_BUFFER_OPTIONS_INIT;
  g_autoptr(HBaseWriteBuffer) buffer = NULL;
  g_autoptr(GPtrArray) failures = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree Adder *adders = g_new0 (Adder, n_threads);
  g_autofree GThread **threads = g_new0 (GThread *, n_threads);
  guint batches = background ? 3 : n_threads > 1 ? 2 : 1;
  gsize bound = batches * (MAX_BYTES + n_threads * PUT_BYTES_AT_MOST);
  gsize peak;

  TEST_SKIP_IF_UNREACHABLE (fixture);
  options.max_bytes = MAX_BYTES;
  options.background_flush = background;
  buffer = hbase_write_buffer_new (fixture->table, &options, &error);
  g_assert_no_error (error);
  for (guint t = 0; t < n_threads; t++)
    {
      adders[t].buffer = buffer;
      adders[t].first = N_PUTS * t / n_threads;
      adders[t].count = N_PUTS * (t + 1) / n_threads - adders[t].first;
      threads[t] = g_thread_new ("adder", adder_main, &adders[t]);
    }
  for (guint t = 0; t < n_threads; t++)
    g_thread_join (threads[t]);
  g_assert_true (hbase_write_buffer_close (buffer, NULL, &error));
  g_assert_no_error (error);
  failures = hbase_write_buffer_take_failures (buffer);
  g_assert_cmpuint (failures->len, ==, 0);

  peak = _hbase_write_buffer_get_peak_held_bytes (buffer);
  g_test_message ("%u thread(s), %s flushes: at most %zu bytes held, bound %zu (max_bytes %d)", n_threads,
                  background ? "background" : "foreground", peak, bound, MAX_BYTES);
  /* the buffer filled up (else the bound was never tested) ... */
  g_assert_cmpuint (peak, >=, MAX_BYTES);
  /* ... and never held more than documented */
  g_assert_cmpuint (peak, <=, bound);
  assert_written (fixture);
}

static void
test_foreground_one_thread (Fixture *fixture, gconstpointer data)
{
  run (fixture, FALSE, 1);
}

static void
test_foreground_threads (Fixture *fixture, gconstpointer data)
{
  run (fixture, FALSE, 4);
}

static void
test_background_one_thread (Fixture *fixture, gconstpointer data)
{
  run (fixture, TRUE, 1);
}

static void
test_background_threads (Fixture *fixture, gconstpointer data)
{
  run (fixture, TRUE, 4);
}

/* every case on the native backend too: the buffer's bound does not depend
 * on the backend it writes through */
static const TestTableSuiteOptions native_all = { .native_all = TRUE };

int
main (int argc, char **argv)
{
  static const TestTableCase cases[] = {
    { "foreground-one-thread", test_foreground_one_thread },
    { "foreground-threads", test_foreground_threads },
    { "background-one-thread", test_background_one_thread },
    { "background-threads", test_background_threads },
  };
  static HBaseFamilyOptions families[1] = { HBASE_FAMILY_OPTIONS_INIT };
  static const TestTableSuite suite = {
    "/integration/write-buffer-memory", "hbase_glib_write_buffer_memory", families, 1, TEST_GATEWAYS_ENDS
  };

  g_test_init (&argc, &argv, NULL);
  families[0].name = "f";
  test_table_suite_add_full (&suite, &native_all, cases, G_N_ELEMENTS (cases));
  return test_table_suite_run ();
}
