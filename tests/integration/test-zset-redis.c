/* SPDX-License-Identifier: Apache-2.0 */
/* Differential test of HBaseZSet against a real redis-server: long random
 * sequences of sorted-set commands (several fixed seeds, binary and
 * non-ASCII members, extreme scores: ±inf, -0.0, ±DBL_MAX, denormals,
 * many ties) applied both to HBase through hbase-glib and to Redis, every
 * reply compared: ZADD with NX/XX/GT/LT/CH (and the refused combinations),
 * ZADD INCR, ZINCRBY (with the NaN error), ZSCORE, ZMSCORE, ZCARD,
 * ZRANGEBYSCORE and ZREVRANGEBYSCORE with (/inf bounds and LIMIT, ZRANGE
 * by rank with REV, ZRANK, ZREVRANK, ZCOUNT, ZREM, ZPOPMIN, ZPOPMAX, and
 * (zset-redis-commands.c) the lex ranges, range removals, ZRANDMEMBER and
 * ZUNION/ZINTER/ZDIFF with their STORE forms.
 * Scores are compared as doubles parsed from Redis's replies.
 *
 * Redis is the stack's (HBASE_GLIB_TEST_REDIS, default 127.0.0.1:6379);
 * keys are prefixed with this run's pid and removed at the end.
 * HBASE_GLIB_TEST_QUICK=1 runs fewer steps. */
#include "config.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "zset-redis-private.h"


/* --- values ------------------------------------------------------------------------------- */

gdouble
random_score (GRand *rand)
{
  switch (g_rand_int_range (rand, 0, 16))
    {
    case 0:
      return HUGE_VAL;
    case 1:
      return -HUGE_VAL;
    case 2:
      return -0.0;
    case 3:
      return DBL_MAX;
    case 4:
      return -DBL_MAX;
    case 5:
      return g_rand_boolean (rand) ? 4.9406564584124654e-324 : -4.9406564584124654e-324;
    case 6:
      return g_rand_double_range (rand, -1e9, 1e9);
    case 7:
      return 0.1 * g_rand_int_range (rand, -30, 30);
    default:
      /* few distinct values: many ties */
      return (gdouble) g_rand_int_range (rand, -4, 5) / 2.0;
    }
}

static char *
score_text (gdouble score)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  if (isinf (score))
    return g_strdup (score > 0 ? "+inf" : "-inf");
  return g_strdup (g_ascii_formatd (buffer, sizeof buffer, "%.17g", score));
}

GBytes *
text_arg (const char *text)
{
  return sts_bytes (text);
}

GBytes *
score_arg (gdouble score, gboolean exclusive)
{
  g_autofree char *text = score_text (score);
  char *full = g_strdup_printf ("%s%s", exclusive ? "(" : "", text);

  return g_bytes_new_take (full, strlen (full));
}

gboolean
same_score (gdouble a, gdouble b)
{
  return a == b || (isnan (a) && isnan (b));
}

gdouble
parse_score (Run *run, redisReply *reply)
{
  char *end = NULL;
  gdouble score;

  if (reply->type != REDIS_REPLY_STRING)
    sts_diff_mismatch (&run->diff, "Redis replied type %d (%s), not a score", reply->type,
                       reply->str != NULL ? reply->str : "");
  score = g_ascii_strtod (reply->str, &end);
  if (end == reply->str || *end != '\0')
    sts_diff_mismatch (&run->diff, "Redis's score \"%s\" does not parse", reply->str);
  return score;
}

/* --- Redis side ------------------------------------------------------------------------------ */

redisReply *
redis_call (Run *run, GPtrArray *argv)
{
  return sts_redis_command (run->diff.redis, argv);
}

GPtrArray *
command (Run *run, const char *name, guint zset)
{
  GPtrArray *argv = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

  g_ptr_array_add (argv, text_arg (name));
  g_ptr_array_add (argv, g_bytes_ref (run->keys[zset]));
  return argv;
}

/* ours (HBaseZSetEntry) against a WITHSCORES reply */
void
same_entries (Run *run, const char *what, GPtrArray *ours, redisReply *reply)
{
  if (reply->type != REDIS_REPLY_ARRAY)
    sts_diff_mismatch (&run->diff, "%s: Redis replied type %d (%s)", what, reply->type,
                       reply->str != NULL ? reply->str : "");
  if (reply->elements != 2 * ours->len)
    sts_diff_mismatch (&run->diff, "%s: hbase-glib %u entries, Redis %zu", what, ours->len,
                       reply->elements / 2);
  for (guint i = 0; i < ours->len; i++)
    {
      HBaseZSetEntry *entry = g_ptr_array_index (ours, i);
      redisReply *member = reply->element[2 * i];
      gdouble score = parse_score (run, reply->element[2 * i + 1]);

      if (g_bytes_get_size (entry->member) != member->len ||
          (member->len > 0 &&
           memcmp (g_bytes_get_data (entry->member, NULL), member->str, member->len) != 0))
        {
          g_autofree char *a = sts_show (entry->member);
          g_autoptr(GBytes) theirs = g_bytes_new (member->str, member->len);
          g_autofree char *b = sts_show (theirs);

          sts_diff_mismatch (&run->diff, "%s: entry %u is %s here, %s in Redis", what, i, a, b);
        }
      if (!same_score (entry->score, score))
        sts_diff_mismatch (&run->diff, "%s: entry %u scores %.17g here, %.17g in Redis", what, i,
                           entry->score, score);
    }
}

GPtrArray *
collect (Run *run, HBaseZSetIter *iter, const char *what)
{
  g_autoptr(GError) error = NULL;
  GPtrArray *entries = hbase_zset_iter_collect (iter, NULL, &error);

  if (entries == NULL)
    sts_diff_mismatch (&run->diff, "%s failed: %s", what, error->message);
  hbase_zset_iter_unref (iter);
  return entries;
}

/* --- steps ------------------------------------------------------------------------------------ */

static const struct {
  HBaseZAddFlags flags;
  const char *words;
} flag_sets[] = {
  { HBASE_ZADD_NONE, "" },
  { HBASE_ZADD_NX, "NX" },
  { HBASE_ZADD_XX, "XX" },
  { HBASE_ZADD_GT, "GT" },
  { HBASE_ZADD_LT, "LT" },
  { HBASE_ZADD_CH, "CH" },
  { HBASE_ZADD_XX | HBASE_ZADD_GT, "XX GT" },
  { HBASE_ZADD_XX | HBASE_ZADD_LT | HBASE_ZADD_CH, "XX LT CH" },
  { HBASE_ZADD_NX | HBASE_ZADD_CH, "NX CH" },
  { HBASE_ZADD_GT | HBASE_ZADD_CH, "GT CH" },
  { HBASE_ZADD_LT | HBASE_ZADD_CH, "LT CH" },
  { HBASE_ZADD_XX | HBASE_ZADD_CH, "XX CH" },
  { HBASE_ZADD_NX | HBASE_ZADD_XX, "NX XX" },           /* refused */
  { HBASE_ZADD_GT | HBASE_ZADD_LT, "GT LT" },           /* refused */
  { HBASE_ZADD_NX | HBASE_ZADD_GT, "NX GT" },           /* refused */
};

static void
add_flag_words (GPtrArray *argv, const char *words)
{
  g_auto(GStrv) parts = g_strsplit (words, " ", -1);

  for (guint i = 0; parts[i] != NULL; i++)
    if (parts[i][0] != '\0')
      g_ptr_array_add (argv, text_arg (parts[i]));
}


/* Redis refused a command hbase-glib refused too: for the same reason, a
 * bad argument (the code a caller tests), not a failure of the stack. */
static void
refused_alike (Run *run, const GError *error, redisReply *reply)
{
  if (!g_error_matches (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT))
    sts_diff_mismatch (&run->diff, "Redis refused it (%s), hbase-glib failed otherwise: %s",
                       reply->str, error->message);
}

static void
step_zadd (Run *run)
{
  guint zset = (guint) g_rand_int_range (run->diff.rand, 0, N_ZSETS);
  guint f = (guint) g_rand_int_range (run->diff.rand, 0, G_N_ELEMENTS (flag_sets));
  guint n = (guint) g_rand_int_range (run->diff.rand, 1, 5);
  g_autoptr(GPtrArray) members = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GArray) scores = g_array_new (FALSE, FALSE, sizeof (gdouble));
  g_autoptr(GPtrArray) argv = command (run, "ZADD", zset);
  GString *shown = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  redisReply *reply;
  guint64 result = 0;
  gboolean ok;

  add_flag_words (argv, flag_sets[f].words);
  for (guint i = 0; i < n; i++)
    {
      GBytes *member = sts_random_member (run->diff.rand, UNIVERSE);
      gdouble score = random_score (run->diff.rand);
      g_autofree char *m = sts_show (member);

      g_ptr_array_add (members, member);
      g_array_append_val (scores, score);
      g_ptr_array_add (argv, score_arg (score, FALSE));
      g_ptr_array_add (argv, g_bytes_ref (member));
      g_string_append_printf (shown, " %.17g %s", score, m);
    }
  sts_diff_note (&run->diff, "ZADD z%u %s%s", zset, flag_sets[f].words, shown->str);
  g_string_free (shown, TRUE);
  ok = hbase_zset_add (run->zsets[zset], flag_sets[f].flags, members, (gdouble *) scores->data,
                       &result, NULL, &error);
  reply = redis_call (run, argv);
  if (reply->type == REDIS_REPLY_ERROR)
    {
      if (ok)
        sts_diff_mismatch (&run->diff, "Redis refused it (%s), hbase-glib did not", reply->str);
      else
        refused_alike (run, error, reply);
    }
  else if (!ok)
    sts_diff_mismatch (&run->diff, "hbase-glib failed (%s), Redis did not", error->message);
  else if ((gint64) result != sts_diff_integer (&run->diff, reply))
    sts_diff_mismatch (&run->diff, "hbase-glib %" G_GUINT64_FORMAT ", Redis %lld", result,
                       reply->integer);
  freeReplyObject (reply);
}

static void
step_incr (Run *run, gboolean zincrby)
{
  guint zset = (guint) g_rand_int_range (run->diff.rand, 0, N_ZSETS);
  guint f = zincrby ? 0 : (guint) g_rand_int_range (run->diff.rand, 0, G_N_ELEMENTS (flag_sets));
  g_autoptr(GBytes) member = sts_random_member (run->diff.rand, UNIVERSE);
  gdouble increment = random_score (run->diff.rand);
  g_autoptr(GPtrArray) argv = command (run, zincrby ? "ZINCRBY" : "ZADD", zset);
  g_autofree char *shown = sts_show (member);
  g_autoptr(GError) error = NULL;
  redisReply *reply;
  gboolean ok, applied = FALSE;
  gdouble score = NAN;

  if (zincrby)
    {
      sts_diff_note (&run->diff, "ZINCRBY z%u %.17g %s", zset, increment, shown);
      ok = hbase_zset_incr_by (run->zsets[zset], member, increment, &score, NULL, &error);
      applied = ok;
    }
  else
    {
      add_flag_words (argv, flag_sets[f].words);
      g_ptr_array_add (argv, text_arg ("INCR"));
      sts_diff_note (&run->diff, "ZADD z%u %s INCR %.17g %s", zset, flag_sets[f].words, increment,
                     shown);
      ok = hbase_zset_add_incr (run->zsets[zset], flag_sets[f].flags, member, increment, &applied,
                                &score, NULL, &error);
    }
  g_ptr_array_add (argv, score_arg (increment, FALSE));
  g_ptr_array_add (argv, g_bytes_ref (member));
  reply = redis_call (run, argv);
  if (reply->type == REDIS_REPLY_ERROR)
    {
      if (ok)
        sts_diff_mismatch (&run->diff, "Redis refused it (%s), hbase-glib did not", reply->str);
      else
        refused_alike (run, error, reply);
      /* the NaN error: both say so */
      if (!ok && strstr (reply->str, "NaN") != NULL && strstr (error->message, "NaN") == NULL)
        sts_diff_mismatch (&run->diff, "Redis: %s; hbase-glib: %s", reply->str, error->message);
    }
  else if (!ok)
    sts_diff_mismatch (&run->diff, "hbase-glib failed (%s), Redis did not", error->message);
  else if (reply->type == REDIS_REPLY_NIL)
    {
      if (applied)
        sts_diff_mismatch (&run->diff, "Redis: nil, hbase-glib applied it (%.17g)", score);
    }
  else
    {
      gdouble theirs = parse_score (run, reply);

      if (!applied || !same_score (score, theirs))
        sts_diff_mismatch (&run->diff, "hbase-glib %s %.17g, Redis %.17g",
                           applied ? "" : "(not applied)", score, theirs);
    }
  freeReplyObject (reply);
}

static void
step_scores (Run *run)
{
  guint zset = (guint) g_rand_int_range (run->diff.rand, 0, N_ZSETS);
  guint n = (guint) g_rand_int_range (run->diff.rand, 1, 5);
  g_autoptr(GPtrArray) members = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GPtrArray) argv = command (run, n == 1 ? "ZSCORE" : "ZMSCORE", zset);
  g_autofree gdouble *scores = g_new0 (gdouble, n);
  g_autofree gboolean *found = g_new0 (gboolean, n);
  g_autofree char *shown = NULL;
  g_autoptr(GError) error = NULL;
  redisReply *reply;

  for (guint i = 0; i < n; i++)
    {
      GBytes *member = sts_random_member (run->diff.rand, UNIVERSE);

      g_ptr_array_add (members, member);
      g_ptr_array_add (argv, g_bytes_ref (member));
    }
  shown = sts_join (members);
  sts_diff_note (&run->diff, "%s z%u [%s]", n == 1 ? "ZSCORE" : "ZMSCORE", zset, shown);
  if (n == 1)
    {
      if (!hbase_zset_score (run->zsets[zset], g_ptr_array_index (members, 0), found, scores,
                             NULL, &error))
        sts_diff_mismatch (&run->diff, "failed: %s", error->message);
    }
  else if (!hbase_zset_scores (run->zsets[zset], members, found, scores, NULL, &error))
    sts_diff_mismatch (&run->diff, "failed: %s", error->message);
  reply = redis_call (run, argv);
  for (guint i = 0; i < n; i++)
    {
      redisReply *one = n == 1 ? reply : reply->element[i];

      if (one->type == REDIS_REPLY_NIL)
        {
          if (found[i] || !isnan (scores[i]))
            sts_diff_mismatch (&run->diff, "member %u: Redis nil, hbase-glib %.17g", i, scores[i]);
        }
      else if (!found[i] || !same_score (scores[i], parse_score (run, one)))
        sts_diff_mismatch (&run->diff, "member %u: hbase-glib %.17g (found %d), Redis %s", i,
                           scores[i], found[i], one->str);
    }
  freeReplyObject (reply);
}

static void
step_card (Run *run)
{
  guint zset = (guint) g_rand_int_range (run->diff.rand, 0, N_ZSETS);
  g_autoptr(GPtrArray) argv = command (run, "ZCARD", zset);
  g_autoptr(GError) error = NULL;
  redisReply *reply;
  guint64 card = 0;

  sts_diff_note (&run->diff, "ZCARD z%u", zset);
  if (!hbase_zset_card (run->zsets[zset], &card, NULL, &error))
    sts_diff_mismatch (&run->diff, "failed: %s", error->message);
  reply = redis_call (run, argv);
  if ((gint64) card != sts_diff_integer (&run->diff, reply))
    sts_diff_mismatch (&run->diff, "hbase-glib %" G_GUINT64_FORMAT ", Redis %lld", card,
                       reply->integer);
  freeReplyObject (reply);
}

void
random_range (Run *run, HBaseScoreRange *range)
{
  static const gdouble edges[] = { -HUGE_VAL, HUGE_VAL, -0.0, 0, 1, -1, 0.5, DBL_MAX, -DBL_MAX,
                                   4.9406564584124654e-324 };

  for (guint k = 0; k < 2; k++)
    {
      gdouble value = g_rand_int_range (run->diff.rand, 0, 3) == 0
                        ? edges[g_rand_int_range (run->diff.rand, 0, G_N_ELEMENTS (edges))]
                        : random_score (run->diff.rand);
      gboolean exclusive = g_rand_int_range (run->diff.rand, 0, 3) == 0;

      if (k == 0)
        {
          range->min = value;
          range->min_exclusive = exclusive;
        }
      else
        {
          range->max = value;
          range->max_exclusive = exclusive;
        }
    }
  /* mostly non-empty ranges */
  if (range->min > range->max && g_rand_int_range (run->diff.rand, 0, 4) != 0)
    {
      gdouble tmp = range->min;

      range->min = range->max;
      range->max = tmp;
    }
}

static void
step_range_by_score (Run *run)
{
  guint zset = (guint) g_rand_int_range (run->diff.rand, 0, N_ZSETS);
  gboolean reverse = g_rand_boolean (run->diff.rand);
  gboolean limit = g_rand_boolean (run->diff.rand);
  static const gint64 offsets[] = { 0, 0, 1, 2, 5, -1 };
  static const gint64 counts[] = { 1, 2, 3, 7, -1, 0 };
  gint64 offset = limit ? offsets[g_rand_int_range (run->diff.rand, 0, G_N_ELEMENTS (offsets))] : 0;
  gint64 count = limit ? counts[g_rand_int_range (run->diff.rand, 0, G_N_ELEMENTS (counts))] : -1;
  HBaseScoreRange range;
  g_autoptr(GPtrArray) argv = command (run, reverse ? "ZREVRANGEBYSCORE" : "ZRANGEBYSCORE", zset);
  g_autoptr(GPtrArray) ours = NULL;
  redisReply *reply;

  random_range (run, &range);
  sts_diff_note (&run->diff, "%s z%u %s%.17g %s%.17g LIMIT %" G_GINT64_FORMAT " %" G_GINT64_FORMAT,
                 reverse ? "ZREVRANGEBYSCORE" : "ZRANGEBYSCORE", zset,
                 range.min_exclusive ? "(" : "", range.min, range.max_exclusive ? "(" : "",
                 range.max, offset, count);
  ours = collect (run, hbase_zset_range_by_score (run->zsets[zset], &range, reverse, offset, count),
                  "range by score");
  if (reverse)
    {
      g_ptr_array_add (argv, score_arg (range.max, range.max_exclusive));
      g_ptr_array_add (argv, score_arg (range.min, range.min_exclusive));
    }
  else
    {
      g_ptr_array_add (argv, score_arg (range.min, range.min_exclusive));
      g_ptr_array_add (argv, score_arg (range.max, range.max_exclusive));
    }
  g_ptr_array_add (argv, text_arg ("WITHSCORES"));
  if (limit)
    {
      char *o = g_strdup_printf ("%" G_GINT64_FORMAT, offset);
      char *c = g_strdup_printf ("%" G_GINT64_FORMAT, count);

      g_ptr_array_add (argv, text_arg ("LIMIT"));
      g_ptr_array_add (argv, g_bytes_new_take (o, strlen (o)));
      g_ptr_array_add (argv, g_bytes_new_take (c, strlen (c)));
    }
  reply = redis_call (run, argv);
  same_entries (run, "range by score", ours, reply);
  freeReplyObject (reply);
}

static void
step_range_by_rank (Run *run)
{
  guint zset = (guint) g_rand_int_range (run->diff.rand, 0, N_ZSETS);
  gboolean reverse = g_rand_boolean (run->diff.rand);
  gint64 start = g_rand_int_range (run->diff.rand, -50, 50);
  gint64 stop = g_rand_int_range (run->diff.rand, -50, 50);
  g_autoptr(GPtrArray) argv = command (run, "ZRANGE", zset);
  g_autoptr(GPtrArray) ours = NULL;
  redisReply *reply;
  char *text;

  sts_diff_note (&run->diff, "ZRANGE z%u %" G_GINT64_FORMAT " %" G_GINT64_FORMAT "%s", zset, start,
                 stop, reverse ? " REV" : "");
  ours = collect (run, hbase_zset_range_by_rank (run->zsets[zset], start, stop, reverse),
                  "range by rank");
  text = g_strdup_printf ("%" G_GINT64_FORMAT, start);
  g_ptr_array_add (argv, g_bytes_new_take (text, strlen (text)));
  text = g_strdup_printf ("%" G_GINT64_FORMAT, stop);
  g_ptr_array_add (argv, g_bytes_new_take (text, strlen (text)));
  if (reverse)
    g_ptr_array_add (argv, text_arg ("REV"));
  g_ptr_array_add (argv, text_arg ("WITHSCORES"));
  reply = redis_call (run, argv);
  same_entries (run, "range by rank", ours, reply);
  freeReplyObject (reply);
}

static void
step_rank (Run *run)
{
  guint zset = (guint) g_rand_int_range (run->diff.rand, 0, N_ZSETS);
  gboolean reverse = g_rand_boolean (run->diff.rand);
  g_autoptr(GBytes) member = sts_random_member (run->diff.rand, UNIVERSE);
  g_autoptr(GPtrArray) argv = command (run, reverse ? "ZREVRANK" : "ZRANK", zset);
  g_autofree char *shown = sts_show (member);
  g_autoptr(GError) error = NULL;
  redisReply *reply;
  gboolean found = FALSE;
  guint64 rank = 0;
  gdouble score = 0;

  sts_diff_note (&run->diff, "%s z%u %s", reverse ? "ZREVRANK" : "ZRANK", zset, shown);
  if (!hbase_zset_rank (run->zsets[zset], member, reverse, &found, &rank, &score, NULL, &error))
    sts_diff_mismatch (&run->diff, "failed: %s", error->message);
  g_ptr_array_add (argv, g_bytes_ref (member));
  reply = redis_call (run, argv);
  if (reply->type == REDIS_REPLY_NIL
      ? found : (!found || (gint64) rank != sts_diff_integer (&run->diff, reply)))
    sts_diff_mismatch (&run->diff, "hbase-glib %s%" G_GUINT64_FORMAT ", Redis %lld",
                       found ? "" : "(missing) ", rank,
                       reply->type == REDIS_REPLY_NIL ? -1 : reply->integer);
  freeReplyObject (reply);
}

static void
step_count (Run *run)
{
  guint zset = (guint) g_rand_int_range (run->diff.rand, 0, N_ZSETS);
  HBaseScoreRange range;
  g_autoptr(GPtrArray) argv = command (run, "ZCOUNT", zset);
  g_autoptr(GError) error = NULL;
  redisReply *reply;
  guint64 count = 0;

  random_range (run, &range);
  sts_diff_note (&run->diff, "ZCOUNT z%u %s%.17g %s%.17g", zset, range.min_exclusive ? "(" : "",
                 range.min, range.max_exclusive ? "(" : "", range.max);
  if (!hbase_zset_count (run->zsets[zset], &range, &count, NULL, &error))
    sts_diff_mismatch (&run->diff, "failed: %s", error->message);
  g_ptr_array_add (argv, score_arg (range.min, range.min_exclusive));
  g_ptr_array_add (argv, score_arg (range.max, range.max_exclusive));
  reply = redis_call (run, argv);
  if ((gint64) count != sts_diff_integer (&run->diff, reply))
    sts_diff_mismatch (&run->diff, "hbase-glib %" G_GUINT64_FORMAT ", Redis %lld", count,
                       reply->integer);
  freeReplyObject (reply);
}

static void
step_rem (Run *run)
{
  guint zset = (guint) g_rand_int_range (run->diff.rand, 0, N_ZSETS);
  guint n = (guint) g_rand_int_range (run->diff.rand, 1, 4);
  g_autoptr(GPtrArray) members = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GPtrArray) argv = command (run, "ZREM", zset);
  g_autofree char *shown = NULL;
  g_autoptr(GError) error = NULL;
  redisReply *reply;
  guint64 removed = 0;

  for (guint i = 0; i < n; i++)
    {
      GBytes *member = sts_random_member (run->diff.rand, UNIVERSE);

      g_ptr_array_add (members, member);
      g_ptr_array_add (argv, g_bytes_ref (member));
    }
  shown = sts_join (members);
  sts_diff_note (&run->diff, "ZREM z%u [%s]", zset, shown);
  if (!hbase_zset_remove (run->zsets[zset], members, &removed, NULL, &error))
    sts_diff_mismatch (&run->diff, "failed: %s", error->message);
  reply = redis_call (run, argv);
  if ((gint64) removed != sts_diff_integer (&run->diff, reply))
    sts_diff_mismatch (&run->diff, "hbase-glib %" G_GUINT64_FORMAT ", Redis %lld", removed,
                       reply->integer);
  freeReplyObject (reply);
}

static void
step_pop (Run *run)
{
  guint zset = (guint) g_rand_int_range (run->diff.rand, 0, N_ZSETS);
  gboolean max = g_rand_boolean (run->diff.rand);
  guint count = (guint) g_rand_int_range (run->diff.rand, 0, 4);
  g_autoptr(GPtrArray) argv = command (run, max ? "ZPOPMAX" : "ZPOPMIN", zset);
  g_autoptr(GPtrArray) ours = NULL;
  g_autoptr(GError) error = NULL;
  redisReply *reply;
  char *text;

  sts_diff_note (&run->diff, "%s z%u %u", max ? "ZPOPMAX" : "ZPOPMIN", zset, count);
  if (!hbase_zset_pop (run->zsets[zset], max, count, &ours, NULL, &error))
    sts_diff_mismatch (&run->diff, "failed: %s", error->message);
  text = g_strdup_printf ("%u", count);
  g_ptr_array_add (argv, g_bytes_new_take (text, strlen (text)));
  reply = redis_call (run, argv);
  same_entries (run, "pop", ours, reply);
  freeReplyObject (reply);
}

void
compare_whole (Run *run, guint zset, const char *what)
{
  g_autoptr(GPtrArray) ours = collect (run, hbase_zset_range_by_rank (run->zsets[zset], 0, -1,
                                                                      FALSE), what);
  g_autoptr(GPtrArray) argv = command (run, "ZRANGE", zset);
  redisReply *reply;

  g_ptr_array_add (argv, text_arg ("0"));
  g_ptr_array_add (argv, text_arg ("-1"));
  g_ptr_array_add (argv, text_arg ("WITHSCORES"));
  reply = redis_call (run, argv);
  same_entries (run, what, ours, reply);
  freeReplyObject (reply);
}

static void
run_case (TestTableFixture *fixture, gconstpointer data)
{
  guint32 seed = GPOINTER_TO_UINT (fixture->data);
  HBaseTable *table = fixture->table;
  guint steps = test_quick () ? 150 : 2500;
  Run run = { 0 };

  TEST_SKIP_IF_UNREACHABLE (fixture);
  if (!sts_diff_start (&run.diff, "zset", seed))
    return;
  for (guint i = 0; i < N_ZSETS; i++)
    {
      HBaseZSetOptions options = HBASE_ZSET_OPTIONS_INIT;
      g_autofree char *name = g_strdup_printf ("%sk%u", run.diff.prefix, i);
      g_autoptr(GError) error = NULL;

      /* pages smaller than the sets */
      options.page_size = 2 + i * 5;
      run.keys[i] = sts_bytes (name);
      run.zsets[i] = hbase_zset_new (table, run.keys[i], &options, &error);
      g_assert_no_error (error);
    }
  zr_setup (&run, table);
  for (run.diff.step = 0; run.diff.step < steps; run.diff.step++)
    {
      guint op = (guint) g_rand_int_range (run.diff.rand, 0, 100);

      if (g_rand_int_range (run.diff.rand, 0, 3) == 0)
                 zr_step (&run);
      else if (op < 25)
                 step_zadd (&run);
      else if (op < 31)
                 step_incr (&run, FALSE);
      else if (op < 37)
                 step_incr (&run, TRUE);
      else if (op < 45)
                 step_scores (&run);
      else if (op < 49)
                 step_card (&run);
      else if (op < 63)
                 step_range_by_score (&run);
      else if (op < 71)
                 step_range_by_rank (&run);
      else if (op < 79)
                 step_rank (&run);
      else if (op < 85)
                 step_count (&run);
      else if (op < 93)
                 step_rem (&run);
      else
                 step_pop (&run);
      if (run.diff.step % 250 == 249)
                 compare_whole (&run, run.diff.step / 250 % N_ZSETS, "ZRANGE 0 -1");
    }
  for (guint i = 0; i < N_ZSETS; i++)
    {
      compare_whole (&run, i, "final ZRANGE 0 -1");
      {
                 guint64 card = 0;

                 g_assert_true (hbase_zset_card (run.zsets[i], &card, NULL, NULL));
                 g_test_message ("seed %u: z%u ends with %" G_GUINT64_FORMAT " members", seed, i,
                        card);
      }
    }
  for (guint i = 0; i < N_ZSETS; i++)
    {
      g_object_unref (run.zsets[i]);
      g_bytes_unref (run.keys[i]);
    }
  zr_teardown (&run);
  sts_diff_finish (&run.diff);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  return sts_diff_run ("/integration/zset-redis", "hbase_glib_zset_redis", run_case);
}
