/* SPDX-License-Identifier: Apache-2.0 */
/* bench-structures.c: operations per second of HBaseSet and HBaseZSet on
 * sets of 10, 10k and 1M members (docs/structures-layout.md, "Benchmark"):
 *
 *   sadd          SADD of one new member
 *   sismember     SISMEMBER of a random existing member
 *   zadd          ZADD of one new member
 *   zincrby       ZINCRBY of a random existing member
 *   zrangebyscore ZRANGEBYSCORE [s, +inf) LIMIT 0 100 from a random s,
 *                 on the freshly built set and again after the writes
 *                 (zincrby, zadd: their deleted index cells stay in the
 *                 row until HBase compacts it)
 *
 * One thread, one operation at a time (latency-bound), against one
 * Thrift2 gateway.  The sets of every size are built first (SADD/ZADD of
 * 1000 members per call; the build rate is printed too), then the range
 * reads run on them, the sizes taking turns over 5 rounds, then the other
 * operations size by size.  Each line:
 *
 *   RESULT op=zrangebyscore size=1000000 ops=2000 seconds=1.234 ops_per_s=1620.7 mean_us=617 p50_us=601 p99_us=950 returned=100
 *
 * The last lines compare zrangebyscore between the two largest sizes: a
 * range read is a seek into the score-ordered cells plus one page, so its
 * cost must not grow with the set.
 *
 * Usage: bench-structures [--gateway HOST:PORT] [--sizes 10,10000,1000000]
 *                         [--seconds 3] [--max-ops 5000] [--build-pause-ms 10]
 *                         [--keep]
 *
 * The 1M sets are about 4 million cells (some 300 MB in HBase's memstore
 * and files): with the local stack's 1 GB HBase heap, run it while the
 * stack is otherwise idle.
 * The table hbase_glib_bench_structures_PID (families s and z) is dropped
 * at the end unless --keep. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hbase-glib/hbase-glib.h>

static char *opt_gateway = NULL;
static char *opt_sizes = NULL;
static double opt_seconds = 3;
static int opt_max_ops = 5000;
static gboolean opt_keep = FALSE;
static int opt_build_pause_ms = 10;

static GOptionEntry option_entries[] = {
  { "gateway", 0, 0, G_OPTION_ARG_STRING, &opt_gateway,
    "Thrift2 gateway, binary/buffered (default 127.0.0.1:9090)", "HOST:PORT" },
  { "sizes", 0, 0, G_OPTION_ARG_STRING, &opt_sizes,
    "Set sizes (default 10,10000,1000000)", "LIST" },
  { "seconds", 0, 0, G_OPTION_ARG_DOUBLE, &opt_seconds, "Time per operation and size (default 3)",
    "S" },
  { "max-ops", 0, 0, G_OPTION_ARG_INT, &opt_max_ops,
    "At most this many operations per operation and size (default 5000)", "N" },
  { "keep", 0, 0, G_OPTION_ARG_NONE, &opt_keep, "Keep the table", NULL },
  { "build-pause-ms", 0, 0, G_OPTION_ARG_INT, &opt_build_pause_ms,
    "Pause after each 1000 members built, to spare a small HBase heap (default 10)", "MS" },
  { NULL }
};

static void
die (const char *what, GError *error)
{
  g_printerr ("bench-structures: %s: %s\n", what, error != NULL ? error->message : "failed");
  exit (1);
}

static GBytes *
text_bytes (const char *format, ...) G_GNUC_PRINTF (1, 2);

static GBytes *
text_bytes (const char *format, ...)
{
  va_list args;
  char *text;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  return g_bytes_new_take (text, strlen (text));
}

typedef struct {
  HBaseSet *set;
  HBaseZSet *zset;
  guint64 size;
  guint64 next_new;
  GRand *rand;
  guint returned;
} Target;

typedef gboolean (*Op) (Target *target, GError **error);

static gboolean
op_sadd (Target *target, GError **error)
{
  g_autoptr(GBytes) member = text_bytes ("new-%010" G_GUINT64_FORMAT, target->next_new++);
  gboolean added = FALSE;

  return hbase_set_add_one (target->set, member, &added, NULL, error);
}

static gboolean
op_sismember (Target *target, GError **error)
{
  guint64 i = (guint64) g_rand_double_range (target->rand, 0, (gdouble) target->size);
  g_autoptr(GBytes) member = text_bytes ("member-%010" G_GUINT64_FORMAT, i);
  gboolean present = FALSE;

  if (!hbase_set_contains (target->set, member, &present, NULL, error))
    return FALSE;
  if (!present)
    g_error ("member %" G_GUINT64_FORMAT " missing", i);
  return TRUE;
}

static gboolean
op_zadd (Target *target, GError **error)
{
  g_autoptr(GPtrArray) members = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  gdouble score = g_rand_double_range (target->rand, 0, (gdouble) target->size);

  g_ptr_array_add (members, text_bytes ("new-%010" G_GUINT64_FORMAT, target->next_new++));
  return hbase_zset_add (target->zset, HBASE_ZADD_NONE, members, &score, NULL, NULL, error);
}

static gboolean
op_zincrby (Target *target, GError **error)
{
  guint64 i = (guint64) g_rand_double_range (target->rand, 0, (gdouble) target->size);
  g_autoptr(GBytes) member = text_bytes ("member-%010" G_GUINT64_FORMAT, i);
  gdouble score;

  return hbase_zset_incr_by (target->zset, member, 1.0 / 1024, &score, NULL, error);
}

static gboolean
op_zrangebyscore (Target *target, GError **error)
{
  HBaseScoreRange range = HBASE_SCORE_RANGE_INIT;
  g_autoptr(HBaseZSetIter) iter = NULL;
  g_autoptr(GPtrArray) entries = NULL;

  range.min = target->size > 100 ? (gdouble) (guint64) g_rand_double_range (target->rand, 0,
                                                                             (gdouble) (target->size - 100))
                                 : 0;
  iter = hbase_zset_range_by_score (target->zset, &range, FALSE, 0, 100);
  entries = hbase_zset_iter_collect (iter, NULL, error);
  if (entries == NULL)
    return FALSE;
  target->returned = entries->len;
  return TRUE;
}

static int
compare_gint64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

typedef struct {
  double ops_per_s;
  double mean_us;
  gint64 p50_us;
} Result;

/* Runs @op for opt_seconds (at most opt_max_ops times), adding each
 * latency to @times; returns the wall time spent. */
static double
run_op (const char *name, Target *target, Op op, double seconds, int max_ops, GArray *times)
{
  gint64 start;
  g_autoptr(GError) error = NULL;

  /* warm up: connections, region location, block cache */
  for (int i = 0; i < 20; i++)
    if (!op (target, &error))
      die (name, error);
  start = g_get_monotonic_time ();
  for (int n = 0; n < max_ops && g_get_monotonic_time () - start < (gint64) (seconds * G_USEC_PER_SEC);
       n++)
    {
      gint64 t0 = g_get_monotonic_time (), elapsed;

      if (!op (target, &error))
        die (name, error);
      elapsed = g_get_monotonic_time () - t0;
      g_array_append_val (times, elapsed);
    }
  return (double) (g_get_monotonic_time () - start) / G_USEC_PER_SEC;
}

static Result
report (const char *name, Target *target, GArray *times, double seconds, gboolean range)
{
  Result result;
  double total = 0;

  for (guint i = 0; i < times->len; i++)
    total += (double) g_array_index (times, gint64, i);
  g_array_sort (times, compare_gint64);
  result.ops_per_s = times->len / seconds;
  result.mean_us = total / times->len;
  result.p50_us = g_array_index (times, gint64, times->len / 2);
  printf ("RESULT op=%s size=%" G_GUINT64_FORMAT " ops=%u seconds=%.3f ops_per_s=%.1f mean_us=%.0f "
          "p50_us=%" G_GINT64_FORMAT " p99_us=%" G_GINT64_FORMAT,
          name, target->size, times->len, seconds, result.ops_per_s, result.mean_us,
          result.p50_us, g_array_index (times, gint64, times->len * 99 / 100));
  if (range)
    printf (" returned=%u", target->returned);
  printf ("\n");
  fflush (stdout);
  return result;
}

static Result
measure (const char *name, Target *target, Op op)
{
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (gint64));
  double seconds = run_op (name, target, op, opt_seconds, opt_max_ops, times);

  return report (name, target, times, seconds, op == op_zrangebyscore);
}

/* SADD and ZADD of members 0 .. size-1, 1000 per call. */
static void
build (Target *target)
{
  gint64 start = g_get_monotonic_time ();
  g_autoptr(GError) error = NULL;
  double seconds;

  for (guint64 first = 0; first < target->size; first += 1000)
    {
      g_autoptr(GPtrArray) members = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
      g_autoptr(GArray) scores = g_array_new (FALSE, FALSE, sizeof (gdouble));

      for (guint64 i = first; i < MIN (first + 1000, target->size); i++)
        {
          gdouble score = (gdouble) i;

          g_ptr_array_add (members, text_bytes ("member-%010" G_GUINT64_FORMAT, i));
          g_array_append_val (scores, score);
        }
      if (!hbase_set_add (target->set, members, NULL, NULL, &error))
        die ("building the set", error);
      if (!hbase_zset_add (target->zset, HBASE_ZADD_NONE, members, (gdouble *) scores->data, NULL,
                           NULL, &error))
        die ("building the sorted set", error);
      if (first % 100000 == 0 && first > 0)
        g_printerr ("  ... %" G_GUINT64_FORMAT " members\n", first);
      if (opt_build_pause_ms > 0)
        g_usleep ((gulong) opt_build_pause_ms * 1000);
    }
  seconds = (double) (g_get_monotonic_time () - start) / G_USEC_PER_SEC;
  printf ("BUILD size=%" G_GUINT64_FORMAT " seconds=%.1f members_per_s=%.0f (set and sorted set)\n",
          target->size, seconds, target->size / MAX (seconds, 1e-6));
  fflush (stdout);
}

int
main (int argc, char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new ("- set and sorted-set benchmark");
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(HBaseTable) table = NULL;
  g_autofree char *name = g_strdup_printf ("hbase_glib_bench_structures_%d", (int) getpid ());
  g_auto(GStrv) sizes = NULL;
  HBaseFamilyOptions families[2] = { HBASE_FAMILY_OPTIONS_INIT, HBASE_FAMILY_OPTIONS_INIT };
  Target targets[8] = { { 0 } };
  Result ranges[8];
  guint n_targets = 0;

  g_option_context_add_main_entries (context, option_entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    die ("options", error);
  if (!hbase_config_set_gateways (config, opt_gateway != NULL ? opt_gateway : "127.0.0.1:9090",
                                  &error))
    die ("gateway", error);
  client = hbase_client_new (config);
  if (client == NULL)
    die ("client", error);
  families[0].name = "s";
  families[1].name = "z";
  if (!hbase_client_create_table (client, name, families, 2, NULL, NULL, &error))
    die ("creating the table", error);
  table = hbase_table_new (client, name, &error);
  sizes = g_strsplit (opt_sizes != NULL ? opt_sizes : "10,10000,1000000", ",", -1);
  printf ("# table %s, %g s or %d ops per operation and size, one thread\n", name, opt_seconds,
          opt_max_ops);

  for (guint s = 0; sizes[s] != NULL && n_targets < G_N_ELEMENTS (targets); s++)
    {
      Target *target = &targets[n_targets++];
      g_autoptr(GBytes) key = text_bytes ("bench-%s", sizes[s]);

      target->size = g_ascii_strtoull (sizes[s], NULL, 10);
      target->set = hbase_set_new (table, key, NULL, &error);
      target->zset = hbase_zset_new (table, key, NULL, &error);
      target->rand = g_rand_new_with_seed (42);
      if (target->set == NULL || target->zset == NULL)
        die ("handles", error);
      build (target);
    }

  /* range reads first, on the fresh sets, the sizes taking turns (5
   * rounds) so that the machine's load hits them alike */
  {
    GArray *times[G_N_ELEMENTS (targets)];
    double seconds[G_N_ELEMENTS (targets)] = { 0 };

    for (guint t = 0; t < n_targets; t++)
      times[t] = g_array_new (FALSE, FALSE, sizeof (gint64));
    for (guint round = 0; round < 5; round++)
      for (guint t = 0; t < n_targets; t++)
        seconds[t] += run_op ("zrangebyscore", &targets[t], op_zrangebyscore, opt_seconds / 5,
                              opt_max_ops / 5, times[t]);
    for (guint t = 0; t < n_targets; t++)
      {
        ranges[t] = report ("zrangebyscore", &targets[t], times[t], seconds[t], TRUE);
        g_array_unref (times[t]);
      }
  }

  for (guint t = 0; t < n_targets; t++)
    {
      Target *target = &targets[t];

      measure ("sismember", target, op_sismember);
      measure ("zincrby", target, op_zincrby);
      measure ("sadd", target, op_sadd);
      target->next_new = 0;
      measure ("zadd", target, op_zadd);
      /* again, now that the writes above left deleted cells in the row */
      measure ("zrangebyscore-after-writes", target, op_zrangebyscore);
    }

  if (n_targets >= 2)
    {
      Result *a = &ranges[n_targets - 2], *b = &ranges[n_targets - 1];

      printf ("RANGE zrangebyscore LIMIT 100: size %" G_GUINT64_FORMAT " mean %.0f us p50 %"
              G_GINT64_FORMAT " us; size %" G_GUINT64_FORMAT " mean %.0f us p50 %" G_GINT64_FORMAT
              " us; ratio of p50 %.2f for a set %.0fx larger\n",
              targets[n_targets - 2].size, a->mean_us, a->p50_us, targets[n_targets - 1].size,
              b->mean_us, b->p50_us, (double) b->p50_us / (double) MAX (a->p50_us, 1),
              (double) targets[n_targets - 1].size / (double) MAX (targets[n_targets - 2].size, 1));
    }
  for (guint t = 0; t < n_targets; t++)
    {
      g_object_unref (targets[t].set);
      g_object_unref (targets[t].zset);
      g_rand_free (targets[t].rand);
    }
  if (!opt_keep && !hbase_client_delete_table (client, name, NULL, &error))
    die ("dropping the table", error);
  return 0;
}
