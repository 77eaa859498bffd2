/* SPDX-License-Identifier: Apache-2.0 */
/* bench-table.c: hbase-glib's side of the peer benchmark (bench/run-peers.sh,
 * bench/README.md): point puts and gets from 1 and N threads, puts in
 * batches of 100 and 1000 rows, and a full scan, through the public API
 * (HBaseClient, HBaseTable, HBaseScanner) against a Thrift2 gateway, or
 * with --bootstrap-servers straight to HBase over its own RPC (the native
 * backend, reported as client=hbase-glib-native).
 *
 * The same workloads, row shape and options are implemented by
 * bench/java/BenchThrift2.java, bench/java/BenchNative.java and
 * bench/python/bench_happybase.py; each prints one line per workload:
 *
 *   RESULT client=hbase-glib workload=get threads=8 ops=20000 seconds=2.345 ops_per_s=8528.8 cpu_s=1.234
 *
 * Rows: key "r%010u", one cell f:q holding a 100-byte value of its own
 * (prepare_rows()).  The read table (--read-table) must hold rows 0 .. --rows - 1
 * (run-peers.sh loads it); the write workloads write rows 0 .. --ops - 1 (or
 * --batch-rows - 1) of --write-table.
 *
 * Every reply is checked: a get's row key and value, every scanned row's key
 * (in order) and value, and after each put workload (outside the timing) a
 * read-back of three of its rows, whose cells must be newer than the
 * workload's start.  A wrong answer ends the run with status 1. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <hbase-glib/hbase-glib.h>

/* the client column: "hbase-glib" through a gateway, "hbase-glib-native"
 * with --bootstrap-servers (HBase's own RPC, no gateway) */
static const char *client_name = "hbase-glib";
#define FAMILY "f"
#define QUALIFIER "q"
#define VALUE_BYTES 100

/* --- options ------------------------------------------------------------ */

static char *opt_gateways = NULL;
static char *opt_bootstrap = NULL;
static char *opt_host = NULL;
static int opt_port = 9090;
static char *opt_read_table = NULL;
static char *opt_write_table = NULL;
static int opt_rows = 200000;
static int opt_ops = 50000;
static int opt_batch_rows = 200000;
static int opt_threads = 8;
static int opt_warmup = 5000;
static int opt_caching = 1000;
static char *opt_workloads = NULL;
static gboolean opt_warmup_only = FALSE;

static GOptionEntry entries[] = {
  { "gateways", 0, 0, G_OPTION_ARG_STRING, &opt_gateways,
    "Gateways as HBASE_GLIB_GATEWAYS writes them (HOST:PORT, http(s)://...), instead of --host/--port; "
    "the other HBASE_GLIB_* settings (Kerberos, TLS) come from the environment", "LIST" },
  { "bootstrap-servers", 0, 0, G_OPTION_ARG_STRING, &opt_bootstrap,
    "HBase servers (HOST[:PORT]) to reach through HBase's own RPC instead of a gateway (the native "
    "backend; reported as hbase-glib-native)", "LIST" },
  { "host", 0, 0, G_OPTION_ARG_STRING, &opt_host, "Thrift2 gateway host (default 127.0.0.1)", "HOST" },
  { "port", 0, 0, G_OPTION_ARG_INT, &opt_port, "Thrift2 gateway port, binary/buffered (default 9090)", "PORT" },
  { "read-table", 0, 0, G_OPTION_ARG_STRING, &opt_read_table,
    "Table the get and scan workloads read, holding rows 0 .. ROWS-1 (default bench_peers)", "TABLE" },
  { "write-table", 0, 0, G_OPTION_ARG_STRING, &opt_write_table,
    "Table the put workloads write (default bench_peers_w)", "TABLE" },
  { "rows", 0, 0, G_OPTION_ARG_INT, &opt_rows, "Rows in the read table (default 200000)", "N" },
  { "ops", 0, 0, G_OPTION_ARG_INT, &opt_ops, "Operations per point put/get workload (default 50000)", "N" },
  { "batch-rows", 0, 0, G_OPTION_ARG_INT, &opt_batch_rows,
    "Rows per put-multiple workload (default 200000)", "N" },
  { "threads", 0, 0, G_OPTION_ARG_INT, &opt_threads, "Threads of the multi-thread workloads (default 8)", "N" },
  { "warmup", 0, 0, G_OPTION_ARG_INT, &opt_warmup,
    "Untimed operations (rows for batches, x10 for the scan) before each workload (default 5000)", "N" },
  { "caching", 0, 0, G_OPTION_ARG_INT, &opt_caching, "Scan rows per round trip (default 1000)", "N" },
  { "workloads", 0, 0, G_OPTION_ARG_STRING, &opt_workloads,
    "Comma-separated subset of put1,putN,batch100,batch1000,get1,getN,scan (default all)", "LIST" },
  { "warmup-only", 0, 0, G_OPTION_ARG_NONE, &opt_warmup_only,
    "Run only each workload's untimed warm-up, print nothing (warms the gateway)", NULL },
  { NULL, 0, 0, 0, NULL, NULL, NULL }
};

/* --- rows ----------------------------------------------------------------- */

static GBytes *
row_key (guint i)
{
  /* "r%010u" without printf, whose cost (about 1,000 instructions a key)
   * would be the bench's, not the client's: BenchHarness.key() does the
   * same for the Java clients */
  char key[11];

  key[0] = 'r';
  for (int p = 10; p >= 1; p--)
    {
      key[p] = (char) ('0' + i % 10);
      i /= 10;
    }
  return g_bytes_new (key, sizeof key);
}

/* The value of row i: "v%010u" of i repeated over 100 bytes, so that every
 * row's value is its own and a reply for another row cannot pass the
 * check.  BenchHarness.value() and bench_happybase.value() are the same.
 * The keys and values of rows 0 .. n_known - 1 are computed once, before
 * anything is timed (prepare_rows()): a put shares its row's value as the
 * other clients do, and a check costs two memcmp() in every client. */
#define KEY_BYTES 11
static guint n_known;
static char *known_keys;      /* n_known keys of KEY_BYTES, not terminated */
static guint8 *known_values;  /* n_known values of VALUE_BYTES */

static void
prepare_rows (guint n)
{
  n_known = n;
  known_keys = g_malloc ((gsize) n * KEY_BYTES);
  known_values = g_malloc ((gsize) n * VALUE_BYTES);
  for (guint i = 0; i < n; i++)
    {
      char unit[16];

      g_snprintf (unit, sizeof unit, "r%010u", i);
      memcpy (known_keys + (gsize) i * KEY_BYTES, unit, KEY_BYTES);
      unit[0] = 'v';
      for (guint j = 0; j < VALUE_BYTES; j++)
        known_values[(gsize) i * VALUE_BYTES + j] = (guint8) unit[j % KEY_BYTES];
    }
}

static HBaseMutation *
new_put (guint i)
{
  g_autoptr(GBytes) key = row_key (i);
  g_autoptr(GBytes) value = g_bytes_new_static (known_values + (gsize) i * VALUE_BYTES, VALUE_BYTES);
  HBaseMutation *put = hbase_mutation_new_put (key);

  hbase_mutation_put (put, FAMILY, QUALIFIER, value);
  return put;
}

/* Checks that @row is row @i as the bench writes it: its key, and f:q
 * holding row @i's value, written at @since_ms or later (0: any time).
 * @what names the operation for the message. */
static gboolean
check_row (HBaseRow *row, guint i, const char *what, gint64 since_ms, GError **error)
{
  GBytes *key = hbase_row_get_key (row);
  const HBaseCell *cell = hbase_row_lookup_cell (row, FAMILY, QUALIFIER);
  GBytes *value = cell != NULL ? hbase_cell_get_value (cell) : NULL;
  gsize key_size = 0;
  const char *key_data = key != NULL ? g_bytes_get_data (key, &key_size) : NULL;

  if (i >= n_known)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: a row beyond the %u expected, '%.*s'", what,
                   n_known, key_data != NULL ? (int) MIN (key_size, 64) : 6,
                   key_data != NULL ? key_data : "(none)");
      return FALSE;
    }
  if (key_data == NULL || key_size != KEY_BYTES ||
      memcmp (key_data, known_keys + (gsize) i * KEY_BYTES, KEY_BYTES) != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: expected row r%010u, got row '%.*s'", what, i,
                   key_data != NULL ? (int) MIN (key_size, 64) : 6, key_data != NULL ? key_data : "(none)");
      return FALSE;
    }
  if (value == NULL || g_bytes_get_size (value) != VALUE_BYTES ||
      memcmp (g_bytes_get_data (value, NULL), known_values + (gsize) i * VALUE_BYTES, VALUE_BYTES) != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   "%s: row r%010u has %s f:q value (is the table loaded by this version of the bench?)",
                   what, i, value == NULL ? "no" : "the wrong");
      return FALSE;
    }
  if (since_ms > 0 && hbase_cell_get_timestamp (cell) < since_ms)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   "%s: row r%010u was written at %" G_GINT64_FORMAT " ms, before the workload started (%"
                   G_GINT64_FORMAT " ms): the workload's write is missing",
                   what, i, hbase_cell_get_timestamp (cell), since_ms);
      return FALSE;
    }
  return TRUE;
}

/* After a put workload of rows 0 .. rows - 1 that started at @since_ms:
 * reads back its first, middle and last rows (untimed). */
static gboolean
check_written (HBaseTable *table, guint rows, gint64 since_ms, const char *workload, GError **error)
{
  guint sample[] = { 0, rows / 2, rows - 1 };

  for (guint s = 0; s < G_N_ELEMENTS (sample); s++)
    {
      g_autoptr(GBytes) key = row_key (sample[s]);
      g_autoptr(HBaseRow) row = hbase_table_get (table, key, NULL, NULL, error);
      g_autofree char *what = g_strdup_printf ("read-back after %s", workload);

      if (row == NULL || !check_row (row, sample[s], what, since_ms, error))
        return FALSE;
    }
  return TRUE;
}

static gint64
cpu_time_us (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

/* --- workloads -------------------------------------------------------------- */

typedef enum { KIND_PUT, KIND_GET } Kind;

typedef struct {
  HBaseTable *table;
  Kind kind;
  guint first;       /* puts: keys first .. first + count - 1 */
  guint count;
  guint key_range;   /* gets: random keys in 0 .. key_range - 1 */
  guint32 seed;
  GError *error;
} Worker;

/* start line: every worker waits here until the main thread starts the clock */
static GMutex start_mutex;
static GCond start_cond;
static gboolean started;

static gpointer
worker_run (gpointer data)
{
  Worker *w = data;
  g_autoptr(GRand) rand = g_rand_new_with_seed (w->seed);

  g_mutex_lock (&start_mutex);
  while (!started)
    g_cond_wait (&start_cond, &start_mutex);
  g_mutex_unlock (&start_mutex);

  for (guint n = 0; n < w->count && w->error == NULL; n++)
    {
      if (w->kind == KIND_PUT)
        {
          g_autoptr(HBaseMutation) put = new_put (w->first + n);

          hbase_table_apply (w->table, put, NULL, &w->error);
        }
      else
        {
          guint i = (guint) g_rand_int_range (rand, 0, (gint32) w->key_range);
          g_autoptr(GBytes) key = row_key (i);
          g_autoptr(HBaseRow) row = hbase_table_get (w->table, key, NULL, NULL, &w->error);

          if (row == NULL || !check_row (row, i, "get", 0, &w->error))
            break;
        }
    }
  return NULL;
}

/* Runs @ops operations of @kind spread over @threads threads; returns FALSE
 * on the first error.  *seconds is the wall time from the start line to the
 * last thread's end, *cpu_seconds the process CPU time over the same span. */
static gboolean
run_point (HBaseTable *table, Kind kind, guint ops, guint threads, guint32 seed_base,
           double *seconds, double *cpu_seconds, GError **error)
{
  g_autofree Worker *workers = g_new0 (Worker, threads);
  g_autofree GThread **handles = g_new0 (GThread *, threads);
  gint64 t0, c0;
  gboolean ok = TRUE;

  started = FALSE;
  for (guint k = 0; k < threads; k++)
    {
      workers[k].table = table;
      workers[k].kind = kind;
      workers[k].first = (guint) ((guint64) ops * k / threads);
      workers[k].count = (guint) ((guint64) ops * (k + 1) / threads) - workers[k].first;
      workers[k].key_range = (guint) opt_rows;
      workers[k].seed = seed_base + k;
      handles[k] = g_thread_new ("bench-worker", worker_run, &workers[k]);
    }
  g_mutex_lock (&start_mutex);
  t0 = g_get_monotonic_time ();
  c0 = cpu_time_us ();
  started = TRUE;
  g_cond_broadcast (&start_cond);
  g_mutex_unlock (&start_mutex);
  for (guint k = 0; k < threads; k++)
    g_thread_join (handles[k]);
  *seconds = (double) (g_get_monotonic_time () - t0) / G_USEC_PER_SEC;
  *cpu_seconds = (double) (cpu_time_us () - c0) / G_USEC_PER_SEC;
  for (guint k = 0; k < threads; k++)
    {
      if (workers[k].error != NULL && ok)
        {
          g_propagate_error (error, workers[k].error);
          workers[k].error = NULL;
          ok = FALSE;
        }
      g_clear_error (&workers[k].error);
    }
  return ok;
}

/* Puts rows 0 .. rows - 1 in apply_multiple calls of @batch rows. */
static gboolean
run_batches (HBaseTable *table, guint rows, guint batch, double *seconds, double *cpu_seconds,
             GError **error)
{
  gint64 t0 = g_get_monotonic_time (), c0 = cpu_time_us ();

  for (guint first = 0; first < rows; first += batch)
    {
      g_autoptr(GPtrArray) puts = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);

      for (guint i = first; i < rows && i < first + batch; i++)
        g_ptr_array_add (puts, new_put (i));
      if (!hbase_table_apply_multiple (table, puts, NULL, error))
        return FALSE;
    }
  *seconds = (double) (g_get_monotonic_time () - t0) / G_USEC_PER_SEC;
  *cpu_seconds = (double) (cpu_time_us () - c0) / G_USEC_PER_SEC;
  return TRUE;
}

/* Scans rows 0 .. stop - 1 (all rows when stop is 0) with the caching
 * option; checks every row (the n-th must be row n) and, when @expected is
 * not 0, the count. */
static gboolean
run_scan (HBaseTable *table, guint stop, guint expected, double *seconds, double *cpu_seconds,
          GError **error)
{
  HBaseScanOptions options = HBASE_SCAN_OPTIONS_INIT;
  g_autoptr(GBytes) stop_row = stop > 0 ? row_key (stop) : NULL;
  g_autoptr(HBaseScanner) scanner = NULL;
  gint64 t0 = g_get_monotonic_time (), c0 = cpu_time_us ();
  guint count = 0;

  options.caching = (guint) opt_caching;
  options.stop_row = stop_row;
  scanner = hbase_table_scan (table, &options, error);
  if (scanner == NULL)
    return FALSE;
  for (;;)
    {
      GError *local = NULL;
      g_autoptr(HBaseRow) row = NULL;

      hbase_scanner_next (scanner, &row, NULL, &local);

      if (row == NULL)
        {
          if (local != NULL)
            {
              g_propagate_error (error, local);
              return FALSE;
            }
          break;
        }
      if (!check_row (row, count, "scan", 0, error))
        return FALSE;
      count++;
    }
  g_clear_object (&scanner);
  *seconds = (double) (g_get_monotonic_time () - t0) / G_USEC_PER_SEC;
  *cpu_seconds = (double) (cpu_time_us () - c0) / G_USEC_PER_SEC;
  if (expected > 0 && count != expected)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   "the scan returned %u rows, expected %u (is the read table loaded?)", count, expected);
      return FALSE;
    }
  return TRUE;
}

static void
report (const char *workload, guint threads, guint ops, double seconds, double cpu_seconds)
{
  printf ("RESULT client=%s workload=%s threads=%u ops=%u seconds=%.3f ops_per_s=%.1f cpu_s=%.3f\n",
          client_name, workload, threads, ops, seconds, seconds > 0 ? ops / seconds : 0.0, cpu_seconds);
  fflush (stdout);
}

static gboolean
wanted (char **workloads, const char *name)
{
  return workloads == NULL || g_strv_contains ((const char *const *) workloads, name);
}

int
main (int argc, char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new ("- hbase-glib in the peer benchmark");
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(HBaseTable) read_table = NULL;
  g_autoptr(HBaseTable) write_table = NULL;
  g_auto(GStrv) workloads = NULL;
  g_autofree char *gateway = NULL;
  guint threads;
  double seconds, cpu;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("bench-table: %s\n", error->message);
      return 2;
    }
  if (opt_rows < 1 || opt_ops < 1 || opt_batch_rows < 1 || opt_threads < 1 || opt_threads > 1024 ||
      opt_warmup < 0 || opt_caching < 1)
    {
      g_printerr ("bench-table: --rows, --ops, --batch-rows, --threads and --caching must be positive\n");
      return 2;
    }
  if (opt_bootstrap != NULL && (opt_gateways != NULL || opt_host != NULL))
    {
      g_printerr ("bench-table: --bootstrap-servers goes without --gateways and --host\n");
      return 2;
    }
  threads = (guint) opt_threads;
  /* every row a workload writes or reads: rows, ops, batch-rows, and the
   * warm-ups (at least 2 batches of 1000) */
  prepare_rows (MAX (MAX ((guint) opt_rows, (guint) opt_ops),
                     MAX ((guint) opt_batch_rows, MAX ((guint) opt_warmup, 2000u))));
  if (opt_workloads != NULL)
    workloads = g_strsplit (opt_workloads, ",", -1);

  gateway = opt_gateways != NULL
    ? g_strdup (opt_gateways)
    : g_strdup_printf ("%s:%d", opt_host != NULL ? opt_host : "127.0.0.1", opt_port);
  if (opt_bootstrap != NULL)
    client_name = "hbase-glib-native";
  /* the environment's settings (Kerberos, TLS) for the secured modes */
  if ((config = hbase_config_new_from_environment (&error)) == NULL ||
      !(opt_bootstrap != NULL
          ? hbase_config_set_bootstrap_servers (config, opt_bootstrap, &error)
          : hbase_config_set_gateways (config, gateway, &error)) ||
      !hbase_config_set_pool_size (config, threads, &error) ||
      (client = hbase_client_new (config)) == NULL ||
      (read_table = hbase_table_new (client, opt_read_table != NULL ? opt_read_table : "bench_peers",
                                     &error)) == NULL ||
      (write_table = hbase_table_new (client, opt_write_table != NULL ? opt_write_table : "bench_peers_w",
                                      &error)) == NULL)
    goto failed;

  /* point puts, 1 and N threads */
  for (guint pass = 0; pass < 2; pass++)
    {
      guint t = pass == 0 ? 1 : threads;
      gint64 since_ms;

      if (!wanted (workloads, pass == 0 ? "put1" : "putN"))
        continue;
      if (opt_warmup > 0 &&
          !run_point (write_table, KIND_PUT, (guint) opt_warmup, t, 1, &seconds, &cpu, &error))
        goto failed;
      if (opt_warmup_only)
        continue;
      since_ms = g_get_real_time () / 1000;
      if (!run_point (write_table, KIND_PUT, (guint) opt_ops, t, 1, &seconds, &cpu, &error) ||
          !check_written (write_table, (guint) opt_ops, since_ms, "put", &error))
        goto failed;
      report ("put", t, (guint) opt_ops, seconds, cpu);
    }

  /* put multiple, batches of 100 and 1000 */
  for (guint pass = 0; pass < 2; pass++)
    {
      guint batch = pass == 0 ? 100 : 1000;
      const char *name = pass == 0 ? "put_batch100" : "put_batch1000";
      gint64 since_ms;

      if (!wanted (workloads, pass == 0 ? "batch100" : "batch1000"))
        continue;
      if (opt_warmup > 0 &&
          !run_batches (write_table, MAX ((guint) opt_warmup, 2 * batch), batch, &seconds, &cpu, &error))
        goto failed;
      if (opt_warmup_only)
        continue;
      since_ms = g_get_real_time () / 1000;
      if (!run_batches (write_table, (guint) opt_batch_rows, batch, &seconds, &cpu, &error) ||
          !check_written (write_table, (guint) opt_batch_rows, since_ms, name, &error))
        goto failed;
      report (name, 1, (guint) opt_batch_rows, seconds, cpu);
    }

  /* point gets of random existing rows, 1 and N threads */
  for (guint pass = 0; pass < 2; pass++)
    {
      guint t = pass == 0 ? 1 : threads;

      if (!wanted (workloads, pass == 0 ? "get1" : "getN"))
        continue;
      if (opt_warmup > 0 &&
          !run_point (read_table, KIND_GET, (guint) opt_warmup, t, 1000, &seconds, &cpu, &error))
        goto failed;
      if (opt_warmup_only)
        continue;
      if (!run_point (read_table, KIND_GET, (guint) opt_ops, t, 1, &seconds, &cpu, &error))
        goto failed;
      report ("get", t, (guint) opt_ops, seconds, cpu);
    }

  /* a scan of the whole read table */
  if (wanted (workloads, "scan"))
    {
      if (opt_warmup > 0 &&
          !run_scan (read_table, MIN ((guint) opt_rows, 10 * (guint) opt_warmup), 0, &seconds, &cpu,
                     &error))
        goto failed;
      if (!opt_warmup_only)
        {
          if (!run_scan (read_table, 0, (guint) opt_rows, &seconds, &cpu, &error))
            goto failed;
          report ("scan", 1, (guint) opt_rows, seconds, cpu);
        }
    }
  return 0;

failed:
  g_printerr ("bench-table: %s\n", error->message);
  return 1;
}
