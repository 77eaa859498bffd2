/* SPDX-License-Identifier: Apache-2.0 */
/* Unit test (no server) of the string forms of mutations and rows:
 * "family:qualifier" columns, values up to their NUL, the checks that
 * report a missing column or value when the mutation is sent. */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-glib-thrift.h>

#include "../../src/table/hbase-mutation-private.h"
#include "../../src/table/hbase-table-private.h"

static void
assert_bytes_str (GBytes *bytes, const char *text)
{
  g_assert_nonnull (bytes);
  g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), text, strlen (text));
}

static void
assert_entry (HBaseMutation *mutation, guint index, const char *family, const char *qualifier,
              const char *value)
{
  GBytes *f = NULL, *q = NULL, *v = NULL;
  gint64 timestamp = 0;

  g_assert_cmpint (_hbase_mutation_get_entry (mutation, index, &f, &q, &v, &timestamp), ==,
                   _HBASE_MUTATION_ENTRY_PUT);
  assert_bytes_str (f, family);
  assert_bytes_str (q, qualifier);
  assert_bytes_str (v, value);
}

static void
assert_refused (HBaseMutation *mutation, const char *fragment)
{
  g_autoptr(GError) error = NULL;

  g_assert_false (_hbase_mutation_check (mutation, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  if (strstr (error->message, fragment) == NULL)
    g_error ("\"%s\" does not mention \"%s\"", error->message, fragment);
}

static void
test_put_string (void)
{
  g_autoptr(HBaseMutation) put = hbase_mutation_new_put_string ("row-1");
  g_autoptr(GError) error = NULL;

  hbase_mutation_put_string (put, "d:name", "pen");
  hbase_mutation_put_string (put, "d:a:b", "");      /* the qualifier is all after the first colon */
  hbase_mutation_put_string (put, "d", "whole");     /* "family" alone: the empty qualifier */
  hbase_mutation_put_string (put, "d:", "empty");
  g_assert_true (_hbase_mutation_check (put, &error));
  g_assert_no_error (error);
  assert_bytes_str (hbase_mutation_get_row (put), "row-1");
  g_assert_cmpuint (_hbase_mutation_get_n_entries (put), ==, 4);
  assert_entry (put, 0, "d", "name", "pen");
  assert_entry (put, 1, "d", "a:b", "");
  assert_entry (put, 2, "d", "", "whole");
  assert_entry (put, 3, "d", "", "empty");
}

static void
test_put_string_refused (void)
{
  g_autoptr(HBaseMutation) no_column = hbase_mutation_new_put_string ("r");
  g_autoptr(HBaseMutation) no_value = hbase_mutation_new_put_string ("r");
  g_autoptr(HBaseMutation) no_family = hbase_mutation_new_put_string ("r");
  g_autoptr(HBaseMutation) no_row = hbase_mutation_new_put_string (NULL);
  g_autoptr(HBaseMutation) on_delete = hbase_mutation_new_delete_string ("r");

  hbase_mutation_put_string (no_column, NULL, "v");
  assert_refused (no_column, "without a column");
  hbase_mutation_put_string (no_value, "d:q", NULL);
  assert_refused (no_value, "d:q");
  hbase_mutation_put_string (no_family, ":q", "v");
  assert_refused (no_family, "family");
  hbase_mutation_put_string (no_row, "d:q", "v");
  assert_refused (no_row, "row");
  hbase_mutation_put_string (on_delete, "d:q", "v");
  assert_refused (on_delete, "delete");
  hbase_mutation_put_string (NULL, "d:q", "v");   /* ignored, no crash */
}

static void
test_put_columns (void)
{
  g_autoptr(HBaseMutation) put = hbase_mutation_new_put_string ("r");
  g_autoptr(HBaseMutation) odd = hbase_mutation_new_put_string ("r");
  g_autoptr(HBaseMutation) none = hbase_mutation_new_put_string ("r");
  g_autoptr(GError) error = NULL;

  hbase_mutation_put_columns (put, "d:a", "1", "e:b", "2", NULL);
  g_assert_true (_hbase_mutation_check (put, &error));
  g_assert_cmpuint (_hbase_mutation_get_n_entries (put), ==, 2);
  assert_entry (put, 0, "d", "a", "1");
  assert_entry (put, 1, "e", "b", "2");

  hbase_mutation_put_columns (odd, "d:a", "1", "d:b", NULL);
  assert_refused (odd, "d:b");
  g_assert_cmpuint (_hbase_mutation_get_n_entries (odd), ==, 1);

  hbase_mutation_put_columns (none, NULL, NULL);
  assert_refused (none, "cell");
}

static void
test_put_strings (void)
{
  const char *const columns[] = { "d:a", "d:b", NULL };
  const char *const values[] = { "1", "2", NULL };
  const char *const one_value[] = { "1", NULL };
  g_autoptr(HBaseMutation) put = hbase_mutation_new_put_string ("r");
  g_autoptr(HBaseMutation) mismatched = hbase_mutation_new_put_string ("r");
  g_autoptr(GError) error = NULL;

  hbase_mutation_put_strings (put, columns, values);
  g_assert_true (_hbase_mutation_check (put, &error));
  assert_entry (put, 0, "d", "a", "1");
  assert_entry (put, 1, "d", "b", "2");

  hbase_mutation_put_strings (mismatched, columns, one_value);
  assert_refused (mismatched, "2 columns but 1 values");
  g_assert_cmpuint (_hbase_mutation_get_n_entries (mismatched), ==, 0);
}

static void
add_value (HbaseThriftTResult *result, const char *family, const void *qualifier, gsize qualifier_len,
           const void *value, gsize value_len)
{
  g_autoptr(GByteArray) f = g_byte_array_append (g_byte_array_new (), (const guint8 *) family, strlen (family));
  g_autoptr(GByteArray) q = g_byte_array_append (g_byte_array_new (), qualifier, (guint) qualifier_len);
  g_autoptr(GByteArray) v = g_byte_array_append (g_byte_array_new (), value, (guint) value_len);

  g_ptr_array_add (result->columnValues,
                   g_object_new (HBASE_THRIFT_TYPE_T_COLUMN_VALUE, "family", f, "qualifier", q,
                                 "value", v, "timestamp", (gint64) 1, NULL));
}

static void
test_row_get_string (void)
{
  g_autoptr(GByteArray) key = g_byte_array_append (g_byte_array_new (), (const guint8 *) "row-7", 5);
  g_autoptr(HbaseThriftTResult) result = g_object_new (HBASE_THRIFT_TYPE_T_RESULT, "row", key, NULL);
  g_autoptr(HBaseRow) row = NULL;
  g_autofree char *name = NULL;
  g_autofree char *empty_qualifier = NULL;
  g_autofree char *empty_value = NULL;
  g_autofree char *binary = NULL;
  g_autofree char *key_text = NULL;

  add_value (result, "d", "", 0, "family only", 11);
  add_value (result, "d", "a:b", 3, "colon", 5);
  add_value (result, "d", "bin", 3, "x\0y", 3);
  add_value (result, "d", "empty", 5, "", 0);
  add_value (result, "d", "name", 4, "pen", 3);
  row = _hbase_row_new_from_result (result);

  name = hbase_row_get_string (row, "d:name");
  g_assert_cmpstr (name, ==, "pen");
  empty_qualifier = hbase_row_get_string (row, "d");
  g_assert_cmpstr (empty_qualifier, ==, "family only");
  g_free (empty_qualifier);
  empty_qualifier = hbase_row_get_string (row, "d:");
  g_assert_cmpstr (empty_qualifier, ==, "family only");
  empty_value = hbase_row_get_string (row, "d:empty");
  g_assert_cmpstr (empty_value, ==, "");
  /* a 0 byte inside: the bytes are copied, a C string reads up to it */
  binary = hbase_row_get_string (row, "d:bin");
  g_assert_cmpmem (binary, 4, "x\0y\0", 4);
  g_free (name);
  name = hbase_row_get_string (row, "d:a:b");
  g_assert_cmpstr (name, ==, "colon");
  g_assert_null (hbase_row_get_string (row, "d:missing"));
  g_assert_null (hbase_row_get_string (row, "e:name"));
  g_assert_null (hbase_row_get_string (row, NULL));
  g_assert_null (hbase_row_get_string (NULL, "d:name"));
  key_text = hbase_row_get_key_string (row);
  g_assert_cmpstr (key_text, ==, "row-7");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/table/strings/put-string", test_put_string);
  g_test_add_func ("/table/strings/put-string-refused", test_put_string_refused);
  g_test_add_func ("/table/strings/put-columns", test_put_columns);
  g_test_add_func ("/table/strings/put-strings", test_put_strings);
  g_test_add_func ("/table/strings/row-get-string", test_row_get_string);
  return g_test_run ();
}
