/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of the key layer's boxed types and option structs: heap
 * constructors give the defaults, copies are deep, setters replace (and
 * release) the previous value, free releases what the setters stored, and
 * stack structs built with the _INIT macros still work. */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-glib.h>

/* GBytes that count their release. */
static void
count_release (gpointer data)
{
  (*(guint *) data)++;
}

static GBytes *
tracked_bytes (const char *text, guint *released)
{
  return g_bytes_new_with_free_func (text, strlen (text), count_release, released);
}

static void
test_types (void)
{
  g_assert_true (g_type_is_a (HBASE_TYPE_KEY_SCANNER, G_TYPE_OBJECT));
  g_assert_true (G_TYPE_IS_BOXED (HBASE_TYPE_KEY_FIELD));
  g_assert_true (G_TYPE_IS_BOXED (HBASE_TYPE_KEY_VALUE));
  g_assert_true (G_TYPE_IS_BOXED (HBASE_TYPE_KEY_RANGE));
  g_assert_true (G_TYPE_IS_BOXED (HBASE_TYPE_SALT_OPTIONS));
  g_assert_true (G_TYPE_IS_BOXED (HBASE_TYPE_KEY_SCAN_OPTIONS));
  g_assert_true (G_TYPE_IS_BOXED (HBASE_TYPE_KEY_QUERY));
}

static void
test_value_copies (void)
{
  char text[] = "abc";
  char name[] = "city";
  HBaseKeyValue value = HBASE_KEY_STRING (text);
  HBaseKeyValue lower = HBASE_KEY_UINT (7);
  HBaseKeyField field = { name, HBASE_KEY_FIELD_STRING, 8, ' ', TRUE };
  HBaseKeyRange range = HBASE_KEY_RANGE_INIT;
  g_autoptr(HBaseKeyValue) value_copy = hbase_key_value_copy (&value);
  g_autoptr(HBaseKeyField) field_copy = hbase_key_field_copy (&field);
  g_autoptr(HBaseKeyRange) range_copy = NULL;

  range.equal = &value;
  range.n_equal = 1;
  range.lower = &lower;
  range.lower_inclusive = TRUE;
  range_copy = g_boxed_copy (HBASE_TYPE_KEY_RANGE, &range);
  text[0] = 'X';
  name[0] = 'X';

  g_assert_cmpint (value_copy->kind, ==, HBASE_KEY_VALUE_BYTES);
  g_assert_cmpmem (value_copy->v.b.data, value_copy->v.b.size, "abc", 3);
  g_assert_cmpstr (field_copy->name, ==, "city");
  g_assert_cmpuint (field_copy->width, ==, 8);
  g_assert_true (field_copy->descending);
  g_assert_cmpuint (range_copy->n_equal, ==, 1);
  g_assert_true (range_copy->equal != range.equal);
  g_assert_cmpmem (range_copy->equal[0].v.b.data, range_copy->equal[0].v.b.size, "abc", 3);
  g_assert_nonnull (range_copy->lower);
  g_assert_cmpuint (range_copy->lower->v.u, ==, 7);
  g_assert_true (range_copy->lower_inclusive);
  g_assert_null (range_copy->upper);
}

static void
test_key_scan_options (void)
{
  guint after_released = 0, second_released = 0, filter_released = 0;
  GBytes *after = tracked_bytes ("k1", &after_released);
  GBytes *second = tracked_bytes ("k2", &second_released);
  GBytes *filter = tracked_bytes ("KeyOnlyFilter()", &filter_released);
  const char *columns[] = { "f:a", NULL };
  HBaseKeyValue lower = HBASE_KEY_UINT (3);
  HBaseKeyRange range = HBASE_KEY_RANGE_INIT;
  HBaseReadOptions read = HBASE_READ_OPTIONS_INIT;
  HBaseKeyScanOptions stack = HBASE_KEY_SCAN_OPTIONS_INIT;
  HBaseKeyScanOptions *options = hbase_key_scan_options_new ();
  HBaseKeyScanOptions *copy;

  g_assert_null (stack.range);
  g_assert_null (options->range);
  g_assert_null (options->after);
  g_assert_cmpuint (options->limit, ==, 0);
  g_assert_null (options->read.columns);

  range.lower = &lower;
  read.columns = columns;
  read.filter_bytes = filter;
  read.max_versions = 2;
  hbase_key_scan_options_set_range (options, &range);
  hbase_key_scan_options_set_after (options, after);
  hbase_key_scan_options_set_read (options, &read);
  options->limit = 5;
  g_bytes_unref (after);
  g_bytes_unref (filter);
  g_assert_cmpuint (after_released, ==, 0);
  g_assert_true (options->range != &range);
  g_assert_cmpuint (options->range->lower->v.u, ==, 3);
  g_assert_true (options->read.columns != (const char *const *) columns);
  g_assert_cmpstr (options->read.columns[0], ==, "f:a");
  g_assert_cmpuint (options->read.max_versions, ==, 2);

  copy = hbase_key_scan_options_copy (options);
  g_assert_true (copy->range != options->range);
  g_assert_cmpuint (copy->range->lower->v.u, ==, 3);
  g_assert_true (copy->read.columns != options->read.columns);
  g_assert_cmpstr (copy->read.columns[0], ==, "f:a");
  g_assert_cmpuint (copy->limit, ==, 5);

  /* a setter drops the previous value; the copy still holds its own */
  hbase_key_scan_options_set_after (options, second);
  g_bytes_unref (second);
  g_assert_cmpuint (after_released, ==, 0);
  hbase_key_scan_options_set_read (options, NULL);
  g_assert_null (options->read.columns);
  g_assert_cmpuint (filter_released, ==, 0);
  hbase_key_scan_options_free (copy);
  g_assert_cmpuint (after_released, ==, 1);
  g_assert_cmpuint (filter_released, ==, 1);
  hbase_key_scan_options_set_range (options, NULL);
  g_assert_null (options->range);
  g_assert_cmpuint (second_released, ==, 0);
  hbase_key_scan_options_free (options);
  g_assert_cmpuint (second_released, ==, 1);
}

static void
test_key_query (void)
{
  const char *columns[] = { "f:a", "f:b", NULL };
  g_autoptr(HBaseFilter) filter = hbase_filter_first_key_only ();
  g_autoptr(HBaseKeyQuery) query = hbase_key_query_new ();
  g_autoptr(HBaseKeyQuery) copy = NULL;
  HBaseKeyQuery stack = HBASE_KEY_QUERY_INIT;

  g_assert_null (stack.filter);
  g_assert_null (query->filter);
  g_assert_null (query->page_token);
  hbase_key_query_set_filter (query, filter);
  hbase_key_query_set_columns (query, columns);
  hbase_key_query_set_page_token (query, "k1.abc");
  query->limit = 10;
  copy = hbase_key_query_copy (query);

  hbase_key_query_set_page_token (query, "k1.def");
  hbase_key_query_set_columns (query, NULL);
  hbase_key_query_set_filter (query, NULL);
  g_assert_cmpstr (query->page_token, ==, "k1.def");
  g_assert_null (query->columns);
  g_assert_null (query->filter);

  g_assert_cmpstr (copy->page_token, ==, "k1.abc");
  g_assert_cmpstr (copy->columns[1], ==, "f:b");
  g_assert_null (copy->columns[2]);
  g_assert_true (copy->filter == filter);
  g_assert_cmpuint (copy->limit, ==, 10);
}

static guint
first_period (const HBaseKeyField *field, const HBaseKeyValue *value, gpointer user_data)
{
  (void) field;
  (void) value;
  (void) user_data;
  return 0;
}

static void
test_salt_options (void)
{
  const char *hashed[] = { "id", NULL };
  HBaseKeyField fields[] = {
    { "day", HBASE_KEY_FIELD_UINT, 4, 0, FALSE },
    { "id", HBASE_KEY_FIELD_UINT, 4, 0, FALSE },
  };
  guint destroyed = 0, other_destroyed = 0;
  HBaseSaltOptions *salt = hbase_salt_options_new ();
  HBaseSaltOptions *copy;
  g_autoptr(HBaseKeySchema) schema = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpuint (salt->n_buckets, ==, 0);
  g_assert_cmpint (salt->hash, ==, HBASE_SALT_HASH_MURMUR3);
  salt->n_buckets = 4;
  salt->n_periods = 2;
  hbase_salt_options_set_hash_fields (salt, hashed);
  hbase_salt_options_set_period_field (salt, "day");
  hbase_salt_options_set_period_func (salt, first_period, &destroyed, count_release);
  g_assert_true (salt->hash_fields != (const char *const *) hashed);
  g_assert_cmpstr (salt->hash_fields[0], ==, "id");
  g_assert_cmpstr (salt->period_field, ==, "day");

  schema = hbase_key_schema_new (fields, G_N_ELEMENTS (fields), salt, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (hbase_key_schema_get_n_buckets (schema), ==, 4);

  /* a copy shares the callback without owning its data */
  copy = hbase_salt_options_copy (salt);
  g_assert_true (copy->period_func == first_period);
  g_assert_cmpstr (copy->period_field, ==, "day");
  g_assert_true (copy->period_field != salt->period_field);
  hbase_salt_options_free (copy);
  g_assert_cmpuint (destroyed, ==, 0);

  /* replacing the callback releases the previous data */
  hbase_salt_options_set_period_func (salt, first_period, &other_destroyed, count_release);
  g_assert_cmpuint (destroyed, ==, 1);
  hbase_salt_options_set_period_field (salt, NULL);
  g_assert_null (salt->period_field);
  hbase_salt_options_free (salt);
  g_assert_cmpuint (other_destroyed, ==, 1);
  g_assert_cmpuint (destroyed, ==, 1);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/rowkey/options/types", test_types);
  g_test_add_func ("/rowkey/options/value-copies", test_value_copies);
  g_test_add_func ("/rowkey/options/key-scan-options", test_key_scan_options);
  g_test_add_func ("/rowkey/options/key-query", test_key_query);
  g_test_add_func ("/rowkey/options/salt-options", test_salt_options);
  return g_test_run ();
}
