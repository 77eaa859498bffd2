/* SPDX-License-Identifier: Apache-2.0 */
/* Integration test of the rowkey toolkit against the real stack:
 *  - the file-table example: ten files keyed user(6) + time(8) + file(6); find(20120901,
 *    20121001, "中国好声音", "综艺", "浙江卫视") returns exactly files 1, 2,
 *    3, 4, 5 and 7, in one page and in pages with tokens;
 *  - salting: the same random rows (negative numbers, bytes with 0x00 and
 *    0xFF) in an unsalted table, a table salted with MurmurHash3 over one
 *    field (16 buckets, pre-split where the gateway allows split keys) and
 *    one with Phoenix's salt over the whole key (8 buckets); merged scans of
 *    random ranges, with limits, small batches and pages, return exactly the
 *    rows and the order of the unsalted table;
 *  - the time-aligned buckets: a month's query reads only the
 *    month's buckets and returns exactly its rows;
 *  - point reads of salted keys, errors (oversize field, missing table, bad
 *    filter), freeing a merged scan half-way.
 *
 * HBASE_GLIB_TEST_QUICK=1 loads fewer rows and checks fewer ranges.
 *
 * Long because: the salted, unsalted and bucketed tables are created and
 * loaded once per run and shared by every case. */
#include "config.h"

#include <string.h>

#include "../support/test-env.h"
#include "../support/test-rows.h"
#include "../support/test-table-fixture.h"
#include "../support/test-waiter.h"

typedef TestTableFixture Fixture;

#define SKIP_IF_UNREACHABLE TEST_SKIP_IF_UNREACHABLE

/* The tables of a gateway, made by the first case that needs them and
 * reused by the others: the fixture's shared state. */
typedef struct {
  /* the file-table example */
  char *files;
  /* salting */
  char *plain, *murmur, *phoenix, *monthly;
  GPtrArray *keys;          /* GBytes *, unsalted, sorted: the rows loaded */
} Gateway;

static Gateway *
gateway_of (Fixture *fixture)
{
  return fixture->shared;
}

/* A table of family "f", dropped when the suite ends; framed gateways do
 * not take split keys. */
static char *
create_table (Fixture *fixture, const char *prefix, GPtrArray *split_keys)
{
  HBaseFamilyOptions family = HBASE_FAMILY_OPTIONS_INIT;

  family.name = "f";
  return test_table_fixture_create_table (fixture, prefix, &family, 1,
                                          fixture->gateway->transport != HBASE_TRANSPORT_FRAMED
                                          ? split_keys : NULL);
}

static HBaseTable *
open_table (Fixture *fixture, const char *name)
{
  g_autoptr(GError) error = NULL;
  HBaseTable *table = hbase_table_new (fixture->client, name, &error);

  g_assert_no_error (error);
  return table;
}

/* Writes @puts in batches of 500 and empties it. */
static void
apply_batches (HBaseTable *table, GPtrArray *puts)
{
  for (guint start = 0; start < puts->len; start += 500)
    {
      g_autoptr(GPtrArray) batch = g_ptr_array_new ();
      g_autoptr(GError) error = NULL;

      for (guint i = start; i < MIN (start + 500, puts->len); i++)
        g_ptr_array_add (batch, puts->pdata[i]);
      hbase_table_apply_multiple (table, batch, NULL, &error);
      g_assert_no_error (error);
    }
  g_ptr_array_set_size (puts, 0);
}

static int
compare_bytes_ptr (gconstpointer a, gconstpointer b)
{
  return g_bytes_compare (*(GBytes *const *) a, *(GBytes *const *) b);
}

static GBytes *
unsalted (GBytes *key, gsize skip)
{
  return g_bytes_new_from_bytes (key, skip, g_bytes_get_size (key) - skip);
}

/* --- the file-table example --------------------------------------------------------------------- */

static const HBaseKeyField file_key[] = {
  { "user", HBASE_KEY_FIELD_DECIMAL, 6, 0, FALSE },
  { "time", HBASE_KEY_FIELD_DECIMAL, 8, 0, FALSE },
  { "file", HBASE_KEY_FIELD_DECIMAL, 6, 0, FALSE },
};

static const struct {
  guint id;
  guint64 time;
  const char *name, *category;
  guint user;
} example_files[] = {
  { 1, 20120902, "中国好声音第1期", "综艺", 1 },
  { 2, 20120904, "中国好声音第2期", "综艺", 1 },
  { 3, 20120906, "中国好声音外卡赛", "综艺", 1 },
  { 4, 20120908, "中国好声音第3期", "综艺", 1 },
  { 5, 20120910, "中国好声音第4期", "综艺", 1 },
  { 6, 20120912, "中国好声音选手采访", "综艺花絮", 2 },
  { 7, 20120914, "中国好声音第5期", "综艺", 1 },
  { 8, 20120916, "中国好声音录制花絮", "综艺花絮", 2 },
  { 9, 20120918, "张玮独家专访", "花絮", 3 },
  { 10, 20120920, "加多宝凉茶广告", "综艺广告", 4 },
};

/* The user table of the file-table example, reduced to a lookup. */
static const char *const example_users[] = { NULL, "浙江卫视", "好声音剧组", "XX微博", "赞助商" };

static gboolean
user_id (const char *owner, guint *id)
{
  for (guint i = 1; i < G_N_ELEMENTS (example_users); i++)
    if (g_strcmp0 (example_users[i], owner) == 0)
      {
        *id = i;
        return TRUE;
      }
  return FALSE;
}

/* The file store of docs/rowkey-design.md: find(time from, time to, name prefix, category prefix, owner):
 * the key range fixes the user and bounds the time ([from, to)); two
 * SingleColumnValueFilters with binary-prefix comparators narrow by name
 * and category (dropping rows that lack the column); TScan.limit bounds the
 * page, and the token resumes after its last row. */
static GPtrArray *
find (HBaseTable *table, HBaseKeySchema *schema, guint64 from, guint64 to,
      const char *name_prefix, const char *category_prefix, const char *owner,
      guint limit, const char *page_token, char **next_page_token, GError **error)
{
  guint user;
  HBaseKeyValue equal[1];
  HBaseKeyValue lower = HBASE_KEY_UINT (from), upper = HBASE_KEY_UINT (to);
  HBaseKeyRange range = HBASE_KEY_RANGE_INIT;
  HBaseKeyQuery query = HBASE_KEY_QUERY_INIT;
  g_autoptr(GBytes) name = test_text (name_prefix);
  g_autoptr(GBytes) category = test_text (category_prefix);
  g_autoptr(GBytes) name_q = test_text ("name");
  g_autoptr(GBytes) category_q = test_text ("category");
  g_autoptr(HBaseFilter) by_name = NULL, by_category = NULL, both = NULL;

  if (!user_id (owner, &user))
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND, "no user \"%s\"", owner);
      return NULL;
    }
  equal[0] = HBASE_KEY_UINT (user);
  range.equal = equal;
  range.n_equal = 1;
  range.lower = &lower;
  range.lower_inclusive = TRUE;
  range.upper = &upper;
  range.upper_inclusive = FALSE;
  by_name = hbase_filter_single_column_value ("f", name_q, HBASE_COMPARE_EQUAL,
                                              HBASE_COMPARATOR_BINARY_PREFIX, name, TRUE, TRUE);
  by_category = hbase_filter_single_column_value ("f", category_q, HBASE_COMPARE_EQUAL,
                                                  HBASE_COMPARATOR_BINARY_PREFIX, category,
                                                  TRUE, TRUE);
  both = hbase_filter_and (by_name, by_category);
  query.range = &range;
  query.filter = both;
  query.limit = limit;
  query.page_token = page_token;
  return hbase_key_query_run (table, schema, &query, next_page_token, NULL, error);
}

/* The file ids of @rows, "1 2 3". */
static char *
file_ids (HBaseKeySchema *schema, GPtrArray *rows)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < rows->len; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GVariant) tuple = hbase_key_schema_decode (schema, hbase_row_get_key (rows->pdata[i]),
                                                          &error);
      guint64 user, time, file;

      g_assert_no_error (error);
      g_variant_get (tuple, "(ttt)", &user, &time, &file);
      g_string_append_printf (out, "%s%" G_GUINT64_FORMAT, i > 0 ? " " : "", file);
    }
  return g_string_free (out, FALSE);
}

static void
load_example_files (Fixture *fixture, HBaseKeySchema *schema)
{
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(GPtrArray) puts = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);

  if (gateway_of (fixture)->files != NULL)
    return;
  gateway_of (fixture)->files = create_table (fixture, "hbase_glib_files", NULL);
  table = open_table (fixture, gateway_of (fixture)->files);
  for (guint i = 0; i < G_N_ELEMENTS (example_files); i++)
    {
      HBaseKeyValue values[] = { HBASE_KEY_UINT (example_files[i].user),
                                 HBASE_KEY_UINT (example_files[i].time),
                                 HBASE_KEY_UINT (example_files[i].id) };
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) key = hbase_key_schema_encode (schema, values, 3, &error);
      g_autoptr(GBytes) name = test_text (example_files[i].name);
      g_autoptr(GBytes) category = test_text (example_files[i].category);
      HBaseMutation *put;

      g_assert_no_error (error);
      put = hbase_mutation_new_put (key);
      hbase_mutation_put (put, "f", "name", name);
      hbase_mutation_put (put, "f", "category", category);
      g_ptr_array_add (puts, put);
    }
  apply_batches (table, puts);
}

static void
test_file_table (Fixture *fixture, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseKeySchema) schema = hbase_key_schema_new (file_key, 3, NULL, &error);
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autofree char *ids = NULL;
  g_autofree char *token = NULL;

  SKIP_IF_UNREACHABLE (fixture);
  g_assert_no_error (error);
  load_example_files (fixture, schema);
  table = open_table (fixture, gateway_of (fixture)->files);

  /* the table as the file-table example lists it */
  {
    HBaseScanOptions options = HBASE_SCAN_OPTIONS_INIT;
    g_autoptr(HBaseScanner) scanner = hbase_table_scan (table, &options, &error);
    g_autoptr(GString) keys = g_string_new (NULL);
    HBaseRow *row;

    while (hbase_scanner_next (scanner, &row, NULL, &error) && row != NULL)
      {
        gsize len;
        const char *key = g_bytes_get_data (hbase_row_get_key (row), &len);

        g_string_append_printf (keys, "%s%.*s", keys->len > 0 ? " " : "", (int) len, key);
        hbase_row_unref (row);
      }
    g_assert_no_error (error);
    g_assert_cmpstr (keys->str, ==,
                     "00000120120902000001 00000120120904000002 00000120120906000003 "
                     "00000120120908000004 00000120120910000005 00000120120914000007 "
                     "00000220120912000006 00000220120916000008 00000320120918000009 "
                     "00000420120920000010");
  }

  /* find(20120901, 20121001, "中国好声音", "综艺", "浙江卫视") */
  rows = find (table, schema, 20120901, 20121001, "中国好声音", "综艺", "浙江卫视", 0, NULL, &token,
               &error);
  g_assert_no_error (error);
  ids = file_ids (schema, rows);
  g_assert_cmpstr (ids, ==, "1 2 3 4 5 7");
  g_assert_null (token);
  g_clear_pointer (&rows, g_ptr_array_unref);
  g_clear_pointer (&ids, g_free);

  /* the same in pages of 2 and of 4 */
  for (guint limit = 2; limit <= 4; limit += 2)
    {
      g_autoptr(GString) all = g_string_new (NULL);
      guint pages = 0;

      do
        {
          g_autofree char *previous = g_steal_pointer (&token);

          rows = find (table, schema, 20120901, 20121001, "中国好声音", "综艺", "浙江卫视", limit,
                       previous, &token, &error);
          g_assert_no_error (error);
          g_assert_cmpuint (rows->len, <=, limit);
          ids = file_ids (schema, rows);
          g_string_append_printf (all, "%s[%s]", all->len > 0 ? " " : "", ids);
          g_clear_pointer (&ids, g_free);
          g_clear_pointer (&rows, g_ptr_array_unref);
          g_assert_cmpuint (++pages, <=, 4);
        }
      while (token != NULL);
      g_assert_cmpstr (all->str, ==, limit == 2 ? "[1 2] [3 4] [5 7]" : "[1 2 3 4] [5 7]");
    }

  /* other owners and prefixes */
  rows = find (table, schema, 20120901, 20121001, "中国好声音", "综艺", "好声音剧组", 0, NULL, NULL,
               &error);
  g_assert_no_error (error);
  ids = file_ids (schema, rows);
  g_assert_cmpstr (ids, ==, "6 8");
  g_clear_pointer (&rows, g_ptr_array_unref);
  g_clear_pointer (&ids, g_free);
  rows = find (table, schema, 20120901, 20120910, "中国好声音第", "综艺", "浙江卫视", 0, NULL, NULL,
               &error);
  g_assert_no_error (error);
  ids = file_ids (schema, rows);
  g_assert_cmpstr (ids, ==, "1 2 4");
  g_clear_pointer (&rows, g_ptr_array_unref);
  g_clear_pointer (&ids, g_free);

  /* the file table's literal stop row, 00000120120914, would drop file 7: the
   * range from the schema stops at 00000120121001 */
  {
    HBaseKeyValue user1[] = { HBASE_KEY_UINT (1) };
    HBaseKeyValue from = HBASE_KEY_UINT (20120901), to = HBASE_KEY_UINT (20120914);
    HBaseKeyRange file_range = { user1, 1, &from, TRUE, &to, FALSE };
    HBaseKeyRange through = { user1, 1, &from, TRUE, &to, TRUE };
    HBaseKeyQuery query = HBASE_KEY_QUERY_INIT;

    query.range = &file_range;
    rows = hbase_key_query_run (table, schema, &query, NULL, NULL, &error);
    g_assert_no_error (error);
    ids = file_ids (schema, rows);
    g_assert_cmpstr (ids, ==, "1 2 3 4 5");
    g_clear_pointer (&rows, g_ptr_array_unref);
    g_clear_pointer (&ids, g_free);
    query.range = &through;   /* "to" inclusive: the whole day 20120914 */
    rows = hbase_key_query_run (table, schema, &query, NULL, NULL, &error);
    g_assert_no_error (error);
    ids = file_ids (schema, rows);
    g_assert_cmpstr (ids, ==, "1 2 3 4 5 7");
    g_clear_pointer (&rows, g_ptr_array_unref);
    g_clear_pointer (&ids, g_free);

    /* the same pages on a main loop: the query is copied at the call, so
     * the caller's may change at once */
    {
      TestWaiter waiter;
      g_autofree char *page_after = NULL;

      query.limit = 4;
      test_waiter_init (&waiter);
      hbase_key_query_run_async (table, schema, &query, NULL, test_waiter_done, &waiter);
      query.range = &file_range;
      query.limit = 0;
      rows = hbase_key_query_run_finish (table, test_waiter_run (&waiter), &page_after, &error);
      test_waiter_clear (&waiter);
      g_assert_no_error (error);
      ids = file_ids (schema, rows);
      g_assert_cmpstr (ids, ==, "1 2 3 4");
      g_assert_nonnull (page_after);
      g_clear_pointer (&rows, g_ptr_array_unref);
      g_clear_pointer (&ids, g_free);
      query.range = &through;
      query.page_token = page_after;
      test_waiter_init (&waiter);
      hbase_key_query_run_async (table, schema, &query, NULL, test_waiter_done, &waiter);
      g_clear_pointer (&page_after, g_free);
      query.page_token = NULL;
      rows = hbase_key_query_run_finish (table, test_waiter_run (&waiter), &page_after, &error);
      test_waiter_clear (&waiter);
      g_assert_no_error (error);
      ids = file_ids (schema, rows);
      g_assert_cmpstr (ids, ==, "5 7");
      g_assert_null (page_after);
      g_clear_pointer (&rows, g_ptr_array_unref);
      g_clear_pointer (&ids, g_free);
    }
  }

  /* the same range built on the heap, as bindings build it: the range
   * copies its values, a copy of it and the query copy again, so every
   * value and range may go before the query runs */
  {
    g_autoptr(HBaseKeyQuery) query = hbase_key_query_new ();
    HBaseKeyValue *user1 = hbase_key_value_new_uint (1);
    HBaseKeyValue *from = hbase_key_value_new_uint (20120901);
    HBaseKeyValue *to = hbase_key_value_new_uint (20120914);
    HBaseKeyRange *file_range = hbase_key_range_new (&user1, 1, from, TRUE, to, FALSE);
    HBaseKeyRange *copy = hbase_key_range_copy (file_range);

    hbase_key_value_free (user1);
    hbase_key_value_free (from);
    hbase_key_value_free (to);
    hbase_key_range_free (file_range);
    g_assert_cmpuint (copy->n_equal, ==, 1);
    g_assert_true (copy->lower_inclusive);
    g_assert_false (copy->upper_inclusive);
    hbase_key_query_set_range (query, copy);
    hbase_key_range_free (copy);
    rows = hbase_key_query_run (table, schema, query, NULL, NULL, &error);
    g_assert_no_error (error);
    ids = file_ids (schema, rows);
    g_assert_cmpstr (ids, ==, "1 2 3 4 5");
    g_clear_pointer (&rows, g_ptr_array_unref);
    g_clear_pointer (&ids, g_free);
    /* no range: every key of the table */
    hbase_key_query_set_range (query, NULL);
    rows = hbase_key_query_run (table, schema, query, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (rows->len, >, 5);
    g_clear_pointer (&rows, g_ptr_array_unref);
  }

  /* the file table's four SingleColumnValueFilters (lower and upper bound of the
   * name and of the category) select the same files as the prefixes */
  {
    HBaseKeyValue user1[] = { HBASE_KEY_UINT (1) };
    HBaseKeyValue from = HBASE_KEY_UINT (20120901), to = HBASE_KEY_UINT (20121001);
    HBaseKeyRange range = { user1, 1, &from, TRUE, &to, FALSE };
    HBaseKeyQuery query = HBASE_KEY_QUERY_INIT;
    g_autoptr(GBytes) name = test_text ("中国好声音");
    g_autoptr(GBytes) name_stop = hbase_prefix_stop_row (name);
    g_autoptr(GBytes) category = test_text ("综艺");
    g_autoptr(GBytes) category_stop = hbase_prefix_stop_row (category);
    g_autoptr(GBytes) name_q = test_text ("name");
    g_autoptr(GBytes) category_q = test_text ("category");
    HBaseFilter *four[] = {
      hbase_filter_single_column_value ("f", name_q, HBASE_COMPARE_GREATER_OR_EQUAL,
                                        HBASE_COMPARATOR_BINARY, name, TRUE, TRUE),
      hbase_filter_single_column_value ("f", name_q, HBASE_COMPARE_LESS,
                                        HBASE_COMPARATOR_BINARY, name_stop, TRUE, TRUE),
      hbase_filter_single_column_value ("f", category_q, HBASE_COMPARE_GREATER_OR_EQUAL,
                                        HBASE_COMPARATOR_BINARY, category, TRUE, TRUE),
      hbase_filter_single_column_value ("f", category_q, HBASE_COMPARE_LESS,
                                        HBASE_COMPARATOR_BINARY, category_stop, TRUE, TRUE),
    };
    g_autoptr(HBaseFilter) all = hbase_filter_all (four, 4);

    for (guint i = 0; i < G_N_ELEMENTS (four); i++)
      hbase_filter_unref (four[i]);
    query.range = &range;
    query.filter = all;
    rows = hbase_key_query_run (table, schema, &query, NULL, NULL, &error);
    g_assert_no_error (error);
    ids = file_ids (schema, rows);
    g_assert_cmpstr (ids, ==, "1 2 3 4 5 7");
    g_clear_pointer (&rows, g_ptr_array_unref);
    g_clear_pointer (&ids, g_free);
  }

  /* an owner that does not exist, a bad page token */
  rows = find (table, schema, 20120901, 20121001, "", "", "nobody", 0, NULL, NULL, &error);
  g_assert_null (rows);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND);
  g_clear_error (&error);
  rows = find (table, schema, 20120901, 20121001, "", "", "浙江卫视", 2, "not-a-token", NULL, &error);
  g_assert_null (rows);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
}

/* --- salting ------------------------------------------------------------------------ */

static const HBaseKeyField event_key[] = {
  { "region", HBASE_KEY_FIELD_UINT, 2, 0, FALSE },
  { "ts", HBASE_KEY_FIELD_INT, 8, 0, FALSE },
  { "id", HBASE_KEY_FIELD_BYTES, 0, 0, FALSE },
};

static HBaseKeySchema *
event_schema (int which)
{
  HBaseSaltOptions salt = HBASE_SALT_OPTIONS_INIT;
  const char *const id_only[] = { "id", NULL };
  g_autoptr(GError) error = NULL;
  HBaseKeySchema *schema;

  if (which == 1)
    {
      salt.n_buckets = 16;
      salt.hash_fields = id_only;
    }
  else if (which == 2)
    {
      salt.n_buckets = 8;
      salt.hash = HBASE_SALT_HASH_PHOENIX;
    }
  schema = hbase_key_schema_new (event_key, 3, which == 0 ? NULL : &salt, &error);
  g_assert_no_error (error);
  return schema;
}

typedef struct {
  guint16 region;
  gint64 ts;
  guint8 id[6];
  gsize id_len;
} Event;

static void
random_event (GRand *rand, Event *e)
{
  static const guint8 edges[] = { 0x00, 0xff, 0x01, 0xfe, 'a' };

  e->region = (guint16) g_rand_int_range (rand, 0, 6);
  if (g_rand_int_range (rand, 0, 5) == 0)
    e->region = g_rand_boolean (rand) ? 0xffff : 0xff;
  e->ts = (gint64) g_rand_int_range (rand, -50, 50) * 1000003;
  e->id_len = (gsize) g_rand_int_range (rand, 0, 6);
  for (gsize i = 0; i < e->id_len; i++)
    e->id[i] = g_rand_boolean (rand) ? edges[g_rand_int_range (rand, 0, G_N_ELEMENTS (edges))]
                                     : (guint8) g_rand_int_range (rand, 0, 256);
}

static void
event_values (const Event *e, HBaseKeyValue values[3])
{
  values[0] = HBASE_KEY_UINT (e->region);
  values[1] = HBASE_KEY_INT (e->ts);
  values[2] = HBASE_KEY_BYTES (e->id, e->id_len);
}

/* Loads the same events into the plain, MurmurHash3 and Phoenix tables. */
static void
load_events (Fixture *fixture)
{
  Gateway *gw = gateway_of (fixture);
  g_autoptr(GRand) rand = g_rand_new_with_seed (2012);
  guint n = test_quick () ? 300 : 3000;
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_bytes_hash, g_bytes_equal,
                                                    (GDestroyNotify) g_bytes_unref, NULL);
  char **names[3] = { &gw->plain, &gw->murmur, &gw->phoenix };
  const char *prefixes[3] = { "hbase_glib_plain", "hbase_glib_murmur", "hbase_glib_phoenix" };

  if (gw->plain != NULL)
    return;
  gw->keys = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  for (int which = 0; which < 3; which++)
    {
      g_autoptr(HBaseKeySchema) schema = event_schema (which);
      g_autoptr(GPtrArray) splits = hbase_key_schema_get_split_keys (schema);
      g_autoptr(HBaseTable) table = NULL;
      g_autoptr(GPtrArray) puts = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);

      *names[which] = create_table (fixture, prefixes[which], splits);
      table = open_table (fixture, *names[which]);
      g_rand_set_seed (rand, 2012);
      for (guint i = 0; i < n; i++)
        {
          Event e;
          HBaseKeyValue values[3];
          g_autoptr(GError) error = NULL;
          g_autoptr(GBytes) key = NULL, prefix = NULL;
          g_autofree char *text = NULL;
          g_autoptr(GBytes) value = NULL;
          HBaseMutation *put;

          random_event (rand, &e);
          event_values (&e, values);
          key = hbase_key_schema_encode (schema, values, 3, &error);
          g_assert_no_error (error);
          if (which == 0)
            {
              if (g_hash_table_contains (seen, key))
                continue;
              g_hash_table_add (seen, g_bytes_ref (key));
              g_ptr_array_add (gw->keys, g_bytes_ref (key));
            }
          /* the value names the unsalted key, so rows can be compared */
          prefix = unsalted (key, which == 0 ? 0 : 1);
          text = g_base64_encode (g_bytes_get_data (prefix, NULL), g_bytes_get_size (prefix));
          value = test_text (text);
          put = hbase_mutation_new_put (key);
          hbase_mutation_put (put, "f", "v", value);
          g_ptr_array_add (puts, put);
        }
      apply_batches (table, puts);
    }
  g_ptr_array_sort (gw->keys, compare_bytes_ptr);
}

/* The rows of a key scan as a list of "base64(unsalted key)", checking
 * each row's value names its key. */
static GPtrArray *
scan_keys (Fixture *fixture, const char *name, HBaseKeySchema *schema,
           const HBaseKeyScanOptions *options, guint *n_buckets, GError **error)
{
  g_autoptr(HBaseTable) table = open_table (fixture, name);
  g_autoptr(HBaseKeyScanner) scanner = hbase_key_scanner_new (table, schema, options, error);
  g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  gsize skip = hbase_key_schema_get_n_buckets (schema) > 0 ? 1 : 0;
  HBaseRow *row;
  GError *local = NULL;

  if (scanner == NULL)
    return NULL;
  if (n_buckets != NULL)
    *n_buckets = hbase_key_scanner_get_n_buckets (scanner);
  while (hbase_key_scanner_next (scanner, &row, NULL, &local) && row != NULL)
    {
      GBytes *key = unsalted (hbase_row_get_key (row), skip);
      GBytes *value = hbase_row_lookup (row, "f", "v");
      g_autofree char *text = g_base64_encode (g_bytes_get_data (key, NULL), g_bytes_get_size (key));

      g_assert_nonnull (value);
      g_assert_cmpmem (g_bytes_get_data (value, NULL), g_bytes_get_size (value), text, strlen (text));
      if (skip > 0)
        {
          /* the bucket byte is the one the schema computes */
          g_autoptr(GVariant) tuple = hbase_key_schema_decode (schema, hbase_row_get_key (row), error);

          g_assert_nonnull (tuple);
        }
      g_ptr_array_add (out, key);
      hbase_row_unref (row);
    }
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return NULL;
    }
  return g_steal_pointer (&out);
}

/* The loaded keys in [start, stop), after @after, at most @limit. */
static GPtrArray *
expected_keys (Gateway *gw, GBytes *start, GBytes *stop, GBytes *after, guint limit)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

  if (start != NULL && stop != NULL && g_bytes_equal (start, stop))
    return out;
  for (guint i = 0; i < gw->keys->len; i++)
    {
      GBytes *key = gw->keys->pdata[i];

      if (start != NULL && g_bytes_compare (key, start) < 0)
        continue;
      if (stop != NULL && g_bytes_compare (key, stop) >= 0)
        continue;
      if (after != NULL && g_bytes_compare (key, after) <= 0)
        continue;
      if (limit > 0 && out->len == limit)
        break;
      g_ptr_array_add (out, g_bytes_ref (key));
    }
  return out;
}

static void
assert_same_keys (GPtrArray *got, GPtrArray *expected, const char *what)
{
  if (got->len != expected->len)
    g_error ("%s: %u rows, expected %u", what, got->len, expected->len);
  for (guint i = 0; i < got->len; i++)
    if (!g_bytes_equal (got->pdata[i], expected->pdata[i]))
      g_error ("%s: row %u differs", what, i);
}

static void
random_range (GRand *rand, Gateway *gw, HBaseKeyRange *range, HBaseKeyValue equal[3],
              HBaseKeyValue *lower, HBaseKeyValue *upper, Event storage[3])
{
  HBaseKeyValue values[3][3];

  for (int i = 0; i < 3; i++)
    {
      random_event (rand, &storage[i]);
      event_values (&storage[i], values[i]);
    }
  *range = (HBaseKeyRange) HBASE_KEY_RANGE_INIT;
  range->n_equal = (guint) g_rand_int_range (rand, 0, 3);
  for (guint i = 0; i < range->n_equal; i++)
    equal[i] = values[0][i];
  range->equal = equal;
  if (g_rand_int_range (rand, 0, 4) != 0)
    {
      *lower = values[1][range->n_equal];
      range->lower = lower;
    }
  if (g_rand_int_range (rand, 0, 4) != 0)
    {
      *upper = values[2][range->n_equal];
      range->upper = upper;
    }
  range->lower_inclusive = g_rand_boolean (rand);
  range->upper_inclusive = g_rand_boolean (rand);
  (void) gw;
}

static void
test_salted_merge (Fixture *fixture, gconstpointer data)
{
  Gateway *gw = gateway_of (fixture);
  g_autoptr(HBaseKeySchema) plain = event_schema (0);
  g_autoptr(HBaseKeySchema) murmur = event_schema (1);
  g_autoptr(HBaseKeySchema) phoenix = event_schema (2);
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  guint n_ranges = test_quick () ? 8 : 40;

  SKIP_IF_UNREACHABLE (fixture);
  load_events (fixture);
  g_test_message ("%u distinct rows", gw->keys->len);

  /* everything, in one merged scan: exactly the plain table's rows */
  {
    HBaseKeyScanOptions options = HBASE_KEY_SCAN_OPTIONS_INIT;
    g_autoptr(GError) error = NULL;
    g_autoptr(GPtrArray) expected = expected_keys (gw, NULL, NULL, NULL, 0);
    g_autoptr(GPtrArray) got_plain = NULL, got_murmur = NULL, got_phoenix = NULL;
    guint buckets = 0;

    got_plain = scan_keys (fixture, gw->plain, plain, &options, &buckets, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (buckets, ==, 1);
    assert_same_keys (got_plain, expected, "plain");
    got_murmur = scan_keys (fixture, gw->murmur, murmur, &options, &buckets, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (buckets, ==, 16);
    assert_same_keys (got_murmur, expected, "murmur");
    options.caching = 7;        /* many refills and fetches ahead */
    options.parallelism = 3;
    got_phoenix = scan_keys (fixture, gw->phoenix, phoenix, &options, &buckets, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (buckets, ==, 8);
    assert_same_keys (got_phoenix, expected, "phoenix");
  }

  /* random ranges, limits and resume points */
  for (guint c = 0; c < n_ranges; c++)
    {
      HBaseKeyRange range;
      HBaseKeyValue equal[3], lower, upper;
      Event storage[3];
      HBaseKeyScanOptions options = HBASE_KEY_SCAN_OPTIONS_INIT;
      g_autoptr(GBytes) start = NULL, stop = NULL, after = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) expected = NULL, got_plain = NULL, got_murmur = NULL, got_phoenix = NULL;
      g_autofree char *what = NULL;

      random_range (rand, gw, &range, equal, &lower, &upper, storage);
      g_assert_true (hbase_key_schema_get_row_range (plain, &range, &start, &stop, &error));
      g_assert_no_error (error);
      if (range.lower != NULL && range.upper != NULL && start != NULL && stop != NULL &&
          g_bytes_equal (start, stop) && g_rand_int_range (rand, 0, 4) != 0)
        {
          /* mostly bounds in order: swap them */
          HBaseKeyValue swap = lower;

          lower = upper;
          upper = swap;
          g_clear_pointer (&start, g_bytes_unref);
          g_clear_pointer (&stop, g_bytes_unref);
          g_assert_true (hbase_key_schema_get_row_range (plain, &range, &start, &stop, &error));
          g_assert_no_error (error);
        }
      options.range = &range;
      options.limit = g_rand_boolean (rand) ? 0 : (guint) g_rand_int_range (rand, 1, 50);
      options.caching = (guint) g_rand_int_range (rand, 1, 40);
      if (g_rand_int_range (rand, 0, 3) == 0 && gw->keys->len > 0)
        {
          after = g_bytes_ref (gw->keys->pdata[g_rand_int_range (rand, 0, (gint32) gw->keys->len)]);
          options.after = after;
        }
      expected = expected_keys (gw, start, stop, after, options.limit);
      what = g_strdup_printf ("range %u (n_equal %u, lower %d, upper %d, limit %u): %u rows", c,
                              range.n_equal, range.lower != NULL, range.upper != NULL,
                              options.limit, expected->len);
      g_test_message ("%s", what);
      got_plain = scan_keys (fixture, gw->plain, plain, &options, NULL, &error);
      g_assert_no_error (error);
      assert_same_keys (got_plain, expected, what);
      got_murmur = scan_keys (fixture, gw->murmur, murmur, &options, NULL, &error);
      g_assert_no_error (error);
      assert_same_keys (got_murmur, expected, what);
      got_phoenix = scan_keys (fixture, gw->phoenix, phoenix, &options, NULL, &error);
      g_assert_no_error (error);
      assert_same_keys (got_phoenix, expected, what);
    }
}

/* Pages of a salted table, joined, are the whole table in order. */
static void
test_salted_pages (Fixture *fixture, gconstpointer data)
{
  Gateway *gw = gateway_of (fixture);
  g_autoptr(HBaseKeySchema) murmur = event_schema (1);
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(GPtrArray) got = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GPtrArray) expected = NULL;
  g_autofree char *token = NULL;
  HBaseKeyQuery query = HBASE_KEY_QUERY_INIT;
  guint pages = 0;

  SKIP_IF_UNREACHABLE (fixture);
  load_events (fixture);
  table = open_table (fixture, gw->murmur);
  query.limit = test_quick () ? 64 : 500;
  do
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *previous = g_steal_pointer (&token);
      g_autoptr(GPtrArray) rows = NULL;

      query.page_token = previous;
      rows = hbase_key_query_run (table, murmur, &query, &token, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (rows->len, <=, query.limit);
      if (token != NULL)
        g_assert_cmpuint (rows->len, ==, query.limit);
      for (guint i = 0; i < rows->len; i++)
        g_ptr_array_add (got, unsalted (hbase_row_get_key (rows->pdata[i]), 1));
      pages++;
    }
  while (token != NULL);
  expected = expected_keys (gw, NULL, NULL, NULL, 0);
  assert_same_keys (got, expected, "pages");
  g_assert_cmpuint (pages, ==, MAX (1, (expected->len + query.limit - 1) / query.limit));
}

/* Point reads: the key, bucket included, is computed from the values. */
static void
test_salted_point (Fixture *fixture, gconstpointer data)
{
  Gateway *gw = gateway_of (fixture);
  g_autoptr(HBaseKeySchema) murmur = event_schema (1);
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (2012);

  SKIP_IF_UNREACHABLE (fixture);
  load_events (fixture);
  table = open_table (fixture, gw->murmur);
  for (guint i = 0; i < 20; i++)
    {
      Event e;
      HBaseKeyValue values[3];
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) key = NULL;
      g_autoptr(HBaseRow) row = NULL;

      random_event (rand, &e);   /* the same sequence as the load */
      event_values (&e, values);
      key = hbase_key_schema_encode (murmur, values, 3, &error);
      g_assert_no_error (error);
      row = hbase_table_get (table, key, NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_false (hbase_row_is_empty (row));
    }
}

/* --- the consumption-records example: time-aligned buckets ---------------------------------------------------- */

static const HBaseKeyField consumption_key[] = {
  { "month", HBASE_KEY_FIELD_DECIMAL, 6, 0, FALSE },   /* yyyymm */
  { "user", HBASE_KEY_FIELD_BYTES, 0, 0, FALSE },
  { "time", HBASE_KEY_FIELD_INT, 8, 0, FALSE },
};

static void
test_month_buckets (Fixture *fixture, gconstpointer data)
{
  Gateway *gw = gateway_of (fixture);
  HBaseSaltOptions salt = HBASE_SALT_OPTIONS_INIT;
  const char *const user_only[] = { "user", NULL };
  const char *const users[] = { "zhangsan", "lisi", "wangwu", "zhaoliu", "sunqi" };
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseKeySchema) schema = NULL, plain = NULL;
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(GPtrArray) puts = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
  g_autoptr(GPtrArray) december = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GPtrArray) zhangsan = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

  SKIP_IF_UNREACHABLE (fixture);
  salt.n_buckets = 24;            /* 2 per month */
  salt.hash_fields = user_only;
  salt.period_field = "month";
  salt.n_periods = 12;
  schema = hbase_key_schema_new (consumption_key, 3, &salt, &error);
  g_assert_no_error (error);
  plain = hbase_key_schema_new (consumption_key, 3, NULL, &error);
  g_assert_no_error (error);
  if (gw->monthly == NULL)
    {
      g_autoptr(GPtrArray) splits = hbase_key_schema_get_split_keys (schema);

      gw->monthly = create_table (fixture, "hbase_glib_monthly", splits);
    }
  table = open_table (fixture, gw->monthly);
  for (guint month = 1; month <= 12; month++)
    for (guint u = 0; u < G_N_ELEMENTS (users); u++)
      for (guint t = 0; t < 3; t++)
        {
          HBaseKeyValue values[] = { HBASE_KEY_UINT (202100 + month), HBASE_KEY_STRING (users[u]),
                                     HBASE_KEY_INT ((gint64) month * 1000 + t) };
          g_autoptr(GBytes) key = hbase_key_schema_encode (schema, values, 3, &error);
          g_autoptr(GBytes) value = test_text ("1");
          HBaseMutation *put;

          g_assert_no_error (error);
          g_assert_cmpuint (((const guint8 *) g_bytes_get_data (key, NULL))[0] / 2, ==, month - 1);
          put = hbase_mutation_new_put (key);
          hbase_mutation_put (put, "f", "amount", value);
          g_ptr_array_add (puts, put);
          if (month == 12)
            {
              g_autoptr(GBytes) bare = hbase_key_schema_encode (plain, values, 3, &error);

              g_ptr_array_add (december, g_bytes_ref (bare));
              if (u == 0)
                g_ptr_array_add (zhangsan, g_bytes_ref (bare));
            }
        }
  apply_batches (table, puts);
  g_ptr_array_sort (december, compare_bytes_ptr);

  /* "everybody in 2021-12": the month's 2 buckets of 24 */
  {
    HBaseKeyValue month[] = { HBASE_KEY_UINT (202112) };
    HBaseKeyRange range = { month, 1, NULL, FALSE, NULL, FALSE };
    HBaseKeyScanOptions options = HBASE_KEY_SCAN_OPTIONS_INIT;
    g_autoptr(HBaseKeyScanner) scanner = NULL;
    g_autoptr(GPtrArray) got = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
    HBaseRow *row;

    options.range = &range;
    scanner = hbase_key_scanner_new (table, schema, &options, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (hbase_key_scanner_get_n_buckets (scanner), ==, 2);
    while (hbase_key_scanner_next (scanner, &row, NULL, &error) && row != NULL)
      {
        g_ptr_array_add (got, unsalted (hbase_row_get_key (row), 1));
        hbase_row_unref (row);
      }
    g_assert_no_error (error);
    assert_same_keys (got, december, "2021-12");
  }
  /* "zhangsan in 2021-12": one bucket */
  {
    HBaseKeyValue month_user[] = { HBASE_KEY_UINT (202112), HBASE_KEY_STRING ("zhangsan") };
    HBaseKeyRange range = { month_user, 2, NULL, FALSE, NULL, FALSE };
    HBaseKeyScanOptions options = HBASE_KEY_SCAN_OPTIONS_INIT;
    g_autoptr(HBaseKeyScanner) scanner = NULL;
    g_autoptr(GPtrArray) got = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
    HBaseRow *row;

    options.range = &range;
    scanner = hbase_key_scanner_new (table, schema, &options, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (hbase_key_scanner_get_n_buckets (scanner), ==, 1);
    while (hbase_key_scanner_next (scanner, &row, NULL, &error) && row != NULL)
      {
        g_ptr_array_add (got, unsalted (hbase_row_get_key (row), 1));
        hbase_row_unref (row);
      }
    g_assert_no_error (error);
    assert_same_keys (got, zhangsan, "zhangsan 2021-12");
  }
  /* November to December: 4 buckets */
  {
    HBaseKeyValue from = HBASE_KEY_UINT (202111), to = HBASE_KEY_UINT (202112);
    HBaseKeyRange range = { NULL, 0, &from, TRUE, &to, TRUE };
    g_autoptr(GArray) buckets = hbase_key_schema_get_range_buckets (schema, &range, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (buckets->len, ==, 4);
  }
}

/* --- errors and early frees ----------------------------------------------------------- */

static void
test_errors (Fixture *fixture, gconstpointer data)
{
  Gateway *gw = gateway_of (fixture);
  g_autoptr(HBaseKeySchema) murmur = event_schema (1);
  g_autoptr(GError) error = NULL;

  SKIP_IF_UNREACHABLE (fixture);
  load_events (fixture);

  /* a bound too wide for its field */
  {
    g_autoptr(HBaseTable) table = open_table (fixture, gw->murmur);
    HBaseKeyValue big = HBASE_KEY_UINT (65536);
    HBaseKeyRange range = { NULL, 0, &big, TRUE, NULL, FALSE };
    HBaseKeyScanOptions options = HBASE_KEY_SCAN_OPTIONS_INIT;
    g_autoptr(HBaseKeyScanner) scanner = NULL;

    options.range = &range;
    scanner = hbase_key_scanner_new (table, murmur, &options, &error);
    g_assert_null (scanner);
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
    g_clear_error (&error);
  }
  /* a missing table: reported by the first next */
  {
    g_autoptr(HBaseTable) table = open_table (fixture, "hbase_glib_no_such_table");
    g_autoptr(HBaseKeyScanner) scanner = hbase_key_scanner_new (table, murmur, NULL, &error);
    g_autoptr(HBaseRow) row = NULL;

    g_assert_no_error (error);
    hbase_key_scanner_next (scanner, &row, NULL, &error);
    g_assert_null (row);
    g_assert_nonnull (error);
    g_assert_true (error->domain == HBASE_ERROR);
    g_test_message ("missing table: %s", error->message);
    g_clear_error (&error);
  }
  /* a filter the server cannot parse */
  {
    g_autoptr(HBaseTable) table = open_table (fixture, gw->murmur);
    HBaseKeyScanOptions options = HBASE_KEY_SCAN_OPTIONS_INIT;
    g_autoptr(HBaseKeyScanner) scanner = NULL;
    g_autoptr(HBaseRow) row = NULL;

    options.read.filter = "NoSuchFilter('x')";
    scanner = hbase_key_scanner_new (table, murmur, &options, &error);
    if (test_table_fixture_is_native (fixture))
      {
        /* no filter language on the native backend: refused before
         * anything is sent */
        g_assert_null (scanner);
        g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_SUPPORTED);
        g_clear_error (&error);
      }
    else
      {
        g_assert_no_error (error);
        hbase_key_scanner_next (scanner, &row, NULL, &error);
        g_assert_null (row);
        g_assert_error (error, HBASE_ERROR, HBASE_ERROR_SERVER);
        g_clear_error (&error);
      }
  }
  /* cancelled before a row */
  {
    g_autoptr(HBaseTable) table = open_table (fixture, gw->murmur);
    g_autoptr(HBaseKeyScanner) scanner = hbase_key_scanner_new (table, murmur, NULL, &error);
    g_autoptr(GCancellable) cancellable = g_cancellable_new ();
    g_autoptr(HBaseRow) row = NULL;

    g_cancellable_cancel (cancellable);
    hbase_key_scanner_next (scanner, &row, cancellable, &error);
    g_assert_null (row);
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    g_clear_error (&error);
    /* and it goes on without it */
    hbase_key_scanner_next (scanner, &row, NULL, &error);
    g_assert_no_error (error);
    g_assert_nonnull (row);
  }
}

/* Freed after a few rows, with fetches in flight: no leak, no crash. */
static void
test_free_half_way (Fixture *fixture, gconstpointer data)
{
  Gateway *gw = gateway_of (fixture);
  g_autoptr(HBaseKeySchema) murmur = event_schema (1);

  SKIP_IF_UNREACHABLE (fixture);
  load_events (fixture);
  for (guint taken = 0; taken < 30; taken += 7)
    {
      g_autoptr(HBaseTable) table = open_table (fixture, gw->murmur);
      HBaseKeyScanOptions options = HBASE_KEY_SCAN_OPTIONS_INIT;
      HBaseKeyScanner *scanner;
      g_autoptr(GError) error = NULL;

      options.caching = 5;
      scanner = hbase_key_scanner_new (table, murmur, &options, &error);
      g_assert_no_error (error);
      for (guint i = 0; i < taken; i++)
        {
          g_autoptr(HBaseRow) row = NULL;

          hbase_key_scanner_next (scanner, &row, NULL, &error);

          g_assert_no_error (error);
          g_assert_nonnull (row);
        }
      g_object_unref (scanner);
    }
}

/* --- main ------------------------------------------------------------------------------ */

/* The suite's prepare hook. */
static void
gateway_new (Fixture *fixture, gconstpointer data)
{
  fixture->shared = g_new0 (Gateway, 1);
}

static void
gateway_free (gpointer data)
{
  Gateway *gw = data;

  g_free (gw->files);
  g_free (gw->plain);
  g_free (gw->murmur);
  g_free (gw->phoenix);
  g_free (gw->monthly);
  if (gw->keys != NULL)
    g_ptr_array_unref (gw->keys);
  g_free (gw);
}

int
main (int argc, char **argv)
{
  static const TestTableCase cases[] = {
    { "file-table", test_file_table },
    { "salted-merge", test_salted_merge },
    { "salted-pages", test_salted_pages },
    { "salted-point", test_salted_point },
    { "month-buckets", test_month_buckets },
    { "errors", test_errors },
    { "free-half-way", test_free_half_way },
  };
  /* no table of the suite: the cases make theirs */
  static const TestTableSuite suite = {
    "/integration/rowkey", NULL, NULL, 0, TEST_GATEWAYS_ENDS
  };
  /* every case on the native end too: key queries send their filters as
   * typed filters */
  static const TestTableSuiteOptions options = {
    .prepare = gateway_new, .free_shared = gateway_free, .scanner_lock = TRUE,
    .native_all = TRUE,
  };

  g_test_init (&argc, &argv, NULL);
  test_table_suite_add_full (&suite, &options, cases, G_N_ELEMENTS (cases));
  return test_table_suite_run ();
}
