/* SPDX-License-Identifier: Apache-2.0 */
/* bench-pipeline.c: whether sending several Thrift2 gets on one connection
 * before reading their replies ("pipelining") beats one call at a time, or
 * one getMultiple of the same gets.
 *
 *   bench/bench-pipeline [--load] [--keys N] [--calls N] [--depths D,D,...]
 *                        [--modes M,M,...] [--threads T] [--seed S]
 *                        [--host H] [--port P]
 *
 * Over hbase-glib's own connection (hbase_connection_open() +
 * hbase_connection_get_service()) and the generated client, whose send_
 * and recv_ halves of a call are separate functions, three modes read the
 * same seeded random keys of the table bench_pipeline:
 *
 *   sequential    send one get, receive its reply, then the next;
 *   pipelined     a sliding window of `depth` outstanding gets: send
 *                 `depth` of them, then receive one and send one until
 *                 every reply is in, the replies read in the order sent;
 *   get_multiple  one getMultiple call of `depth` gets at a time.
 *
 * Every reply is checked: the row asked for, with its one cell f:v holding
 * that row's value; a wrong or missing reply ends the run with status 1.
 * With --threads T, T threads each open their own connection and run the
 * same mode at the same time.  The result is a Markdown table: gets/s,
 * latency per get (mean, p99) and the client's CPU time per get.
 *
 * A benchmark, not a test: built with the library, never run by make
 * check (bench/README.md). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <hbase-glib/hbase-glib-thrift.h>

#define TABLE "bench_pipeline"
#define FAMILY "f"
#define QUALIFIER "v"
#define LOAD_BATCH 1000
#define WARMUP_GETS 2000

typedef HbaseThriftTHBaseServiceIf Service;

typedef enum { MODE_SEQUENTIAL, MODE_PIPELINED, MODE_GET_MULTIPLE, N_MODES } Mode;
static const char *const mode_names[N_MODES] = { "sequential", "pipelined", "get_multiple" };

static char *opt_host = NULL;
static int opt_port = 9090;
static int opt_keys = 10000;
static int opt_calls = 20000;
static char *opt_depths = NULL;
static char *opt_modes = NULL;
static int opt_threads = 1;
static int opt_seed = 1;
static gboolean opt_load = FALSE;

static GOptionEntry entries[] = {
  { "host", 0, 0, G_OPTION_ARG_STRING, &opt_host, "Gateway address (default 127.0.0.1)", "HOST" },
  { "port", 0, 0, G_OPTION_ARG_INT, &opt_port,
    "Port of the binary/buffered Thrift2 gateway (default 9090)", "PORT" },
  { "keys", 0, 0, G_OPTION_ARG_INT, &opt_keys, "Rows in the table (default 10000)", "N" },
  { "calls", 0, 0, G_OPTION_ARG_INT, &opt_calls,
    "Gets per mode and depth, per thread (default 20000)", "N" },
  { "depths", 0, 0, G_OPTION_ARG_STRING, &opt_depths,
    "Requests outstanding (pipelined) or gets per call (get_multiple), comma-separated "
    "(default 1,2,4,8,16,32,64,128)", "D,D,..." },
  { "modes", 0, 0, G_OPTION_ARG_STRING, &opt_modes,
    "sequential, pipelined, get_multiple, comma-separated (default all three)", "M,M,..." },
  { "threads", 0, 0, G_OPTION_ARG_INT, &opt_threads,
    "Threads, each with its own connection, running the same mode (default 1)", "T" },
  { "seed", 0, 0, G_OPTION_ARG_INT, &opt_seed, "Seed of the random key sequence (default 1)", "S" },
  { "load", 0, 0, G_OPTION_ARG_NONE, &opt_load,
    "Create table " TABLE " and write its --keys rows unless they are there", NULL },
  { NULL, 0, 0, 0, NULL, NULL, NULL }
};

/* --- keys, values and replies ------------------------------------------- */

static GByteArray *table_bytes, *family_bytes, *qualifier_bytes;
static HbaseThriftTGet **gets;     /* the get of row i, built once */
static GByteArray **values;        /* the value of row i */

static GByteArray *
bytes_from_string (const char *text)
{
  GByteArray *array = g_byte_array_sized_new ((guint) strlen (text));

  return g_byte_array_append (array, (const guint8 *) text, (guint) strlen (text));
}

static gboolean
bytes_equal (const GByteArray *a, const GByteArray *b)
{
  return a != NULL && b != NULL && a->len == b->len && memcmp (a->data, b->data, a->len) == 0;
}

/* Row i: key row<i>, value distinct per row (i and a multiplicative hash of it). */
static void
prepare_rows (void)
{
  table_bytes = bytes_from_string (TABLE);
  family_bytes = bytes_from_string (FAMILY);
  qualifier_bytes = bytes_from_string (QUALIFIER);
  gets = g_new (HbaseThriftTGet *, opt_keys);
  values = g_new (GByteArray *, opt_keys);
  for (guint i = 0; i < (guint) opt_keys; i++)
    {
      g_autofree char *key = g_strdup_printf ("row%08u", i);
      g_autofree char *value = g_strdup_printf ("value-%08u-%08x", i, i * 2654435761u);
      g_autoptr(GByteArray) row = bytes_from_string (key);

      gets[i] = g_object_new (HBASE_THRIFT_TYPE_T_GET, "row", row, NULL);
      values[i] = bytes_from_string (value);
    }
}

static gboolean
call_failed (GError **error, const char *what, GError *call_error, HbaseThriftTIOError *io)
{
  GError *converted = NULL;

  if (call_error == NULL && io == NULL)
    call_error = g_error_new_literal (HBASE_ERROR, HBASE_ERROR_PROTOCOL, "call failed");
  hbase_error_take_call_error (&converted, call_error, io, NULL);
  g_set_error (error, converted->domain, converted->code, "%s: %s", what, converted->message);
  g_error_free (converted);
  return FALSE;
}

/* Whether @result is row @row with its one cell f:v holding its value. */
static gboolean
check_result (const HbaseThriftTResult *result, guint row, GError **error)
{
  const GByteArray *key = gets[row]->row;
  const HbaseThriftTColumnValue *cell;

  if (!bytes_equal (result->row, key))
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL, "asked for row %.*s, the reply is "
                   "for row %.*s", (int) key->len, (const char *) key->data,
                   result->row ? (int) result->row->len : 6,
                   result->row ? (const char *) result->row->data : "(none)");
      return FALSE;
    }
  cell = result->columnValues->len == 1 ? result->columnValues->pdata[0] : NULL;
  if (cell == NULL || !bytes_equal (cell->family, family_bytes) ||
      !bytes_equal (cell->qualifier, qualifier_bytes) || !bytes_equal (cell->value, values[row]))
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                   "row %.*s: the reply does not hold the one cell " FAMILY ":" QUALIFIER
                   " with the row's value (%u cells)", (int) key->len, (const char *) key->data,
                   result->columnValues->len);
      return FALSE;
    }
  return TRUE;
}

/* --- the table ---------------------------------------------------------- */

static gboolean
table_exists (Service *service, gboolean *exists, GError **error)
{
  g_autoptr(HbaseThriftTTableName) name =
    g_object_new (HBASE_THRIFT_TYPE_T_TABLE_NAME, "qualifier", table_bytes, NULL);
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;

  if (!hbase_thrift_t_h_base_service_if_table_exists (service, exists, name, &io, &call_error))
    return call_failed (error, "tableExists", call_error, io);
  return TRUE;
}

/* Whether the last row is there with its value (rows are written in order,
 * so then the ones before it are too). */
static gboolean
table_loaded (Service *service, gboolean *loaded, GError **error)
{
  g_autoptr(HbaseThriftTResult) result = g_object_new (HBASE_THRIFT_TYPE_T_RESULT, NULL);
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;
  gboolean exists = FALSE;

  *loaded = FALSE;
  if (!table_exists (service, &exists, error))
    return FALSE;
  if (!exists)
    return TRUE;
  if (!hbase_thrift_t_h_base_service_if_get (service, &result, table_bytes,
                                             gets[opt_keys - 1], &io, &call_error))
    return call_failed (error, "get", call_error, io);
  *loaded = check_result (result, (guint) opt_keys - 1, NULL);
  return TRUE;
}

static gboolean
load_table (Service *service, GError **error)
{
  gint64 start = g_get_monotonic_time ();
  gboolean exists = FALSE;

  if (!table_exists (service, &exists, error))
    return FALSE;
  if (!exists)
    {
      g_autoptr(HbaseThriftTTableName) name =
        g_object_new (HBASE_THRIFT_TYPE_T_TABLE_NAME, "qualifier", table_bytes, NULL);
      g_autoptr(HbaseThriftTColumnFamilyDescriptor) cf =
        g_object_new (HBASE_THRIFT_TYPE_T_COLUMN_FAMILY_DESCRIPTOR, "name", family_bytes, NULL);
      g_autoptr(HbaseThriftTTableDescriptor) desc =
        g_object_new (HBASE_THRIFT_TYPE_T_TABLE_DESCRIPTOR, "tableName", name, NULL);
      g_autoptr(GPtrArray) splits = g_ptr_array_new ();
      g_autoptr(HbaseThriftTIOError) io = NULL;
      GError *call_error = NULL;

      g_ptr_array_add (desc->columns, g_object_ref (cf));
      desc->__isset_columns = TRUE;
      if (!hbase_thrift_t_h_base_service_if_create_table (service, desc, splits, &io,
                                                          &call_error))
        return call_failed (error, "createTable " TABLE, call_error, io);
      g_printerr ("created table %s (family %s)\n", TABLE, FAMILY);
    }
  for (guint first = 0; first < (guint) opt_keys; first += LOAD_BATCH)
    {
      g_autoptr(GPtrArray) puts = g_ptr_array_new_with_free_func (g_object_unref);
      g_autoptr(HbaseThriftTIOError) io = NULL;
      GError *call_error = NULL;

      for (guint i = first; i < (guint) opt_keys && i < first + LOAD_BATCH; i++)
        {
          HbaseThriftTPut *put = g_object_new (HBASE_THRIFT_TYPE_T_PUT, "row", gets[i]->row, NULL);

          g_ptr_array_add (put->columnValues,
                           g_object_new (HBASE_THRIFT_TYPE_T_COLUMN_VALUE, "family", family_bytes,
                                         "qualifier", qualifier_bytes, "value", values[i], NULL));
          g_ptr_array_add (puts, put);
        }
      if (!hbase_thrift_t_h_base_service_if_put_multiple (service, table_bytes, puts, &io,
                                                          &call_error))
        return call_failed (error, "putMultiple", call_error, io);
    }
  g_printerr ("wrote %d rows into %s in %.1f s\n", opt_keys, TABLE,
              (g_get_monotonic_time () - start) / 1e6);
  return TRUE;
}

/* --- the three modes ---------------------------------------------------- */

typedef struct {
  HBaseConnection *connection;
  Service *service;
  guint *sequence;       /* opt_calls row indexes, the same for every mode */
  gint64 *latency;       /* per get, ns */
  GError *error;
} Worker;

static gint64
now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (gint64) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static gboolean
send_get (Worker *w, guint row, GError **error)
{
  GError *call_error = NULL;

  if (!hbase_thrift_t_h_base_service_client_send_get (w->service, table_bytes, gets[row],
                                                      &call_error))
    return call_failed (error, "sending a get", call_error, NULL);
  return TRUE;
}

/* Receives the next reply, which must be row @row's; @received: when it
 * was in, before the check. */
static gboolean
recv_get (Worker *w, guint row, gint64 *received, GError **error)
{
  g_autoptr(HbaseThriftTResult) result = g_object_new (HBASE_THRIFT_TYPE_T_RESULT, NULL);
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;

  if (!hbase_thrift_t_h_base_service_client_recv_get (w->service, &result, &io, &call_error))
    return call_failed (error, "receiving a get's reply", call_error, io);
  *received = now_ns ();
  return check_result (result, row, error);
}

static gboolean
run_sequential (Worker *w, guint n, GError **error)
{
  for (guint i = 0; i < n; i++)
    {
      gint64 sent = now_ns (), received;

      if (!send_get (w, w->sequence[i], error) ||
          !recv_get (w, w->sequence[i], &received, error))
        return FALSE;
      w->latency[i] = received - sent;
    }
  return TRUE;
}

/* A sliding window: up to @depth gets sent and not yet answered.  The
 * latency slot of a get holds its send time until its reply is in. */
static gboolean
run_pipelined (Worker *w, guint n, guint depth, GError **error)
{
  guint sent = 0, done = 0;

  while (done < n)
    {
      gint64 received;

      while (sent < n && sent - done < depth)
        {
          w->latency[sent] = now_ns ();
          if (!send_get (w, w->sequence[sent], error))
            return FALSE;
          sent++;
        }
      if (!recv_get (w, w->sequence[done], &received, error))
        return FALSE;
      w->latency[done] = received - w->latency[done];
      done++;
    }
  return TRUE;
}

static gboolean
run_get_multiple (Worker *w, guint n, guint depth, GError **error)
{
  for (guint first = 0; first < n; first += depth)
    {
      guint count = MIN (depth, n - first);
      g_autoptr(GPtrArray) tgets = g_ptr_array_sized_new (count);
      g_autoptr(GPtrArray) results = g_ptr_array_new_with_free_func (g_object_unref);
      g_autoptr(HbaseThriftTIOError) io = NULL;
      GError *call_error = NULL;
      gint64 start, took;

      for (guint i = 0; i < count; i++)
        g_ptr_array_add (tgets, gets[w->sequence[first + i]]);
      start = now_ns ();
      if (!hbase_thrift_t_h_base_service_client_get_multiple (w->service, &results, table_bytes,
                                                              tgets, &io, &call_error))
        return call_failed (error, "getMultiple", call_error, io);
      took = now_ns () - start;
      if (results->len != count)
        {
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                       "getMultiple of %u gets returned %u results", count, results->len);
          return FALSE;
        }
      for (guint i = 0; i < count; i++)
        {
          if (!check_result (results->pdata[i], w->sequence[first + i], error))
            return FALSE;
          w->latency[first + i] = took;
        }
    }
  return TRUE;
}

/* --- running a case on every thread at once ----------------------------- */

static GMutex gate_lock;
static GCond gate_cond;
static gboolean gate_open;
static Mode run_mode;
static guint run_depth;

static gpointer
worker_main (gpointer data)
{
  Worker *w = data;
  guint n = (guint) opt_calls;

  g_mutex_lock (&gate_lock);
  while (!gate_open)
    g_cond_wait (&gate_cond, &gate_lock);
  g_mutex_unlock (&gate_lock);
  if (run_mode == MODE_SEQUENTIAL)
    run_sequential (w, n, &w->error);
  else if (run_mode == MODE_PIPELINED)
    run_pipelined (w, n, run_depth, &w->error);
  else
    run_get_multiple (w, n, run_depth, &w->error);
  return NULL;
}

static int
compare_gint64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

static double
cpu_us (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return (double) (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e6 +
         (double) (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

/* Runs @mode at @depth on every worker at once and prints its line;
 * FALSE (and a message) when a call or a reply went wrong. */
static gboolean
run_case (Worker *workers, Mode mode, guint depth)
{
  guint threads = (guint) opt_threads, n = (guint) opt_calls, total = threads * n;
  g_autofree GThread **running = g_new (GThread *, threads);
  g_autofree gint64 *all = g_new (gint64, total);
  gboolean ok = TRUE;
  double cpu_start, cpu_end, sum = 0;
  gint64 start, end;

  run_mode = mode;
  run_depth = depth;
  gate_open = FALSE;
  for (guint t = 0; t < threads; t++)
    running[t] = g_thread_new ("bench-pipeline", worker_main, &workers[t]);
  cpu_start = cpu_us ();
  start = now_ns ();
  g_mutex_lock (&gate_lock);
  gate_open = TRUE;
  g_cond_broadcast (&gate_cond);
  g_mutex_unlock (&gate_lock);
  for (guint t = 0; t < threads; t++)
    g_thread_join (running[t]);
  end = now_ns ();
  cpu_end = cpu_us ();

  for (guint t = 0; t < threads; t++)
    if (workers[t].error != NULL)
      {
        g_printerr ("bench-pipeline: %s, depth %u, connection %u: %s\n", mode_names[mode], depth,
                    t + 1, workers[t].error->message);
        g_clear_error (&workers[t].error);
        ok = FALSE;
      }
  if (!ok)
    return FALSE;

  for (guint t = 0; t < threads; t++)
    memcpy (all + (gsize) t * n, workers[t].latency, n * sizeof *all);
  qsort (all, total, sizeof *all, compare_gint64);
  for (guint i = 0; i < total; i++)
    sum += (double) all[i];
  /* p99 by nearest rank: the ceil(0.99 total)-th smallest */
  printf ("| %-12s | %5u | %7u | %7u | %9.0f | %8.1f | %8.1f | %10.2f |\n", mode_names[mode],
          depth, threads, total, total / ((end - start) / 1e9), sum / total / 1e3,
          all[(99 * (gsize) total + 99) / 100 - 1] / 1e3, (cpu_end - cpu_start) / total);
  fflush (stdout);
  return TRUE;
}

/* --- options and main --------------------------------------------------- */

static gboolean
parse_depths (GArray *depths)
{
  g_auto(GStrv) parts = g_strsplit (opt_depths != NULL ? opt_depths : "1,2,4,8,16,32,64,128",
                                    ",", -1);

  for (guint i = 0; parts[i] != NULL; i++)
    {
      guint64 depth;

      if (!g_ascii_string_to_unsigned (g_strstrip (parts[i]), 10, 1, 100000, &depth, NULL))
        return FALSE;
      g_array_append_vals (depths, &(guint) { (guint) depth }, 1);
    }
  return depths->len > 0;
}

static gboolean
parse_modes (gboolean *modes)
{
  g_auto(GStrv) parts = g_strsplit (opt_modes != NULL ? opt_modes
                                                      : "sequential,pipelined,get_multiple",
                                    ",", -1);

  for (guint i = 0; parts[i] != NULL; i++)
    {
      Mode m = 0;

      while (m < N_MODES && strcmp (g_strstrip (parts[i]), mode_names[m]) != 0)
        m++;
      if (m == N_MODES)
        return FALSE;
      modes[m] = TRUE;
    }
  return TRUE;
}

int
main (int argc, char **argv)
{
  g_autoptr(GOptionContext) context =
    g_option_context_new ("- pipelined gets against sequential gets and getMultiple");
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) depths = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree char *args = g_strjoinv (" ", argv + 1);
  g_autofree Worker *workers = NULL;
  gboolean modes[N_MODES] = { FALSE };
  gboolean loaded = FALSE;
  int status = 0;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("bench-pipeline: %s\n", error->message);
      return 2;
    }
  if (opt_keys < 1 || opt_calls < 1 || opt_threads < 1 || opt_threads > 1024 ||
      opt_port < 1 || opt_port > 65535 || !parse_depths (depths) || !parse_modes (modes))
    {
      g_printerr ("bench-pipeline: --keys, --calls, --threads, --port and every depth must be "
                  "positive, --modes among sequential, pipelined, get_multiple\n");
      return 2;
    }
  if (opt_host == NULL)
    opt_host = g_strdup ("127.0.0.1");
  prepare_rows ();

  workers = g_new0 (Worker, opt_threads);
  for (guint t = 0; t < (guint) opt_threads; t++)
    {
      Worker *w = &workers[t];
      g_autoptr(GRand) random_keys = g_rand_new_with_seed ((guint32) opt_seed + t);

      w->connection = hbase_connection_open (opt_host, (guint) opt_port, HBASE_PROTOCOL_BINARY,
                                             HBASE_TRANSPORT_BUFFERED, &error);
      if (w->connection == NULL)
        {
          g_printerr ("bench-pipeline: %s\n", error->message);
          return 2;
        }
      w->service = hbase_connection_get_service (w->connection);
      /* --load writes the rows unless the last of them is already there */
      if (t == 0 && (!table_loaded (w->service, &loaded, &error) ||
                     (!loaded && opt_load && (!load_table (w->service, &error) ||
                                              !table_loaded (w->service, &loaded, &error)))))
        {
          g_printerr ("bench-pipeline: %s\n", error->message);
          return 2;
        }
      if (t == 0 && !loaded)
        {
          g_printerr ("bench-pipeline: table %s does not hold its %d rows; run with --load\n",
                      TABLE, opt_keys);
          return 2;
        }
      w->sequence = g_new (guint, opt_calls);
      w->latency = g_new (gint64, opt_calls);
      for (guint i = 0; i < (guint) opt_calls; i++)
        w->sequence[i] = (guint) g_rand_int_range (random_keys, 0, opt_keys);
      /* warm-up: sequential gets of the same keys, untimed */
      if (!run_sequential (w, MIN (WARMUP_GETS, (guint) opt_calls), &error))
        {
          g_printerr ("bench-pipeline: warm-up: %s\n", error->message);
          return 1;
        }
    }

  printf ("# bench-pipeline %s\n", args);
  printf ("# %s:%d, table %s of %d rows, %d gets per case and connection, %d connection%s, "
          "seed %d\n", opt_host, opt_port, TABLE, opt_keys, opt_calls, opt_threads,
          opt_threads == 1 ? "" : "s", opt_seed);
  printf ("\n| mode         | depth | threads |    gets |    gets/s |  mean us |   p99 us | "
          "cpu us/get |\n");
  printf ("|--------------|------:|--------:|--------:|----------:|---------:|---------:|"
          "-----------:|\n");
  fflush (stdout);
  if (modes[MODE_SEQUENTIAL] && !run_case (workers, MODE_SEQUENTIAL, 1))
    status = 1;
  for (Mode m = MODE_PIPELINED; status == 0 && m < N_MODES; m++)
    for (guint i = 0; status == 0 && modes[m] && i < depths->len; i++)
      if (!run_case (workers, m, g_array_index (depths, guint, i)))
        status = 1;

  for (guint t = 0; t < (guint) opt_threads; t++)
    {
      g_clear_object (&workers[t].connection);
      g_free (workers[t].sequence);
      g_free (workers[t].latency);
    }
  return status;
}
