/* SPDX-License-Identifier: Apache-2.0 */
/* zset-redis-commands.c: the steps of the sorted-set differential test for
 * ZRANGEBYLEX, ZREVRANGEBYLEX (with LIMIT), ZLEXCOUNT, ZREMRANGEBYLEX,
 * ZREMRANGEBYSCORE, ZREMRANGEBYRANK, ZMSCORE, ZRANDMEMBER (positive and
 * negative counts, WITHSCORES), ZUNION, ZINTER, ZDIFF and their STORE forms
 * (WEIGHTS, AGGREGATE, a destination among the sources, missing keys, the
 * same key twice).  Lex ranges run on a set whose members all score 0, as
 * Redis intends them, and on the sets with random scores (small sets, so
 * Redis keeps them in its compact encoding, whose order the library
 * follows). */
#include "config.h"

#include <math.h>
#include <string.h>

#include "zset-redis-private.h"

#define LEX_SET  N_ZSETS          /* index of the all-zero set */
#define MISSING  (N_ZSETS + 1)    /* index of the missing key */

static HBaseZSet *
zset_at (Run *run, guint index)
{
  return index < N_ZSETS ? run->zsets[index] : index == LEX_SET ? run->lex_zset : run->missing_zset;
}

static GBytes *
key_at (Run *run, guint index)
{
  return index < N_ZSETS ? run->keys[index] : index == LEX_SET ? run->lex_key : run->missing_key;
}

static const char *
name_at (guint index)
{
  static const char *names[] = { "z0", "z1", "z2", "lex", "missing" };

  return names[MIN (index, G_N_ELEMENTS (names) - 1)];
}

static GPtrArray *
argv_new (const char *name)
{
  GPtrArray *argv = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

  g_ptr_array_add (argv, text_arg (name));
  return argv;
}

static void
add_int (GPtrArray *argv, gint64 value)
{
  char *text = g_strdup_printf ("%" G_GINT64_FORMAT, value);

  g_ptr_array_add (argv, g_bytes_new_take (text, strlen (text)));
}

/* a set for a read or a removal: one of the random ones or the lex one */
static guint
random_set (Run *run)
{
  return (guint) g_rand_int_range (run->diff.rand, 0, N_ZSETS + 1);
}

static GBytes *
random_lex_bound (Run *run)
{
  g_autoptr(GBytes) member = NULL;
  GByteArray *bound;
  gsize len;
  const guint8 *data;

  switch (g_rand_int_range (run->diff.rand, 0, 30))
    {
    case 0:
    case 1:
      return text_arg ("-");
    case 2:
    case 3:
      return text_arg ("+");
    case 4:
      return text_arg ("abc");     /* no bracket: refused */
    default:
      break;
    }
  member = sts_random_member (run->diff.rand, UNIVERSE);
  data = g_bytes_get_data (member, &len);
  bound = g_byte_array_new ();
  g_byte_array_append (bound, (const guint8 *) (g_rand_boolean (run->diff.rand) ? "[" : "("), 1);
  if (len > 0)
    g_byte_array_append (bound, data, (guint) len);
  return g_byte_array_free_to_bytes (bound);
}

/* "-" first, "+" last, else by member (the bracket left out) */
static int
compare_bounds (GBytes *a, GBytes *b)
{
  gsize a_len, b_len;
  const char *x = g_bytes_get_data (a, &a_len), *y = g_bytes_get_data (b, &b_len);
  int rank_a = x[0] == '-' ? -1 : x[0] == '+' ? 1 : 0;
  int rank_b = y[0] == '-' ? -1 : y[0] == '+' ? 1 : 0;
  g_autoptr(GBytes) member_a = NULL;
  g_autoptr(GBytes) member_b = NULL;

  if (rank_a != 0 || rank_b != 0)
    return rank_a - rank_b;
  member_a = g_bytes_new (x + 1, a_len - 1);
  member_b = g_bytes_new (y + 1, b_len - 1);
  return sts_compare_members (&member_a, &member_b);
}

/* lower bound first, mostly */
static void
random_lex_range (Run *run, GBytes **min, GBytes **max)
{
  *min = random_lex_bound (run);
  *max = random_lex_bound (run);
  if (g_rand_int_range (run->diff.rand, 0, 4) != 0 && compare_bounds (*min, *max) > 0)
    {
      GBytes *tmp = *min;

      *min = *max;
      *max = tmp;
    }
}

/* ours (GBytes) against an array of strings */
static void
same_members (Run *run, const char *what, GPtrArray *ours, redisReply *reply)
{
  if (reply->type != REDIS_REPLY_ARRAY || reply->elements != ours->len)
    sts_diff_mismatch (&run->diff, "%s: hbase-glib %u members, Redis type %d with %zu", what,
                       ours->len, reply->type, reply->elements);
  for (guint i = 0; i < ours->len; i++)
    {
      g_autoptr(GBytes) theirs = g_bytes_new (reply->element[i]->str, reply->element[i]->len);

      if (!g_bytes_equal (g_ptr_array_index (ours, i), theirs))
        {
          g_autofree char *a = sts_show (g_ptr_array_index (ours, i));
          g_autofree char *b = sts_show (theirs);

          sts_diff_mismatch (&run->diff, "%s: member %u is %s here, %s in Redis", what, i, a, b);
        }
    }
}

/* both failed, or neither (then FALSE: compare the results) */
static gboolean
both_failed (Run *run, gboolean ok, GError *error, redisReply *reply)
{
  if (reply->type == REDIS_REPLY_ERROR)
    {
      if (ok)
        sts_diff_mismatch (&run->diff, "Redis refused it (%s), hbase-glib did not", reply->str);
      /* for the same reason: a bad argument, not a failure of the stack */
      else if (!g_error_matches (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT))
        sts_diff_mismatch (&run->diff, "Redis refused it (%s), hbase-glib failed otherwise: %s",
                           reply->str, error->message);
      return TRUE;
    }
  if (!ok)
    sts_diff_mismatch (&run->diff, "hbase-glib failed (%s), Redis did not", error->message);
  return FALSE;
}

/* --- steps ------------------------------------------------------------------------------------ */

static void
step_lex_add (Run *run)
{
  g_autoptr(GPtrArray) members = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GArray) scores = g_array_new (FALSE, TRUE, sizeof (gdouble));
  g_autoptr(GPtrArray) argv = argv_new ("ZADD");
  g_autoptr(GError) error = NULL;
  guint n = (guint) g_rand_int_range (run->diff.rand, 1, 6);
  guint64 added = 0;
  redisReply *reply;

  g_ptr_array_add (argv, g_bytes_ref (run->lex_key));
  for (guint i = 0; i < n; i++)
    {
      GBytes *member = sts_random_member (run->diff.rand, UNIVERSE);
      gdouble zero = 0;

      g_ptr_array_add (members, member);
      g_array_append_val (scores, zero);
      g_ptr_array_add (argv, text_arg ("0"));
      g_ptr_array_add (argv, g_bytes_ref (member));
    }
  sts_diff_note (&run->diff, "ZADD lex 0 ... (%u members)", n);
  if (!hbase_zset_add (run->lex_zset, HBASE_ZADD_NONE, members, (gdouble *) (gpointer) scores->data,
                       &added, NULL, &error))
    sts_diff_mismatch (&run->diff, "failed: %s", error->message);
  reply = redis_call (run, argv);
  if ((gint64) added != sts_diff_integer (&run->diff, reply))
    sts_diff_mismatch (&run->diff, "hbase-glib %" G_GUINT64_FORMAT ", Redis %lld", added, reply->integer);
  freeReplyObject (reply);
}

static void
step_range_by_lex (Run *run)
{
  static const gint64 offsets[] = { 0, 0, 1, 3, -1 };
  static const gint64 counts[] = { 1, 2, 5, -1, 0 };
  guint set = random_set (run);
  gboolean reverse = g_rand_boolean (run->diff.rand);
  gboolean limit = g_rand_boolean (run->diff.rand);
  gint64 offset = limit ? offsets[g_rand_int_range (run->diff.rand, 0, G_N_ELEMENTS (offsets))] : 0;
  gint64 count = limit ? counts[g_rand_int_range (run->diff.rand, 0, G_N_ELEMENTS (counts))] : -1;
  g_autoptr(GBytes) min = NULL;
  g_autoptr(GBytes) max = NULL;
  g_autoptr(GPtrArray) argv = argv_new (reverse ? "ZREVRANGEBYLEX" : "ZRANGEBYLEX");
  g_autoptr(GPtrArray) ours = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *a = NULL, *b = NULL;
  redisReply *reply;

  random_lex_range (run, &min, &max);
  a = sts_show (min);
  b = sts_show (max);
  sts_diff_note (&run->diff, "%s %s %s %s LIMIT %" G_GINT64_FORMAT " %" G_GINT64_FORMAT,
                 reverse ? "ZREVRANGEBYLEX" : "ZRANGEBYLEX", name_at (set), reverse ? b : a,
                 reverse ? a : b, offset, count);
  ours = hbase_zset_range_by_lex (zset_at (run, set), min, max, reverse, offset, count, NULL, &error);
  g_ptr_array_add (argv, g_bytes_ref (key_at (run, set)));
  g_ptr_array_add (argv, g_bytes_ref (reverse ? max : min));
  g_ptr_array_add (argv, g_bytes_ref (reverse ? min : max));
  if (limit)
    {
      g_ptr_array_add (argv, text_arg ("LIMIT"));
      add_int (argv, offset);
      add_int (argv, count);
    }
  reply = redis_call (run, argv);
  if (!both_failed (run, ours != NULL, error, reply))
    same_members (run, "range by lex", ours, reply);
  freeReplyObject (reply);
}

static void
step_lex_count_or_remove (Run *run, gboolean remove)
{
  guint set = random_set (run);
  g_autoptr(GBytes) min = NULL;
  g_autoptr(GBytes) max = NULL;
  g_autoptr(GPtrArray) argv = argv_new (remove ? "ZREMRANGEBYLEX" : "ZLEXCOUNT");
  g_autoptr(GError) error = NULL;
  g_autofree char *a = NULL, *b = NULL;
  guint64 n = 0;
  gboolean ok;
  redisReply *reply;

  random_lex_range (run, &min, &max);
  a = sts_show (min);
  b = sts_show (max);
  sts_diff_note (&run->diff, "%s %s %s %s", remove ? "ZREMRANGEBYLEX" : "ZLEXCOUNT", name_at (set), a, b);
  ok = remove ? hbase_zset_remove_range_by_lex (zset_at (run, set), min, max, &n, NULL, &error)
              : hbase_zset_lex_count (zset_at (run, set), min, max, &n, NULL, &error);
  g_ptr_array_add (argv, g_bytes_ref (key_at (run, set)));
  g_ptr_array_add (argv, g_bytes_ref (min));
  g_ptr_array_add (argv, g_bytes_ref (max));
  reply = redis_call (run, argv);
  if (!both_failed (run, ok, error, reply) && (gint64) n != sts_diff_integer (&run->diff, reply))
    sts_diff_mismatch (&run->diff, "hbase-glib %" G_GUINT64_FORMAT ", Redis %lld", n, reply->integer);
  freeReplyObject (reply);
}

static void
step_remove_range (Run *run)
{
  guint set = (guint) g_rand_int_range (run->diff.rand, 0, N_ZSETS);
  gboolean by_rank = g_rand_boolean (run->diff.rand);
  g_autoptr(GPtrArray) argv = argv_new (by_rank ? "ZREMRANGEBYRANK" : "ZREMRANGEBYSCORE");
  g_autoptr(GError) error = NULL;
  guint64 n = 0;
  gboolean ok;
  redisReply *reply;

  g_ptr_array_add (argv, g_bytes_ref (key_at (run, set)));
  if (by_rank)
    {
      gint64 start = g_rand_int_range (run->diff.rand, -20, 20);
      gint64 stop = start + g_rand_int_range (run->diff.rand, -2, 6);

      sts_diff_note (&run->diff, "ZREMRANGEBYRANK %s %" G_GINT64_FORMAT " %" G_GINT64_FORMAT,
                     name_at (set), start, stop);
      ok = hbase_zset_remove_range_by_rank (zset_at (run, set), start, stop, &n, NULL, &error);
      add_int (argv, start);
      add_int (argv, stop);
    }
  else
    {
      HBaseScoreRange range;

      random_range (run, &range);
      /* mostly narrow ranges, so that the sets do not empty at once */
      if (g_rand_int_range (run->diff.rand, 0, 3) != 0 && isfinite (range.min))
        range.max = range.min + 0.5;
      sts_diff_note (&run->diff, "ZREMRANGEBYSCORE %s %s%.17g %s%.17g", name_at (set),
                     range.min_exclusive ? "(" : "", range.min, range.max_exclusive ? "(" : "",
                     range.max);
      ok = hbase_zset_remove_range_by_score (zset_at (run, set), &range, &n, NULL, &error);
      g_ptr_array_add (argv, score_arg (range.min, range.min_exclusive));
      g_ptr_array_add (argv, score_arg (range.max, range.max_exclusive));
    }
  reply = redis_call (run, argv);
  if (!both_failed (run, ok, error, reply) && (gint64) n != sts_diff_integer (&run->diff, reply))
    sts_diff_mismatch (&run->diff, "hbase-glib %" G_GUINT64_FORMAT ", Redis %lld", n, reply->integer);
  freeReplyObject (reply);
}

static void
step_mscore (Run *run)
{
  guint set = (guint) g_rand_int_range (run->diff.rand, 0, N_ZSETS + 2);
  guint n = (guint) g_rand_int_range (run->diff.rand, 1, 6);
  g_autoptr(GPtrArray) members = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GPtrArray) argv = argv_new ("ZMSCORE");
  g_autoptr(GArray) scores = NULL;
  g_autoptr(GArray) found = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *shown = NULL;
  redisReply *reply;

  g_ptr_array_add (argv, g_bytes_ref (key_at (run, set)));
  for (guint i = 0; i < n; i++)
    {
      GBytes *member = sts_random_member (run->diff.rand, UNIVERSE);

      g_ptr_array_add (members, member);
      g_ptr_array_add (argv, g_bytes_ref (member));
    }
  shown = sts_join (members);
  sts_diff_note (&run->diff, "ZMSCORE %s [%s]", name_at (set), shown);
  if (!hbase_zset_mscore (zset_at (run, set), members, &scores, &found, NULL, &error))
    sts_diff_mismatch (&run->diff, "failed: %s", error->message);
  if (scores->len != n || found->len != n)
    sts_diff_mismatch (&run->diff, "%u scores and %u flags for %u members", scores->len, found->len, n);
  reply = redis_call (run, argv);
  for (guint i = 0; i < n; i++)
    {
      redisReply *one = reply->element[i];
      gdouble score = g_array_index (scores, gdouble, i);
      gboolean is_found = g_array_index (found, gboolean, i);

      if (one->type == REDIS_REPLY_NIL ? is_found || !isnan (score)
                                       : !is_found || !same_score (score, parse_score (run, one)))
        sts_diff_mismatch (&run->diff, "member %u: hbase-glib %.17g (found %d), Redis %s", i, score,
                           is_found, one->str != NULL ? one->str : "nil");
    }
  freeReplyObject (reply);
}

static void
step_random_members (Run *run)
{
  static const gint64 counts[] = { 0, 1, 2, 3, 5, 60, -1, -3, -7, -60 };
  guint set = (guint) g_rand_int_range (run->diff.rand, 0, N_ZSETS + 2);
  gint64 count = counts[g_rand_int_range (run->diff.rand, 0, G_N_ELEMENTS (counts))];
  g_autoptr(GPtrArray) argv = argv_new ("ZRANDMEMBER");
  g_autoptr(GPtrArray) ours = NULL;
  g_autoptr(GPtrArray) whole = NULL;
  g_autoptr(GHashTable) scores = g_hash_table_new (g_bytes_hash, g_bytes_equal);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_bytes_hash, g_bytes_equal);
  g_autoptr(GError) error = NULL;
  redisReply *reply;

  sts_diff_note (&run->diff, "ZRANDMEMBER %s %" G_GINT64_FORMAT " WITHSCORES", name_at (set), count);
  ours = hbase_zset_random_members (zset_at (run, set), count, NULL, &error);
  if (ours == NULL)
    sts_diff_mismatch (&run->diff, "failed: %s", error->message);
  g_ptr_array_add (argv, g_bytes_ref (key_at (run, set)));
  add_int (argv, count);
  g_ptr_array_add (argv, text_arg ("WITHSCORES"));
  reply = redis_call (run, argv);
  /* random: the same number of entries, each an entry of the set */
  if (reply->type != REDIS_REPLY_ARRAY || reply->elements != 2 * ours->len)
    sts_diff_mismatch (&run->diff, "hbase-glib %u entries, Redis %zu", ours->len, reply->elements / 2);
  whole = collect (run, hbase_zset_range_by_rank (zset_at (run, set), 0, -1, FALSE), "ZRANGE 0 -1");
  for (guint i = 0; i < whole->len; i++)
    {
      HBaseZSetEntry *entry = g_ptr_array_index (whole, i);

      g_hash_table_insert (scores, entry->member, entry);
    }
  for (guint i = 0; i < ours->len; i++)
    {
      HBaseZSetEntry *entry = g_ptr_array_index (ours, i);
      HBaseZSetEntry *in_set = g_hash_table_lookup (scores, entry->member);
      g_autofree char *shown = sts_show (entry->member);

      if (in_set == NULL || !same_score (in_set->score, entry->score))
        sts_diff_mismatch (&run->diff, "entry %s %.17g is not in the set", shown, entry->score);
      if (count > 0 && !g_hash_table_add (seen, entry->member))
        sts_diff_mismatch (&run->diff, "entry %s comes twice with a positive count", shown);
    }
  freeReplyObject (reply);
}

static void
step_combine (Run *run)
{
  static const char *ops[] = { "ZUNION", "ZINTER", "ZDIFF" };
  static const char *aggregates[] = { "SUM", "MIN", "MAX" };
  static const gdouble weights[] = { 1, 2, -1, 0, 0.5, 3, HUGE_VAL };
  guint op = (guint) g_rand_int_range (run->diff.rand, 0, 3);
  gboolean store = g_rand_boolean (run->diff.rand);
  guint n = (guint) g_rand_int_range (run->diff.rand, 1, 4);
  guint destination = (guint) g_rand_int_range (run->diff.rand, 0, N_ZSETS);
  gboolean with_weights = op != 2 && g_rand_boolean (run->diff.rand);
  guint aggregate = op != 2 ? (guint) g_rand_int_range (run->diff.rand, 0, 4) : 3;   /* 3: none */
  g_autoptr(HBaseZCombineOptions) options = hbase_zcombine_options_new ();
  g_autoptr(GPtrArray) sources = g_ptr_array_new ();
  g_autoptr(GArray) w = g_array_new (FALSE, FALSE, sizeof (gdouble));
  g_autofree char *name = g_strdup_printf ("%s%s", ops[op], store ? "STORE" : "");
  g_autoptr(GPtrArray) argv = argv_new (name);
  g_autoptr(GError) error = NULL;
  GString *shown = g_string_new (NULL);
  g_autofree char *text = NULL;
  redisReply *reply;

  if (store)
    g_ptr_array_add (argv, g_bytes_ref (key_at (run, destination)));
  add_int (argv, n);
  for (guint i = 0; i < n; i++)
    {
      /* the same set twice, a missing one, the destination: all allowed */
      guint set = (guint) g_rand_int_range (run->diff.rand, 0, N_ZSETS + 2);

      g_ptr_array_add (sources, zset_at (run, set));
      g_ptr_array_add (argv, g_bytes_ref (key_at (run, set)));
      g_string_append_printf (shown, " %s", name_at (set));
    }
  if (with_weights)
    {
      g_ptr_array_add (argv, text_arg ("WEIGHTS"));
      g_string_append (shown, " WEIGHTS");
      for (guint i = 0; i < n; i++)
        {
          gdouble weight = weights[g_rand_int_range (run->diff.rand, 0, G_N_ELEMENTS (weights))];

          g_array_append_val (w, weight);
          g_ptr_array_add (argv, score_arg (weight, FALSE));
          g_string_append_printf (shown, " %g", weight);
        }
      hbase_zcombine_options_set_weights (options, (gdouble *) (gpointer) w->data, w->len);
    }
  if (aggregate < 3)
    {
      g_ptr_array_add (argv, text_arg ("AGGREGATE"));
      g_ptr_array_add (argv, text_arg (aggregates[aggregate]));
      g_string_append_printf (shown, " AGGREGATE %s", aggregates[aggregate]);
      options->aggregate = (HBaseZAggregate) aggregate;
    }
  text = g_string_free (shown, FALSE);
  sts_diff_note (&run->diff, "%s %s%s", name, store ? name_at (destination) : "", text);
  if (store)
    {
      guint64 card = 0;
      gboolean ok;

      if (op == 0)
        ok = hbase_zset_union_store (zset_at (run, destination), sources, options, &card, NULL, &error);
      else if (op == 1)
        ok = hbase_zset_inter_store (zset_at (run, destination), sources, options, &card, NULL, &error);
      else
        ok = hbase_zset_diff_store (zset_at (run, destination), sources, &card, NULL, &error);
      if (!ok)
        sts_diff_mismatch (&run->diff, "failed: %s", error->message);
      reply = redis_call (run, argv);
      if ((gint64) card != sts_diff_integer (&run->diff, reply))
        sts_diff_mismatch (&run->diff, "hbase-glib %" G_GUINT64_FORMAT ", Redis %lld", card,
                           reply->integer);
      freeReplyObject (reply);
      compare_whole (run, destination, "the destination");
    }
  else
    {
      g_autoptr(GPtrArray) others = g_ptr_array_new ();
      g_autoptr(GPtrArray) ours = NULL;

      for (guint i = 1; i < n; i++)
        g_ptr_array_add (others, g_ptr_array_index (sources, i));
      if (op == 0)
        ours = hbase_zset_union (g_ptr_array_index (sources, 0), others, options, NULL, &error);
      else if (op == 1)
        ours = hbase_zset_inter (g_ptr_array_index (sources, 0), others, options, NULL, &error);
      else
        ours = hbase_zset_diff (g_ptr_array_index (sources, 0), others, NULL, &error);
      if (ours == NULL)
        sts_diff_mismatch (&run->diff, "failed: %s", error->message);
      g_ptr_array_add (argv, text_arg ("WITHSCORES"));
      reply = redis_call (run, argv);
      same_entries (run, name, ours, reply);
      freeReplyObject (reply);
    }
}

/* --- the run ------------------------------------------------------------------------------------ */

void
zr_setup (Run *run, HBaseTable *table)
{
  g_autofree char *lex = g_strdup_printf ("%slex", run->diff.prefix);
  g_autofree char *missing = g_strdup_printf ("%smissing", run->diff.prefix);
  HBaseZSetOptions options = HBASE_ZSET_OPTIONS_INIT;
  g_autoptr(GError) error = NULL;

  options.page_size = 3;   /* pages smaller than the set */
  run->lex_key = sts_bytes (lex);
  run->lex_zset = hbase_zset_new (table, run->lex_key, &options, &error);
  g_assert_no_error (error);
  run->missing_key = sts_bytes (missing);
  run->missing_zset = hbase_zset_new (table, run->missing_key, NULL, &error);
  g_assert_no_error (error);
}

void
zr_teardown (Run *run)
{
  g_clear_object (&run->lex_zset);
  g_clear_object (&run->missing_zset);
  g_clear_pointer (&run->lex_key, g_bytes_unref);
  g_clear_pointer (&run->missing_key, g_bytes_unref);
}

void
zr_step (Run *run)
{
  guint op = (guint) g_rand_int_range (run->diff.rand, 0, 100);

  if (op < 20)
    step_lex_add (run);
  else if (op < 38)
    step_range_by_lex (run);
  else if (op < 46)
    step_lex_count_or_remove (run, FALSE);
  else if (op < 52)
    step_lex_count_or_remove (run, TRUE);
  else if (op < 62)
    step_remove_range (run);
  else if (op < 70)
    step_mscore (run);
  else if (op < 80)
    step_random_members (run);
  else
    step_combine (run);
}
