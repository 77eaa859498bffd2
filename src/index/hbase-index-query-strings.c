/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-index-query-strings.c: index conditions on values given as
 * NUL-terminated strings instead of #GBytes (a value holding a 0 byte
 * needs the #GBytes forms). */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-glib-index.h>

/**
 * hbase_index_query_equal_string:
 * @index: an index name
 * @value: the value as the column stores it, its bytes up to the NUL
 *   (decimal text for %HBASE_INDEX_VALUE_INT64 and
 *   %HBASE_INDEX_VALUE_DOUBLE columns)
 *
 * hbase_index_query_equal() with the value given as a string.  A %NULL
 * value is reported by the query that uses the condition.
 *
 * Returns: (transfer full): the condition
 *
 * Since: 0.1
 */
HBaseIndexQuery *
hbase_index_query_equal_string (const char *index, const char *value)
{
  g_autoptr(GBytes) bytes = value != NULL ? g_bytes_new (value, strlen (value)) : NULL;

  return hbase_index_query_equal (index, bytes);
}

/**
 * hbase_index_query_in_strings:
 * @index: an index name
 * @values: (array zero-terminated=1): the values as the column stores
 *   them, each its bytes up to its NUL
 *
 * hbase_index_query_in() with the values given as strings.
 *
 * Returns: (transfer full): the condition
 *
 * Since: 0.1
 */
HBaseIndexQuery *
hbase_index_query_in_strings (const char *index, const char *const *values)
{
  g_autoptr(GPtrArray) array = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

  for (guint i = 0; values != NULL && values[i] != NULL; i++)
    g_ptr_array_add (array, g_bytes_new (values[i], strlen (values[i])));
  return hbase_index_query_in (index, (GBytes *const *) array->pdata, array->len);
}
