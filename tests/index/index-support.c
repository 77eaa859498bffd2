/* SPDX-License-Identifier: Apache-2.0 */
/* index-support.c: what the Redis index tests share: an indexed table on
 * the stack, a direct Redis connection, row helpers (see index-support.h). */
#include "config.h"

#include <stdarg.h>
#include <string.h>

#include "index-support.h"

static void
redis_address (char **host, guint *port)
{
  const char *spec = g_getenv ("HBASE_GLIB_TEST_REDIS");
  const char *colon;

  if (spec == NULL || *spec == '\0')
    spec = "127.0.0.1:6379";
  colon = strrchr (spec, ':');
  g_assert_nonnull (colon);
  *host = g_strndup (spec, (gsize) (colon - spec));
  *port = (guint) g_ascii_strtoull (colon + 1, NULL, 10);
}

const char *
ix_redis_host (void)
{
  static char *host;
  static guint port;

  if (host == NULL)
    redis_address (&host, &port);
  return host;
}

guint
ix_redis_port (void)
{
  g_autofree char *host = NULL;
  guint port;

  redis_address (&host, &port);
  return port;
}

HBaseIndexSpec *
ix_sample_spec (void)
{
  HBaseIndexSpec *spec = hbase_index_spec_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (hbase_index_spec_add (spec, "city", "f", "city", HBASE_INDEX_VALUE_STRING,
                                       HBASE_INDEX_EXACT | HBASE_INDEX_RANGE, &error));
  g_assert_true (hbase_index_spec_add (spec, "age", "f", "age", HBASE_INDEX_VALUE_INT64,
                                       HBASE_INDEX_EXACT | HBASE_INDEX_RANGE, &error));
  g_assert_true (hbase_index_spec_add (spec, "score", "f", "score", HBASE_INDEX_VALUE_DOUBLE,
                                       HBASE_INDEX_RANGE, &error));
  g_assert_true (hbase_index_spec_add (spec, "hits", "f", "hits", HBASE_INDEX_VALUE_COUNTER,
                                       HBASE_INDEX_EXACT | HBASE_INDEX_RANGE, &error));
  g_assert_true (hbase_index_spec_add (spec, "big", "f", "big", HBASE_INDEX_VALUE_INT64,
                                       HBASE_INDEX_RANGE | HBASE_INDEX_LEX, &error));
  g_assert_true (hbase_index_spec_add (spec, "tag", "g", "tag", HBASE_INDEX_VALUE_STRING,
                                       HBASE_INDEX_EXACT, &error));
  g_assert_no_error (error);
  return spec;
}

static void
fill_options (IxFixture *fixture, const HBaseIndexOptions *options, HBaseIndexOptions *filled)
{
  HBaseIndexOptions defaults = HBASE_INDEX_OPTIONS_INIT;

  *filled = options != NULL ? *options : defaults;
  if (filled->redis_host == NULL && filled->redis_socket == NULL)
    filled->redis_host = ix_redis_host ();
  if (filled->redis_port == 0)
    filled->redis_port = ix_redis_port ();
  if (filled->meta_table == NULL)
    filled->meta_table = fixture->meta;
}

HBaseIndex *
ix_open (IxFixture *fixture, const HBaseIndexOptions *options)
{
  HBaseIndexOptions filled;
  g_autoptr(GError) error = NULL;
  HBaseIndex *index;

  fill_options (fixture, options, &filled);
  index = hbase_index_open (fixture->client, fixture->table, &filled, NULL, &error);
  g_assert_no_error (error);
  return index;
}

static gboolean use_native;

void
ix_set_native (gboolean native)
{
  use_native = native;
}

gboolean
ix_setup (IxFixture *fixture, HBaseIndexSpec *spec, const HBaseIndexOptions *options)
{
  g_autoptr(GPtrArray) gateways = test_stack_gateways ();
  const TestGateway *gateway = test_stack_require_gateway (gateways, HBASE_PROTOCOL_BINARY,
                                                           HBASE_TRANSPORT_BUFFERED);
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseIndexReport) report = NULL;
  HBaseFamilyOptions families[2] = { HBASE_FAMILY_OPTIONS_INIT, HBASE_FAMILY_OPTIONS_INIT };
  struct timeval timeout = { 5, 0 };

  memset (fixture, 0, sizeof *fixture);
  fixture->spec = spec;
  if (gateway == NULL || !test_stack_check_gateway (gateway))
    return FALSE;
  fixture->redis = redisConnectWithTimeout (ix_redis_host (), (int) ix_redis_port (), timeout);
  if (fixture->redis == NULL || fixture->redis->err != 0)
    {
      test_stack_unreachable ("redis-server");
      return FALSE;
    }
  config = use_native ? test_stack_native_config () : test_stack_config (gateway);
  fixture->client = hbase_client_new (config);
  g_assert_no_error (error);
  fixture->table = test_stack_unique_name ("hbase_glib_ix");
  fixture->meta = test_stack_unique_name ("hbase_glib_ix_meta");
  fixture->prefix = test_stack_unique_name ("hbidx_test");
  families[0].name = "f";
  families[0].max_versions = 3;
  families[1].name = "g";
  hbase_client_create_table (fixture->client, fixture->table, families, 2, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (hbase_index_spec_set_key_prefix (spec, fixture->prefix, &error));
  {
    HBaseIndexOptions meta = HBASE_INDEX_OPTIONS_INIT;

    meta.meta_table = fixture->meta;
    g_assert_true (hbase_index_create_meta_table (fixture->client, &meta, NULL, &error));
    g_assert_no_error (error);
    g_assert_true (hbase_index_define (fixture->client, fixture->table, spec, &meta, NULL, &error));
    g_assert_no_error (error);
  }
  fixture->index = ix_open (fixture, options);
  report = hbase_index_rebuild (fixture->index, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (report);
  return TRUE;
}

HBaseTable *
ix_plain_table (IxFixture *fixture)
{
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(GError) error = NULL;
  HBaseTable *table;

  client = hbase_client_new (hbase_client_get_config (fixture->client));
  g_assert_no_error (error);
  table = hbase_table_new (client, fixture->table, &error);
  g_assert_no_error (error);
  return table;
}

HBaseTable *
ix_unindexed_table (IxFixture *fixture)
{
  g_autoptr(GError) error = NULL;
  HBaseTable *table = hbase_table_new (fixture->client, fixture->table, &error);

  g_assert_no_error (error);
  hbase_table_set_allow_unindexed_writes (table, TRUE);
  return table;
}

void
ix_teardown (IxFixture *fixture)
{
  g_autoptr(GError) error = NULL;

  if (fixture->index != NULL)
    {
      gboolean dropped = hbase_index_drop (fixture->index, NULL, &error);

      g_assert_no_error (error);
      g_assert_true (dropped);
    }
  if (fixture->redis != NULL && fixture->prefix != NULL)
    {
      /* nothing of this run may stay in the shared Redis */
      redisReply *reply = redisCommand (fixture->redis, "KEYS %s:*", fixture->prefix);

      g_assert_nonnull (reply);
      g_assert_cmpuint (reply->elements, ==, 0);
      freeReplyObject (reply);
    }
  g_clear_object (&fixture->index);
  if (fixture->client != NULL)
    {
      g_assert_true (hbase_client_delete_table (fixture->client, fixture->table, NULL, &error));
      g_assert_no_error (error);
      g_assert_true (hbase_client_delete_table (fixture->client, fixture->meta, NULL, &error));
      g_assert_no_error (error);
    }
  g_clear_object (&fixture->client);
  g_clear_pointer (&fixture->redis, redisFree);
  g_free (fixture->table);
  g_free (fixture->meta);
  g_free (fixture->prefix);
  g_clear_pointer (&fixture->spec, hbase_index_spec_free);
}

GBytes *
ix_bytes (const char *text)
{
  return g_bytes_new (text, strlen (text));
}

HBaseMutation *
ix_put (const char *row, ...)
{
  g_autoptr(GBytes) key = ix_bytes (row);
  HBaseMutation *put = hbase_mutation_new_put (key);
  const char *pair;
  va_list args;

  va_start (args, row);
  while ((pair = va_arg (args, const char *)) != NULL)
    {
      const char *colon = strchr (pair, ':');
      const char *equal = strchr (pair, '=');
      g_autofree char *family = g_strndup (pair, (gsize) (colon - pair));
      g_autofree char *qualifier = g_strndup (colon + 1, (gsize) (equal - colon - 1));
      g_autoptr(GBytes) value = ix_bytes (equal + 1);

      hbase_mutation_put (put, family, qualifier, value);
    }
  va_end (args);
  return put;
}

void
ix_apply (HBaseTable *table, HBaseMutation *mutation)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (hbase_table_apply (table, mutation, NULL, &error));
  g_assert_no_error (error);
}

static char *
base_of (IxFixture *fixture)
{
  /* the table's name, preceded by its length (docs/index-consistency.md) */
  return g_strdup_printf (hbase_index_spec_get_hash_tag (fixture->spec) ? "%s:{%zu=%s}" : "%s:%zu=%s",
                          fixture->prefix, strlen (fixture->table), fixture->table);
}

gboolean
ix_in_set (IxFixture *fixture, const char *index, const char *value, const char *row)
{
  g_autofree char *base = base_of (fixture);
  g_autofree char *key = g_strdup_printf ("%s:x:%s:%s", base, index, value);
  redisReply *reply = redisCommand (fixture->redis, "SISMEMBER %s %s", key, row);
  gboolean in;

  g_assert_nonnull (reply);
  in = reply->integer == 1;
  freeReplyObject (reply);
  return in;
}

guint
ix_in_zset (IxFixture *fixture, const char *index, const char *row)
{
  g_autofree char *base = base_of (fixture);
  g_autofree char *key = g_strdup_printf ("%s:z:%s", base, index);
  redisReply *reply = redisCommand (fixture->redis, "ZRANGE %s 0 -1", key);
  guint count = 0;
  gsize row_len = strlen (row);

  g_assert_nonnull (reply);
  for (size_t i = 0; i < reply->elements; i++)
    {
      redisReply *member = reply->element[i];

      /* members end with the row key */
      if (member->len > row_len && memcmp (member->str + member->len - row_len, row, row_len) == 0 &&
          (member->str[member->len - row_len - 1] == 0x01 || member->len == 8 + row_len))
        count++;
    }
  freeReplyObject (reply);
  return count;
}

static gint
compare_text (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

char *
ix_find (HBaseIndex *index, HBaseIndexQuery *query, HBaseIndexQueryStats *stats)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseIndexPage) page = hbase_index_find (index, query, NULL, NULL, &error);
  g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *rows;

  g_assert_no_error (error);
  g_assert_nonnull (page);
  rows = hbase_index_page_get_rows (page);
  for (guint i = 0; i < rows->len; i++)
    {
      GBytes *key = hbase_row_get_key (g_ptr_array_index (rows, i));

      g_ptr_array_add (keys, g_strndup (g_bytes_get_data (key, NULL), g_bytes_get_size (key)));
    }
  g_ptr_array_sort (keys, compare_text);
  g_ptr_array_add (keys, NULL);
  if (stats != NULL)
    *stats = *hbase_index_page_get_stats (page);
  return g_strjoinv (",", (char **) keys->pdata);
}

HBaseIndexReport *
ix_verify (HBaseIndex *index)
{
  g_autoptr(GError) error = NULL;
  HBaseIndexReport *report = hbase_index_verify (index, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (report);
  if (!hbase_index_report_is_consistent (report))
    {
      g_autofree char *text = hbase_index_report_to_string (report);

      g_test_message ("verify:\n%s", text);
    }
  return report;
}

HBaseIndexReport *
ix_repair (HBaseIndex *index)
{
  HBaseIndexMaintenanceOptions options = HBASE_INDEX_MAINTENANCE_OPTIONS_INIT;
  g_autoptr(GError) error = NULL;
  HBaseIndexReport *report;

  options.assume_quiescent = TRUE;
  report = hbase_index_repair (index, &options, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (report);
  return report;
}
