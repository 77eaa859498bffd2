/* structures-support.c: see structures-support.h. */
#include "config.h"

#include <stdarg.h>
#include <string.h>

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

StsTable *
sts_table_new (const TestGateway *gateway, const char *prefix)
{
  StsTable *table = g_new0 (StsTable, 1);

  table->gateway = gateway;
  table->prefix = g_strdup (prefix);
  return table;
}

void
sts_table_free (gpointer data)
{
  StsTable *table = data;

  g_free (table->name);
  g_free (table->prefix);
  g_free (table);
}

HBaseTable *
sts_table_open (StsTable *table, HBaseClient **client)
{
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(GError) error = NULL;
  HBaseTable *handle;

  *client = NULL;
  if (!test_stack_check_gateway (table->gateway))
    return NULL;
  config = test_stack_config (table->gateway);
  *client = hbase_client_new (config, &error);
  g_assert_no_error (error);
  if (table->name == NULL)
    {
      g_autofree char *name = test_stack_unique_name (table->prefix);
      static const char *const families[] = { "s", "z", "p", "q" };
      HBaseFamilyOptions options[G_N_ELEMENTS (families)];

      for (guint i = 0; i < G_N_ELEMENTS (families); i++)
        {
          HBaseFamilyOptions init = HBASE_FAMILY_OPTIONS_INIT;

          options[i] = init;
          options[i].name = families[i];
        }
      g_assert_true (hbase_admin_create_table (*client, name, options, G_N_ELEMENTS (families),
                                               NULL, NULL, &error));
      g_assert_no_error (error);
      table->name = g_steal_pointer (&name);
    }
  handle = hbase_table_new (*client, table->name, &error);
  g_assert_no_error (error);
  return handle;
}

void
sts_tables_drop (GPtrArray *tables)
{
  for (guint i = 0; tables != NULL && i < tables->len; i++)
    {
      StsTable *table = g_ptr_array_index (tables, i);
      g_autoptr(HBaseConfig) config = NULL;
      g_autoptr(HBaseClient) client = NULL;
      g_autoptr(GError) error = NULL;

      if (table->name == NULL)
        continue;
      config = test_stack_config (table->gateway);
      client = hbase_client_new (config, &error);
      g_assert_no_error (error);
      if (!hbase_admin_delete_table (client, table->name, NULL, &error))
        g_printerr ("# could not drop %s: %s\n", table->name, error->message);
    }
}

gboolean
sts_quick (void)
{
  return g_strcmp0 (g_getenv ("HBASE_GLIB_TEST_QUICK"), "1") == 0;
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
