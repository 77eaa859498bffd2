/* SPDX-License-Identifier: Apache-2.0 */
/* structures-support.c: what the set and sorted-set tests share: byte
 * helpers, random members, the differential harness against redis-server
 * (see structures-support.h). */
#include "config.h"

#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "structures-support.h"

const HBaseFamilyOptions *
sts_families (guint *n_families)
{
  static const char *const names[] = { "s", "z", "p", "q" };
  static HBaseFamilyOptions families[G_N_ELEMENTS (names)];

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      HBaseFamilyOptions init = HBASE_FAMILY_OPTIONS_INIT;

      families[i] = init;
      families[i].name = names[i];
    }
  *n_families = G_N_ELEMENTS (names);
  return families;
}

GBytes *
sts_bytes (const char *text)
{
  return g_bytes_new (text, strlen (text));
}

GPtrArray *
sts_members (const char *first, ...)
{
  GPtrArray *members = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  va_list args;

  va_start (args, first);
  for (const char *text = first; text != NULL; text = va_arg (args, const char *))
    g_ptr_array_add (members, sts_bytes (text));
  va_end (args);
  return members;
}

char *
sts_show (GBytes *bytes)
{
  GString *text = g_string_new (NULL);
  gsize len;
  const guint8 *data = bytes != NULL ? g_bytes_get_data (bytes, &len) : NULL;

  if (bytes == NULL)
    return g_strdup ("(nil)");
  for (gsize i = 0; i < len; i++)
    {
      if (data[i] >= 0x20 && data[i] < 0x7f && data[i] != '\\' && data[i] != ',')
        g_string_append_c (text, (char) data[i]);
      else
        g_string_append_printf (text, "\\x%02x", data[i]);
    }
  return g_string_free (text, FALSE);
}

char *
sts_join (GPtrArray *array)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < array->len; i++)
    {
      g_autofree char *shown = sts_show (g_ptr_array_index (array, i));

      if (i > 0)
        g_string_append_c (text, ',');
      g_string_append (text, shown);
    }
  return g_string_free (text, FALSE);
}

gint
sts_compare_members (gconstpointer a, gconstpointer b)
{
  return g_bytes_compare (*(GBytes *const *) a, *(GBytes *const *) b);
}

GBytes *
sts_random_member (GRand *rand, guint universe)
{
  static const char *const special[] = {
    "", "a", "ab", "\xe4\xb8\xad\xe6\x96\x87", "\xf0\x9f\x98\x80", "caf\xc3\xa9", "#", "m",
    "s\x00\x01", "\x00", "\x00\x00", "\xff", "\xff\xfe\x00", "a\x00z", " ", "\x80",
  };
  static const gsize lengths[] = { 0, 1, 2, 6, 4, 5, 1, 1, 3, 1, 2, 1, 3, 3, 1, 1 };
  guint pick = (guint) g_rand_int_range (rand, 0, (gint32) MAX (universe, 1u));

  if (pick < G_N_ELEMENTS (special))
    return g_bytes_new (special[pick], lengths[pick]);
  if (pick % 3 == 0)
    {
      /* binary: the number's bytes, with NULs */
      guint8 data[5] = { 0x00, (guint8) (pick >> 8), 0xfe, (guint8) pick, 0x00 };

      return g_bytes_new (data, sizeof data);
    }
  {
    char *text = g_strdup_printf ("m%u-\xe5\x80\xbc", pick);

    return g_bytes_new_take (text, strlen (text));
  }
}

redisContext *
sts_redis_connect (void)
{
  const char *spec = g_getenv ("HBASE_GLIB_TEST_REDIS");
  g_autofree char *host = NULL;
  int port = 6379;
  struct timeval timeout = { 5, 0 };
  redisContext *redis;

  if (spec == NULL || spec[0] == '\0')
    spec = "127.0.0.1:6379";
  {
    const char *colon = strrchr (spec, ':');

    host = colon != NULL ? g_strndup (spec, (gsize) (colon - spec)) : g_strdup (spec);
    if (colon != NULL)
      port = atoi (colon + 1);
  }
  redis = redisConnectWithTimeout (host, port, timeout);
  if (redis == NULL || redis->err)
    {
      g_autofree char *why = g_strdup_printf ("redis-server at %s:%d: %s", host, port,
                                              redis != NULL ? redis->errstr : "no memory");

      if (redis != NULL)
        redisFree (redis);
      test_stack_unreachable (why);
      return NULL;
    }
  redisSetTimeout (redis, (struct timeval) { 30, 0 });
  return redis;
}

redisReply *
sts_redis_command (redisContext *redis, GPtrArray *argv)
{
  g_autofree const char **args = g_new (const char *, argv->len);
  g_autofree size_t *lengths = g_new (size_t, argv->len);
  redisReply *reply;

  for (guint i = 0; i < argv->len; i++)
    {
      gsize len;

      args[i] = g_bytes_get_data (g_ptr_array_index (argv, i), &len);
      if (args[i] == NULL)
        args[i] = "";
      lengths[i] = len;
    }
  reply = redisCommandArgv (redis, (int) argv->len, args, lengths);
  if (reply == NULL)
    g_error ("redis: %s", redis->errstr);
  return reply;
}

void
sts_redis_cleanup (redisContext *redis, const char *prefix)
{
  g_autofree char *pattern = g_strdup_printf ("%s*", prefix);
  redisReply *keys = redisCommand (redis, "KEYS %s", pattern);

  if (keys != NULL && keys->type == REDIS_REPLY_ARRAY)
    for (size_t i = 0; i < keys->elements; i++)
      {
        redisReply *deleted = redisCommand (redis, "DEL %b", keys->element[i]->str,
                                            (size_t) keys->element[i]->len);

        if (deleted != NULL)
          freeReplyObject (deleted);
      }
  if (keys != NULL)
    freeReplyObject (keys);
}

gboolean
sts_diff_start (StsDiff *diff, const char *kind, guint32 seed)
{
  memset (diff, 0, sizeof *diff);
  diff->redis = sts_redis_connect ();
  if (diff->redis == NULL)
    return FALSE;
  diff->seed = seed;
  diff->rand = g_rand_new_with_seed (seed);
  diff->prefix = g_strdup_printf ("hbase-glib-test:%d:%s:%u:", (int) getpid (), kind, seed);
  return TRUE;
}

void
sts_diff_finish (StsDiff *diff)
{
  sts_redis_cleanup (diff->redis, diff->prefix);
  for (guint i = 0; i < STS_HISTORY; i++)
    g_clear_pointer (&diff->history[i], g_free);
  g_clear_pointer (&diff->prefix, g_free);
  g_clear_pointer (&diff->rand, g_rand_free);
  g_clear_pointer (&diff->redis, redisFree);
}

void
sts_diff_note (StsDiff *diff, const char *format, ...)
{
  va_list args;
  guint slot = diff->step % STS_HISTORY;

  g_free (diff->history[slot]);
  va_start (args, format);
  diff->history[slot] = g_strdup_vprintf (format, args);
  va_end (args);
}

void
sts_diff_mismatch (StsDiff *diff, const char *format, ...)
{
  va_list args;
  g_autofree char *what = NULL;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);
  for (guint i = diff->step >= STS_HISTORY ? diff->step - STS_HISTORY + 1 : 0; i <= diff->step; i++)
    g_printerr ("# step %u: %s\n", i, diff->history[i % STS_HISTORY]);
  g_error ("seed %u, step %u: %s", diff->seed, diff->step, what);
}

gint64
sts_diff_integer (StsDiff *diff, redisReply *reply)
{
  if (reply->type != REDIS_REPLY_INTEGER)
    sts_diff_mismatch (diff, "Redis replied type %d (%s), not an integer", reply->type,
                       reply->str != NULL ? reply->str : "");
  return reply->integer;
}

int
sts_diff_run (const char *path, const char *table_prefix, TestTableFunc run_case)
{
  static const guint32 seeds[] = { 1, 20240501, 777, 31337 };
  static gconstpointer seed_data[G_N_ELEMENTS (seeds)];
  static TestTableCase cases[G_N_ELEMENTS (seeds)];
  static TestTableSuite suite = { NULL, NULL, NULL, 0, TEST_GATEWAYS_ENDS };
  /* the seeds spread over the gateways, and every seed on the native
   * backend too */
  static const TestTableSuiteOptions options = { .spread = TRUE, .case_data = seed_data,
                                                 .native_all = TRUE };
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

  suite.path = path;
  suite.table_prefix = table_prefix;
  suite.families = sts_families (&suite.n_families);
  for (guint i = 0; i < G_N_ELEMENTS (seeds); i++)
    {
      char *name = g_strdup_printf ("seed-%u", seeds[i]);

      g_ptr_array_add (names, name);
      cases[i].name = name;
      cases[i].func = run_case;
      seed_data[i] = GUINT_TO_POINTER (seeds[i]);
    }
  test_table_suite_add_full (&suite, &options, cases, G_N_ELEMENTS (cases));
  return test_table_suite_run ();
}
