/* SPDX-License-Identifier: Apache-2.0 */
/* bench-rowkey.c: the rowkey toolkit's costs.
 *
 *  1. key encoding and decoding, no server: ns per key for the file table's
 *     padded key (3 decimal fields), a mixed key (uint16, int64, double,
 *     escaped bytes), the same salted (MurmurHash3, 16 buckets), and the
 *     start/stop rows of a partial-key range;
 *  2. a merged fan-out scan against a single scan, on the gateway: --rows
 *     rows (default 1,000,000) loaded into an unsalted table and into a
 *     table salted into --buckets buckets (default 16, pre-split one region
 *     per bucket); times a plain HBaseScanner over the unsalted table, an
 *     HBaseKeyScanner over it (one stream, fetched ahead on a worker
 *     thread), and HBaseKeyScanners merging every bucket of the salted one
 *     with 1 and with --parallelism worker threads.  Every scan checks the
 *     count and the key order.
 *
 * Not part of make check.  Each result is one line:
 *
 *   RESULT bench=encode key=file-table keys=1000000 ns_per_key=85.1
 *   RESULT bench=scan kind=merged buckets=16 parallelism=8 rows=1000000 seconds=9.8 rows_per_s=102040
 *
 * Usage: bench-rowkey [--rows N] [--buckets N] [--gateway HOST:PORT] [--keep]
 *                     [--skip-scan | --skip-codec] [--scans LIST] [--rounds N]
 * The tables (bench_rowkey_plain, bench_rowkey_salted) are loaded when
 * they do not hold --rows rows already and kept with --keep. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <hbase-glib/hbase-glib.h>

static int opt_rows = 1000000;
static int opt_buckets = 16;
static int opt_keys = 1000000;
static int opt_caching = 1000;
static int opt_parallelism = 8;
static int opt_load_threads = 4;
static char *opt_gateway = NULL;
static gboolean opt_keep = FALSE;
static gboolean opt_skip_scan = FALSE;
static gboolean opt_skip_codec = FALSE;
static int opt_rounds = 2;
static char *opt_scans = NULL;

static GOptionEntry entries[] = {
  { "rows", 0, 0, G_OPTION_ARG_INT, &opt_rows, "Rows of the scan tables (default 1000000)", "N" },
  { "buckets", 0, 0, G_OPTION_ARG_INT, &opt_buckets, "Salt buckets (default 16)", "N" },
  { "keys", 0, 0, G_OPTION_ARG_INT, &opt_keys, "Keys per encode/decode run (default 1000000)", "N" },
  { "caching", 0, 0, G_OPTION_ARG_INT, &opt_caching, "Rows per round trip (default 1000)", "N" },
  { "parallelism", 0, 0, G_OPTION_ARG_INT, &opt_parallelism,
    "Worker threads of the merged scan (default 8)", "N" },
  { "load-threads", 0, 0, G_OPTION_ARG_INT, &opt_load_threads, "Threads loading rows (default 4)", "N" },
  { "gateway", 0, 0, G_OPTION_ARG_STRING, &opt_gateway,
    "Thrift2 gateway, binary/buffered (default 127.0.0.1:9090)", "HOST:PORT" },
  { "keep", 0, 0, G_OPTION_ARG_NONE, &opt_keep, "Keep the tables for the next run", NULL },
  { "skip-scan", 0, 0, G_OPTION_ARG_NONE, &opt_skip_scan, "Only the encode/decode part", NULL },
  { "skip-codec", 0, 0, G_OPTION_ARG_NONE, &opt_skip_codec, "Only the scan part", NULL },
  { "rounds", 0, 0, G_OPTION_ARG_INT, &opt_rounds, "Timed rounds of the scans (default 2)", "N" },
  { "scans", 0, 0, G_OPTION_ARG_STRING, &opt_scans,
    "Comma-separated subset of single,keyscan,merged1,merged (default all)", "LIST" },
  { NULL, 0, 0, 0, NULL, NULL, NULL }
};

static double
cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

/* --- 1. encoding ---------------------------------------------------------------- */

#define N_TUPLES 1024

static const HBaseKeyField file_key[] = {
  { "user", HBASE_KEY_FIELD_DECIMAL, 6, 0, FALSE },
  { "time", HBASE_KEY_FIELD_DECIMAL, 8, 0, FALSE },
  { "file", HBASE_KEY_FIELD_DECIMAL, 6, 0, FALSE },
};

static const HBaseKeyField mixed_key[] = {
  { "region", HBASE_KEY_FIELD_UINT, 2, 0, FALSE },
  { "ts", HBASE_KEY_FIELD_INT, 8, 0, FALSE },
  { "score", HBASE_KEY_FIELD_DOUBLE, 0, 0, FALSE },
  { "id", HBASE_KEY_FIELD_BYTES, 0, 0, FALSE },
};

typedef struct {
  HBaseKeyValue values[4];
  guint8 id[12];
} Tuple;

static void
bench_codec (const char *name, HBaseKeySchema *schema, Tuple *tuples, guint n_fields)
{
  g_autoptr(GByteArray) out = g_byte_array_sized_new (64);
  g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  gint64 start;
  double cpu, encode_ns, decode_ns, alloc_ns;
  guint n = (guint) opt_keys;

  for (guint i = 0; i < N_TUPLES; i++)
    {
      GError *error = NULL;
      GBytes *key = hbase_key_schema_encode (schema, tuples[i].values, n_fields, &error);

      if (key == NULL)
        g_error ("%s", error->message);
      g_ptr_array_add (keys, key);
    }

  start = g_get_monotonic_time ();
  cpu = cpu_seconds ();
  for (guint i = 0; i < n; i++)
    {
      g_byte_array_set_size (out, 0);
      if (!hbase_key_schema_encode_into (schema, out, tuples[i % N_TUPLES].values, n_fields, NULL))
        g_error ("encode failed");
    }
  encode_ns = (double) (g_get_monotonic_time () - start) * 1000.0 / n;
  printf ("RESULT bench=encode_into key=%s keys=%u ns_per_key=%.1f cpu_ns_per_key=%.1f\n", name, n,
          encode_ns, (cpu_seconds () - cpu) * 1e9 / n);

  start = g_get_monotonic_time ();
  for (guint i = 0; i < n; i++)
    {
      GBytes *key = hbase_key_schema_encode (schema, tuples[i % N_TUPLES].values, n_fields, NULL);

      g_bytes_unref (key);
    }
  alloc_ns = (double) (g_get_monotonic_time () - start) * 1000.0 / n;
  printf ("RESULT bench=encode key=%s keys=%u ns_per_key=%.1f\n", name, n, alloc_ns);

  start = g_get_monotonic_time ();
  for (guint i = 0; i < n; i++)
    {
      GVariant *tuple = hbase_key_schema_decode (schema, keys->pdata[i % N_TUPLES], NULL);

      if (tuple == NULL)
        g_error ("decode failed");
      g_variant_unref (tuple);
    }
  decode_ns = (double) (g_get_monotonic_time () - start) * 1000.0 / n;
  printf ("RESULT bench=decode_variant key=%s keys=%u ns_per_key=%.1f\n", name, n, decode_ns);

  {
    g_autoptr(GByteArray) storage = g_byte_array_sized_new (64);
    HBaseKeyValue values[4];

    start = g_get_monotonic_time ();
    cpu = cpu_seconds ();
    for (guint i = 0; i < n; i++)
      if (!hbase_key_schema_decode_values (schema, keys->pdata[i % N_TUPLES], values, n_fields,
                                           storage, NULL))
        g_error ("decode failed");
    printf ("RESULT bench=decode_values key=%s keys=%u ns_per_key=%.1f cpu_ns_per_key=%.1f\n", name,
            n, (double) (g_get_monotonic_time () - start) * 1000.0 / n,
            (cpu_seconds () - cpu) * 1e9 / n);
  }
}

static void
bench_range (HBaseKeySchema *schema, Tuple *tuples)
{
  guint n = (guint) opt_keys / 4;
  gint64 start = g_get_monotonic_time ();

  for (guint i = 0; i < n; i++)
    {
      const Tuple *t = &tuples[i % N_TUPLES];
      HBaseKeyRange range = { t->values, 1, &t->values[1], TRUE, &tuples[(i + 1) % N_TUPLES].values[1], FALSE };
      GBytes *first = NULL, *stop = NULL;

      if (!hbase_key_schema_get_row_range (schema, &range, &first, &stop, NULL))
        g_error ("range failed");
      if (first != NULL)
        g_bytes_unref (first);
      if (stop != NULL)
        g_bytes_unref (stop);
    }
  printf ("RESULT bench=row_range key=file-table ranges=%u ns_per_range=%.1f\n", n,
          (double) (g_get_monotonic_time () - start) * 1000.0 / n);
}

static void
run_codec (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (3);
  Tuple *files = g_new0 (Tuple, N_TUPLES);
  Tuple *mixed = g_new0 (Tuple, N_TUPLES);
  HBaseSaltOptions salt = HBASE_SALT_OPTIONS_INIT;
  g_autoptr(HBaseKeySchema) file_schema = hbase_key_schema_new (file_key, 3, NULL, NULL);
  g_autoptr(HBaseKeySchema) mixed_schema = hbase_key_schema_new (mixed_key, 4, NULL, NULL);
  g_autoptr(HBaseKeySchema) salted_schema = NULL;

  salt.n_buckets = 16;
  salted_schema = hbase_key_schema_new (mixed_key, 4, &salt, NULL);
  for (guint i = 0; i < N_TUPLES; i++)
    {
      gsize len = (gsize) g_rand_int_range (rand, 4, 12);

      files[i].values[0] = HBASE_KEY_UINT (g_rand_int_range (rand, 1, 100000));
      files[i].values[1] = HBASE_KEY_UINT (20120901 + g_rand_int_range (rand, 0, 30));
      files[i].values[2] = HBASE_KEY_UINT (g_rand_int_range (rand, 1, 999999));
      for (gsize j = 0; j < len; j++)
        mixed[i].id[j] = (guint8) g_rand_int_range (rand, 0, 256);
      mixed[i].values[0] = HBASE_KEY_UINT (g_rand_int_range (rand, 0, 65536));
      mixed[i].values[1] = HBASE_KEY_INT ((gint64) g_rand_int (rand) - G_MAXINT32);
      mixed[i].values[2] = HBASE_KEY_DOUBLE (g_rand_double_range (rand, -1e9, 1e9));
      mixed[i].values[3] = HBASE_KEY_BYTES (mixed[i].id, len);
    }
  bench_codec ("file-table", file_schema, files, 3);
  bench_codec ("mixed", mixed_schema, mixed, 4);
  bench_codec ("mixed-salted16", salted_schema, mixed, 4);
  bench_range (file_schema, files);
  g_free (files);
  g_free (mixed);
}

/* --- 2. scans --------------------------------------------------------------------- */

static const HBaseKeyField scan_key[] = {
  { "region", HBASE_KEY_FIELD_UINT, 2, 0, FALSE },
  { "ts", HBASE_KEY_FIELD_INT, 8, 0, FALSE },
  { "id", HBASE_KEY_FIELD_DECIMAL, 8, 0, FALSE },
};

static void
scan_values (guint i, HBaseKeyValue values[3])
{
  /* spread, with negative timestamps; distinct per i */
  values[0] = HBASE_KEY_UINT (i % 7);
  values[1] = HBASE_KEY_INT (((gint64) (i * 2654435761u % 1000003)) - 500000);
  values[2] = HBASE_KEY_UINT (i);
}

typedef struct {
  HBaseTable *table;
  HBaseKeySchema *schema;
  guint from, to;
} LoadJob;

static gpointer
load_range (gpointer data)
{
  LoadJob *job = data;
  g_autoptr(GBytes) value = g_bytes_new_static ("0123456789abcdef", 16);
  g_autoptr(GPtrArray) puts = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);

  for (guint i = job->from; i < job->to; i++)
    {
      HBaseKeyValue values[3];
      GError *error = NULL;
      g_autoptr(GBytes) key = NULL;
      HBaseMutation *put;

      scan_values (i, values);
      key = hbase_key_schema_encode (job->schema, values, 3, &error);
      if (key == NULL)
        g_error ("%s", error->message);
      put = hbase_mutation_new_put (key);
      hbase_mutation_put (put, "f", "v", value);
      hbase_mutation_set_durability (put, HBASE_DURABILITY_SKIP_WAL);
      g_ptr_array_add (puts, put);
      if (puts->len == 1000 || i + 1 == job->to)
        {
          if (!hbase_table_apply_multiple (job->table, puts, NULL, &error))
            g_error ("load: %s", error->message);
          g_ptr_array_set_size (puts, 0);
        }
    }
  return NULL;
}

static guint
count_rows (HBaseTable *table)
{
  HBaseScanOptions options = HBASE_SCAN_OPTIONS_INIT;
  g_autoptr(HBaseFilter) first = hbase_filter_first_key_only ();
  g_autoptr(HBaseFilter) key_only = hbase_filter_key_only (FALSE);
  g_autoptr(HBaseFilter) both = hbase_filter_and (first, key_only);
  g_autofree char *filter = hbase_filter_to_string (both, NULL);
  g_autoptr(HBaseScanner) scanner = NULL;
  HBaseRow *row;
  GError *error = NULL;
  guint n = 0;

  options.caching = 5000;
  options.read.filter = filter;
  scanner = hbase_table_scan (table, &options, &error);
  while (hbase_scanner_next (scanner, &row, NULL, &error) && row != NULL)
    {
      n++;
      hbase_row_unref (row);
    }
  if (error != NULL)
    {
      g_clear_error (&error);
      return 0;
    }
  return n;
}

static HBaseTable *
prepare (HBaseClient *client, const char *name, HBaseKeySchema *schema)
{
  GError *error = NULL;
  gboolean exists = FALSE;
  HBaseTable *table;
  gint64 start;

  if (!hbase_client_table_exists (client, name, &exists, NULL, &error))
    g_error ("%s", error->message);
  if (exists)
    {
      table = hbase_table_new (client, name, &error);
      if (count_rows (table) == (guint) opt_rows)
        {
          printf ("# %s already holds %d rows\n", name, opt_rows);
          return table;
        }
      g_object_unref (table);
      if (!hbase_client_delete_table (client, name, NULL, &error))
        g_error ("%s", error->message);
    }
  {
    HBaseFamilyOptions family = HBASE_FAMILY_OPTIONS_INIT;
    g_autoptr(GPtrArray) splits = hbase_key_schema_get_split_keys (schema);

    family.name = "f";
    if (!hbase_client_create_table (client, name, &family, 1, splits->len > 0 ? splits : NULL, NULL,
                                   &error))
      g_error ("%s", error->message);
  }
  table = hbase_table_new (client, name, &error);
  start = g_get_monotonic_time ();
  {
    guint threads = (guint) MAX (opt_load_threads, 1);
    GThread **workers = g_new0 (GThread *, threads);
    LoadJob *jobs = g_new0 (LoadJob, threads);

    for (guint t = 0; t < threads; t++)
      {
        jobs[t].table = table;
        jobs[t].schema = schema;
        jobs[t].from = (guint) ((guint64) opt_rows * t / threads);
        jobs[t].to = (guint) ((guint64) opt_rows * (t + 1) / threads);
        workers[t] = g_thread_new ("load", load_range, &jobs[t]);
      }
    for (guint t = 0; t < threads; t++)
      g_thread_join (workers[t]);
    g_free (workers);
    g_free (jobs);
  }
  printf ("# loaded %d rows into %s in %.1f s\n", opt_rows, name,
          (double) (g_get_monotonic_time () - start) / 1e6);
  return table;
}

/* Checks order and count as it goes. */
static void
report_scan (const char *kind, guint buckets, guint parallelism, guint rows, gint64 start,
             double cpu)
{
  double seconds = (double) (g_get_monotonic_time () - start) / 1e6;

  if (rows != (guint) opt_rows)
    g_error ("%s scan returned %u rows, not %d", kind, rows, opt_rows);
  printf ("RESULT bench=scan kind=%s buckets=%u parallelism=%u rows=%u seconds=%.2f rows_per_s=%.0f "
          "client_cpu_s=%.2f\n", kind, buckets, parallelism, rows, seconds, rows / seconds,
          cpu_seconds () - cpu);
  fflush (stdout);
}

static int
compare_unsalted (GBytes *previous, GBytes *key, gsize skip)
{
  gsize la, lb;
  const guint8 *a = g_bytes_get_data (previous, &la);
  const guint8 *b = g_bytes_get_data (key, &lb);
  int cmp = memcmp (a + skip, b + skip, MIN (la, lb) - skip);

  return cmp != 0 ? cmp : (la < lb ? -1 : la > lb);
}

static void
scan_plain (HBaseTable *table)
{
  HBaseScanOptions options = HBASE_SCAN_OPTIONS_INIT;
  g_autoptr(HBaseScanner) scanner = NULL;
  g_autoptr(GBytes) previous = NULL;
  HBaseRow *row;
  GError *error = NULL;
  guint rows = 0;
  gint64 start = g_get_monotonic_time ();
  double cpu = cpu_seconds ();

  options.caching = (guint) opt_caching;
  scanner = hbase_table_scan (table, &options, &error);
  while (hbase_scanner_next (scanner, &row, NULL, &error) && row != NULL)
    {
      GBytes *key = hbase_row_get_key (row);

      if (previous != NULL && compare_unsalted (previous, key, 0) >= 0)
        g_error ("out of order");
      g_clear_pointer (&previous, g_bytes_unref);
      previous = g_bytes_ref (key);
      rows++;
      hbase_row_unref (row);
    }
  if (error != NULL)
    g_error ("%s", error->message);
  report_scan ("single", 1, 0, rows, start, cpu);
}

static void
scan_merged (HBaseTable *table, HBaseKeySchema *schema, guint parallelism, const char *kind)
{
  HBaseKeyScanOptions options = HBASE_KEY_SCAN_OPTIONS_INIT;
  g_autoptr(HBaseKeyScanner) scanner = NULL;
  g_autoptr(GBytes) previous = NULL;
  gsize skip = hbase_key_schema_get_n_buckets (schema) > 0 ? 1 : 0;
  HBaseRow *row;
  GError *error = NULL;
  guint rows = 0;
  gint64 start = g_get_monotonic_time ();
  double cpu = cpu_seconds ();

  options.caching = (guint) opt_caching;
  options.parallelism = parallelism;
  scanner = hbase_key_scanner_new (table, schema, &options, &error);
  if (scanner == NULL)
    g_error ("%s", error->message);
  while (hbase_key_scanner_next (scanner, &row, NULL, &error) && row != NULL)
    {
      GBytes *key = hbase_row_get_key (row);

      if (previous != NULL && compare_unsalted (previous, key, skip) >= 0)
        g_error ("out of order");
      g_clear_pointer (&previous, g_bytes_unref);
      previous = g_bytes_ref (key);
      rows++;
      hbase_row_unref (row);
    }
  if (error != NULL)
    g_error ("%s", error->message);
  report_scan (kind, hbase_key_scanner_get_n_buckets (scanner), parallelism, rows, start, cpu);
}

static gboolean
wanted (const char *scan)
{
  g_auto(GStrv) list = NULL;

  if (opt_scans == NULL)
    return TRUE;
  list = g_strsplit (opt_scans, ",", -1);
  return g_strv_contains ((const char *const *) list, scan);
}

static void
run_scans (void)
{
  GError *error = NULL;
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(HBaseClient) client = NULL;
  HBaseSaltOptions salt = HBASE_SALT_OPTIONS_INIT;
  g_autoptr(HBaseKeySchema) plain = hbase_key_schema_new (scan_key, 3, NULL, NULL);
  g_autoptr(HBaseKeySchema) salted = NULL;
  g_autoptr(HBaseTable) plain_table = NULL, salted_table = NULL;
  const char *plain_name = "bench_rowkey_plain", *salted_name = "bench_rowkey_salted";

  salt.n_buckets = (guint) opt_buckets;
  salted = hbase_key_schema_new (scan_key, 3, &salt, &error);
  if (salted == NULL)
    g_error ("%s", error->message);
  if (!hbase_config_set_gateways (config, opt_gateway != NULL ? opt_gateway : "127.0.0.1:9090", &error) ||
      !hbase_config_set_pool_size (config, (guint) MAX (opt_parallelism, opt_load_threads) + 2, &error) ||
      (client = hbase_client_new (config)) == NULL)
    g_error ("%s", error->message);

  plain_table = prepare (client, plain_name, plain);
  salted_table = prepare (client, salted_name, salted);

  /* warm: one untimed pass over each */
  scan_plain (plain_table);
  scan_merged (salted_table, salted, (guint) opt_parallelism, "warm-up");
  for (int round = 0; round < opt_rounds; round++)
    {
      if (wanted ("single"))
        scan_plain (plain_table);
      if (wanted ("keyscan"))
        scan_merged (plain_table, plain, 1, "keyscan-unsalted");
      if (wanted ("merged1"))
        scan_merged (salted_table, salted, 1, "merged");
      if (wanted ("merged"))
        scan_merged (salted_table, salted, (guint) opt_parallelism, "merged");
    }
  if (!opt_keep)
    {
      g_clear_object (&plain_table);
      g_clear_object (&salted_table);
      if (!hbase_client_delete_table (client, plain_name, NULL, &error) ||
          !hbase_client_delete_table (client, salted_name, NULL, &error))
        g_printerr ("could not drop the tables: %s\n", error->message);
    }
}

int
main (int argc, char **argv)
{
  GError *error = NULL;
  GOptionContext *context = g_option_context_new ("- the rowkey toolkit's costs");

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  g_option_context_free (context);
  if (opt_rows < 1 || opt_buckets < 1 || opt_buckets > 256 || opt_keys < N_TUPLES ||
      opt_caching < 1 || opt_parallelism < 1)
    {
      g_printerr ("bad option value\n");
      return 2;
    }
  if (!opt_skip_codec)
    run_codec ();
  if (!opt_skip_scan)
    run_scans ();
  g_free (opt_gateway);
  g_free (opt_scans);
  return 0;
}
