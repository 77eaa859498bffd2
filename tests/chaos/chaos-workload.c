/* SPDX-License-Identifier: Apache-2.0 */
/* chaos-workload: a mixed workload through the library, with its default
 * retry settings, for scripts/chaos.sh.  It creates its tables (pre-split),
 * signals it is ready, runs puts, buffered puts, gets, long scans,
 * counters, sets and sorted sets (with a redis-server fed the same
 * commands as the oracle) and writes to an indexed table, and with
 * --bootstrap-servers the same kinds of work through the native backend
 * (puts, apply_multiple, the write buffer, gets, get_multiple, scans
 * forward and reversed, some with a batch, counters, check-and-mutate) on
 * tables of its own, for --duration
 * seconds while the chaos driver moves, splits and merges regions and
 * restarts region servers and gateways; then it waits until the cluster
 * has settled and checks its invariants:
 *
 *   - no acknowledged write lost, no value wrong (writes that failed are
 *     "in doubt": each may or may not be there);
 *   - counters within [acknowledged, acknowledged + in doubt];
 *   - every scan returned rows in order, each at most once, and every row
 *     there when it began and not written while it ran (a churn worker
 *     puts and deletes rows meanwhile) exactly once;
 *   - a check-and-mutate applies when its condition holds and only then;
 *   - sets and sorted sets equal the oracle; after a command in doubt
 *     they hold the contents from before it or after it;
 *   - before any repair, every row of the indexed table is found through
 *     the index and no query returns a row that does not match; repair
 *     fixes no more than the Redis faults injected could cause, and the
 *     index then has no drift from its table;
 *   - progress: each kind of operation succeeded at least its floor of
 *     times, at most CHAOS_MAX_IN_DOUBT_SHARE of the writes ended in
 *     doubt, and after the last chaos action (its time in the --settled
 *     file) no worker went longer than CHAOS_RECOVERY_BOUND_S without a
 *     success.
 *
 *   chaos-workload --gateways H:P,H:P --scan-gateway H:P --redis H:P
 *                  [--bootstrap-servers H:P,...]
 *                  --duration S --ready FILE [--start FILE] --settled FILE
 *                  [--redis-faults N]
 *
 * The Thrift2 work goes through one client of the --gateways, but for a
 * second scanning thread with a client of its own gateway (--scan-gateway);
 * the native work through one client of the --bootstrap-servers (each
 * native invariant is printed on its own, named native-...).
 *
 * Exit status: 0 when every invariant holds, 1 when one does not, 2 when
 * the workload could not run. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "chaos-workload.h"

/* --- accounting ------------------------------------------------------------------ */

static GMutex stats_lock;
static gint64 last_success_us;
static gint64 longest_gap_us;
static gint64 longest_gap_end_real_us;
static guint64 n_success, n_acked, n_in_doubt, n_not_applied, n_read_failed;
static GHashTable *error_counts;        /* "what: message" -> count */
static gboolean any_invariant_failed;

/* each worker's own longest time without a success (chaos_worker_start) */
typedef struct {
  char *name;
  gint64 last_success_us;
  gint64 longest_gap_us;
  /* real time: the stretches of more than a second without a success, as
   * (start, end) pairs, for the time after the last chaos action */
  gint64 last_success_real_us;
  gint64 end_real_us;
  GArray *gaps;
} WorkerClock;

#define GAP_RECORDED_US G_USEC_PER_SEC

/* an operation kind's floor and outcomes */
typedef struct {
  guint floor;
  guint64 ok, failed;
} KindCount;

static GHashTable *kinds;               /* name -> KindCount */

static GPrivate worker_clock;
static GPtrArray *worker_clocks;

void
chaos_worker_start (const char *name)
{
  WorkerClock *clock = g_new0 (WorkerClock, 1);

  clock->name = g_strdup (name);
  clock->last_success_us = g_get_monotonic_time ();
  clock->last_success_real_us = g_get_real_time ();
  clock->gaps = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_private_set (&worker_clock, clock);
  g_mutex_lock (&stats_lock);
  g_ptr_array_add (worker_clocks, clock);
  g_mutex_unlock (&stats_lock);
}

/* the gap up to the end of the load counts too */
void
chaos_worker_end (void)
{
  WorkerClock *clock = g_private_get (&worker_clock);
  gint64 now = g_get_monotonic_time ();
  gint64 real = g_get_real_time ();

  g_mutex_lock (&stats_lock);
  if (clock != NULL && now - clock->last_success_us > clock->longest_gap_us)
    clock->longest_gap_us = now - clock->last_success_us;
  if (clock != NULL)
    {
      if (real - clock->last_success_real_us > GAP_RECORDED_US)
        {
          g_array_append_val (clock->gaps, clock->last_success_real_us);
          g_array_append_val (clock->gaps, real);
        }
      clock->end_real_us = real;
    }
  g_mutex_unlock (&stats_lock);
}

void
chaos_stats_init (void)
{
  /* called once before the workers are made and again as the load starts */
  last_success_us = g_get_monotonic_time ();
  if (error_counts == NULL)
    error_counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  if (worker_clocks == NULL)
    worker_clocks = g_ptr_array_new ();
  if (kinds == NULL)
    kinds = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

void
chaos_kind_expect (const char *kind, guint floor)
{
  KindCount *count;

  g_mutex_lock (&stats_lock);
  if (kinds == NULL)
    kinds = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  count = g_hash_table_lookup (kinds, kind);
  if (count == NULL)
    {
      count = g_new0 (KindCount, 1);
      g_hash_table_insert (kinds, g_strdup (kind), count);
    }
  count->floor = floor;
  g_mutex_unlock (&stats_lock);
}

void
chaos_kind_done (const char *kind, gboolean ok)
{
  KindCount *count;

  g_mutex_lock (&stats_lock);
  count = g_hash_table_lookup (kinds, kind);
  /* a kind nobody declared has no floor: a defect of the workload */
  if (count == NULL)
    g_error ("chaos-workload: operation kind '%s' was never declared", kind);
  if (ok)
    count->ok++;
  else
    count->failed++;
  g_mutex_unlock (&stats_lock);
}

static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

void
chaos_progress_check (gint64 last_action_real_us)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  GString *below = g_string_new (NULL);
  GString *stretches = g_string_new (NULL);
  GHashTableIter iter;
  gpointer key;
  guint64 writes, below_floor = 0;
  gint64 longest_after = 0;
  gboolean window_ok = last_action_real_us > 0;
  double share;
  guint i;

  g_mutex_lock (&stats_lock);
  g_hash_table_iter_init (&iter, kinds);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (names, key);
  g_ptr_array_sort (names, compare_names);
  for (i = 0; i < names->len; i++)
    {
      const KindCount *count = g_hash_table_lookup (kinds, names->pdata[i]);

      if (count->ok < count->floor)
        {
          below_floor++;
          g_string_append_printf (below, "; %s: %" G_GUINT64_FORMAT " succeeded (floor %u), %" G_GUINT64_FORMAT
                                  " failed", (const char *) names->pdata[i], count->ok, count->floor, count->failed);
        }
    }
  writes = n_acked + n_in_doubt + n_not_applied;
  share = writes > 0 ? (double) n_in_doubt / (double) writes : 0;

  /* each worker's longest stretch without a success between the end of
   * the last chaos action and the end of its load */
  for (i = 0; i < worker_clocks->len && last_action_real_us > 0; i++)
    {
      const WorkerClock *clock = worker_clocks->pdata[i];
      gint64 longest = 0;
      guint g;

      if (clock->end_real_us - last_action_real_us < 5 * G_USEC_PER_SEC)
        {
          window_ok = FALSE;
          g_string_append_printf (stretches, "%s %s: the chaos ended %.1f s before its load did (5 s needed)",
                                  stretches->len > 0 ? "," : "", clock->name,
                                  (double) (clock->end_real_us - last_action_real_us) / G_USEC_PER_SEC);
          continue;
        }
      for (g = 0; g + 1 < clock->gaps->len; g += 2)
        {
          gint64 start = MAX (g_array_index (clock->gaps, gint64, g), last_action_real_us);
          gint64 end = MIN (g_array_index (clock->gaps, gint64, g + 1), clock->end_real_us);

          longest = MAX (longest, end - start);
        }
      longest_after = MAX (longest_after, longest);
      g_string_append_printf (stretches, "%s %s %.1f s", stretches->len > 0 ? "," : "", clock->name,
                              (double) longest / G_USEC_PER_SEC);
    }
  g_mutex_unlock (&stats_lock);

  chaos_invariant ("floors", names->len > 0 && below_floor == 0,
                   "%u kinds of operation, %" G_GUINT64_FORMAT " below their floor of successes%s",
                   names->len, below_floor, below->str);
  chaos_invariant ("in-doubt", writes > 0 && share <= CHAOS_MAX_IN_DOUBT_SHARE,
                   "%" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " writes ended in doubt (%.2f%%, at most %.0f%% allowed)",
                   n_in_doubt, writes, share * 100, CHAOS_MAX_IN_DOUBT_SHARE * 100);
  chaos_invariant ("recovery", window_ok && longest_after <= (gint64) CHAOS_RECOVERY_BOUND_S * G_USEC_PER_SEC,
                   "longest time without a success after the last chaos action%s: %.1f s (at most %d s allowed); "
                   "per worker:%s",
                   last_action_real_us > 0 ? "" : " (its time is unknown)",
                   (double) longest_after / G_USEC_PER_SEC, CHAOS_RECOVERY_BOUND_S, stretches->str);
  g_string_free (below, TRUE);
  g_string_free (stretches, TRUE);
}

void
chaos_log (const char *format, ...)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *stamp = g_date_time_format (now, "%FT%T.%fZ");
  g_autofree char *text = NULL;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  /* microseconds to milliseconds: "...T08:15:05.325123Z" -> ".325Z" */
  fprintf (stderr, "%.23sZ workload: %s\n", stamp, text);
}

void
chaos_note_success (void)
{
  gint64 now = g_get_monotonic_time ();
  WorkerClock *clock = g_private_get (&worker_clock);

  g_mutex_lock (&stats_lock);
  if (clock != NULL)
    {
      gint64 real = g_get_real_time ();

      clock->longest_gap_us = MAX (clock->longest_gap_us, now - clock->last_success_us);
      clock->last_success_us = now;
      if (real - clock->last_success_real_us > GAP_RECORDED_US)
        {
          g_array_append_val (clock->gaps, clock->last_success_real_us);
          g_array_append_val (clock->gaps, real);
        }
      clock->last_success_real_us = real;
    }
  n_success++;
  if (now - last_success_us > longest_gap_us)
    {
      longest_gap_us = now - last_success_us;
      longest_gap_end_real_us = g_get_real_time ();
    }
  last_success_us = now;
  g_mutex_unlock (&stats_lock);
}

void
chaos_note_acked (void)
{
  g_mutex_lock (&stats_lock);
  n_acked++;
  g_mutex_unlock (&stats_lock);
  chaos_note_success ();
}

static void
count_error (const char *what, const GError *error)
{
  g_autofree char *key = g_strdup_printf ("%s: %s", what, error != NULL ? error->message : "(no error)");

  g_hash_table_replace (error_counts, g_strdup (key),
                        GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (error_counts, key)) + 1));
}

gboolean
chaos_write_in_doubt (const GError *error)
{
  /* a write buffer's failed flush that names no mutation has no error */
  return error == NULL || hbase_error_is_in_doubt (error);
}

void
chaos_note_write_failed (const char *what, const GError *error, gboolean in_doubt)
{
  g_mutex_lock (&stats_lock);
  if (in_doubt)
    n_in_doubt++;
  else
    n_not_applied++;
  count_error (what, error);
  g_mutex_unlock (&stats_lock);
  chaos_log ("%s failed (%s): %s", what, in_doubt ? "in doubt" : "not applied",
             error != NULL ? error->message : "(no error)");
}

void
chaos_note_read_failed (const char *what, const GError *error)
{
  g_mutex_lock (&stats_lock);
  n_read_failed++;
  count_error (what, error);
  g_mutex_unlock (&stats_lock);
  chaos_log ("%s failed: %s", what, error != NULL ? error->message : "(no error)");
}

static gint
by_count (gconstpointer a, gconstpointer b, gpointer user_data)
{
  guint ca = GPOINTER_TO_UINT (g_hash_table_lookup (user_data, *(const char *const *) a));
  guint cb = GPOINTER_TO_UINT (g_hash_table_lookup (user_data, *(const char *const *) b));

  return ca == cb ? strcmp (*(const char *const *) a, *(const char *const *) b) : (ca < cb ? 1 : -1);
}

void
chaos_stats_print (void)
{
  g_autoptr(GDateTime) gap_end = NULL;
  g_autofree char *gap_end_text = NULL;
  g_autoptr(GPtrArray) messages = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;
  guint i;

  g_mutex_lock (&stats_lock);
  /* the gap up to the end of the load phase counts too */
  if (longest_gap_end_real_us != 0)
    {
      gap_end = g_date_time_new_from_unix_utc (longest_gap_end_real_us / G_USEC_PER_SEC);
      gap_end_text = g_date_time_format (gap_end, "%T");
    }
  printf ("operations: %" G_GUINT64_FORMAT " succeeded (%" G_GUINT64_FORMAT " acknowledged writes), "
          "%" G_GUINT64_FORMAT " writes in doubt, %" G_GUINT64_FORMAT " writes not applied, "
          "%" G_GUINT64_FORMAT " reads failed\n",
          n_success, n_acked, n_in_doubt, n_not_applied, n_read_failed);
  printf ("longest time without a successful operation: %.1f s%s%s%s; per worker:",
          (double) longest_gap_us / G_USEC_PER_SEC,
          gap_end_text != NULL ? " (ending " : "", gap_end_text != NULL ? gap_end_text : "",
          gap_end_text != NULL ? "Z)" : "");
  for (i = 0; i < worker_clocks->len; i++)
    {
      const WorkerClock *clock = worker_clocks->pdata[i];

      printf ("%s %s %.1f s", i > 0 ? "," : "", clock->name, (double) clock->longest_gap_us / G_USEC_PER_SEC);
    }
  printf ("\n");
  g_hash_table_iter_init (&iter, error_counts);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (messages, key);
  g_ptr_array_sort_with_data (messages, by_count, error_counts);
  for (i = 0; i < messages->len && i < 8; i++)
    printf ("  error x%u: %s\n",
            GPOINTER_TO_UINT (g_hash_table_lookup (error_counts, messages->pdata[i])),
            (const char *) messages->pdata[i]);
  if (messages->len > 8)
    printf ("  (%u more kinds of error in the workload log)\n", messages->len - 8);
  g_mutex_unlock (&stats_lock);
}

gboolean
chaos_running (ChaosRun *run)
{
  return !g_atomic_int_get (&run->stop);
}

void
chaos_pause (ChaosRun *run, guint ms)
{
  if (chaos_running (run))
    g_usleep ((gulong) ms * 1000);
}

void
chaos_invariant (const char *name, gboolean holds, const char *format, ...)
{
  g_autofree char *details = NULL;
  va_list args;

  va_start (args, format);
  details = g_strdup_vprintf (format, args);
  va_end (args);
  printf ("invariant %-9s %s: %s\n", name, holds ? "holds" : "VIOLATED", details);
  if (!holds)
    any_invariant_failed = TRUE;
}

gboolean
chaos_all_invariants_hold (void)
{
  return !any_invariant_failed;
}

/* --- the run ------------------------------------------------------------------------- */

static gboolean
parse_host_port (const char *spec, char **host, guint *port)
{
  const char *colon = spec != NULL ? strrchr (spec, ':') : NULL;
  guint64 value;

  if (colon == NULL || colon == spec ||
      !g_ascii_string_to_unsigned (colon + 1, 10, 1, 65535, &value, NULL))
    return FALSE;
  *host = g_strndup (spec, (gsize) (colon - spec));
  *port = (guint) value;
  return TRUE;
}

static gboolean
wait_for_file (const char *path, guint timeout_s)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_s * G_USEC_PER_SEC;

  while (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      if (g_get_monotonic_time () > deadline)
        return FALSE;
      g_usleep (200 * 1000);
    }
  return TRUE;
}

static HBaseIndex *
open_index (ChaosRun *run, GError **error)
{
  HBaseIndexOptions options = HBASE_INDEX_OPTIONS_INIT;

  options.redis_host = run->redis_host;
  options.redis_port = run->redis_port;
  options.meta_table = CHAOS_INDEX_META;
  return hbase_index_open (run->client, CHAOS_INDEXED_TABLE, &options, NULL, error);
}

static gboolean
setup_index (ChaosRun *run, GError **error)
{
  g_autoptr(HBaseIndexSpec) spec = hbase_index_spec_new ();
  g_autoptr(HBaseIndex) index = NULL;
  g_autoptr(HBaseIndexReport) report = NULL;
  HBaseIndexOptions meta = HBASE_INDEX_OPTIONS_INIT;

  meta.meta_table = CHAOS_INDEX_META;
  if (!hbase_index_spec_add (spec, "city", "f", "city", HBASE_INDEX_VALUE_STRING,
                             HBASE_INDEX_EXACT, error) ||
      !hbase_index_spec_add (spec, "age", "f", "age", HBASE_INDEX_VALUE_INT64,
                             HBASE_INDEX_EXACT | HBASE_INDEX_RANGE, error) ||
      !hbase_index_spec_set_key_prefix (spec, CHAOS_INDEX_PREFIX, error) ||
      !hbase_index_create_meta_table (run->client, &meta, NULL, error) ||
      !hbase_index_define (run->client, CHAOS_INDEXED_TABLE, spec, &meta, NULL, error))
    return FALSE;
  index = open_index (run, error);
  if (index == NULL)
    return FALSE;
  report = hbase_index_rebuild (index, NULL, NULL, error);
  return report != NULL;
}

/* The time the last chaos action ended, which the chaos run writes into
 * the --settled file (milliseconds since the epoch); 0 when it is not
 * there. */
static gint64
read_last_action (const char *settled)
{
  g_autofree char *text = NULL;
  guint64 ms;

  if (!g_file_get_contents (settled, &text, NULL, NULL))
    return 0;
  g_strstrip (text);
  if (!g_ascii_string_to_unsigned (text, 10, 1, G_MAXINT64 / 1000, &ms, NULL))
    return 0;
  return (gint64) ms * 1000;
}

/* Ends the load: at its planned end, or, when the chaos is not over by
 * then (the --settled file carries the end of its last action), once it
 * has been over for CHAOS_MIN_QUIET_S, so that recovery is judged however
 * long the last action took. */
#define CHAOS_MIN_QUIET_S 25

static void
run_load (ChaosRun *run, const char *settled)
{
  gint64 deadline, last_action, quiet_end;

  while (g_get_monotonic_time () < run->end_us)
    g_usleep (100 * 1000);
  deadline = g_get_monotonic_time () + 600 * G_USEC_PER_SEC;
  while (!g_file_test (settled, G_FILE_TEST_EXISTS) && g_get_monotonic_time () < deadline)
    g_usleep (200 * 1000);
  last_action = read_last_action (settled);
  if (last_action > 0)
    {
      /* the real time of the last action's end on the monotonic clock */
      quiet_end = g_get_monotonic_time () - (g_get_real_time () - last_action) +
                  (gint64) CHAOS_MIN_QUIET_S * G_USEC_PER_SEC;
      if (quiet_end > g_get_monotonic_time ())
        chaos_log ("the chaos ended late: the load goes on %.1f s more",
                   (double) (quiet_end - g_get_monotonic_time ()) / G_USEC_PER_SEC);
      while (g_get_monotonic_time () < quiet_end)
        g_usleep (100 * 1000);
    }
  g_atomic_int_set (&run->stop, 1);
}

int
main (int argc, char **argv)
{
  g_autofree char *gateways = NULL;
  g_autofree char *redis = NULL;
  g_autofree char *ready = NULL;
  g_autofree char *own_gateway = NULL;
  g_autofree char *settled = NULL;
  g_autofree char *start = NULL;
  g_autofree char *bootstrap = NULL;
  gint duration = 180;
  gint redis_faults = 0;
  GOptionEntry entries[] = {
    { "gateways", 0, 0, G_OPTION_ARG_STRING, &gateways, "Thrift2 gateways, HOST:PORT,HOST:PORT", "LIST" },
    { "redis", 0, 0, G_OPTION_ARG_STRING, &redis, "redis-server for the oracle and the index", "HOST:PORT" },
    { "duration", 0, 0, G_OPTION_ARG_INT, &duration, "seconds of load (default 180)", "S" },
    { "scan-gateway", 0, 0, G_OPTION_ARG_STRING, &own_gateway, "a gateway of its own for the one-gateway scans", "HOST:PORT" },
    { "ready", 0, 0, G_OPTION_ARG_FILENAME, &ready, "created once the tables are set up", "FILE" },
    { "settled", 0, 0, G_OPTION_ARG_FILENAME, &settled, "checks start once this exists", "FILE" },
    { "start", 0, 0, G_OPTION_ARG_FILENAME, &start, "the load starts once this exists (at once without it)", "FILE" },
    { "bootstrap-servers", 0, 0, G_OPTION_ARG_STRING, &bootstrap,
      "HBase masters or region servers for native workers too, HOST:PORT,...", "LIST" },
    { "redis-faults", 0, 0, G_OPTION_ARG_INT, &redis_faults,
      "Redis faults the chaos schedule injected (default 0): what the index repair may fix", "N" },
    { NULL, 0, 0, 0, NULL, NULL, NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("- the chaos run's workload");
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(HBaseIndex) index = NULL;
  g_autofree char *redis_host = NULL;
  ChaosRun run = { 0 };
  g_autoptr(HBaseConfig) one_gateway_config = NULL;
  g_autoptr(HBaseClient) one_gateway_client = NULL;
  HBaseTable *churn_table, *native_churn_table;
  HBaseTable *kv_table, *scan_table, *one_gateway_scan_table, *counter_table, *set_table, *indexed_plain;
  ChaosKv *kv, *indexed;
  ChaosCounters *counters;
  ChaosScans *scans, *one_gateway_scans, *scan_churn, *native_churn = NULL;
  ChaosScanRows *scan_rows, *native_scan_rows = NULL;
  ChaosStructures *structures;
  g_autoptr(HBaseConfig) native_config = NULL;
  g_autoptr(HBaseClient) native_client = NULL;
  HBaseTable *native_kv_table = NULL, *native_scan_table = NULL, *native_atomic_table = NULL;
  ChaosKv *native_kv = NULL;
  ChaosCounters *native_counters = NULL;
  ChaosScans *native_scans = NULL;
  ChaosCam *native_cam = NULL;
  g_autoptr(GPtrArray) threads = g_ptr_array_new ();
  guint i;

  setvbuf (stdout, NULL, _IOLBF, 0);
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "chaos-workload: %s\n", error->message);
      return 2;
    }
  if (gateways == NULL || own_gateway == NULL || redis == NULL || ready == NULL || settled == NULL || duration <= 0 ||
      redis_faults < 0 ||
      !parse_host_port (redis, &redis_host, &run.redis_port))
    {
      fprintf (stderr, "chaos-workload: --gateways, --scan-gateway, --redis HOST:PORT, --ready, --settled and a positive --duration are needed\n");
      return 2;
    }
  run.redis_host = redis_host;
  chaos_stats_init ();

  /* the library's defaults but for the gateways */
  config = hbase_config_new ();
  if (!hbase_config_set_gateways (config, gateways, &error) ||
      (run.client = hbase_client_new (config)) == NULL ||
      !chaos_setup_tables (run.client, bootstrap != NULL, &error) ||
      !setup_index (&run, &error) ||
      (index = open_index (&run, &error)) == NULL)
    {
      fprintf (stderr, "chaos-workload: setup failed: %s\n", error->message);
      return 2;
    }
  kv_table = hbase_table_new (run.client, CHAOS_KV_TABLE, &error);
  scan_table = kv_table != NULL ? hbase_table_new (run.client, CHAOS_SCAN_TABLE, &error) : NULL;
  counter_table = scan_table != NULL ? hbase_table_new (run.client, CHAOS_COUNTER_TABLE, &error) : NULL;
  set_table = counter_table != NULL ? hbase_table_new (run.client, CHAOS_SET_TABLE, &error) : NULL;
  /* the indexed table read without the index: the oracle of the index check */
  indexed_plain = set_table != NULL ? hbase_table_new (run.client, CHAOS_INDEXED_TABLE, &error) : NULL;
  /* scans through a client of one gateway, which no other client uses:
   * its server scanners are always reached where they were opened */
  one_gateway_config = hbase_config_new ();
  if (indexed_plain == NULL ||
      !hbase_config_set_gateways (one_gateway_config, own_gateway, &error) ||
      (one_gateway_client = hbase_client_new (one_gateway_config)) == NULL ||
      (one_gateway_scan_table = hbase_table_new (one_gateway_client, CHAOS_SCAN_TABLE, &error)) == NULL ||
      !chaos_scan_fill (scan_table, FALSE, &error))
    {
      fprintf (stderr, "chaos-workload: setup failed: %s\n", error->message);
      return 2;
    }
  structures = chaos_structures_new (&run, set_table, &error);
  if (structures == NULL)
    {
      fprintf (stderr, "chaos-workload: setup failed: %s\n", error->message);
      return 2;
    }
  /* the native workers: a client of their own, on their own tables, which
   * the gateway's client made (only the gateway does admin calls) */
  if (bootstrap != NULL)
    {
      native_config = hbase_config_new ();
      if (!hbase_config_set_bootstrap_servers (native_config, bootstrap, &error) ||
          (native_client = hbase_client_new (native_config)) == NULL ||
          (native_kv_table = hbase_table_new (native_client, CHAOS_NATIVE_KV_TABLE, &error)) == NULL ||
          (native_scan_table = hbase_table_new (native_client, CHAOS_NATIVE_SCAN_TABLE, &error)) == NULL ||
          (native_atomic_table = hbase_table_new (native_client, CHAOS_NATIVE_ATOMIC_TABLE, &error)) == NULL)
        {
          fprintf (stderr, "chaos-workload: native setup failed: %s\n", error->message);
          return 2;
        }
      /* the secondary-index mark is read through a gateway: these tables have none */
      hbase_table_set_allow_unindexed_writes (native_kv_table, TRUE);
      hbase_table_set_allow_unindexed_writes (native_scan_table, TRUE);
      hbase_table_set_allow_unindexed_writes (native_atomic_table, TRUE);
      if (!chaos_scan_fill (native_scan_table, TRUE, &error))
        {
          fprintf (stderr, "chaos-workload: native setup failed: %s\n", error->message);
          return 2;
        }
      native_kv = chaos_kv_new (&run, native_kv_table, "native-puts", "n", 600, FALSE);
      chaos_kv_set_multiple (native_kv, TRUE);
      native_counters = chaos_counters_new (&run, native_atomic_table, "native-counters", 40);
      native_scan_rows = chaos_scan_rows_new (TRUE);
      native_scans = chaos_scans_new (&run, native_scan_table, "native-scans", native_scan_rows, FALSE);
      native_churn_table = hbase_table_new (native_client, CHAOS_NATIVE_SCAN_TABLE, &error);
      if (native_churn_table == NULL)
        {
          fprintf (stderr, "chaos-workload: native setup failed: %s\n", error->message);
          return 2;
        }
      hbase_table_set_allow_unindexed_writes (native_churn_table, TRUE);
      native_churn = chaos_scans_new (&run, native_churn_table, "native-scan-churn", native_scan_rows, TRUE);
      g_object_unref (native_churn_table);
      native_cam = chaos_cam_new (&run, native_atomic_table, "native-cam", 60);
    }
  kv = chaos_kv_new (&run, kv_table, "puts", "k", 800, FALSE);
  indexed = chaos_kv_new (&run, hbase_index_get_table (index), "indexed", "p", 300, TRUE);
  counters = chaos_counters_new (&run, counter_table, "counters", 40);
  scan_rows = chaos_scan_rows_new (FALSE);
  scans = chaos_scans_new (&run, scan_table, "scans", scan_rows, FALSE);
  one_gateway_scans = chaos_scans_new (&run, one_gateway_scan_table, "scans-1gw", scan_rows, FALSE);
  /* the churn writes through a table object of its own */
  churn_table = hbase_table_new (run.client, CHAOS_SCAN_TABLE, &error);
  if (churn_table == NULL)
    {
      fprintf (stderr, "chaos-workload: setup failed: %s\n", error->message);
      return 2;
    }
  scan_churn = chaos_scans_new (&run, churn_table, "scan-churn", scan_rows, TRUE);
  g_object_unref (churn_table);

  if (!g_file_set_contents (ready, "", 0, &error))
    {
      fprintf (stderr, "chaos-workload: %s\n", error->message);
      return 2;
    }
  /* the load starts with the chaos, however long the driver took to start */
  if (start != NULL && !wait_for_file (start, 600))
    {
      fprintf (stderr, "chaos-workload: %s did not appear within 600 s\n", start);
      return 2;
    }
  chaos_log ("tables ready; %d s of load through %s%s%s", duration, gateways,
             bootstrap != NULL ? " and natively through " : "", bootstrap != NULL ? bootstrap : "");
  chaos_stats_init ();
  run.end_us = g_get_monotonic_time () + (gint64) duration * G_USEC_PER_SEC;
  g_ptr_array_add (threads, g_thread_new ("puts", chaos_kv_thread, kv));
  g_ptr_array_add (threads, g_thread_new ("indexed", chaos_kv_thread, indexed));
  g_ptr_array_add (threads, g_thread_new ("counters", chaos_counters_thread, counters));
  g_ptr_array_add (threads, g_thread_new ("scans", chaos_scans_thread, scans));
  g_ptr_array_add (threads, g_thread_new ("structures", chaos_structures_thread, structures));
  g_ptr_array_add (threads, g_thread_new ("scans-1gw", chaos_scans_thread, one_gateway_scans));
  g_ptr_array_add (threads, g_thread_new ("scan-churn", chaos_scans_thread, scan_churn));
  if (bootstrap != NULL)
    {
      g_ptr_array_add (threads, g_thread_new ("native-puts", chaos_kv_thread, native_kv));
      g_ptr_array_add (threads, g_thread_new ("native-counters", chaos_counters_thread, native_counters));
      g_ptr_array_add (threads, g_thread_new ("native-scans", chaos_scans_thread, native_scans));
      g_ptr_array_add (threads, g_thread_new ("native-scan-churn", chaos_scans_thread, native_churn));
      g_ptr_array_add (threads, g_thread_new ("native-cam", chaos_cam_thread, native_cam));
    }
  run_load (&run, settled);
  for (i = 0; i < threads->len; i++)
    g_thread_join (threads->pdata[i]);
  chaos_log ("load done; waiting for the cluster to settle (%s)", settled);

  printf ("chaos workload: %d s through %s%s%s\n", duration, gateways,
          bootstrap != NULL ? " and natively through " : "", bootstrap != NULL ? bootstrap : "");
  chaos_stats_print ();
  if (!wait_for_file (settled, 600))
    {
      fprintf (stderr, "chaos-workload: %s did not appear within 600 s\n", settled);
      return 2;
    }
  chaos_log ("checking");
  chaos_progress_check (read_last_action (settled));
  chaos_kv_check (kv);
  chaos_counters_check (counters);
  chaos_scans_check (scans);
  chaos_scans_check (one_gateway_scans);
  chaos_scans_check (scan_churn);
  chaos_structures_check (structures);
  chaos_kv_check (indexed);
  chaos_index_check (indexed, index, indexed_plain, (guint) redis_faults);
  if (bootstrap != NULL)
    {
      chaos_kv_check (native_kv);
      chaos_counters_check (native_counters);
      chaos_scans_check (native_scans);
      chaos_scans_check (native_churn);
      chaos_cam_check (native_cam);
      chaos_kv_free (native_kv);
      chaos_counters_free (native_counters);
      chaos_scans_free (native_scans);
      chaos_scans_free (native_churn);
      chaos_scan_rows_free (native_scan_rows);
      chaos_cam_free (native_cam);
      g_object_unref (native_kv_table);
      g_object_unref (native_scan_table);
      g_object_unref (native_atomic_table);
    }

  chaos_kv_free (kv);
  chaos_kv_free (indexed);
  chaos_counters_free (counters);
  chaos_scans_free (scans);
  chaos_scans_free (one_gateway_scans);
  chaos_scans_free (scan_churn);
  chaos_scan_rows_free (scan_rows);
  g_object_unref (indexed_plain);
  chaos_structures_free (structures);
  g_object_unref (kv_table);
  g_object_unref (scan_table);
  g_object_unref (one_gateway_scan_table);
  g_object_unref (counter_table);
  g_object_unref (set_table);
  g_clear_object (&index);
  g_object_unref (run.client);
  return chaos_all_invariants_hold () ? 0 : 1;
}
