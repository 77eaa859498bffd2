/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-table-strings.c: the string forms of a table's reads and writes:
 * row keys, "family:qualifier" columns and values given as NUL-terminated
 * strings instead of #GBytes.
 *
 * A string is its bytes up to its terminating NUL (UTF-8 or not); a key,
 * qualifier or value holding a 0 byte needs the #GBytes forms. */
#include "config.h"

#include <string.h>

#include "hbase-table-private.h"
#include "hbase-table-strings-private.h"
#include <hbase-glib/hbase-scanner.h>
#include <hbase-glib/hbase-write-buffer.h>

static GBytes *
bytes_or_null (const char *text)
{
  return text != NULL ? g_bytes_new (text, strlen (text)) : NULL;
}

/**
 * hbase_table_put_string:
 * @table: a table
 * @row: the row key, its bytes up to the NUL
 * @column: "family:qualifier" (the qualifier is everything after the first
 *   colon; "family" alone is the empty qualifier)
 * @value: the value, its bytes up to the NUL; "" for an empty value
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Writes one cell, as hbase_table_apply() does a put of it.  A %NULL or
 * empty row, a %NULL column or value are %HBASE_ERROR_ILLEGAL_ARGUMENT
 * errors.  Binary keys and values need hbase_mutation_put() and
 * hbase_table_apply().
 *
 * Returns: %TRUE when the cell was written
 *
 * Since: 0.1
 */
gboolean
hbase_table_put_string (HBaseTable *table, const char *row, const char *column,
                        const char *value, GCancellable *cancellable, GError **error)
{
  g_autoptr(HBaseMutation) put = hbase_mutation_new_put_string (row);

  hbase_mutation_put_string (put, column, value);
  return hbase_table_apply (table, put, cancellable, error);
}

/**
 * hbase_table_put_strings:
 * @table: a table
 * @row: the row key, its bytes up to the NUL
 * @columns: (array zero-terminated=1): "family:qualifier" entries
 * @values: (array zero-terminated=1): one value per column, in the same
 *   order
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Writes several cells of one row in one put, the columns and values
 * given as strings (see hbase_mutation_put_strings()).  No column, or
 * arrays of different lengths, are %HBASE_ERROR_ILLEGAL_ARGUMENT errors.
 *
 * Returns: %TRUE when the cells were written
 *
 * Since: 0.1
 */
gboolean
hbase_table_put_strings (HBaseTable *table, const char *row, const char *const *columns,
                         const char *const *values, GCancellable *cancellable, GError **error)
{
  g_autoptr(HBaseMutation) put = hbase_mutation_new_put_string (row);

  hbase_mutation_put_strings (put, columns, values);
  return hbase_table_apply (table, put, cancellable, error);
}

/**
 * hbase_table_put_columns: (skip)
 * @table: a table
 * @row: the row key, its bytes up to the NUL
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 * @first_column: "family:qualifier" of the first cell
 * @...: the first column's value, then more column, value pairs, ended by
 *   %NULL
 *
 * Writes several cells of one row in one put:
 * `hbase_table_put_columns (table, "row-1", NULL, &error, "d:name", "pen", "d:color", "red", NULL)`.
 * No column, or a column whose value is missing (the %NULL came first),
 * are %HBASE_ERROR_ILLEGAL_ARGUMENT errors.  From bindings, use
 * hbase_table_put_strings().
 *
 * Returns: %TRUE when the cells were written
 *
 * Since: 0.1
 */
gboolean
hbase_table_put_columns (HBaseTable *table, const char *row, GCancellable *cancellable,
                         GError **error, const char *first_column, ...)
{
  g_autoptr(HBaseMutation) put = hbase_mutation_new_put_string (row);
  va_list args;

  va_start (args, first_column);
  _hbase_mutation_put_string_va (put, first_column, args);
  va_end (args);
  return hbase_table_apply (table, put, cancellable, error);
}

/**
 * hbase_table_get_string:
 * @table: a table
 * @row: the row key, its bytes up to the NUL
 * @options: (nullable): what to read; %NULL for every column
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * hbase_table_get() with the row key given as a string.  Read the values
 * as strings with hbase_row_get_string().
 *
 * Returns: (transfer full) (nullable): the row (empty when it does not
 *   exist), or %NULL with @error set
 *
 * Since: 0.1
 */
HBaseRow *
hbase_table_get_string (HBaseTable *table, const char *row, const HBaseReadOptions *options,
                        GCancellable *cancellable, GError **error)
{
  g_autoptr(GBytes) key = bytes_or_null (row);

  return hbase_table_get (table, key, options, cancellable, error);
}

/**
 * hbase_table_get_string_async:
 * @table: a table
 * @row: the row key, its bytes up to the NUL (copied before this returns)
 * @options: (nullable): what to read (copied)
 * @cancellable: (nullable): a #GCancellable
 * @callback: called in the caller's thread-default main context
 * @user_data: data for @callback
 *
 * Asynchronous hbase_table_get_string().
 *
 * Since: 0.1
 */
void
hbase_table_get_string_async (HBaseTable *table, const char *row, const HBaseReadOptions *options,
                              GCancellable *cancellable, GAsyncReadyCallback callback,
                              gpointer user_data)
{
  g_autoptr(GBytes) key = bytes_or_null (row);

  hbase_table_get_async (table, key, options, cancellable, callback, user_data);
}

/**
 * hbase_table_get_string_finish:
 * @table: a table
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_table_get_string_async().
 *
 * Returns: (transfer full) (nullable): the row, like
 *   hbase_table_get_string(), or %NULL with @error set
 *
 * Since: 0.1
 */
HBaseRow *
hbase_table_get_string_finish (HBaseTable *table, GAsyncResult *result, GError **error)
{
  return hbase_table_get_finish (table, result, error);
}

/**
 * hbase_scan_options_set_prefix_string:
 * @options: options from hbase_scan_options_new() or hbase_scan_options_copy()
 * @prefix: (nullable): the prefix of the rows to scan, its bytes up to the
 *   NUL; %NULL or "" for every row
 *
 * hbase_scan_options_set_prefix() with the prefix given as a string.
 *
 * Since: 0.1
 */
void
hbase_scan_options_set_prefix_string (HBaseScanOptions *options, const char *prefix)
{
  g_autoptr(GBytes) bytes = bytes_or_null (prefix);

  g_return_if_fail (options != NULL);
  hbase_scan_options_set_prefix (options, bytes);
}

/**
 * hbase_table_scan_prefix:
 * @table: a table
 * @prefix: (nullable): the prefix of the rows to scan, its bytes up to the
 *   NUL; %NULL or "" for every row
 * @error: return location for an error
 *
 * hbase_table_scan() of the rows whose keys start with @prefix, with the
 * other scan options at their defaults (whole rows, every column).
 *
 * Returns: (transfer full) (nullable): the scanner, or %NULL with @error
 *   set
 *
 * Since: 0.1
 */
HBaseScanner *
hbase_table_scan_prefix (HBaseTable *table, const char *prefix, GError **error)
{
  g_autoptr(GBytes) bytes = bytes_or_null (prefix);
  HBaseScanOptions options = HBASE_SCAN_OPTIONS_INIT;

  options.prefix = bytes;
  return hbase_table_scan (table, &options, error);
}

/**
 * hbase_write_buffer_put_strings:
 * @buffer: a write buffer
 * @row: the row key, its bytes up to the NUL
 * @columns: (array zero-terminated=1): "family:qualifier" entries
 * @values: (array zero-terminated=1): one value per column, in the same
 *   order
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Adds a put of several cells of one row to the buffer, as
 * hbase_write_buffer_add() does, the columns and values given as strings
 * (see hbase_mutation_put_strings()).  A %NULL or empty row, no column, or
 * arrays of different lengths are %HBASE_ERROR_ILLEGAL_ARGUMENT errors and
 * nothing is added.
 *
 * Returns: %TRUE when the put was buffered (and any flush it caused
 *   succeeded, as hbase_write_buffer_add())
 *
 * Since: 0.1
 */
gboolean
hbase_write_buffer_put_strings (HBaseWriteBuffer *buffer, const char *row,
                                const char *const *columns, const char *const *values,
                                GCancellable *cancellable, GError **error)
{
  g_autoptr(HBaseMutation) put = hbase_mutation_new_put_string (row);

  hbase_mutation_put_strings (put, columns, values);
  return hbase_write_buffer_add (buffer, put, cancellable, error);
}

/**
 * hbase_write_buffer_put_columns: (skip)
 * @buffer: a write buffer
 * @row: the row key, its bytes up to the NUL
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 * @first_column: "family:qualifier" of the first cell
 * @...: the first column's value, then more column, value pairs, ended by
 *   %NULL
 *
 * Adds a put of several cells of one row to the buffer:
 * `hbase_write_buffer_put_columns (buffer, "row-1", NULL, &error, "d:name", "pen", NULL)`.
 * No column, or a column whose value is missing (the %NULL came first),
 * are %HBASE_ERROR_ILLEGAL_ARGUMENT errors and nothing is added.  From
 * bindings, use hbase_write_buffer_put_strings().
 *
 * Returns: %TRUE when the put was buffered (and any flush it caused
 *   succeeded, as hbase_write_buffer_add())
 *
 * Since: 0.1
 */
gboolean
hbase_write_buffer_put_columns (HBaseWriteBuffer *buffer, const char *row,
                                GCancellable *cancellable, GError **error,
                                const char *first_column, ...)
{
  g_autoptr(HBaseMutation) put = hbase_mutation_new_put_string (row);
  va_list args;

  va_start (args, first_column);
  _hbase_mutation_put_string_va (put, first_column, args);
  va_end (args);
  return hbase_write_buffer_add (buffer, put, cancellable, error);
}

/**
 * hbase_write_buffer_put_strings_async:
 * @buffer: a write buffer
 * @row: the row key, its bytes up to the NUL
 * @columns: (array zero-terminated=1): "family:qualifier" entries
 * @values: (array zero-terminated=1): one value per column, in the same
 *   order
 * @cancellable: (nullable): cancels the flush this put may start
 * @callback: (scope async): called in the caller's thread-default main
 *   context when the put is buffered
 * @user_data: data for @callback
 *
 * hbase_write_buffer_put_strings() without blocking: the put is made at
 * once and added with hbase_write_buffer_add_async().  Finish with
 * hbase_write_buffer_put_strings_finish().
 *
 * Since: 0.1
 */
void
hbase_write_buffer_put_strings_async (HBaseWriteBuffer *buffer, const char *row,
                                      const char *const *columns, const char *const *values,
                                      GCancellable *cancellable, GAsyncReadyCallback callback,
                                      gpointer user_data)
{
  g_autoptr(HBaseMutation) put = hbase_mutation_new_put_string (row);

  hbase_mutation_put_strings (put, columns, values);
  hbase_write_buffer_add_async (buffer, put, cancellable, callback, user_data);
}

/**
 * hbase_write_buffer_put_strings_finish:
 * @buffer: a write buffer
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_write_buffer_put_strings_async().
 *
 * Returns: %TRUE when the put was buffered, as
 *   hbase_write_buffer_put_strings()
 *
 * Since: 0.1
 */
gboolean
hbase_write_buffer_put_strings_finish (HBaseWriteBuffer *buffer, GAsyncResult *result, GError **error)
{
  return hbase_write_buffer_add_finish (buffer, result, error);
}

/**
 * hbase_write_buffer_put_columns_async: (skip)
 * @buffer: a write buffer
 * @row: the row key, its bytes up to the NUL
 * @cancellable: (nullable): cancels the flush this put may start
 * @callback: called in the caller's thread-default main context when the
 *   put is buffered
 * @user_data: data for @callback
 * @first_column: "family:qualifier" of the first cell
 * @...: the first column's value, then more column, value pairs, ended by
 *   %NULL
 *
 * hbase_write_buffer_put_columns() without blocking (the variable
 * arguments come last, as in g_async_initable_new_async()).  Finish with
 * hbase_write_buffer_put_columns_finish().  From bindings, use
 * hbase_write_buffer_put_strings_async().
 *
 * Since: 0.1
 */
void
hbase_write_buffer_put_columns_async (HBaseWriteBuffer *buffer, const char *row,
                                      GCancellable *cancellable, GAsyncReadyCallback callback,
                                      gpointer user_data, const char *first_column, ...)
{
  g_autoptr(HBaseMutation) put = hbase_mutation_new_put_string (row);
  va_list args;

  va_start (args, first_column);
  _hbase_mutation_put_string_va (put, first_column, args);
  va_end (args);
  hbase_write_buffer_add_async (buffer, put, cancellable, callback, user_data);
}

/**
 * hbase_write_buffer_put_columns_finish: (skip)
 * @buffer: a write buffer
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_write_buffer_put_columns_async().
 *
 * Returns: %TRUE when the put was buffered, as
 *   hbase_write_buffer_put_columns()
 *
 * Since: 0.1
 */
gboolean
hbase_write_buffer_put_columns_finish (HBaseWriteBuffer *buffer, GAsyncResult *result, GError **error)
{
  return hbase_write_buffer_add_finish (buffer, result, error);
}

/* --- asynchronous variants: puts sent with hbase_table_apply_async() --- */

/**
 * hbase_table_put_string_async:
 * @table: a table
 * @row: the row key, its bytes up to the NUL
 * @column: "family:qualifier"
 * @value: the value, its bytes up to the NUL
 * @cancellable: (nullable): a #GCancellable
 * @callback: called in the caller's thread-default main context
 * @user_data: data for @callback
 *
 * Asynchronous hbase_table_put_string().
 *
 * Since: 0.1
 */
void
hbase_table_put_string_async (HBaseTable *table, const char *row, const char *column,
                              const char *value, GCancellable *cancellable,
                              GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr(HBaseMutation) put = hbase_mutation_new_put_string (row);

  hbase_mutation_put_string (put, column, value);
  hbase_table_apply_async (table, put, cancellable, callback, user_data);
}

/**
 * hbase_table_put_string_finish:
 * @table: a table
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_table_put_string_async().
 *
 * Returns: %TRUE when the cell was written
 *
 * Since: 0.1
 */
gboolean
hbase_table_put_string_finish (HBaseTable *table, GAsyncResult *result, GError **error)
{
  return hbase_table_apply_finish (table, result, error);
}

/**
 * hbase_table_put_strings_async:
 * @table: a table
 * @row: the row key, its bytes up to the NUL
 * @columns: (array zero-terminated=1): "family:qualifier" entries (copied
 *   before this returns)
 * @values: (array zero-terminated=1): one value per column (copied)
 * @cancellable: (nullable): a #GCancellable
 * @callback: called in the caller's thread-default main context
 * @user_data: data for @callback
 *
 * Asynchronous hbase_table_put_strings().
 *
 * Since: 0.1
 */
void
hbase_table_put_strings_async (HBaseTable *table, const char *row, const char *const *columns,
                               const char *const *values, GCancellable *cancellable,
                               GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr(HBaseMutation) put = hbase_mutation_new_put_string (row);

  hbase_mutation_put_strings (put, columns, values);
  hbase_table_apply_async (table, put, cancellable, callback, user_data);
}

/**
 * hbase_table_put_strings_finish:
 * @table: a table
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_table_put_strings_async().
 *
 * Returns: %TRUE when the cells were written
 *
 * Since: 0.1
 */
gboolean
hbase_table_put_strings_finish (HBaseTable *table, GAsyncResult *result, GError **error)
{
  return hbase_table_apply_finish (table, result, error);
}

/**
 * hbase_table_put_columns_async: (skip)
 * @table: a table
 * @row: the row key, its bytes up to the NUL
 * @cancellable: (nullable): a #GCancellable
 * @callback: called in the caller's thread-default main context
 * @user_data: data for @callback
 * @first_column: "family:qualifier" of the first cell
 * @...: the first column's value, then more column, value pairs, ended by
 *   %NULL (copied before this returns)
 *
 * Asynchronous hbase_table_put_columns().
 *
 * Since: 0.1
 */
void
hbase_table_put_columns_async (HBaseTable *table, const char *row, GCancellable *cancellable,
                               GAsyncReadyCallback callback, gpointer user_data,
                               const char *first_column, ...)
{
  g_autoptr(HBaseMutation) put = hbase_mutation_new_put_string (row);
  va_list args;

  va_start (args, first_column);
  _hbase_mutation_put_string_va (put, first_column, args);
  va_end (args);
  hbase_table_apply_async (table, put, cancellable, callback, user_data);
}

/**
 * hbase_table_put_columns_finish: (skip)
 * @table: a table
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_table_put_columns_async().
 *
 * Returns: %TRUE when the cells were written
 *
 * Since: 0.1
 */
gboolean
hbase_table_put_columns_finish (HBaseTable *table, GAsyncResult *result, GError **error)
{
  return hbase_table_apply_finish (table, result, error);
}
