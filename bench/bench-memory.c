/* SPDX-License-Identifier: Apache-2.0 */
/* bench-memory.c: how much memory the client holds (bench/README.md).
 *
 *   --load          writes rows 0 .. --rows - 1 into --table (created if
 *                   missing): key "r%010u", one cell f:q of 100 bytes, in
 *                   hbase_table_apply_multiple() calls of --batch rows
 *   --scan          scans the whole table (caching --caching), checks that
 *                   every row is the next expected key with its value, and
 *                   samples the process's resident set every --sample rows:
 *                   a streaming scan should hold the same memory at row 10M
 *                   as at row 1M
 *   --write-buffer  adds --mutations puts through an HBaseWriteBuffer of
 *                   each --max-bytes, and reports its peak resident set
 *                   above the baseline against the bound the buffer
 *                   documents (max_bytes, three times with background
 *                   flushes); each configuration runs in a child process
 *                   of its own, so that none inherits the heap of another
 *
 * With none of them, --scan.  Figures are resident set sizes from
 * /proc/self/statm and /proc/self/status (VmHWM, the peak) and process CPU
 * time (CLOCK_PROCESS_CPUTIME_ID), which a shared machine blurs less than
 * wall time. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <hbase-glib/hbase-glib.h>

#define FAMILY "f"
#define QUALIFIER "q"
#define VALUE_BYTES 100

static char *opt_host = NULL;
static int opt_port = 9090;
static char *opt_table = NULL;
static int opt_rows = 10000000;
static int opt_batch = 1000;
static int opt_caching = 1000;
static int opt_sample = 100000;
static gboolean opt_load = FALSE;
static gboolean opt_scan = FALSE;
static gboolean opt_write_buffer = FALSE;
static int opt_mutations = 2000000;
static char *opt_max_bytes = NULL;
static int opt_threads = 1;

static GOptionEntry entries[] = {
  { "host", 0, 0, G_OPTION_ARG_STRING, &opt_host, "Thrift2 gateway host (default 127.0.0.1)", "HOST" },
  { "port", 0, 0, G_OPTION_ARG_INT, &opt_port, "Thrift2 gateway port, binary/buffered (default 9090)", "PORT" },
  { "table", 0, 0, G_OPTION_ARG_STRING, &opt_table, "Table (default bench_memory)", "TABLE" },
  { "rows", 0, 0, G_OPTION_ARG_INT, &opt_rows, "Rows loaded and expected by the scan (default 10000000)", "N" },
  { "batch", 0, 0, G_OPTION_ARG_INT, &opt_batch, "Rows per apply_multiple call of --load (default 1000)", "N" },
  { "caching", 0, 0, G_OPTION_ARG_INT, &opt_caching, "Scan rows per round trip (default 1000)", "N" },
  { "sample", 0, 0, G_OPTION_ARG_INT, &opt_sample, "Rows between resident set samples (default 100000)", "N" },
  { "load", 0, 0, G_OPTION_ARG_NONE, &opt_load, "Load the table (before --scan if both are given)", NULL },
  { "scan", 0, 0, G_OPTION_ARG_NONE, &opt_scan, "Scan the table, sampling the resident set", NULL },
  { "write-buffer", 0, 0, G_OPTION_ARG_NONE, &opt_write_buffer,
    "Push --mutations puts through a write buffer per --max-bytes, foreground and background flushes", NULL },
  { "mutations", 0, 0, G_OPTION_ARG_INT, &opt_mutations, "Puts per write buffer run (default 2000000)", "N" },
  { "max-bytes", 0, 0, G_OPTION_ARG_STRING, &opt_max_bytes,
    "Comma-separated max_bytes of the write buffer runs, in KiB (default 1024,8192)", "LIST" },
  { "threads", 0, 0, G_OPTION_ARG_INT, &opt_threads, "Threads adding to the write buffer (default 1)", "N" },
  { NULL, 0, 0, 0, NULL, NULL, NULL }
};

/* --- measures ----------------------------------------------------------------------------- */

static gint64
cpu_time_us (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

/* The resident set now, in bytes (second field of /proc/self/statm). */
static guint64
rss_bytes (void)
{
  unsigned long size = 0, resident = 0;
  FILE *f = fopen ("/proc/self/statm", "r");

  if (f != NULL)
    {
      if (fscanf (f, "%lu %lu", &size, &resident) != 2)
        resident = 0;
      fclose (f);
    }
  return (guint64) resident * (guint64) sysconf (_SC_PAGESIZE);
}

/* A "Vm...:  N kB" line of /proc/self/status, in bytes. */
static guint64
status_bytes (const char *field)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL) ||
      (line = strstr (status, field)) == NULL)
    return 0;
  return g_ascii_strtoull (line + strlen (field) + 1, NULL, 10) * 1024;
}

static double
mib (guint64 bytes)
{
  return (double) bytes / (1024.0 * 1024.0);
}

/* --- rows --------------------------------------------------------------------------------- */

static GBytes *value_bytes;   /* the one 100-byte value, shared */

static GBytes *
row_key (guint i)
{
  char key[16];
  int n = g_snprintf (key, sizeof key, "r%010u", i);

  return g_bytes_new (key, (gsize) n);
}

static HBaseMutation *
new_put (guint i)
{
  g_autoptr(GBytes) key = row_key (i);
  HBaseMutation *put = hbase_mutation_new_put (key);

  hbase_mutation_put (put, FAMILY, QUALIFIER, value_bytes);
  return put;
}

static HBaseClient *
connect_client (GError **error)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autofree char *gateway = g_strdup_printf ("%s:%d", opt_host != NULL ? opt_host : "127.0.0.1", opt_port);

  if (!hbase_config_set_gateways (config, gateway, error) ||
      !hbase_config_set_pool_size (config, (guint) MAX (opt_threads, 1), error))
    return NULL;
  return hbase_client_new (config);
}

static gboolean
ensure_table (HBaseClient *client, const char *name, GError **error)
{
  HBaseFamilyOptions family = HBASE_FAMILY_OPTIONS_INIT;
  gboolean exists = FALSE;

  if (!hbase_client_table_exists (client, name, &exists, NULL, error))
    return FALSE;
  if (exists)
    return TRUE;
  family.name = FAMILY;
  return hbase_client_create_table (client, name, &family, 1, NULL, NULL, error);
}

/* --- load --------------------------------------------------------------------------------- */

static gboolean
run_load (HBaseClient *client, HBaseTable *table, guint rows, GError **error)
{
  gint64 t0 = g_get_monotonic_time (), c0 = cpu_time_us ();
  guint batch = (guint) opt_batch;

  if (!ensure_table (client, hbase_table_get_name (table), error))
    return FALSE;
  printf ("load: %u rows into %s, %u rows per apply_multiple\n", rows, hbase_table_get_name (table), batch);
  for (guint first = 0; first < rows; first += batch)
    {
      g_autoptr(GPtrArray) puts = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);

      for (guint i = first; i < rows && i < first + batch; i++)
        g_ptr_array_add (puts, new_put (i));
      if (!hbase_table_apply_multiple (table, puts, NULL, error))
        {
          g_prefix_error (error, "loading rows from r%010u: ", first);
          return FALSE;
        }
      if ((first + batch) % 1000000 < batch || first + batch >= rows)
        {
          guint done = MIN (first + batch, rows);
          double s = (double) (g_get_monotonic_time () - t0) / G_USEC_PER_SEC;

          printf ("  %9u rows  %7.1f s  %8.0f rows/s (wall)  %.2f us CPU/row\n", done, s, done / s,
                  (double) (cpu_time_us () - c0) / done);
          fflush (stdout);
        }
    }
  return TRUE;
}

/* --- scan --------------------------------------------------------------------------------- */

static gboolean
check_row (HBaseRow *row, guint expected, GError **error)
{
  char key[16];
  int n = g_snprintf (key, sizeof key, "r%010u", expected);
  GBytes *got = hbase_row_get_key (row);
  GBytes *value = hbase_row_lookup (row, FAMILY, QUALIFIER);

  if (g_bytes_get_size (got) != (gsize) n || memcmp (g_bytes_get_data (got, NULL), key, (gsize) n) != 0)
    {
      g_autofree char *text = g_strndup (g_bytes_get_data (got, NULL), g_bytes_get_size (got));

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   "row %u of the scan is \"%s\", expected \"%s\" (is the table loaded with --rows?)",
                   expected, text, key);
      return FALSE;
    }
  if (value == NULL || !g_bytes_equal (value, value_bytes))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "row %s: f:q missing or not the loaded value", key);
      return FALSE;
    }
  return TRUE;
}

static gboolean
run_scan (HBaseTable *table, guint rows, GError **error)
{
  HBaseScanOptions options = HBASE_SCAN_OPTIONS_INIT;
  g_autoptr(HBaseScanner) scanner = NULL;
  guint sample = (guint) opt_sample, count = 0;
  guint64 start_rss = rss_bytes (), rss_1m = 0, min_after_1m = G_MAXUINT64, max_after_1m = 0;
  guint64 lo = G_MAXUINT64, hi = 0, now = 0;
  gint64 t0 = g_get_monotonic_time (), c0 = cpu_time_us ();
  double seconds, cpu_us;

  options.caching = (guint) opt_caching;
  printf ("scan: %s, caching %u, resident set sampled every %u rows\n", hbase_table_get_name (table),
          options.caching, sample);
  printf ("  %10s  %9s  %9s  %9s\n", "rows", "RSS MiB", "min MiB", "max MiB");
  printf ("  %10u  %9.1f\n", 0, mib (start_rss));
  scanner = hbase_table_scan (table, &options, error);
  if (scanner == NULL)
    return FALSE;
  for (;;)
    {
      g_autoptr(HBaseRow) row = NULL;

      if (!hbase_scanner_next (scanner, &row, NULL, error))
        return FALSE;
      if (row == NULL)
        break;
      if (!check_row (row, count, error))
        return FALSE;
      count++;
      if (count % sample != 0)
        continue;
      /* a line per million rows (or per sample, below a million): the
       * lowest and highest of the samples since the line before */
      now = rss_bytes ();
      lo = MIN (lo, now);
      hi = MAX (hi, now);
      if (count == 1000000)
        rss_1m = now;
      if (count > 1000000)
        {
          min_after_1m = MIN (min_after_1m, now);
          max_after_1m = MAX (max_after_1m, now);
        }
      if (count % 1000000 == 0 || count < 1000000)
        {
          printf ("  %10u  %9.1f  %9.1f  %9.1f\n", count, mib (now), mib (lo), mib (hi));
          fflush (stdout);
          lo = G_MAXUINT64;
          hi = 0;
        }
    }
  g_clear_object (&scanner);
  seconds = (double) (g_get_monotonic_time () - t0) / G_USEC_PER_SEC;
  cpu_us = (double) (cpu_time_us () - c0);
  now = rss_bytes ();
  if (count != rows)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   "the scan returned %u rows, expected %u (is the table loaded with --rows?)", count, rows);
      return FALSE;
    }
  printf ("  %10u  %9.1f  (end)\n", count, mib (now));
  printf ("scanned %u rows in order: %.1f s wall, %.2f us client CPU/row, peak RSS (VmHWM) %.1f MiB\n",
          count, seconds, count > 0 ? cpu_us / count : 0.0, mib (status_bytes ("VmHWM:")));
  if (rss_1m > 0)
    printf ("RSS at 1M rows %.1f MiB, at %u rows %.1f MiB: %+" G_GINT64_FORMAT " KiB; "
            "samples after 1M within %.1f .. %.1f MiB\n",
            mib (rss_1m), count, mib (now), ((gint64) now - (gint64) rss_1m) / 1024,
            min_after_1m != G_MAXUINT64 ? mib (min_after_1m) : mib (now),
            max_after_1m > 0 ? mib (max_after_1m) : mib (now));
  fflush (stdout);
  return TRUE;
}

/* --- write buffer ------------------------------------------------------------------------- */

typedef struct {
  HBaseWriteBuffer *buffer;
  guint first, count;
  gsize max_pending;   /* the highest hbase_write_buffer_get_pending_bytes() seen */
  GError *error;
} Adder;

static gpointer
adder_run (gpointer data)
{
  Adder *a = data;

  for (guint n = 0; n < a->count; n++)
    {
      g_autoptr(HBaseMutation) put = new_put (a->first + n);

      if (!hbase_write_buffer_add (a->buffer, put, NULL, &a->error))
        break;
      if (n % 64 == 0)
        a->max_pending = MAX (a->max_pending, hbase_write_buffer_get_pending_bytes (a->buffer));
    }
  return NULL;
}

/* One configuration, in a fresh process: the baseline is the resident set
 * once connected and after one write (the connection's buffers exist), the
 * peak is VmHWM at the end. */
static int
write_buffer_child (gsize max_bytes, gboolean background)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(HBaseWriteBuffer) buffer = NULL;
  g_autoptr(HBaseMutation) first = NULL;
  g_autoptr(GPtrArray) failures = NULL;
  HBaseWriteBufferOptions options = HBASE_WRITE_BUFFER_OPTIONS_INIT;
  guint threads = (guint) opt_threads, mutations = (guint) opt_mutations;
  g_autofree Adder *adders = g_new0 (Adder, threads);
  g_autofree GThread **handles = g_new0 (GThread *, threads);
  guint64 baseline, peak;
  gsize max_pending = 0;
  gint64 c0;
  double bound;

  if ((client = connect_client (&error)) == NULL ||
      !ensure_table (client, opt_table, &error) ||
      (table = hbase_table_new (client, opt_table, &error)) == NULL)
    goto failed;
  first = new_put (0);
  if (!hbase_table_apply (table, first, NULL, &error))
    goto failed;
  baseline = rss_bytes ();
  options.max_bytes = max_bytes;
  options.background_flush = background;
  if ((buffer = hbase_write_buffer_new (table, &options, &error)) == NULL)
    goto failed;
  c0 = cpu_time_us ();
  for (guint k = 0; k < threads; k++)
    {
      adders[k].buffer = buffer;
      adders[k].first = (guint) ((guint64) mutations * k / threads);
      adders[k].count = (guint) ((guint64) mutations * (k + 1) / threads) - adders[k].first;
      handles[k] = g_thread_new ("bench-adder", adder_run, &adders[k]);
    }
  for (guint k = 0; k < threads; k++)
    {
      g_thread_join (handles[k]);
      max_pending = MAX (max_pending, adders[k].max_pending);
      if (adders[k].error != NULL && error == NULL)
        error = g_steal_pointer (&adders[k].error);
      g_clear_error (&adders[k].error);
    }
  if (error != NULL || !hbase_write_buffer_close (buffer, NULL, &error))
    goto failed;
  failures = hbase_write_buffer_take_failures (buffer);
  peak = status_bytes ("VmHWM:");
  /* what the documentation promises, on its own estimate of the bytes:
   * a batch written by the thread that filled it (and one filling when
   * other threads add meanwhile), three with background flushes */
  bound = (background ? 3.0 : threads > 1 ? 2.0 : 1.0) * max_bytes;
  printf ("  %8zu KiB  %-10s  %7u  %2u  %9.1f  %9.1f  %8.1f  %9.1f  %8.2f  %6.2f\n", max_bytes / 1024,
          background ? "background" : "foreground", mutations, threads, mib (baseline), mib (peak),
          mib (peak - baseline), bound / (1024.0 * 1024.0), mib (peak - baseline) / (bound / (1024.0 * 1024.0)),
          (double) (cpu_time_us () - c0) / mutations);
  if (max_pending > max_bytes + 1024)
    printf ("    pending bytes reached %zu, above max_bytes %zu\n", max_pending, max_bytes);
  fflush (stdout);
  return failures->len == 0 ? 0 : 1;

failed:
  g_printerr ("bench-memory: write buffer of %zu KiB: %s\n", max_bytes / 1024, error->message);
  return 1;
}

static gboolean
run_write_buffer (GError **error)
{
  g_auto(GStrv) sizes = g_strsplit (opt_max_bytes != NULL ? opt_max_bytes : "1024,8192", ",", -1);
  gboolean ok = TRUE;

  printf ("write buffer: %d puts of %d-byte values into %s per run, each run in a process of its own\n",
          opt_mutations, VALUE_BYTES, opt_table);
  printf ("  %12s  %-10s  %7s  %2s  %9s  %9s  %8s  %9s  %8s  %6s\n", "max_bytes", "flushes", "puts", "th",
          "base MiB", "peak MiB", "+MiB", "bound MiB", "+/bound", "us/put");
  fflush (stdout);
  for (guint i = 0; sizes[i] != NULL; i++)
    {
      guint64 kib = g_ascii_strtoull (sizes[i], NULL, 10);

      if (kib == 0)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--max-bytes: \"%s\" is not a size in KiB",
                       sizes[i]);
          return FALSE;
        }
      for (guint background = 0; background < 2; background++)
        {
          pid_t pid = fork ();
          int status = 0;

          if (pid < 0)
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "fork: %s", g_strerror (errno));
              return FALSE;
            }
          if (pid == 0)
            _exit (write_buffer_child ((gsize) kib * 1024, background));
          if (waitpid (pid, &status, 0) < 0 || !WIFEXITED (status) || WEXITSTATUS (status) != 0)
            ok = FALSE;
        }
    }
  if (!ok)
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, "a write buffer run failed");
  return ok;
}

int
main (int argc, char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new ("- memory held by hbase-glib");
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(HBaseTable) table = NULL;
  g_autofree char *value = NULL;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("bench-memory: %s\n", error->message);
      return 2;
    }
  if (opt_rows < 1 || opt_batch < 1 || opt_caching < 1 || opt_sample < 1 || opt_mutations < 1 ||
      opt_threads < 1 || opt_threads > 256)
    {
      g_printerr ("bench-memory: --rows, --batch, --caching, --sample, --mutations and --threads must be positive\n");
      return 2;
    }
  if (opt_table == NULL)
    opt_table = g_strdup ("bench_memory");
  if (!opt_load && !opt_write_buffer)
    opt_scan = TRUE;
  value = g_strnfill (VALUE_BYTES, 'v');
  value_bytes = g_bytes_new_static (value, VALUE_BYTES);

  /* before any thread or connection of this process: the children start clean */
  if (opt_write_buffer && !run_write_buffer (&error))
    goto failed;
  if ((opt_load || opt_scan) &&
      ((client = connect_client (&error)) == NULL ||
       (table = hbase_table_new (client, opt_table, &error)) == NULL))
    goto failed;
  if (opt_load && !run_load (client, table, (guint) opt_rows, &error))
    goto failed;
  if (opt_scan && !run_scan (table, (guint) opt_rows, &error))
    goto failed;
  g_bytes_unref (value_bytes);
  return 0;

failed:
  g_printerr ("bench-memory: %s\n", error->message);
  g_clear_pointer (&value_bytes, g_bytes_unref);
  return 1;
}
