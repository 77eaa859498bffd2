/* SPDX-License-Identifier: Apache-2.0 */
/* chaos-structures.c: the chaos workload's sets and sorted sets, with a
 * real redis-server as the oracle: each command HBase acknowledged is sent
 * to Redis too and the replies must agree.  For a command in doubt the
 * oracle keeps the key's contents before it and after it (computed, not
 * sent to Redis: ZINCRBY is not idempotent, and applying it twice is an
 * error the check must see); before the key's next command it is read back
 * from HBase and must hold one of the two, which then becomes the oracle's
 * copy.  At the end every key is compared: with the oracle, or, when its
 * last command is still in doubt, with its before and after.  At most
 * CHAOS_MAX_IN_DOUBT_SHARE of the commands may end in doubt. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "chaos-workload.h"

#define N_SETS 6
#define N_ZSETS 6
#define N_MEMBERS 40

struct _ChaosStructures {
  ChaosRun *run;
  HBaseTable *table;
  redisContext *redis;
  HBaseSet *sets[N_SETS];
  HBaseZSet *zsets[N_ZSETS];
  gboolean set_unsynced[N_SETS];    /* a command in doubt not yet resolved */
  gboolean zset_unsynced[N_ZSETS];
  /* for each key with a command in doubt: its contents before and after
   * that command (sorted texts, as read_set and read_zset give them) and
   * the command */
  GPtrArray *set_before[N_SETS], *set_after[N_SETS];
  GPtrArray *zset_before[N_ZSETS], *zset_after[N_ZSETS];
  char *set_doubt[N_SETS], *zset_doubt[N_ZSETS];
  GRand *rand;
  guint64 commands, acked, in_doubt, resyncs, resolved_applied, resolved_not_applied, resync_wrong;
  guint64 reply_mismatches;
  char *first_mismatch;
};

enum { SADD, SREM, ZADD, ZINCRBY, ZREM };
static const char *const command_names[] = { "SADD", "SREM", "ZADD", "ZINCRBY", "ZREM" };

static gint
compare_texts (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static GBytes *
text_bytes (const char *text)
{
  return g_bytes_new (text, strlen (text));
}

static char *
oracle_key (const char *kind, guint i)
{
  return g_strdup_printf ("%s:%s-%u", CHAOS_ORACLE_PREFIX, kind, i);
}

/* A command to the oracle; Redis is not part of the chaos, so a failure
 * ends the run. */
static redisReply *
oracle (ChaosStructures *s, const char *format, ...)
{
  redisReply *reply;
  va_list args;

  va_start (args, format);
  reply = redisvCommand (s->redis, format, args);
  va_end (args);
  if (reply == NULL || reply->type == REDIS_REPLY_ERROR)
    {
      fprintf (stderr, "chaos-workload: the redis oracle failed: %s\n",
               reply != NULL ? reply->str : s->redis->errstr);
      exit (2);
    }
  return reply;
}

static void
mismatch (ChaosStructures *s, const char *format, ...) G_GNUC_PRINTF (2, 3);

static void
mismatch (ChaosStructures *s, const char *format, ...)
{
  g_autofree char *text = NULL;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  s->reply_mismatches++;
  chaos_log ("structures: %s", text);
  if (s->first_mismatch == NULL)
    s->first_mismatch = g_steal_pointer (&text);
}

ChaosStructures *
chaos_structures_new (ChaosRun *run, HBaseTable *table, GError **error)
{
  ChaosStructures *s = g_new0 (ChaosStructures, 1);
  struct timeval timeout = { 5, 0 };
  guint i;

  s->run = run;
  s->table = g_object_ref (table);
  s->rand = g_rand_new_with_seed (1234);
  for (i = 0; i < G_N_ELEMENTS (command_names); i++)
    {
      g_autofree char *kind = g_strdup_printf ("structures: %s", command_names[i]);

      chaos_kind_expect (kind, 20);
    }
  s->redis = redisConnectWithTimeout (run->redis_host, (int) run->redis_port, timeout);
  if (s->redis == NULL || s->redis->err != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "redis oracle at %s:%u: %s", run->redis_host,
                   run->redis_port, s->redis != NULL ? s->redis->errstr : "out of memory");
      chaos_structures_free (s);
      return NULL;
    }
  for (i = 0; i < N_SETS; i++)
    {
      g_autofree char *name = g_strdup_printf ("set-%u", i);
      g_autoptr(GBytes) key = text_bytes (name);
      g_autofree char *okey = oracle_key ("set", i);

      s->sets[i] = hbase_set_new (table, key, NULL, error);
      if (s->sets[i] == NULL)
        {
          chaos_structures_free (s);
          return NULL;
        }
      freeReplyObject (oracle (s, "DEL %s", okey));
    }
  for (i = 0; i < N_ZSETS; i++)
    {
      g_autofree char *name = g_strdup_printf ("zset-%u", i);
      g_autoptr(GBytes) key = text_bytes (name);
      g_autofree char *okey = oracle_key ("zset", i);

      s->zsets[i] = hbase_zset_new (table, key, NULL, error);
      if (s->zsets[i] == NULL)
        {
          chaos_structures_free (s);
          return NULL;
        }
      freeReplyObject (oracle (s, "DEL %s", okey));
    }
  return s;
}

void
chaos_structures_free (ChaosStructures *s)
{
  guint i;

  for (i = 0; i < N_SETS; i++)
    {
      g_clear_object (&s->sets[i]);
      g_clear_pointer (&s->set_before[i], g_ptr_array_unref);
      g_clear_pointer (&s->set_after[i], g_ptr_array_unref);
      g_clear_pointer (&s->set_doubt[i], g_free);
    }
  for (i = 0; i < N_ZSETS; i++)
    {
      g_clear_object (&s->zsets[i]);
      g_clear_pointer (&s->zset_before[i], g_ptr_array_unref);
      g_clear_pointer (&s->zset_after[i], g_ptr_array_unref);
      g_clear_pointer (&s->zset_doubt[i], g_free);
    }
  g_clear_pointer (&s->redis, redisFree);
  g_object_unref (s->table);
  g_rand_free (s->rand);
  g_free (s->first_mismatch);
  g_free (s);
}

/* The members of a set as sorted text, or NULL with error. */
static GPtrArray *
read_set (HBaseSet *set, GError **error)
{
  g_autoptr(HBaseSetIter) iter = hbase_set_members (set);
  g_autoptr(GPtrArray) members = hbase_set_iter_collect (iter, NULL, error);
  GPtrArray *texts;
  guint i;

  if (members == NULL)
    return NULL;
  texts = g_ptr_array_new_with_free_func (g_free);
  for (i = 0; i < members->len; i++)
    {
      gsize size;
      const char *data = g_bytes_get_data (members->pdata[i], &size);

      g_ptr_array_add (texts, g_strndup (data, size));
    }
  g_ptr_array_sort (texts, compare_texts);
  return texts;
}

/* "member=score" entries sorted by member, or NULL with error. */
static GPtrArray *
read_zset (HBaseZSet *zset, GError **error)
{
  g_autoptr(HBaseZSetIter) iter = hbase_zset_range_by_rank (zset, 0, -1, FALSE);
  g_autoptr(GPtrArray) entries = hbase_zset_iter_collect (iter, NULL, error);
  GPtrArray *texts;
  guint i;

  if (entries == NULL)
    return NULL;
  texts = g_ptr_array_new_with_free_func (g_free);
  for (i = 0; i < entries->len; i++)
    {
      const HBaseZSetEntry *entry = entries->pdata[i];
      gsize size;
      const char *data = g_bytes_get_data (entry->member, &size);

      g_ptr_array_add (texts, g_strdup_printf ("%.*s=%.17g", (int) size, data, entry->score));
    }
  g_ptr_array_sort (texts, compare_texts);
  return texts;
}

static GPtrArray *
oracle_set (ChaosStructures *s, guint i)
{
  g_autofree char *okey = oracle_key ("set", i);
  redisReply *reply = oracle (s, "SMEMBERS %s", okey);
  GPtrArray *texts = g_ptr_array_new_with_free_func (g_free);
  gsize j;

  for (j = 0; j < reply->elements; j++)
    g_ptr_array_add (texts, g_strndup (reply->element[j]->str, reply->element[j]->len));
  freeReplyObject (reply);
  g_ptr_array_sort (texts, compare_texts);
  return texts;
}

static GPtrArray *
oracle_zset (ChaosStructures *s, guint i)
{
  g_autofree char *okey = oracle_key ("zset", i);
  redisReply *reply = oracle (s, "ZRANGE %s 0 -1 WITHSCORES", okey);
  GPtrArray *texts = g_ptr_array_new_with_free_func (g_free);
  gsize j;

  for (j = 0; j + 1 < reply->elements; j += 2)
    g_ptr_array_add (texts, g_strdup_printf ("%.*s=%.17g", (int) reply->element[j]->len, reply->element[j]->str,
                                             g_ascii_strtod (reply->element[j + 1]->str, NULL)));
  freeReplyObject (reply);
  g_ptr_array_sort (texts, compare_texts);
  return texts;
}

static gboolean
same_texts (GPtrArray *a, GPtrArray *b)
{
  guint i;

  if (a->len != b->len)
    return FALSE;
  for (i = 0; i < a->len; i++)
    if (strcmp (a->pdata[i], b->pdata[i]) != 0)
      return FALSE;
  return TRUE;
}

static char *
join_texts (GPtrArray *texts)
{
  GString *out = g_string_new (NULL);
  guint i;

  for (i = 0; i < texts->len; i++)
    g_string_append_printf (out, "%s%s", i > 0 ? " " : "", (const char *) texts->pdata[i]);
  return g_string_free (out, FALSE);
}

/* the index of member's entry in sorted texts ("member" or "member=score"),
 * -1 when absent */
static gint
find_member (GPtrArray *texts, const char *member)
{
  gsize length = strlen (member);
  guint i;

  for (i = 0; i < texts->len; i++)
    {
      const char *text = texts->pdata[i];

      if (strncmp (text, member, length) == 0 && (text[length] == '\0' || text[length] == '='))
        return (gint) i;
    }
  return -1;
}

/* What a key holds after one application of a command to before. */
static GPtrArray *
apply_command (GPtrArray *before, int command, const char *member, gint score)
{
  GPtrArray *after = g_ptr_array_new_with_free_func (g_free);
  gint at = find_member (before, member);
  gdouble old_score = 0;
  guint i;

  for (i = 0; i < before->len; i++)
    if ((gint) i != at)
      g_ptr_array_add (after, g_strdup (before->pdata[i]));
  if (at >= 0 && command == ZINCRBY)
    old_score = g_ascii_strtod (strrchr (before->pdata[at], '=') + 1, NULL);
  switch (command)
    {
    case SADD:
      g_ptr_array_add (after, g_strdup (member));
      break;
    case ZADD:
      g_ptr_array_add (after, g_strdup_printf ("%s=%.17g", member, (gdouble) score));
      break;
    case ZINCRBY:
      g_ptr_array_add (after, g_strdup_printf ("%s=%.17g", member, old_score + score));
      break;
    default:                    /* SREM, ZREM: removed above */
      break;
    }
  g_ptr_array_sort (after, compare_texts);
  return after;
}

/* Replaces the oracle's copy of a key with what HBase holds, which must be
 * the contents before or after the command in doubt.  FALSE when HBase
 * could not be read (the key stays unsynced). */
static gboolean
resync (ChaosStructures *s, gboolean zset, guint i)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) contents = zset ? read_zset (s->zsets[i], &error) : read_set (s->sets[i], &error);
  g_autofree char *okey = oracle_key (zset ? "zset" : "set", i);
  GPtrArray **before = zset ? &s->zset_before[i] : &s->set_before[i];
  GPtrArray **after = zset ? &s->zset_after[i] : &s->set_after[i];
  char **doubt = zset ? &s->zset_doubt[i] : &s->set_doubt[i];
  const char *outcome;
  guint j;

  if (contents == NULL)
    {
      chaos_note_read_failed (zset ? "resync: read a sorted set" : "resync: read a set", error);
      return FALSE;
    }
  chaos_note_success ();
  if (same_texts (contents, *after))
    {
      s->resolved_applied++;
      outcome = "applied";
    }
  else if (same_texts (contents, *before))
    {
      s->resolved_not_applied++;
      outcome = "not applied";
    }
  else
    {
      g_autofree char *got = join_texts (contents);
      g_autofree char *was = join_texts (*before);
      g_autofree char *would = join_texts (*after);

      s->resync_wrong++;
      outcome = "NEITHER";
      mismatch (s, "%s-%u after %s in doubt holds [%s], neither [%s] from before nor [%s] from after it",
                zset ? "zset" : "set", i, *doubt, got, was, would);
    }
  freeReplyObject (oracle (s, "DEL %s", okey));
  for (j = 0; j < contents->len; j++)
    {
      const char *text = contents->pdata[j];

      if (zset)
        {
          const char *equal = strrchr (text, '=');

          freeReplyObject (oracle (s, "ZADD %s %s %b", okey, equal + 1, text, (size_t) (equal - text)));
        }
      else
        freeReplyObject (oracle (s, "SADD %s %s", okey, text));
    }
  s->resyncs++;
  if (zset)
    s->zset_unsynced[i] = FALSE;
  else
    s->set_unsynced[i] = FALSE;
  chaos_log ("structures: %s-%u resynced from HBase (%u members): %s was %s", zset ? "zset" : "set", i,
             contents->len, *doubt, outcome);
  g_clear_pointer (before, g_ptr_array_unref);
  g_clear_pointer (after, g_ptr_array_unref);
  g_clear_pointer (doubt, g_free);
  return TRUE;
}

static void
failed (ChaosStructures *s, gboolean zset, guint i, int command, const char *member, gint score,
        const GError *error)
{
  g_autofree char *what = score != 0 || command == ZADD ?
    g_strdup_printf ("%s %s-%u %s %d", command_names[command], zset ? "zset" : "set", i, member, score) :
    g_strdup_printf ("%s %s-%u %s", command_names[command], zset ? "zset" : "set", i, member);
  gboolean in_doubt = chaos_write_in_doubt (error);

  chaos_note_write_failed (what, error, in_doubt);
  if (in_doubt)
    {
      /* the oracle holds what the key held before: the key was synced */
      GPtrArray *before = zset ? oracle_zset (s, i) : oracle_set (s, i);

      s->in_doubt++;
      if (zset)
        {
          s->zset_unsynced[i] = TRUE;
          s->zset_before[i] = before;
          s->zset_after[i] = apply_command (before, command, member, score);
          s->zset_doubt[i] = g_steal_pointer (&what);
        }
      else
        {
          s->set_unsynced[i] = TRUE;
          s->set_before[i] = before;
          s->set_after[i] = apply_command (before, command, member, score);
          s->set_doubt[i] = g_steal_pointer (&what);
        }
    }
}

static void
command_done (int command, gboolean ok)
{
  g_autofree char *kind = g_strdup_printf ("structures: %s", command_names[command]);

  chaos_kind_done (kind, ok);
}

static void
set_command (ChaosStructures *s, guint i, gboolean add, const char *member)
{
  g_autoptr(GBytes) bytes = text_bytes (member);
  g_autoptr(GError) error = NULL;
  g_autofree char *okey = oracle_key ("set", i);
  gboolean changed = FALSE;
  gboolean ok;
  redisReply *reply;

  ok = add ? hbase_set_add_one (s->sets[i], bytes, &changed, NULL, &error)
           : hbase_set_remove_one (s->sets[i], bytes, &changed, NULL, &error);
  command_done (add ? SADD : SREM, ok);
  if (!ok)
    {
      failed (s, FALSE, i, add ? SADD : SREM, member, 0, error);
      return;
    }
  s->acked++;
  chaos_note_acked ();
  reply = oracle (s, add ? "SADD %s %s" : "SREM %s %s", okey, member);
  if ((reply->integer != 0) != (changed != FALSE))
    mismatch (s, "%s set-%u %s: HBase says %s, the oracle %lld", add ? "SADD" : "SREM", i, member,
              changed ? "changed" : "unchanged", reply->integer);
  freeReplyObject (reply);
}

static void
zset_command (ChaosStructures *s, guint i, int kind, const char *member, gint score)
{
  g_autoptr(GBytes) bytes = text_bytes (member);
  g_autoptr(GError) error = NULL;
  g_autofree char *okey = oracle_key ("zset", i);
  g_autoptr(GPtrArray) members = g_ptr_array_new ();
  gdouble value = score, result = 0;
  guint64 n = 0;
  gboolean ok;
  redisReply *reply;
  int command = kind == 0 ? ZADD : kind == 1 ? ZINCRBY : ZREM;

  g_ptr_array_add (members, bytes);
  if (kind == 0)
    ok = hbase_zset_add (s->zsets[i], HBASE_ZADD_NONE, members, &value, &n, NULL, &error);
  else if (kind == 1)
    ok = hbase_zset_incr_by (s->zsets[i], bytes, value, &result, NULL, &error);
  else
    ok = hbase_zset_remove (s->zsets[i], members, &n, NULL, &error);
  command_done (command, ok);
  if (!ok)
    {
      failed (s, TRUE, i, command, member, score, error);
      return;
    }
  s->acked++;
  chaos_note_acked ();
  if (kind == 0)
    {
      reply = oracle (s, "ZADD %s %d %s", okey, score, member);
      if ((guint64) reply->integer != n)
        mismatch (s, "ZADD zset-%u %s %d: HBase added %" G_GUINT64_FORMAT ", the oracle %lld", i, member,
                  score, n, reply->integer);
    }
  else if (kind == 1)
    {
      reply = oracle (s, "ZINCRBY %s %d %s", okey, score, member);
      if (g_ascii_strtod (reply->str, NULL) != result)
        mismatch (s, "ZINCRBY zset-%u %s %d: HBase says %.17g, the oracle %s", i, member, score, result,
                  reply->str);
    }
  else
    {
      reply = oracle (s, "ZREM %s %s", okey, member);
      if ((guint64) reply->integer != n)
        mismatch (s, "ZREM zset-%u %s: HBase removed %" G_GUINT64_FORMAT ", the oracle %lld", i, member, n,
                  reply->integer);
    }
  freeReplyObject (reply);
}

gpointer
chaos_structures_thread (gpointer data)
{
  ChaosStructures *s = data;

  chaos_worker_start ("structures");
  while (chaos_running (s->run))
    {
      gint dice = g_rand_int_range (s->rand, 0, 100);
      gboolean zset = dice >= 45;
      guint i = (guint) g_rand_int_range (s->rand, 0, zset ? N_ZSETS : N_SETS);
      g_autofree char *member = g_strdup_printf ("m%02d", g_rand_int_range (s->rand, 0, N_MEMBERS));

      /* a key whose last command is in doubt is resynced before the next */
      if ((zset ? s->zset_unsynced[i] : s->set_unsynced[i]) && !resync (s, zset, i))
        {
          chaos_pause (s->run, 200);
          continue;
        }
      s->commands++;
      if (dice < 30)
        set_command (s, i, TRUE, member);
      else if (dice < 45)
        set_command (s, i, FALSE, member);
      else if (dice < 70)
        zset_command (s, i, 0, member, g_rand_int_range (s->rand, 0, 1000));
      else if (dice < 88)
        zset_command (s, i, 1, member, g_rand_int_range (s->rand, -5, 11));
      else
        zset_command (s, i, 2, member, 0);
      chaos_pause (s->run, 5);
    }
  chaos_worker_end ();
  return NULL;
}

void
chaos_structures_check (ChaosStructures *s)
{
  guint equal = 0, differ = 0, unresolved = 0, unread = 0, k;
  GString *examples = g_string_new (NULL);
  double share = s->commands > 0 ? (double) s->in_doubt / (double) s->commands : 0;

  for (k = 0; k < N_SETS + N_ZSETS; k++)
    {
      gboolean zset = k >= N_SETS;
      guint i = zset ? k - N_SETS : k;
      gboolean pending = zset ? s->zset_unsynced[i] : s->set_unsynced[i];
      g_autoptr(GPtrArray) hbase = NULL;
      g_autoptr(GPtrArray) expected = NULL;
      guint attempt;

      for (attempt = 0; attempt < 30 && hbase == NULL; attempt++)
        {
          g_autoptr(GError) error = NULL;

          hbase = zset ? read_zset (s->zsets[i], &error) : read_set (s->sets[i], &error);
          if (hbase == NULL)
            {
              chaos_log ("structures: check: %s-%u: %s", zset ? "zset" : "set", i, error->message);
              g_usleep (G_USEC_PER_SEC);
            }
        }
      if (hbase == NULL)
        {
          unread++;
          continue;
        }
      /* its last command still in doubt: the contents before or after it */
      if (pending)
        {
          GPtrArray *before = zset ? s->zset_before[i] : s->set_before[i];
          GPtrArray *after = zset ? s->zset_after[i] : s->set_after[i];

          unresolved++;
          if (same_texts (hbase, before) || same_texts (hbase, after))
            equal++;
          else
            {
              g_autofree char *got = join_texts (hbase);
              g_autofree char *was = join_texts (before);
              g_autofree char *would = join_texts (after);

              differ++;
              g_string_append_printf (examples, "\n  %s-%u (after %s in doubt): HBase [%s]\n    before [%s]\n"
                                      "    after [%s]", zset ? "zset" : "set", i,
                                      zset ? s->zset_doubt[i] : s->set_doubt[i], got, was, would);
            }
          continue;
        }
      expected = zset ? oracle_zset (s, i) : oracle_set (s, i);
      if (same_texts (hbase, expected))
        equal++;
      else
        {
          g_autofree char *got = join_texts (hbase);
          g_autofree char *want = join_texts (expected);

          differ++;
          g_string_append_printf (examples, "\n  %s-%u: HBase [%s]\n  %*s oracle [%s]", zset ? "zset" : "set", i,
                                  got, (int) strlen (zset ? "zset-0" : "set-0"), "", want);
        }
    }
  chaos_invariant ("sets", differ == 0 && unread == 0 && s->reply_mismatches == 0 && s->resync_wrong == 0 &&
                   s->acked > 0 && share <= CHAOS_MAX_IN_DOUBT_SHARE,
                   "%d sets and %d sorted sets: %u as expected (%u of them after a command still in doubt, holding "
                   "the contents from before or after it), %u differ, %u unreadable; %" G_GUINT64_FORMAT
                   " commands, %" G_GUINT64_FORMAT " acknowledged, %" G_GUINT64_FORMAT " in doubt (%.2f%%, at most "
                   "%.0f%% allowed), resolved by reading HBase back: %" G_GUINT64_FORMAT " applied, %"
                   G_GUINT64_FORMAT " not applied, %" G_GUINT64_FORMAT " neither; %" G_GUINT64_FORMAT
                   " replies or resyncs differing from the oracle's%s%s%s",
                   N_SETS, N_ZSETS, equal, unresolved, differ, unread, s->commands, s->acked, s->in_doubt,
                   share * 100, CHAOS_MAX_IN_DOUBT_SHARE * 100, s->resolved_applied, s->resolved_not_applied,
                   s->resync_wrong, s->reply_mismatches, s->first_mismatch != NULL ? " (first: " : "",
                   s->first_mismatch != NULL ? s->first_mismatch : "",
                   s->first_mismatch != NULL ? ")" : "");
  if (examples->len > 0)
    printf ("%s\n", examples->str + 1);
  g_string_free (examples, TRUE);
}
