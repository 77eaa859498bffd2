/* SPDX-License-Identifier: Apache-2.0 */
/* Unit test (no server) of HBaseRow made from hand-built TResults, of the
 * shared checks in hbase-table-private.h, and of HBaseMutation's builders. */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-glib-thrift.h>

#include "../../src/table/hbase-mutation-private.h"
#include "../../src/table/hbase-table-private.h"

static GByteArray *
array_of (const void *data, gsize len)
{
  GByteArray *array = g_byte_array_new ();

  return g_byte_array_append (array, data, (guint) len);
}

static GByteArray *
array_str (const char *text)
{
  return array_of (text, strlen (text));
}

static void
add_value (HbaseThriftTResult *result, const void *qualifier, gsize qualifier_len,
           const char *family, const char *value, gint64 timestamp)
{
  g_autoptr(GByteArray) f = array_str (family);
  g_autoptr(GByteArray) q = array_of (qualifier, qualifier_len);
  g_autoptr(GByteArray) v = array_str (value);

  g_ptr_array_add (result->columnValues,
                   g_object_new (HBASE_THRIFT_TYPE_T_COLUMN_VALUE, "family", f, "qualifier", q,
                                 "value", v, "timestamp", timestamp, NULL));
}

static void
assert_bytes (GBytes *bytes, const void *data, gsize len)
{
  g_assert_nonnull (bytes);
  g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), data, len);
}

static void
assert_bytes_str (GBytes *bytes, const char *text)
{
  assert_bytes (bytes, text, strlen (text));
}

/* row "r\0w": f:a (ts 30, 20, 10 = three versions), f:"b\0c", g:a, g:"" */
static HbaseThriftTResult *
sample_result (void)
{
  g_autoptr(GByteArray) key = array_of ("r\0w", 3);
  HbaseThriftTResult *result = g_object_new (HBASE_THRIFT_TYPE_T_RESULT, "row", key, NULL);

  add_value (result, "a", 1, "f", "v30", 30);
  add_value (result, "a", 1, "f", "v20", 20);
  add_value (result, "a", 1, "f", "v10", 10);
  add_value (result, "b\0c", 3, "f", "bin", 5);
  add_value (result, "a", 1, "g", "", 7);
  add_value (result, "", 0, "g", "empty-qualifier", 8);
  return result;
}

static void
test_row_from_result (void)
{
  g_autoptr(HbaseThriftTResult) result = sample_result ();
  g_autoptr(HBaseRow) row = _hbase_row_new_from_result (result);
  const HBaseCell *cell;

  assert_bytes (hbase_row_get_key (row), "r\0w", 3);
  g_assert_false (hbase_row_is_empty (row));
  g_assert_cmpuint (hbase_row_get_n_cells (row), ==, 6);

  /* the server's order kept */
  cell = hbase_row_get_cell (row, 0);
  assert_bytes_str (hbase_cell_get_family (cell), "f");
  assert_bytes_str (hbase_cell_get_qualifier (cell), "a");
  assert_bytes_str (hbase_cell_get_value (cell), "v30");
  g_assert_cmpint (hbase_cell_get_timestamp (cell), ==, 30);
  g_assert_cmpint (hbase_cell_get_timestamp (hbase_row_get_cell (row, 1)), ==, 20);
  g_assert_cmpint (hbase_cell_get_timestamp (hbase_row_get_cell (row, 2)), ==, 10);
  cell = hbase_row_get_cell (row, 5);
  assert_bytes_str (hbase_cell_get_family (cell), "g");
  g_assert_cmpuint (g_bytes_get_size (hbase_cell_get_qualifier (cell)), ==, 0);
  g_assert_null (hbase_row_get_cell (row, 6));
  g_assert_null (hbase_row_get_cell (row, G_MAXUINT));

  /* the copy does not depend on the TResult */
  g_clear_object (&result);
  assert_bytes_str (hbase_cell_get_value (hbase_row_get_cell (row, 3)), "bin");
}

static void
test_row_lookup (void)
{
  g_autoptr(HbaseThriftTResult) result = sample_result ();
  g_autoptr(HBaseRow) row = _hbase_row_new_from_result (result);
  g_autoptr(GBytes) f = g_bytes_new ("f", 1);
  g_autoptr(GBytes) binary = g_bytes_new ("b\0c", 3);
  g_autoptr(GBytes) truncated = g_bytes_new ("b", 1);
  const HBaseCell *cell;

  /* the newest version */
  cell = hbase_row_lookup_cell (row, "f", "a");
  g_assert_true (cell == hbase_row_get_cell (row, 0));
  assert_bytes_str (hbase_row_lookup (row, "f", "a"), "v30");
  assert_bytes_str (hbase_row_lookup (row, "g", "a"), "");
  g_assert_cmpuint (g_bytes_get_size (hbase_row_lookup (row, "g", "a")), ==, 0);
  /* NULL qualifier: the empty one */
  assert_bytes_str (hbase_row_lookup (row, "g", NULL), "empty-qualifier");
  assert_bytes_str (hbase_row_lookup (row, "g", ""), "empty-qualifier");

  /* binary qualifiers compare exactly */
  cell = hbase_row_lookup_cell_bytes (row, f, binary);
  g_assert_true (cell == hbase_row_get_cell (row, 3));
  g_assert_null (hbase_row_lookup_cell_bytes (row, f, truncated));
  g_assert_null (hbase_row_lookup (row, "f", "b"));   /* the text stops at the NUL */

  /* missing */
  g_assert_null (hbase_row_lookup_cell (row, "f", "zz"));
  g_assert_null (hbase_row_lookup (row, "h", "a"));
  g_assert_null (hbase_row_lookup (row, "f", NULL));
  g_assert_null (hbase_row_lookup (row, "ff", "a"));
  g_assert_null (hbase_row_lookup (row, "", "a"));
}

static void
test_row_empty (void)
{
  g_autoptr(HbaseThriftTResult) result = g_object_new (HBASE_THRIFT_TYPE_T_RESULT, NULL);
  g_autoptr(HBaseRow) row = _hbase_row_new_from_result (result);
  g_autoptr(HBaseRow) from_null = _hbase_row_new_from_result (NULL);

  g_assert_true (hbase_row_is_empty (row));
  g_assert_cmpuint (hbase_row_get_n_cells (row), ==, 0);
  g_assert_nonnull (hbase_row_get_key (row));
  g_assert_cmpuint (g_bytes_get_size (hbase_row_get_key (row)), ==, 0);
  g_assert_null (hbase_row_get_cell (row, 0));
  g_assert_null (hbase_row_lookup (row, "f", "a"));
  g_assert_true (hbase_row_is_empty (from_null));
  g_assert_cmpuint (g_bytes_get_size (hbase_row_get_key (from_null)), ==, 0);
}

static void
test_row_ref (void)
{
  g_autoptr(HbaseThriftTResult) result = sample_result ();
  HBaseRow *row = _hbase_row_new_from_result (result);
  HBaseRow *copy;
  GType type = HBASE_TYPE_ROW;

  g_assert_true (G_TYPE_IS_BOXED (type));
  g_assert_true (hbase_row_ref (row) == row);
  hbase_row_unref (row);
  /* still alive after dropping the extra reference */
  assert_bytes_str (hbase_row_lookup (row, "f", "a"), "v30");

  copy = g_boxed_copy (type, row);
  g_assert_true (copy == row);
  g_boxed_free (type, copy);
  hbase_row_unref (row);
}

/* A copied cell keeps its bytes and timestamp after its row is gone, and
 * goes through its boxed GType the same way. */
static void
test_cell_copy (void)
{
  g_autoptr(HbaseThriftTResult) result = sample_result ();
  HBaseRow *row = _hbase_row_new_from_result (result);
  const HBaseCell *cell = hbase_row_lookup_cell (row, "f", "a");
  g_autoptr(HBaseCell) copy = NULL;
  HBaseCell *boxed;

  g_assert_nonnull (cell);
  copy = hbase_cell_copy (cell);
  g_assert_true (copy != cell);
  g_assert_true (G_TYPE_IS_BOXED (HBASE_TYPE_CELL));
  boxed = g_boxed_copy (HBASE_TYPE_CELL, cell);
  hbase_row_unref (row);

  assert_bytes_str (hbase_cell_get_family (copy), "f");
  assert_bytes_str (hbase_cell_get_qualifier (copy), "a");
  assert_bytes_str (hbase_cell_get_value (copy), "v30");
  g_assert_cmpint (hbase_cell_get_timestamp (copy), ==, 30);
  assert_bytes_str (hbase_cell_get_value (boxed), "v30");
  g_boxed_free (HBASE_TYPE_CELL, boxed);

  /* a copy of a copy */
  boxed = hbase_cell_copy (copy);
  assert_bytes_str (hbase_cell_get_value (boxed), "v30");
  g_assert_cmpint (hbase_cell_get_timestamp (boxed), ==, 30);
  hbase_cell_free (boxed);
  hbase_cell_free (NULL);
}

static void
test_row_null (void)
{
  g_assert_null (hbase_row_ref (NULL));
  hbase_row_unref (NULL);
  g_assert_null (hbase_row_get_key (NULL));
  g_assert_true (hbase_row_is_empty (NULL));
  g_assert_cmpuint (hbase_row_get_n_cells (NULL), ==, 0);
  g_assert_null (hbase_row_get_cell (NULL, 0));
  g_assert_null (hbase_row_lookup_cell (NULL, "f", "a"));
  g_assert_null (hbase_row_lookup (NULL, "f", "a"));
  g_assert_null (hbase_row_lookup_cell_bytes (NULL, NULL, NULL));
  g_assert_null (hbase_cell_get_family (NULL));
  g_assert_null (hbase_cell_get_qualifier (NULL));
  g_assert_null (hbase_cell_get_value (NULL));
  g_assert_cmpint (hbase_cell_get_timestamp (NULL), ==, 0);

  {
    g_autoptr(HbaseThriftTResult) result = sample_result ();
    g_autoptr(HBaseRow) row = _hbase_row_new_from_result (result);

    g_assert_null (hbase_row_lookup (row, NULL, "a"));
    g_assert_null (hbase_row_lookup_cell_bytes (row, NULL, NULL));
  }
}

/* --- shared checks ----------------------------------------------------------------- */

static void
test_check_row (void)
{
  g_autoptr(GBytes) empty = g_bytes_new (NULL, 0);
  g_autoptr(GBytes) row = g_bytes_new ("\0", 1);
  g_autoptr(GError) error = NULL;

  g_assert_true (_hbase_check_row (row, "row", &error));
  g_assert_no_error (error);
  g_assert_false (_hbase_check_row (NULL, "start row", &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "start row"));
  g_clear_error (&error);
  g_assert_false (_hbase_check_row (empty, "row", &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "empty"));
}

static void
test_check_table_name (void)
{
  static const char *const good[] = { "t", "my_table.v-2", "ns:t", "default:t", "hbase:meta", NULL };
  static const char *const bad[] = { "", ":t", "ns:", ".t", "-t", "ns:.t", "a:b:c", "t t",
                                     "t/x", "n-s:t", "tä", NULL };
  g_autofree char *long_name = g_strnfill (256, 'a');
  g_autofree char *max_name = g_strnfill (255, 'a');

  for (guint i = 0; good[i] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_true (_hbase_check_table_name (good[i], &error));
      g_assert_no_error (error);
    }
  for (guint i = 0; bad[i] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_false (_hbase_check_table_name (bad[i], &error));
      g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
      g_test_message ("\"%s\": %s", bad[i], error->message);
    }
  g_assert_true (_hbase_check_table_name (max_name, NULL));
  g_assert_false (_hbase_check_table_name (long_name, NULL));
  g_assert_false (_hbase_check_table_name (NULL, NULL));
}

static void
test_read_options (void)
{
  static const char *const columns[] = { "f", "f:q", "g:a:b", "h:", NULL };
  static const char *const empty_column[] = { "f", "", NULL };
  static const char *const no_family[] = { ":q", NULL };
  HBaseReadOptions options = HBASE_READ_OPTIONS_INIT;
  g_autoptr(GPtrArray) tcolumns = NULL;
  g_autoptr(GError) error = NULL;
  HbaseThriftTColumn *column;

  g_assert_true (_hbase_read_options_check (NULL, &error));
  g_assert_true (_hbase_read_options_check (&options, &error));
  g_assert_no_error (error);
  g_assert_null (_hbase_read_options_columns (NULL));
  g_assert_null (_hbase_read_options_columns (&options));

  options.columns = columns;
  g_assert_true (_hbase_read_options_check (&options, &error));
  tcolumns = _hbase_read_options_columns (&options);
  g_assert_cmpuint (tcolumns->len, ==, 4);
  column = g_ptr_array_index (tcolumns, 0);
  g_assert_cmpmem (column->family->data, column->family->len, "f", 1);
  g_assert_false (column->__isset_qualifier);
  column = g_ptr_array_index (tcolumns, 1);
  g_assert_cmpmem (column->family->data, column->family->len, "f", 1);
  g_assert_true (column->__isset_qualifier);
  g_assert_cmpmem (column->qualifier->data, column->qualifier->len, "q", 1);
  /* the qualifier is everything after the first colon */
  column = g_ptr_array_index (tcolumns, 2);
  g_assert_cmpmem (column->qualifier->data, column->qualifier->len, "a:b", 3);
  column = g_ptr_array_index (tcolumns, 3);
  g_assert_true (column->__isset_qualifier);
  g_assert_cmpuint (column->qualifier->len, ==, 0);

  options.columns = empty_column;
  g_assert_false (_hbase_read_options_check (&options, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  options.columns = no_family;
  g_assert_false (_hbase_read_options_check (&options, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);

  options.columns = NULL;
  options.min_timestamp = 10;
  options.max_timestamp = 5;
  g_assert_false (_hbase_read_options_check (&options, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  options.max_timestamp = 0;   /* no upper bound */
  g_assert_true (_hbase_read_options_check (&options, NULL));
  options.min_timestamp = -1;
  g_assert_false (_hbase_read_options_check (&options, NULL));
  options.min_timestamp = 0;
  options.max_versions = (guint) G_MAXINT32 + 1;
  g_assert_false (_hbase_read_options_check (&options, NULL));
  options.max_versions = 3;
  options.filter = "";
  g_assert_false (_hbase_read_options_check (&options, NULL));
  options.filter = "KeyOnlyFilter()";
  g_assert_true (_hbase_read_options_check (&options, NULL));
  /* quotes protect parentheses, and '' is a quote inside a string */
  options.filter = "ValueFilter(=, 'binary:(it''s)') AND KeyOnlyFilter()";
  g_assert_true (_hbase_read_options_check (&options, NULL));
  options.filter = "ValueFilter(";
  g_assert_false (_hbase_read_options_check (&options, NULL));
  options.filter = "KeyOnlyFilter())";
  g_assert_false (_hbase_read_options_check (&options, NULL));
  options.filter = "ValueFilter(=, 'binary:v)";
  g_assert_false (_hbase_read_options_check (&options, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "quote"));
}

static void
test_byte_arrays (void)
{
  g_autoptr(GBytes) bytes = g_bytes_new ("a\0\xff", 3);
  g_autoptr(GByteArray) from_bytes = _hbase_byte_array_from_bytes (bytes);
  g_autoptr(GByteArray) from_null = _hbase_byte_array_from_bytes (NULL);
  g_autoptr(GByteArray) from_string = _hbase_byte_array_from_string ("text");
  g_autoptr(GByteArray) from_null_string = _hbase_byte_array_from_string (NULL);

  g_assert_cmpmem (from_bytes->data, from_bytes->len, "a\0\xff", 3);
  g_assert_cmpuint (from_null->len, ==, 0);
  g_assert_cmpmem (from_string->data, from_string->len, "text", 4);
  g_assert_cmpuint (from_null_string->len, ==, 0);
}

/* --- mutation builders ---------------------------------------------------------------- */

static void
test_mutation_builders (void)
{
  g_autoptr(GBytes) row = g_bytes_new ("r\0", 2);
  g_autoptr(GBytes) value = g_bytes_new ("v", 1);
  g_autoptr(HBaseMutation) put = hbase_mutation_new_put (row);
  g_autoptr(HBaseMutation) del = hbase_mutation_new_delete (row);

  g_assert_true (hbase_mutation_is_put (put));
  g_assert_false (hbase_mutation_is_put (del));
  g_assert_true (hbase_mutation_get_row (put) == row);
  g_assert_true (g_bytes_equal (hbase_mutation_get_row (del), row));
  g_assert_true (G_TYPE_IS_BOXED (HBASE_TYPE_MUTATION));

  hbase_mutation_put (put, "f", "q", value);
  hbase_mutation_put_bytes (put, row, row, value, 5);
  hbase_mutation_set_timestamp (put, 100);
  hbase_mutation_set_durability (put, HBASE_DURABILITY_SKIP_WAL);
  hbase_mutation_delete_family (del, "f");
  hbase_mutation_delete_column (del, "f", "q");
  hbase_mutation_delete_cell_version (del, "f", "q", 3);

  g_assert_true (hbase_mutation_ref (put) == put);
  hbase_mutation_unref (put);
  g_assert_true (hbase_mutation_is_put (put));
}

/* Bad input is recorded, never a crash (the table reports it). */
static void
test_mutation_null (void)
{
  g_autoptr(GBytes) empty = g_bytes_new (NULL, 0);
  g_autoptr(HBaseMutation) no_row = hbase_mutation_new_put (NULL);
  g_autoptr(HBaseMutation) empty_row = hbase_mutation_new_delete (empty);

  g_assert_null (hbase_mutation_get_row (no_row));
  g_assert_true (hbase_mutation_is_put (no_row));
  g_assert_true (hbase_mutation_get_row (empty_row) == empty);
  hbase_mutation_put (no_row, NULL, NULL, NULL);
  hbase_mutation_put (no_row, "f", NULL, NULL);
  hbase_mutation_put_bytes (no_row, NULL, NULL, NULL, -5);
  hbase_mutation_delete_family (no_row, "f");            /* a delete on a put */
  hbase_mutation_put (empty_row, "f", "q", empty);       /* a put on a delete */
  hbase_mutation_delete_family (empty_row, NULL);
  hbase_mutation_delete_column (empty_row, NULL, NULL);
  hbase_mutation_delete_cell_version (empty_row, "f", "q", -1);
  hbase_mutation_set_timestamp (empty_row, -7);
  hbase_mutation_set_durability (empty_row, (HBaseDurability) 42);

  g_assert_false (hbase_mutation_is_put (NULL));
  g_assert_null (hbase_mutation_get_row (NULL));
  g_assert_null (hbase_mutation_ref (NULL));
  hbase_mutation_unref (NULL);
  hbase_mutation_put (NULL, "f", "q", empty);
  hbase_mutation_put_bytes (NULL, empty, empty, empty, 0);
  hbase_mutation_delete_family (NULL, "f");
  hbase_mutation_delete_column (NULL, "f", "q");
  hbase_mutation_delete_cell_version (NULL, "f", "q", 1);
  hbase_mutation_set_timestamp (NULL, 1);
  hbase_mutation_set_durability (NULL, HBASE_DURABILITY_SYNC_WAL);
}

static void
assert_check_fails (HBaseMutation *mutation, const char *fragment)
{
  g_autoptr(GError) error = NULL;

  g_assert_false (_hbase_mutation_check (mutation, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, fragment));
}

static void
test_mutation_check (void)
{
  g_autoptr(GBytes) row = g_bytes_new ("r", 1);
  g_autoptr(GBytes) empty = g_bytes_new (NULL, 0);
  g_autoptr(HBaseMutation) no_row = hbase_mutation_new_delete (NULL);
  g_autoptr(HBaseMutation) empty_row = hbase_mutation_new_delete (empty);
  g_autoptr(HBaseMutation) no_cells = hbase_mutation_new_put (row);
  g_autoptr(HBaseMutation) no_value = hbase_mutation_new_put (row);
  g_autoptr(HBaseMutation) no_family = hbase_mutation_new_delete (row);
  g_autoptr(HBaseMutation) bad_version = hbase_mutation_new_delete (row);
  g_autoptr(HBaseMutation) wrong_kind = hbase_mutation_new_put (row);
  g_autoptr(HBaseMutation) good = hbase_mutation_new_put (row);
  g_autoptr(HBaseMutation) whole_row = hbase_mutation_new_delete (row);

  assert_check_fails (NULL, "NULL");
  assert_check_fails (no_row, "NULL");
  assert_check_fails (empty_row, "empty");
  assert_check_fails (no_cells, "no cells");
  hbase_mutation_put (no_value, "f", "q", NULL);
  hbase_mutation_put (no_value, "f", "q", empty);
  assert_check_fails (no_value, "value");
  hbase_mutation_delete_family (no_family, "");
  assert_check_fails (no_family, "family");
  hbase_mutation_delete_cell_version (bad_version, "f", "q", -1);
  assert_check_fails (bad_version, "timestamp");
  hbase_mutation_put (wrong_kind, "f", "q", row);
  hbase_mutation_delete_column (wrong_kind, "f", "q");
  assert_check_fails (wrong_kind, "delete_column on a put");

  hbase_mutation_put (good, "f", "q", empty);   /* an empty value is fine */
  g_assert_true (_hbase_mutation_check (good, NULL));
  g_assert_true (_hbase_mutation_check (whole_row, NULL));
}

static void
test_mutation_to_put (void)
{
  g_autoptr(GBytes) row = g_bytes_new ("r\0\xff", 3);
  g_autoptr(GBytes) value = g_bytes_new ("v", 1);
  g_autoptr(HBaseMutation) put = hbase_mutation_new_put (row);
  g_autoptr(HbaseThriftTPut) tput = NULL;
  HbaseThriftTColumnValue *cell;

  hbase_mutation_put (put, "f", NULL, value);
  hbase_mutation_put_bytes (put, value, row, value, 5);
  hbase_mutation_set_durability (put, HBASE_DURABILITY_ASYNC_WAL);
  g_assert_true (_hbase_mutation_check (put, NULL));
  tput = _hbase_mutation_to_put (put);
  g_assert_cmpmem (tput->row->data, tput->row->len, "r\0\xff", 3);
  g_assert_cmpuint (tput->columnValues->len, ==, 2);
  g_assert_false (tput->__isset_timestamp);
  g_assert_true (tput->__isset_durability);
  g_assert_cmpint (tput->durability, ==, HBASE_THRIFT_T_DURABILITY_ASYNC_WAL);
  g_assert_false (tput->__isset_attributes);
  cell = g_ptr_array_index (tput->columnValues, 0);
  g_assert_cmpuint (cell->qualifier->len, ==, 0);
  g_assert_false (cell->__isset_timestamp);
  cell = g_ptr_array_index (tput->columnValues, 1);
  g_assert_cmpmem (cell->qualifier->data, cell->qualifier->len, "r\0\xff", 3);
  g_assert_true (cell->__isset_timestamp);
  g_assert_cmpint (cell->timestamp, ==, 5);
}

/* A TDelete has one deleteType: a mixed delete becomes one per kind. */
static void
test_mutation_to_deletes (void)
{
  g_autoptr(GBytes) row = g_bytes_new ("r", 1);
  g_autoptr(HBaseMutation) mixed = hbase_mutation_new_delete (row);
  g_autoptr(HBaseMutation) whole = hbase_mutation_new_delete (row);
  g_autoptr(GPtrArray) deletes = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) mutations = g_ptr_array_new_with_free_func (g_object_unref);
  HbaseThriftTDelete *tdelete;
  HbaseThriftTColumn *column;

  hbase_mutation_delete_cell_version (mixed, "f", "a", 7);
  hbase_mutation_delete_family (mixed, "g");
  hbase_mutation_delete_column (mixed, "f", "b");
  hbase_mutation_delete_column (mixed, "f", "c");
  hbase_mutation_set_timestamp (mixed, 50);
  _hbase_mutation_add_deletes (mixed, deletes);
  g_assert_cmpuint (deletes->len, ==, 3);

  tdelete = g_ptr_array_index (deletes, 0);
  g_assert_true (tdelete->__isset_deleteType);
  g_assert_cmpint (tdelete->deleteType, ==, HBASE_THRIFT_T_DELETE_TYPE_DELETE_FAMILY);
  g_assert_cmpuint (tdelete->columns->len, ==, 1);
  column = g_ptr_array_index (tdelete->columns, 0);
  g_assert_false (column->__isset_qualifier);
  g_assert_true (column->__isset_timestamp);   /* the mutation's */
  g_assert_cmpint (column->timestamp, ==, 50);

  tdelete = g_ptr_array_index (deletes, 1);
  g_assert_cmpint (tdelete->deleteType, ==, HBASE_THRIFT_T_DELETE_TYPE_DELETE_COLUMNS);
  g_assert_true (tdelete->__isset_columns);
  g_assert_cmpuint (tdelete->columns->len, ==, 2);

  tdelete = g_ptr_array_index (deletes, 2);
  g_assert_cmpint (tdelete->deleteType, ==, HBASE_THRIFT_T_DELETE_TYPE_DELETE_COLUMN);
  column = g_ptr_array_index (tdelete->columns, 0);
  g_assert_true (column->__isset_qualifier);
  g_assert_cmpmem (column->qualifier->data, column->qualifier->len, "a", 1);
  g_assert_cmpint (column->timestamp, ==, 7);   /* its own, not the mutation's */
  g_assert_false (tdelete->__isset_attributes);

  g_ptr_array_set_size (deletes, 0);
  _hbase_mutation_add_deletes (whole, deletes);
  g_assert_cmpuint (deletes->len, ==, 1);
  tdelete = g_ptr_array_index (deletes, 0);
  g_assert_false (tdelete->__isset_columns);
  g_assert_false (tdelete->__isset_deleteType);

  /* for mutateRow: one TMutation per TDelete, each with one member set */
  _hbase_mutation_add_row_mutations (mixed, mutations);
  g_assert_cmpuint (mutations->len, ==, 3);
  for (guint i = 0; i < mutations->len; i++)
    {
      HbaseThriftTMutation *tmutation = g_ptr_array_index (mutations, i);

      g_assert_true (tmutation->__isset_deleteSingle);
      g_assert_false (tmutation->__isset_put);
    }
}

static void
test_counter_encoding (void)
{
  static const gint64 values[] = { 0, 1, -1, 255, 256, G_MAXINT64, G_MININT64, -1000000007 };
  static const guint8 minus_one[8] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
  static const guint8 two_five_six[8] = { 0, 0, 0, 0, 0, 0, 1, 0 };
  g_autoptr(GBytes) encoded = NULL;
  g_autoptr(GBytes) short_value = g_bytes_new ("1234567", 7);
  g_autoptr(GError) error = NULL;
  gint64 decoded = 0;

  /* HBase's Bytes.toBytes(long): big-endian two's complement */
  encoded = hbase_counter_encode (-1);
  g_assert_cmpmem (g_bytes_get_data (encoded, NULL), g_bytes_get_size (encoded), minus_one, 8);
  g_clear_pointer (&encoded, g_bytes_unref);
  encoded = hbase_counter_encode (256);
  g_assert_cmpmem (g_bytes_get_data (encoded, NULL), g_bytes_get_size (encoded), two_five_six, 8);
  g_clear_pointer (&encoded, g_bytes_unref);

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      encoded = hbase_counter_encode (values[i]);
      g_assert_true (hbase_counter_decode (encoded, &decoded, &error));
      g_assert_no_error (error);
      g_assert_cmpint (decoded, ==, values[i]);
      g_clear_pointer (&encoded, g_bytes_unref);
    }

  decoded = 5;
  g_assert_false (hbase_counter_decode (short_value, &decoded, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_BAD_DATA);
  g_assert_cmpint (decoded, ==, 5);
  g_clear_error (&error);
  g_assert_false (hbase_counter_decode (NULL, &decoded, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_BAD_DATA);
}

static void
test_condition_copy (void)
{
  g_autoptr(GBytes) value = g_bytes_new ("v", 1);
  g_autoptr(HBaseCondition) condition = hbase_condition_new ("f", "q", HBASE_COMPARE_LESS, value);
  g_autoptr(HBaseCondition) copy = hbase_condition_copy (condition);
  g_autoptr(HBaseCondition) bad = hbase_condition_new (NULL, NULL, HBASE_COMPARE_EQUAL, NULL);
  g_autoptr(HBaseCondition) bad_copy = hbase_condition_copy (bad);
  GValue boxed = G_VALUE_INIT;

  g_assert_nonnull (copy);
  /* the boxed type copies and frees through the same functions */
  g_value_init (&boxed, HBASE_TYPE_CONDITION);
  g_value_set_boxed (&boxed, condition);
  g_assert_true (g_value_get_boxed (&boxed) != condition);
  g_value_unset (&boxed);
  g_assert_nonnull (bad_copy);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/table/row/from-result", test_row_from_result);
  g_test_add_func ("/table/row/lookup", test_row_lookup);
  g_test_add_func ("/table/row/empty", test_row_empty);
  g_test_add_func ("/table/row/ref", test_row_ref);
  g_test_add_func ("/table/row/cell-copy", test_cell_copy);
  g_test_add_func ("/table/row/null", test_row_null);
  g_test_add_func ("/table/check/row", test_check_row);
  g_test_add_func ("/table/check/table-name", test_check_table_name);
  g_test_add_func ("/table/check/read-options", test_read_options);
  g_test_add_func ("/table/check/byte-arrays", test_byte_arrays);
  g_test_add_func ("/table/mutation/builders", test_mutation_builders);
  g_test_add_func ("/table/mutation/null", test_mutation_null);
  g_test_add_func ("/table/mutation/check", test_mutation_check);
  g_test_add_func ("/table/mutation/to-put", test_mutation_to_put);
  g_test_add_func ("/table/mutation/to-deletes", test_mutation_to_deletes);
  g_test_add_func ("/table/counter/encoding", test_counter_encoding);
  g_test_add_func ("/table/condition/copy", test_condition_copy);
  return g_test_run ();
}
