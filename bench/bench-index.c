/* SPDX-License-Identifier: Apache-2.0 */
/* bench-index.c: the Redis index design's experiment with hbase-glib's Redis index.
 *
 * For each table size: insert the rows without an index and into a
 * table with the index (the same rows, the same loaders; rounds in
 * alternating order), then time
 * queries answered from the index and answered by a filtered scan of the
 * table (the region servers filter string conditions, the client checks
 * the rest: what a query costs without an index).  Prints one Markdown
 * table; see bench/run-index.sh and BENCHMARKS.md.
 *
 * Every answer is checked, untimed: the sorted row keys of each query's
 * answer (from the index and from the scan, every run) must equal the rows
 * of the table that match the query, computed from row_put()'s formulas;
 * so the index's and the scan's row sets are equal.  A difference ends the
 * run (status 1, the tables and index dropped) naming the first row missing
 * or extra.
 *
 * Besides wall time, each load is measured as CPU time per row: this
 * process's (CLOCK_PROCESS_CPUTIME_ID, every thread), and that of the
 * servers it talks to when they run on this machine: redis-server (its pid
 * from INFO server), the gateway and HBase (pids from --gateway-pid and
 * --hbase-pid, or the stack's pid files under $HBASE_GLIB_STATE_DIR/run),
 * read from /proc/PID/stat (utime + stime, all threads).  On a machine
 * shared with other work CPU per row stays comparable where wall time does
 * not; a server's figure still includes whatever else it served meanwhile.
 * The Redis commands a load sent are counted from INFO commandstats.
 *
 * Loads start alike: an untimed load first (--no-warm-up skips it), and
 * before every load a wait of up to --settle-seconds (60) until HBase and
 * the gateway are quiet, so that no load pays for the flushes, compactions
 * and garbage collection of the one before.
 *
 * Rows: "u%08u" with f:name (name-N), f:age (0-99, decimal text), f:city
 * (one of 100), f:email and f:bio (about 100 bytes).  Indexes: age (int64,
 * exact and range), city (string, exact).
 *
 *   bench-index [--rows 10000,100000] [--threads 4] [--batch 1000]
 *               [--rounds 4] [--repeat 5] [--gateway 127.0.0.1:9090]
 *               [--redis 127.0.0.1:6379] [--skip-scan-above N] [--background]
 *               [--settle-seconds 60] [--no-warm-up]
 *
 * Long because: the loads, the CPU accounting of four processes and the
 * checked queries share one harness, so that their figures compare.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <hbase-glib/hbase-glib-index.h>

typedef struct {
  char *gateway;
  char *redis_host;
  guint redis_port;
  guint threads;
  guint batch;
  guint repeat;
  guint rounds;
  guint64 skip_scan_above;
  gboolean background;
  guint settle_seconds;   /* at most this long waiting for quiet servers before a load; 0: none */
  gboolean warm_up;       /* one untimed load first */
  /* pids of the servers whose CPU time is read, 0 when unknown */
  int redis_pid;
  int gateway_pid;
  int hbase_pid;
} Settings;

/* CPU seconds of a load, per process measured; < 0 when unknown.  The
 * Redis commands Redis counted meanwhile, < 0 when unknown. */
typedef struct {
  double client;
  double redis;
  double gateway;
  double hbase;
  double redis_calls;
} Cpu;

typedef struct {
  HBaseTable *table;
  guint first, count, batch;
  gboolean background;
  GError *error;
} Loader;

static GBytes *
text (const char *value)
{
  return g_bytes_new (value, strlen (value));
}

/* A well-mixed hash, so that age and city are independent. */
static guint32
mix (guint32 x, guint32 seed)
{
  x ^= seed;
  x ^= x >> 16;
  x *= 0x7feb352d;
  x ^= x >> 15;
  x *= 0x846ca68b;
  x ^= x >> 16;
  return x;
}

/* row i's age and city, as row_put() writes them */
static guint
row_age (guint i)
{
  return mix (i, 1) % 100u;
}

static guint
row_city (guint i)
{
  return mix (i, 2) % 100u;
}

static HBaseMutation *
row_put (guint i)
{
  g_autofree char *key_text = g_strdup_printf ("u%08u", i);
  g_autofree char *name = g_strdup_printf ("name-%u", i);
  g_autofree char *age = g_strdup_printf ("%u", row_age (i));
  g_autofree char *city = g_strdup_printf ("city%02u", row_city (i));
  g_autofree char *email = g_strdup_printf ("user%u@example.org", i);
  g_autoptr(GBytes) key = text (key_text);
  g_autoptr(GBytes) name_b = text (name);
  g_autoptr(GBytes) age_b = text (age);
  g_autoptr(GBytes) city_b = text (city);
  g_autoptr(GBytes) email_b = text (email);
  g_autoptr(GBytes) bio = text ("a short biography of about a hundred bytes, the same for every row, "
                                "to give rows a realistic size.");
  HBaseMutation *put = hbase_mutation_new_put (key);

  hbase_mutation_put (put, "f", "name", name_b);
  hbase_mutation_put (put, "f", "age", age_b);
  hbase_mutation_put (put, "f", "city", city_b);
  hbase_mutation_put (put, "f", "email", email_b);
  hbase_mutation_put (put, "f", "bio", bio);
  return put;
}

/* --- CPU time and Redis command counts ------------------------------------------------ */

static double
process_cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

/* utime + stime of every thread of @pid, in seconds; -1 when unknown. */
static double
pid_cpu_seconds (int pid)
{
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;
  g_auto(GStrv) fields = NULL;
  const char *end;

  if (pid <= 0)
    return -1.0;
  path = g_strdup_printf ("/proc/%d/stat", pid);
  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return -1.0;
  /* field 2, the command, is in parentheses and may hold spaces: count
   * from the last ')', which is followed by field 3 */
  end = strrchr (contents, ')');
  if (end == NULL || end[1] == '\0')
    return -1.0;
  fields = g_strsplit (end + 2, " ", 0);
  if (g_strv_length (fields) < 13)
    return -1.0;
  /* utime and stime are fields 14 and 15 */
  return (double) (g_ascii_strtoull (fields[11], NULL, 10) + g_ascii_strtoull (fields[12], NULL, 10)) /
         (double) sysconf (_SC_CLK_TCK);
}

/* Whether process @pid's command name starts with @name. */
static gboolean
pid_is (int pid, const char *name)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/comm", pid);
  g_autofree char *comm = NULL;

  return pid > 0 && g_file_get_contents (path, &comm, NULL, NULL) && g_str_has_prefix (comm, name);
}

/* The reply of INFO @section, or NULL (Redis unreachable, or asking for a
 * password). */
static char *
redis_info (const Settings *settings, const char *section)
{
  g_autoptr(GSocketClient) socket_client = g_socket_client_new ();
  g_autoptr(GSocketConnection) connection = NULL;
  g_autoptr(GDataInputStream) in = NULL;
  g_autofree char *request = g_strdup_printf ("INFO %s\r\n", section);
  g_autofree char *header = NULL;
  char *body;
  gsize len;

  g_socket_client_set_timeout (socket_client, 5);
  connection = g_socket_client_connect_to_host (socket_client,
                                                settings->redis_host != NULL ? settings->redis_host : "127.0.0.1",
                                                (guint16) settings->redis_port, NULL, NULL);
  if (connection == NULL ||
      !g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (connection)), request,
                                  strlen (request), NULL, NULL, NULL))
    return NULL;
  in = g_data_input_stream_new (g_io_stream_get_input_stream (G_IO_STREAM (connection)));
  g_data_input_stream_set_newline_type (in, G_DATA_STREAM_NEWLINE_TYPE_CR_LF);
  header = g_data_input_stream_read_line (in, NULL, NULL, NULL);
  if (header == NULL || header[0] != '$')
    return NULL;
  len = (gsize) g_ascii_strtoull (header + 1, NULL, 10);
  body = g_malloc (len + 1);
  if (!g_input_stream_read_all (G_INPUT_STREAM (in), body, len, NULL, NULL, NULL))
    {
      g_free (body);
      return NULL;
    }
  body[len] = '\0';
  return body;
}

/* The pid of the Redis server, when it runs on this machine; 0 if not. */
static int
redis_pid (const Settings *settings)
{
  g_autofree char *info = redis_info (settings, "server");
  const char *line = info != NULL ? strstr (info, "process_id:") : NULL;
  int pid;

  if (line == NULL)
    return 0;
  pid = (int) g_ascii_strtoll (line + strlen ("process_id:"), NULL, 10);
  return pid_is (pid, "redis") ? pid : 0;
}

/* The calls of every command Redis counted so far (INFO commandstats,
 * lines "cmdstat_NAME:calls=N,..."), as name -> gint64 *; NULL when Redis
 * cannot tell. */
static GHashTable *
redis_calls (const Settings *settings)
{
  g_autofree char *info = redis_info (settings, "commandstats");
  g_auto(GStrv) lines = NULL;
  GHashTable *calls;

  if (info == NULL)
    return NULL;
  calls = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  lines = g_strsplit (info, "\r\n", 0);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *colon = strchr (lines[i], ':');
      gint64 *n;

      if (!g_str_has_prefix (lines[i], "cmdstat_") || colon == NULL ||
          !g_str_has_prefix (colon + 1, "calls="))
        continue;
      n = g_new (gint64, 1);
      *n = g_ascii_strtoll (colon + 1 + strlen ("calls="), NULL, 10);
      g_hash_table_insert (calls, g_strndup (lines[i] + strlen ("cmdstat_"),
                                             (gsize) (colon - lines[i]) - strlen ("cmdstat_")), n);
    }
  return calls;
}

/* The calls made between @before and @after, all commands but INFO (this
 * program's own); per command on stderr when @show (per row of @rows). */
static double
calls_between (GHashTable *before, GHashTable *after, guint rows, gboolean show)
{
  GHashTableIter iter;
  gpointer name, n;
  double total = 0.0;

  if (before == NULL || after == NULL)
    return -1.0;
  g_hash_table_iter_init (&iter, after);
  while (g_hash_table_iter_next (&iter, &name, &n))
    {
      gint64 *was = g_hash_table_lookup (before, name);
      gint64 delta = *(gint64 *) n - (was != NULL ? *was : 0);

      if (delta <= 0 || strcmp (name, "info") == 0)
        continue;
      total += (double) delta;
      if (show)
        g_printerr ("bench-index:   redis %s: %" G_GINT64_FORMAT " calls, %.4f per row\n",
                    (const char *) name, delta, (double) delta / rows);
    }
  return total;
}

typedef struct {
  double client, redis, gateway, hbase;
  GHashTable *calls;
} CpuMark;

/* Counts first, then CPU: Redis's work on the INFO call is not the load's. */
static void
cpu_mark (CpuMark *mark, const Settings *settings)
{
  mark->calls = redis_calls (settings);
  mark->client = process_cpu_seconds ();
  mark->redis = pid_cpu_seconds (settings->redis_pid);
  mark->gateway = pid_cpu_seconds (settings->gateway_pid);
  mark->hbase = pid_cpu_seconds (settings->hbase_pid);
}

static double
cpu_delta (double before, double after)
{
  return before < 0 || after < 0 ? -1.0 : after - before;
}

/* What the load between @start and now cost; frees @start's counts. */
static Cpu
cpu_since (CpuMark *start, const Settings *settings, guint rows, gboolean show_calls)
{
  CpuMark end;
  Cpu cpu;

  /* CPU first: Redis's work on the INFO call is not the load's */
  end.client = process_cpu_seconds ();
  end.redis = pid_cpu_seconds (settings->redis_pid);
  end.gateway = pid_cpu_seconds (settings->gateway_pid);
  end.hbase = pid_cpu_seconds (settings->hbase_pid);
  end.calls = redis_calls (settings);
  cpu.client = cpu_delta (start->client, end.client);
  cpu.redis = cpu_delta (start->redis, end.redis);
  cpu.gateway = cpu_delta (start->gateway, end.gateway);
  cpu.hbase = cpu_delta (start->hbase, end.hbase);
  cpu.redis_calls = calls_between (start->calls, end.calls, rows, show_calls);
  g_clear_pointer (&start->calls, g_hash_table_unref);
  g_clear_pointer (&end.calls, g_hash_table_unref);
  return cpu;
}

/* --- the loads ------------------------------------------------------------------------- */

static gpointer
load_rows (gpointer data)
{
  Loader *loader = data;
  HBaseWriteBufferOptions options = HBASE_WRITE_BUFFER_OPTIONS_INIT;
  g_autoptr(HBaseWriteBuffer) buffer = NULL;

  options.max_mutations = loader->batch;
  options.background_flush = loader->background;
  buffer = hbase_write_buffer_new (loader->table, &options, &loader->error);
  if (buffer == NULL)
    return NULL;
  for (guint i = loader->first; i < loader->first + loader->count; i++)
    {
      g_autoptr(HBaseMutation) put = row_put (i);

      if (!hbase_write_buffer_add (buffer, put, NULL, &loader->error))
        return NULL;
    }
  hbase_write_buffer_close (buffer, NULL, &loader->error);
  return NULL;
}

/* Seconds to insert @rows rows through @table with the loaders; @cpu
 * gets what it cost (the Redis commands per command on stderr when
 * @show_calls). */
static double
insert (HBaseTable *table, guint rows, const Settings *settings, Cpu *cpu, gboolean show_calls)
{
  g_autofree Loader *loaders = g_new0 (Loader, settings->threads);
  g_autofree GThread **threads = g_new0 (GThread *, settings->threads);
  guint per = rows / settings->threads;
  CpuMark mark;
  gint64 start;
  double seconds;

  cpu_mark (&mark, settings);
  start = g_get_monotonic_time ();

  for (guint t = 0; t < settings->threads; t++)
    {
      loaders[t].table = table;
      loaders[t].first = t * per;
      loaders[t].count = t + 1 == settings->threads ? rows - t * per : per;
      loaders[t].batch = settings->batch;
      loaders[t].background = settings->background;
      threads[t] = g_thread_new ("loader", load_rows, &loaders[t]);
    }
  for (guint t = 0; t < settings->threads; t++)
    {
      g_thread_join (threads[t]);
      if (loaders[t].error != NULL)
        g_error ("load: %s", loaders[t].error->message);
    }
  seconds = (double) (g_get_monotonic_time () - start) / G_USEC_PER_SEC;
  *cpu = cpu_since (&mark, settings, rows, show_calls);
  return seconds;
}

/* Waits until HBase and the gateway use less than 5 % of a core over half
 * a second, twice in a row, or @settings' limit passed: a load starts
 * with the servers quiet instead of still flushing, compacting or
 * collecting the garbage of the load before (which made the second load
 * of a round 25-30 % slower, whichever it was).  Says on stderr how long
 * it waited. */
static void
settle (const Settings *settings)
{
  gint64 start = g_get_monotonic_time ();
  gint64 limit = start + (gint64) settings->settle_seconds * G_USEC_PER_SEC;
  guint quiet = 0;

  if (settings->settle_seconds == 0 || (settings->hbase_pid == 0 && settings->gateway_pid == 0))
    return;
  while (quiet < 2 && g_get_monotonic_time () < limit)
    {
      double hbase = pid_cpu_seconds (settings->hbase_pid);
      double gateway = pid_cpu_seconds (settings->gateway_pid);

      g_usleep (G_USEC_PER_SEC / 2);
      hbase = pid_cpu_seconds (settings->hbase_pid) - hbase;
      gateway = pid_cpu_seconds (settings->gateway_pid) - gateway;
      quiet = hbase + gateway < 0.025 ? quiet + 1 : 0;
    }
  g_printerr ("bench-index:   settled in %.1f s%s\n", (double) (g_get_monotonic_time () - start) / G_USEC_PER_SEC,
              quiet < 2 ? " (limit reached: the servers were still busy)" : "");
}

static void
create_table (HBaseClient *client, const char *name)
{
  HBaseFamilyOptions family = HBASE_FAMILY_OPTIONS_INIT;
  g_autoptr(GError) error = NULL;

  family.name = "f";
  if (!hbase_client_create_table (client, name, &family, 1, NULL, NULL, &error))
    g_error ("create %s: %s", name, error->message);
}

static void
drop_table (HBaseClient *client, const char *name)
{
  g_autoptr(GError) error = NULL;

  if (!hbase_client_delete_table (client, name, NULL, &error))
    g_printerr ("drop %s: %s\n", name, error->message);
}

static gboolean
match_city07 (guint i)
{
  return row_city (i) == 7;
}

static gboolean
match_age42 (guint i)
{
  return row_age (i) == 42;
}

static gboolean
match_city07_age30_32 (guint i)
{
  return row_city (i) == 7 && row_age (i) >= 30 && row_age (i) <= 32;
}

typedef struct {
  const char *label;
  HBaseIndexQuery *query;
  gboolean (*matches) (guint i);   /* the query's answer, from the generator */
} Query;

/* The row keys of the rows among 0 .. rows - 1 that @query matches, in
 * key order (the keys are fixed-width, so index order is key order). */
static GPtrArray *
expected_keys (const Query *query, guint rows)
{
  GPtrArray *keys = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < rows; i++)
    if (query->matches (i))
      g_ptr_array_add (keys, g_strdup_printf ("u%08u", i));
  return keys;
}

static int
compare_key (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

/* The row keys of @page, sorted (a page is in key order already; sorting
 * makes the comparison independent of that). */
static GPtrArray *
page_keys (HBaseIndexPage *page)
{
  GPtrArray *rows = hbase_index_page_get_rows (page);
  GPtrArray *keys = g_ptr_array_new_full (rows->len, g_free);

  for (guint r = 0; r < rows->len; r++)
    g_ptr_array_add (keys, hbase_row_get_key_string (g_ptr_array_index (rows, r)));
  g_ptr_array_sort (keys, compare_key);
  return keys;
}

/* Fails when @got (sorted row keys, the answer from @source) is not
 * @expected, naming the first key missing from it or extra in it. */
static gboolean
check_keys (const Query *query, const char *source, GPtrArray *got, GPtrArray *expected,
            GError **error)
{
  guint a = 0, b = 0;

  while (a < got->len || b < expected->len)
    {
      int c = a == got->len ? 1 : b == expected->len ? -1
        : strcmp (g_ptr_array_index (got, a), g_ptr_array_index (expected, b));

      if (c != 0)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                       "%s: the %s answered %u rows, %u expected; row %s is %s", query->label, source,
                       got->len, expected->len,
                       (const char *) (c < 0 ? g_ptr_array_index (got, a) : g_ptr_array_index (expected, b)),
                       c < 0 ? "not expected" : "missing");
          return FALSE;
        }
      a++;
      b++;
    }
  return TRUE;
}

static int
compare_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

/* Median milliseconds of @repeat runs of @query; every run's answer is
 * checked against @expected (sorted row keys), untimed.  -1 and
 * @check_error set when an answer differs or a query failed: the caller
 * still drops what it made. */
static double
time_query (HBaseIndex *index, const Query *query, guint repeat, GPtrArray *expected,
            gboolean expect_scan, GError **check_error)
{
  g_autofree double *times = g_new0 (double, repeat);

  for (guint r = 0; r < repeat; r++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(HBaseIndexPage) page = NULL;
      gint64 start = g_get_monotonic_time ();

      g_autoptr(GPtrArray) keys = NULL;

      page = hbase_index_find (index, query->query, NULL, NULL, &error);
      if (page == NULL)
        {
          g_propagate_prefixed_error (check_error, g_steal_pointer (&error), "query failed: ");
          return -1.0;
        }
      times[r] = (double) (g_get_monotonic_time () - start) / 1000.0;
      keys = page_keys (page);
      if (!check_keys (query, expect_scan ? "scan" : "index", keys, expected, check_error))
        return -1.0;
      /* the rows were written once and never changed: none may be stale */
      if (hbase_index_page_get_stats (page)->stale > 0)
        g_printerr ("bench-index: %" G_GUINT64_FORMAT " stale rows in a query\n",
                    hbase_index_page_get_stats (page)->stale);
      if (hbase_index_page_get_stats (page)->scanned != expect_scan)
        g_error ("the query was%s answered by a scan", expect_scan ? " not" : "");
    }
  qsort (times, repeat, sizeof (double), compare_double);
  return times[repeat / 2];
}

static guint
closed_port (void)
{
  g_autoptr(GSocket) socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM,
                                            G_SOCKET_PROTOCOL_TCP, NULL);
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;

  g_socket_bind (socket, any, FALSE, NULL);
  bound = g_socket_get_local_address (socket, NULL);
  return g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
}

/* The mean over @n rounds of the field at @offset of Cpu; < 0 (unknown)
 * when it is unknown in any round. */
static double
field_mean (const Cpu *rounds, guint n, glong offset)
{
  double mean = 0.0;

  for (guint r = 0; r < n; r++)
    {
      double value = G_STRUCT_MEMBER (double, &rounds[r], offset);

      if (value < 0)
        return -1.0;
      mean += value / n;
    }
  return mean;
}

static Cpu
cpu_mean (const Cpu *rounds, guint n)
{
  Cpu mean;

  mean.client = field_mean (rounds, n, G_STRUCT_OFFSET (Cpu, client));
  mean.redis = field_mean (rounds, n, G_STRUCT_OFFSET (Cpu, redis));
  mean.gateway = field_mean (rounds, n, G_STRUCT_OFFSET (Cpu, gateway));
  mean.hbase = field_mean (rounds, n, G_STRUCT_OFFSET (Cpu, hbase));
  mean.redis_calls = field_mean (rounds, n, G_STRUCT_OFFSET (Cpu, redis_calls));
  return mean;
}

/* One line of the table: @who's CPU time per row loaded, in microseconds. */
static void
print_cpu_row (guint rows, const char *who, double plain, double indexed)
{
  double a = 1e6 * plain / rows, b = 1e6 * indexed / rows;

  if (plain < 0 || indexed < 0)
    g_print ("| %u | insert, %s CPU per row | - | - | - |\n", rows, who);
  else if (a > 0.005)
    g_print ("| %u | insert, %s CPU per row | %.2f us | %.2f us | %+.2f us (%+.1f%%) |\n", rows, who,
             a, b, b - a, 100.0 * (b - a) / a);
  else
    g_print ("| %u | insert, %s CPU per row | %.2f us | %.2f us | %+.2f us |\n", rows, who, a, b, b - a);
}

/* FALSE when a query failed (the tables and keys are dropped all the same). */
static gboolean
run_size (HBaseClient *client, guint rows, const Settings *settings)
{
  g_autofree char *plain_name = g_strdup_printf ("bench_index_plain_%d", (int) getpid ());
  g_autofree char *indexed_name = g_strdup_printf ("bench_index_idx_%d", (int) getpid ());
  g_autofree char *meta = g_strdup_printf ("bench_index_meta_%d", (int) getpid ());
  g_autofree char *prefix = g_strdup_printf ("bench%d", (int) getpid ());
  g_autoptr(HBaseIndexSpec) spec = hbase_index_spec_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseTable) plain = NULL;
  g_autoptr(HBaseIndex) index = NULL;
  g_autoptr(HBaseIndex) scanning = NULL;
  g_autoptr(HBaseIndexReport) built = NULL;
  HBaseIndexOptions options = HBASE_INDEX_OPTIONS_INIT;
  double t_plain, t_indexed;
  g_autofree double *plain_times = g_new0 (double, settings->rounds);
  g_autofree double *indexed_times = g_new0 (double, settings->rounds);
  g_autofree Cpu *plain_cpu = g_new0 (Cpu, settings->rounds);
  g_autofree Cpu *indexed_cpu = g_new0 (Cpu, settings->rounds);
  Cpu plain_mean, indexed_mean;
  gboolean failed = FALSE;
  g_autoptr(GBytes) city = text ("city07");
  gint64 lo = 30, hi = 32;
  /* by_city is used alone and composed: sunk, so the composition
   * references it */
  g_autoptr(HBaseIndexQuery) by_city = hbase_index_query_equal ("city", city);
  g_autoptr(HBaseIndexQuery) by_age = hbase_index_query_equal_int64 ("age", 42);
  g_autoptr(HBaseIndexQuery) age_range = hbase_index_query_range_int64 ("age", &lo, TRUE, &hi, TRUE);
  g_autoptr(HBaseIndexQuery) both = hbase_index_query_and (by_city, age_range);
  Query queries[] = {
    { "city = 'city07'", by_city, match_city07 },
    { "age = 42", by_age, match_age42 },
    { "city = 'city07' AND age IN [30, 32]", both, match_city07_age30_32 },
  };
  GPtrArray *expected[G_N_ELEMENTS (queries)];
  g_autoptr(GError) wrong = NULL;

  if (!hbase_index_spec_set_key_prefix (spec, prefix, &error) ||
      !hbase_index_spec_add (spec, "age", "f", "age", HBASE_INDEX_VALUE_INT64,
                             HBASE_INDEX_EXACT | HBASE_INDEX_RANGE, &error) ||
      !hbase_index_spec_add (spec, "city", "f", "city", HBASE_INDEX_VALUE_STRING, HBASE_INDEX_EXACT,
                             &error))
    g_error ("spec: %s", error->message);
  options.redis_host = settings->redis_host;
  options.redis_port = settings->redis_port;
  options.meta_table = meta;

  if (settings->warm_up)
    {
      Cpu ignored;

      /* the servers' code paths compiled and their buffers grown by an
       * untimed load first, so that the first timed load is not the
       * only cold one */
      create_table (client, plain_name);
      plain = hbase_table_new (client, plain_name, &error);
      g_printerr ("bench-index: %u rows, warm-up load %.2f s (not counted)\n", rows,
                  insert (plain, rows, settings, &ignored, FALSE));
      g_clear_object (&plain);
      drop_table (client, plain_name);
    }

  /* rounds of both loads on fresh tables, plain first in even rounds and
   * indexed first in odd ones: the second load of a round is slower
   * whichever it is (by 25-30 % at 100k rows here: HBase is still busy
   * with the first), so an even number of rounds gives both sides that
   * alike; means */
  for (guint round = 0; round < settings->rounds; round++)
    {
      if (index != NULL)
        {
          if (!hbase_index_drop (index, NULL, &error))
            g_error ("drop index: %s", error->message);
          g_clear_object (&index);
          drop_table (client, indexed_name);
        }
      for (guint step = 0; step < 2; step++)
        {
          if ((round + step) % 2 == 0)
            {
              create_table (client, plain_name);
              plain = hbase_table_new (client, plain_name, &error);
              settle (settings);
              plain_times[round] = insert (plain, rows, settings, &plain_cpu[round], FALSE);
              g_clear_object (&plain);
              drop_table (client, plain_name);
              continue;
            }
          create_table (client, indexed_name);
          if (!hbase_index_create_meta_table (client, &options, NULL, &error) ||
              !hbase_index_define (client, indexed_name, spec, &options, NULL, &error))
            g_error ("define: %s", error->message);
          index = hbase_index_open (client, indexed_name, &options, NULL, &error);
          if (index == NULL || (built = hbase_index_rebuild (index, NULL, NULL, &error)) == NULL)
            g_error ("index: %s", error != NULL ? error->message : "?");
          g_clear_pointer (&built, hbase_index_report_free);
          settle (settings);
          indexed_times[round] = insert (hbase_index_get_table (index), rows, settings,
                                         &indexed_cpu[round], round == 0);
        }
    }
  for (guint round = 0; round < settings->rounds; round++)
    {
      g_printerr ("bench-index: %u rows, round %u (%s first): without index %.2f s, with %.2f s\n",
                  rows, round, round % 2 == 0 ? "without index" : "with index", plain_times[round],
                  indexed_times[round]);
      g_printerr ("bench-index:   CPU us/row without index: client %.2f, redis %.2f, gateway %.2f, "
                  "hbase %.2f; with: client %.2f, redis %.2f, gateway %.2f, hbase %.2f\n",
                  1e6 * plain_cpu[round].client / rows, 1e6 * plain_cpu[round].redis / rows,
                  1e6 * plain_cpu[round].gateway / rows, 1e6 * plain_cpu[round].hbase / rows,
                  1e6 * indexed_cpu[round].client / rows, 1e6 * indexed_cpu[round].redis / rows,
                  1e6 * indexed_cpu[round].gateway / rows, 1e6 * indexed_cpu[round].hbase / rows);
    }
  t_plain = t_indexed = 0.0;
  for (guint round = 0; round < settings->rounds; round++)
    {
      t_plain += plain_times[round] / settings->rounds;
      t_indexed += indexed_times[round] / settings->rounds;
    }
  g_print ("| %u | insert, %u loader%s%s (mean of %u, order alternated) | %.2f s | %.2f s | %+.1f%% |\n", rows,
           settings->threads, settings->threads > 1 ? "s" : "",
           settings->background ? ", background flush" : "", settings->rounds, t_plain,
           t_indexed, 100.0 * (t_indexed - t_plain) / t_plain);
  plain_mean = cpu_mean (plain_cpu, settings->rounds);
  indexed_mean = cpu_mean (indexed_cpu, settings->rounds);
  print_cpu_row (rows, "client", plain_mean.client, indexed_mean.client);
  print_cpu_row (rows, "redis-server", plain_mean.redis, indexed_mean.redis);
  print_cpu_row (rows, "gateway", plain_mean.gateway, indexed_mean.gateway);
  print_cpu_row (rows, "HBase", plain_mean.hbase, indexed_mean.hbase);
  if (plain_mean.client >= 0 && plain_mean.redis >= 0 && plain_mean.gateway >= 0 && plain_mean.hbase >= 0 &&
      indexed_mean.client >= 0 && indexed_mean.redis >= 0 && indexed_mean.gateway >= 0 &&
      indexed_mean.hbase >= 0)
    print_cpu_row (rows, "all four",
                   plain_mean.client + plain_mean.redis + plain_mean.gateway + plain_mean.hbase,
                   indexed_mean.client + indexed_mean.redis + indexed_mean.gateway + indexed_mean.hbase);
  if (plain_mean.redis_calls >= 0 && indexed_mean.redis_calls >= 0)
    g_print ("| %u | insert, Redis commands per row | %.3f | %.3f | %+.3f |\n", rows,
             plain_mean.redis_calls / rows, indexed_mean.redis_calls / rows,
             (indexed_mean.redis_calls - plain_mean.redis_calls) / rows);

  /* queries: from the index, and by a filtered scan (the same library
   * path a dirty index takes) */
  options.redis_port = closed_port ();
  options.connect_timeout_ms = 200;
  options.when_dirty = HBASE_INDEX_DIRTY_SCAN;
  scanning = hbase_index_open (client, indexed_name, &options, NULL, &error);
  /* one untimed pass first: it warms HBase's block cache for the scan and
   * for the index alike, and gives the compactions that follow a large
   * load time to end before anything is timed */
  for (guint q = 0; q < G_N_ELEMENTS (queries); q++)
    expected[q] = expected_keys (&queries[q], rows);
  for (guint q = 0; q < G_N_ELEMENTS (queries) && wrong == NULL; q++)
    {
      if (rows <= settings->skip_scan_above &&
          time_query (scanning, &queries[q], 1, expected[q], TRUE, &wrong) < 0)
        break;
      time_query (index, &queries[q], 1, expected[q], FALSE, &wrong);
    }
  for (guint q = 0; q < G_N_ELEMENTS (queries) && wrong == NULL; q++)
    {
      double ms_index, ms_scan = -1.0;

      /* both answers equal the expected row set, hence each other */
      if (rows <= settings->skip_scan_above &&
          (ms_scan = time_query (scanning, &queries[q], MAX (1, settings->repeat / 2), expected[q], TRUE,
                                 &wrong)) < 0)
        break;
      if ((ms_index = time_query (index, &queries[q], settings->repeat, expected[q], FALSE, &wrong)) < 0)
        break;
      if (ms_scan >= 0)
        g_print ("| %u | %s (%u rows) | %.1f ms (scan) | %.1f ms (index) | %.0fx |\n", rows,
                 queries[q].label, expected[q]->len, ms_scan, ms_index, ms_scan / ms_index);
      else
        g_print ("| %u | %s (%u rows) | - | %.1f ms (index) | - |\n", rows, queries[q].label,
                 expected[q]->len, ms_index);
    }
  for (guint q = 0; q < G_N_ELEMENTS (queries); q++)
    g_ptr_array_unref (expected[q]);

  if (!hbase_index_drop (index, NULL, &error))
    g_printerr ("drop index: %s\n", error->message);
  g_clear_error (&error);
  drop_table (client, indexed_name);
  drop_table (client, meta);
  if (wrong != NULL)
    {
      g_printerr ("bench-index: wrong answer: %s\n", wrong->message);
      failed = TRUE;
    }
  return !failed;
}

/* The pid in the stack's pid file @name ($HBASE_GLIB_STATE_DIR/run, see
 * scripts/stack.sh) when it names a running @comm; 0 if not. */
static int
stack_pid (const char *name, const char *comm)
{
  const char *state = g_getenv ("HBASE_GLIB_STATE_DIR");
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;
  int pid;

  if (state == NULL)
    return 0;
  path = g_build_filename (state, "run", name, NULL);
  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return 0;
  pid = (int) g_ascii_strtoll (contents, NULL, 10);
  return pid_is (pid, comm) ? pid : 0;
}

/* The servers whose CPU time is measured, said on stderr. */
static void
find_pids (Settings *settings)
{
  const char *colon = settings->gateway != NULL ? strrchr (settings->gateway, ':') : NULL;
  g_autofree char *gateway_file = g_strdup_printf ("gateway-%s.pid", colon != NULL ? colon + 1 : "9090");

  settings->redis_pid = redis_pid (settings);
  if (settings->gateway_pid == 0)
    settings->gateway_pid = stack_pid (gateway_file, "java");
  if (settings->hbase_pid == 0)
    settings->hbase_pid = stack_pid ("hbase.pid", "java");
  g_printerr ("bench-index: CPU time of this process and of redis-server (pid %d), the gateway "
              "(pid %d), HBase (pid %d); 0: unknown, '-' in the table\n",
              settings->redis_pid, settings->gateway_pid, settings->hbase_pid);
}

int
main (int argc, char **argv)
{
  Settings settings = { NULL, NULL, 6379, 4, 1000, 5, 4, G_MAXUINT64, FALSE, 60, TRUE, 0, 0, 0 };
  g_autofree char *rows_list = NULL;
  g_autofree char *redis = NULL;
  gint threads = 4, batch = 1000, repeat = 5, rounds = 4;
  gint64 skip = -1;
  gint settle_seconds = 60;
  gboolean no_warm_up = FALSE;
  GOptionEntry entries[] = {
    { "rows", 0, 0, G_OPTION_ARG_STRING, &rows_list, "table sizes, comma-separated", "N,N" },
    { "threads", 0, 0, G_OPTION_ARG_INT, &threads, "loader threads (one write buffer each)", "T" },
    { "batch", 0, 0, G_OPTION_ARG_INT, &batch, "mutations per write-buffer flush", "N" },
    { "repeat", 0, 0, G_OPTION_ARG_INT, &repeat, "runs per query (median)", "N" },
    { "rounds", 0, 0, G_OPTION_ARG_INT, &rounds, "rounds of inserts without and with index (mean; order alternated: use an even number)", "N" },
    { "gateway", 0, 0, G_OPTION_ARG_STRING, &settings.gateway, "Thrift2 gateway", "HOST:PORT" },
    { "redis", 0, 0, G_OPTION_ARG_STRING, &redis, "Redis", "HOST:PORT" },
    { "skip-scan-above", 0, 0, G_OPTION_ARG_INT64, &skip, "no scans above N rows", "N" },
    { "background", 0, 0, G_OPTION_ARG_NONE, &settings.background,
      "write buffers flush in the background (background_flush)", NULL },
    { "settle-seconds", 0, 0, G_OPTION_ARG_INT, &settle_seconds,
      "before each load, wait up to S seconds for HBase and the gateway to go quiet (0: do not wait)", "S" },
    { "no-warm-up", 0, 0, G_OPTION_ARG_NONE, &no_warm_up, "no untimed load before the first round", NULL },
    { "gateway-pid", 0, 0, G_OPTION_ARG_INT, &settings.gateway_pid,
      "the gateway's pid, for its CPU time (default: the stack's pid file)", "PID" },
    { "hbase-pid", 0, 0, G_OPTION_ARG_INT, &settings.hbase_pid,
      "HBase's pid (standalone: master and region server), for its CPU time (default: the stack's pid file)", "PID" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("- the Redis index design's index benchmark");
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(HBaseClient) client = NULL;
  g_auto(GStrv) sizes = NULL;
  int status = 0;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    g_error ("%s", error->message);
  settings.threads = (guint) MAX (threads, 1);
  settings.batch = (guint) MAX (batch, 1);
  settings.repeat = (guint) MAX (repeat, 1);
  settings.rounds = (guint) MAX (rounds, 1);
  settings.settle_seconds = (guint) MAX (settle_seconds, 0);
  settings.warm_up = !no_warm_up;
  if (skip >= 0)
    settings.skip_scan_above = (guint64) skip;
  if (redis != NULL)
    {
      char *colon = strrchr (redis, ':');

      settings.redis_port = (guint) g_ascii_strtoull (colon + 1, NULL, 10);
      *colon = '\0';
      settings.redis_host = redis;
    }
  if (settings.gateway != NULL && !hbase_config_set_gateways (config, settings.gateway, &error))
    g_error ("%s", error->message);
  if (!hbase_config_set_pool_size (config, settings.threads * 2 + 2, &error))
    g_error ("%s", error->message);
  find_pids (&settings);
  client = hbase_client_new (config);
  if (client == NULL)
    g_error ("%s", error->message);
  sizes = g_strsplit (rows_list != NULL ? rows_list : "10000,100000", ",", -1);
  g_print ("| rows | workload | without index | with index | change |\n"
           "|---:|---|---:|---:|---:|\n");
  for (guint i = 0; sizes[i] != NULL; i++)
    if (!run_size (client, (guint) g_ascii_strtoull (sizes[i], NULL, 10), &settings))
      status = 1;
  return status;
}
