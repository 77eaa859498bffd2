/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-options.c: the option structs of reads, scans and write buffers
 * on the heap, for bindings and for code that keeps them: boxed types,
 * constructors, deep copies and the setters of their pointer fields.  A
 * struct made here owns what its setters stored (docs/api-conventions.md);
 * one on the stack borrows its pointers and never comes here. */
#include "config.h"

#include <hbase-glib/hbase-scanner.h>
#include <hbase-glib/hbase-write-buffer.h>

#include "hbase-table-private.h"

G_DEFINE_BOXED_TYPE (HBaseReadOptions, hbase_read_options, hbase_read_options_copy,
                     hbase_read_options_free)
G_DEFINE_BOXED_TYPE (HBaseScanOptions, hbase_scan_options, hbase_scan_options_copy,
                     hbase_scan_options_free)
G_DEFINE_BOXED_TYPE (HBaseWriteBufferOptions, hbase_write_buffer_options,
                     hbase_write_buffer_options_copy, hbase_write_buffer_options_free)

/* --- read options ---------------------------------------------------------- */

static GPtrArray *
column_list_copy (GPtrArray *list)
{
  GPtrArray *copy;

  if (list == NULL)
    return NULL;
  copy = g_ptr_array_new_full (list->len, (GDestroyNotify) hbase_column_unref);
  for (guint i = 0; i < list->len; i++)
    g_ptr_array_add (copy, hbase_column_ref (g_ptr_array_index (list, i)));
  return copy;
}

/* Releases what an owning read options struct holds, leaving it zeroed
 * apart from its scalar fields. */
void
_hbase_read_options_clear (HBaseReadOptions *options)
{
  g_strfreev ((char **) options->columns);
  options->columns = NULL;
  g_free ((char *) options->filter);
  options->filter = NULL;
  g_clear_pointer (&options->column_list, g_ptr_array_unref);
  g_clear_pointer (&options->filter_bytes, g_bytes_unref);
  g_clear_pointer (&options->typed_filter, hbase_filter_unref);
}

/* Makes @dest, a bitwise copy of @src, own copies of @src's pointers. */
void
_hbase_read_options_deepen (HBaseReadOptions *dest, const HBaseReadOptions *src)
{
  dest->columns = (const char *const *) g_strdupv ((char **) src->columns);
  dest->filter = g_strdup (src->filter);
  dest->column_list = column_list_copy (src->column_list);
  dest->filter_bytes = src->filter_bytes != NULL ? g_bytes_ref (src->filter_bytes) : NULL;
  dest->typed_filter = src->typed_filter != NULL ? hbase_filter_ref (src->typed_filter) : NULL;
}

/**
 * hbase_read_options_new:
 *
 * Read options on the heap, with the defaults of %HBASE_READ_OPTIONS_INIT.
 * The struct owns what its setters store.
 *
 * Returns: (transfer full): the options, to free with
 *   hbase_read_options_free()
 *
 * Since: 0.1
 */
HBaseReadOptions *
hbase_read_options_new (void)
{
  return g_new0 (HBaseReadOptions, 1);
}

/**
 * hbase_read_options_copy:
 * @options: read options, owning or borrowing their pointers
 *
 * A deep copy: the columns and filter strings are copied, the column list
 * is a new array of the same columns, the filter bytes and the typed
 * filter are referenced.
 *
 * Returns: (transfer full): the copy, to free with hbase_read_options_free()
 *
 * Since: 0.1
 */
HBaseReadOptions *
hbase_read_options_copy (const HBaseReadOptions *options)
{
  HBaseReadOptions *copy;

  g_return_val_if_fail (options != NULL, NULL);
  copy = g_memdup2 (options, sizeof *options);
  _hbase_read_options_deepen (copy, options);
  return copy;
}

/**
 * hbase_read_options_free:
 * @options: (nullable) (transfer full): options from hbase_read_options_new()
 *   or hbase_read_options_copy()
 *
 * Frees @options and what they own.
 *
 * Since: 0.1
 */
void
hbase_read_options_free (HBaseReadOptions *options)
{
  if (options == NULL)
    return;
  _hbase_read_options_clear (options);
  g_free (options);
}

/**
 * hbase_read_options_set_columns:
 * @options: options from hbase_read_options_new() or hbase_read_options_copy()
 * @columns: (nullable) (array zero-terminated=1): "family" or
 *   "family:qualifier" entries, copied; %NULL for every column
 *
 * Sets @columns, freeing the previous ones.
 *
 * Since: 0.1
 */
void
hbase_read_options_set_columns (HBaseReadOptions *options, const char *const *columns)
{
  char **copy;

  g_return_if_fail (options != NULL);
  copy = g_strdupv ((char **) columns);
  g_strfreev ((char **) options->columns);
  options->columns = (const char *const *) copy;
}

/**
 * hbase_read_options_set_filter:
 * @options: options from hbase_read_options_new() or hbase_read_options_copy()
 * @filter: (nullable): a filter in the HBase filter language, copied
 *
 * Sets @filter, freeing the previous one.
 *
 * Since: 0.1
 */
void
hbase_read_options_set_filter (HBaseReadOptions *options, const char *filter)
{
  char *copy;

  g_return_if_fail (options != NULL);
  copy = g_strdup (filter);
  g_free ((char *) options->filter);
  options->filter = copy;
}

/**
 * hbase_read_options_set_column_list:
 * @options: options from hbase_read_options_new() or hbase_read_options_copy()
 * @column_list: (nullable) (element-type HBaseColumn): the columns to
 *   read; the options keep a new array referencing the same columns
 *
 * Sets @column_list, dropping the previous one.
 *
 * Since: 0.1
 */
void
hbase_read_options_set_column_list (HBaseReadOptions *options, GPtrArray *column_list)
{
  GPtrArray *copy;

  g_return_if_fail (options != NULL);
  copy = column_list_copy (column_list);
  g_clear_pointer (&options->column_list, g_ptr_array_unref);
  options->column_list = copy;
}

/**
 * hbase_read_options_set_filter_bytes:
 * @options: options from hbase_read_options_new() or hbase_read_options_copy()
 * @filter_bytes: (nullable): a filter in the HBase filter language as
 *   bytes, referenced
 *
 * Sets @filter_bytes, dropping the previous one.
 *
 * Since: 0.1
 */
void
hbase_read_options_set_filter_bytes (HBaseReadOptions *options, GBytes *filter_bytes)
{
  g_return_if_fail (options != NULL);
  if (filter_bytes != NULL)
    g_bytes_ref (filter_bytes);
  g_clear_pointer (&options->filter_bytes, g_bytes_unref);
  options->filter_bytes = filter_bytes;
}

/**
 * hbase_read_options_set_typed_filter:
 * @options: options from hbase_read_options_new() or hbase_read_options_copy()
 * @typed_filter: (nullable): a filter built with the #HBaseFilter
 *   constructors, referenced (filters are immutable)
 *
 * Sets @typed_filter, dropping the previous one.  The read then runs it on
 * either backend: its rendering through the Thrift2 gateway, HBase's own
 * filter messages on the native backend.  Not together with a @filter or
 * @filter_bytes (the read fails with %HBASE_ERROR_ILLEGAL_ARGUMENT).
 *
 * Since: 0.1
 */
void
hbase_read_options_set_typed_filter (HBaseReadOptions *options, HBaseFilter *typed_filter)
{
  g_return_if_fail (options != NULL);
  if (typed_filter != NULL)
    hbase_filter_ref (typed_filter);
  g_clear_pointer (&options->typed_filter, hbase_filter_unref);
  options->typed_filter = typed_filter;
}

/* --- scan options ---------------------------------------------------------- */

static void
replace_bytes (GBytes **slot, GBytes *bytes)
{
  if (bytes != NULL)
    g_bytes_ref (bytes);
  g_clear_pointer (slot, g_bytes_unref);
  *slot = bytes;
}

/**
 * hbase_scan_options_new:
 *
 * Scan options on the heap, with the defaults of %HBASE_SCAN_OPTIONS_INIT.
 * The struct owns what its setters store, those of its read options
 * included.
 *
 * Returns: (transfer full): the options, to free with
 *   hbase_scan_options_free()
 *
 * Since: 0.1
 */
HBaseScanOptions *
hbase_scan_options_new (void)
{
  return g_new0 (HBaseScanOptions, 1);
}

/**
 * hbase_scan_options_copy:
 * @options: scan options, owning or borrowing their pointers
 *
 * A deep copy: the rows and prefix are referenced, the read options
 * copied as hbase_read_options_copy() does.
 *
 * Returns: (transfer full): the copy, to free with hbase_scan_options_free()
 *
 * Since: 0.1
 */
HBaseScanOptions *
hbase_scan_options_copy (const HBaseScanOptions *options)
{
  HBaseScanOptions *copy;

  g_return_val_if_fail (options != NULL, NULL);
  copy = g_memdup2 (options, sizeof *options);
  if (copy->start_row != NULL)
    g_bytes_ref (copy->start_row);
  if (copy->stop_row != NULL)
    g_bytes_ref (copy->stop_row);
  if (copy->prefix != NULL)
    g_bytes_ref (copy->prefix);
  _hbase_read_options_deepen (&copy->read, &options->read);
  return copy;
}

/**
 * hbase_scan_options_free:
 * @options: (nullable) (transfer full): options from hbase_scan_options_new()
 *   or hbase_scan_options_copy()
 *
 * Frees @options and what they own, their read options' included.
 *
 * Since: 0.1
 */
void
hbase_scan_options_free (HBaseScanOptions *options)
{
  if (options == NULL)
    return;
  g_clear_pointer (&options->start_row, g_bytes_unref);
  g_clear_pointer (&options->stop_row, g_bytes_unref);
  g_clear_pointer (&options->prefix, g_bytes_unref);
  _hbase_read_options_clear (&options->read);
  g_free (options);
}

/**
 * hbase_scan_options_set_start_row:
 * @options: options from hbase_scan_options_new() or hbase_scan_options_copy()
 * @start_row: (nullable): the first row, referenced
 *
 * Sets @start_row, dropping the previous one.
 *
 * Since: 0.1
 */
void
hbase_scan_options_set_start_row (HBaseScanOptions *options, GBytes *start_row)
{
  g_return_if_fail (options != NULL);
  replace_bytes (&options->start_row, start_row);
}

/**
 * hbase_scan_options_set_stop_row:
 * @options: options from hbase_scan_options_new() or hbase_scan_options_copy()
 * @stop_row: (nullable): where to stop, referenced
 *
 * Sets @stop_row, dropping the previous one.
 *
 * Since: 0.1
 */
void
hbase_scan_options_set_stop_row (HBaseScanOptions *options, GBytes *stop_row)
{
  g_return_if_fail (options != NULL);
  replace_bytes (&options->stop_row, stop_row);
}

/**
 * hbase_scan_options_set_prefix:
 * @options: options from hbase_scan_options_new() or hbase_scan_options_copy()
 * @prefix: (nullable): the prefix of the rows to scan, referenced
 *
 * Sets @prefix, dropping the previous one.
 *
 * Since: 0.1
 */
void
hbase_scan_options_set_prefix (HBaseScanOptions *options, GBytes *prefix)
{
  g_return_if_fail (options != NULL);
  replace_bytes (&options->prefix, prefix);
}

/**
 * hbase_scan_options_set_read:
 * @options: options from hbase_scan_options_new() or hbase_scan_options_copy()
 * @read: (nullable): the columns, versions, time range and filter, copied
 *   deeply as hbase_read_options_copy() does; %NULL for the defaults
 *
 * Sets the read options of the scan, releasing the previous ones.
 *
 * Since: 0.1
 */
void
hbase_scan_options_set_read (HBaseScanOptions *options, const HBaseReadOptions *read)
{
  static const HBaseReadOptions defaults = HBASE_READ_OPTIONS_INIT;
  HBaseReadOptions copy;

  g_return_if_fail (options != NULL);
  if (read == NULL)
    read = &defaults;
  copy = *read;
  _hbase_read_options_deepen (&copy, read);
  _hbase_read_options_clear (&options->read);
  options->read = copy;
}

/* --- write buffer options -------------------------------------------------- */

/**
 * hbase_write_buffer_options_new:
 *
 * Write buffer options on the heap, with the defaults of
 * %HBASE_WRITE_BUFFER_OPTIONS_INIT (a @max_bytes of 0 means the default).
 *
 * Returns: (transfer full): the options, to free with
 *   hbase_write_buffer_options_free()
 *
 * Since: 0.1
 */
HBaseWriteBufferOptions *
hbase_write_buffer_options_new (void)
{
  return g_new0 (HBaseWriteBufferOptions, 1);
}

/**
 * hbase_write_buffer_options_copy:
 * @options: write buffer options
 *
 * A copy, with the same callback and user data.
 *
 * Returns: (transfer full): the copy, to free with
 *   hbase_write_buffer_options_free()
 *
 * Since: 0.1
 */
HBaseWriteBufferOptions *
hbase_write_buffer_options_copy (const HBaseWriteBufferOptions *options)
{
  g_return_val_if_fail (options != NULL, NULL);
  return g_memdup2 (options, sizeof *options);
}

/**
 * hbase_write_buffer_options_free:
 * @options: (nullable) (transfer full): options from
 *   hbase_write_buffer_options_new() or hbase_write_buffer_options_copy()
 *
 * Frees @options (not the user data of their callback).
 *
 * Since: 0.1
 */
void
hbase_write_buffer_options_free (HBaseWriteBufferOptions *options)
{
  g_free (options);
}

/**
 * hbase_write_buffer_options_set_on_failure: (skip)
 * @options: write buffer options
 * @on_failure: (nullable) (scope call) (closure user_data): called for
 *   each mutation a buffer made with @options could not write; %NULL to
 *   keep failures for hbase_write_buffer_take_failures()
 * @user_data: passed to @on_failure; must outlive every buffer made with
 *   @options
 *
 * Sets the failure callback and its data, replacing the previous ones.
 * The options do not own @user_data; bindings set the callback on the
 * buffer instead, with hbase_write_buffer_set_on_failure(), which does.
 *
 * Since: 0.1
 */
void
hbase_write_buffer_options_set_on_failure (HBaseWriteBufferOptions *options,
                                           HBaseWriteFailureFunc    on_failure,
                                           gpointer                 user_data)
{
  g_return_if_fail (options != NULL);
  options->on_failure = on_failure;
  options->user_data = user_data;
}
