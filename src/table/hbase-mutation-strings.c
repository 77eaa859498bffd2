/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-mutation-strings.c: the string forms of mutations and rows: row
 * keys, "family:qualifier" columns and values given as NUL-terminated
 * strings instead of #GBytes.
 *
 * A string is its bytes up to its terminating NUL (UTF-8 or not); a key,
 * qualifier or value holding a 0 byte needs the #GBytes forms. */
#include "config.h"

#include <string.h>

#include "hbase-mutation-private.h"
#include "hbase-table-private.h"
#include "hbase-table-strings-private.h"

gboolean
_hbase_column_split (const char *column, GBytes **family, GBytes **qualifier)
{
  const char *colon;

  if (column == NULL)
    return FALSE;
  colon = strchr (column, ':');
  if (colon == NULL)
    colon = column + strlen (column);
  *family = g_bytes_new (column, (gsize) (colon - column));
  *qualifier = *colon == ':' ? g_bytes_new (colon + 1, strlen (colon + 1)) : g_bytes_new_static ("", 0);
  return TRUE;
}

static GBytes *
bytes_or_null (const char *text)
{
  return text != NULL ? g_bytes_new (text, strlen (text)) : NULL;
}

/**
 * hbase_mutation_new_put_string:
 * @row: (nullable): the row key, its bytes up to the NUL
 *
 * hbase_mutation_new_put() with a row key given as a string.  Keys holding
 * a 0 byte need hbase_mutation_new_put().
 *
 * Returns: (transfer full): the mutation
 *
 * Since: 0.1
 */
HBaseMutation *
hbase_mutation_new_put_string (const char *row)
{
  g_autoptr(GBytes) key = bytes_or_null (row);

  return hbase_mutation_new_put (key);
}

/**
 * hbase_mutation_new_delete_string:
 * @row: (nullable): the row key, its bytes up to the NUL
 *
 * hbase_mutation_new_delete() with a row key given as a string.
 *
 * Returns: (transfer full): the mutation
 *
 * Since: 0.1
 */
HBaseMutation *
hbase_mutation_new_delete_string (const char *row)
{
  g_autoptr(GBytes) key = bytes_or_null (row);

  return hbase_mutation_new_delete (key);
}

/**
 * hbase_mutation_put_string:
 * @mutation: a put
 * @column: "family:qualifier" (the qualifier is everything after the first
 *   colon; "family" alone is the empty qualifier)
 * @value: the value, its bytes up to the NUL; "" for an empty value
 *
 * hbase_mutation_put() with the column and the value given as strings.
 * Like every builder it never fails: a %NULL column or value is reported
 * by the operation that sends the mutation.  Binary values (holding a 0
 * byte) need hbase_mutation_put().
 *
 * Since: 0.1
 */
void
hbase_mutation_put_string (HBaseMutation *mutation, const char *column, const char *value)
{
  g_autoptr(GBytes) family = NULL;
  g_autoptr(GBytes) qualifier = NULL;
  g_autoptr(GBytes) bytes = NULL;

  if (mutation == NULL)
    return;
  if (!_hbase_column_split (column, &family, &qualifier))
    {
      _hbase_mutation_record_problem (mutation, "hbase_mutation_put_string without a column");
      return;
    }
  if (value == NULL)
    {
      g_autofree char *problem =
        g_strdup_printf ("hbase_mutation_put_string without a value for the column %s "
                         "(an empty value is fine, NULL is not)", column);

      _hbase_mutation_record_problem (mutation, problem);
      return;
    }
  bytes = g_bytes_new (value, strlen (value));
  hbase_mutation_put_bytes (mutation, family, qualifier, bytes, -1);
}

/**
 * hbase_mutation_put_strings:
 * @mutation: a put
 * @columns: (array zero-terminated=1): "family:qualifier" entries
 * @values: (array zero-terminated=1): one value per column, in the same
 *   order
 *
 * hbase_mutation_put_string() for each column and its value.  Arrays of
 * different lengths are reported by the operation that sends the
 * mutation.
 *
 * Since: 0.1
 */
void
hbase_mutation_put_strings (HBaseMutation *mutation, const char *const *columns,
                            const char *const *values)
{
  guint n_columns, n_values;

  if (mutation == NULL)
    return;
  n_columns = columns != NULL ? g_strv_length ((char **) columns) : 0;
  n_values = values != NULL ? g_strv_length ((char **) values) : 0;
  if (n_columns != n_values)
    {
      g_autofree char *problem =
        g_strdup_printf ("hbase_mutation_put_strings with %u columns but %u values",
                         n_columns, n_values);

      _hbase_mutation_record_problem (mutation, problem);
      return;
    }
  for (guint i = 0; i < n_columns; i++)
    hbase_mutation_put_string (mutation, columns[i], values[i]);
}

void
_hbase_mutation_put_string_va (HBaseMutation *mutation, const char *first_column, va_list args)
{
  for (const char *column = first_column; column != NULL; column = va_arg (args, const char *))
    {
      const char *value = va_arg (args, const char *);

      if (value == NULL)
        {
          g_autofree char *problem =
            g_strdup_printf ("the column %s has no value before the NULL that ends the list", column);

          _hbase_mutation_record_problem (mutation, problem);
          return;
        }
      hbase_mutation_put_string (mutation, column, value);
    }
}

/**
 * hbase_mutation_put_columns: (skip)
 * @mutation: a put
 * @first_column: (nullable): "family:qualifier" of the first cell, or
 *   %NULL for none
 * @...: the first column's value, then more column, value pairs, ended by
 *   %NULL
 *
 * Adds several cells at once, the columns and values given as strings:
 * `hbase_mutation_put_columns (put, "d:name", "pen", "d:color", "red", NULL)`.
 * A column whose value is missing (the %NULL came first) is reported by
 * the operation that sends the mutation.  From bindings, use
 * hbase_mutation_put_strings().
 *
 * Since: 0.1
 */
void
hbase_mutation_put_columns (HBaseMutation *mutation, const char *first_column, ...)
{
  va_list args;

  if (mutation == NULL)
    return;
  va_start (args, first_column);
  _hbase_mutation_put_string_va (mutation, first_column, args);
  va_end (args);
}

static char *
bytes_to_string (GBytes *bytes)
{
  gsize size;
  const char *data;
  char *text;

  if (bytes == NULL)
    return NULL;
  data = g_bytes_get_data (bytes, &size);
  text = g_malloc (size + 1);
  if (size > 0)
    memcpy (text, data, size);
  text[size] = '\0';
  return text;
}

/**
 * hbase_row_get_string:
 * @row: a row
 * @column: "family:qualifier" (the qualifier is everything after the first
 *   colon; "family" alone is the empty qualifier)
 *
 * The value of the newest version of a column, as a newly allocated
 * NUL-terminated string: its bytes, then a NUL.  The bytes are not
 * checked: a value holding a 0 byte reads, as a C string, only up to it,
 * and a value that is not UTF-8 cannot be returned to most bindings: read
 * binary values with hbase_row_lookup().
 *
 * Returns: (transfer full) (nullable): the value, or %NULL when the row has
 *   no such column (or @column is %NULL)
 *
 * Since: 0.1
 */
char *
hbase_row_get_string (HBaseRow *row, const char *column)
{
  g_autoptr(GBytes) family = NULL;
  g_autoptr(GBytes) qualifier = NULL;

  if (row == NULL || !_hbase_column_split (column, &family, &qualifier))
    return NULL;
  return bytes_to_string (hbase_cell_get_value (hbase_row_lookup_cell_bytes (row, family, qualifier)));
}

/**
 * hbase_row_get_key_string:
 * @row: a row
 *
 * The row key as a newly allocated NUL-terminated string, with the same
 * caveats as hbase_row_get_string(): binary keys need hbase_row_get_key().
 *
 * Returns: (transfer full): the row key
 *
 * Since: 0.1
 */
char *
hbase_row_get_key_string (HBaseRow *row)
{
  GBytes *key = row != NULL ? hbase_row_get_key (row) : NULL;

  return key != NULL ? bytes_to_string (key) : g_strdup ("");
}
