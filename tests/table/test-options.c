/* SPDX-License-Identifier: Apache-2.0 */
/* Unit test (no server) of the option structs of reads, scans, write
 * buffers and column families on the heap: the defaults of _new(), deep
 * copies (a typed filter referenced), setters that replace (and release)
 * the previous value, _free() releasing what the struct owns, their boxed GTypes; the boxed types of
 * HBaseConfig and HBaseClientStats, and the GTypes of the layer's objects
 * and error enum.  Whether a GBytes was released is seen through the free
 * function of bytes made for the test. */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-glib.h>

static void
set_flag (gpointer flag)
{
  *(gboolean *) flag = TRUE;
}

/* Static bytes that set *@freed when their last reference goes. */
static GBytes *
tracked_bytes (const char *text, gboolean *freed)
{
  *freed = FALSE;
  return g_bytes_new_with_free_func (text, strlen (text), set_flag, freed);
}

static void
test_read_options (void)
{
  const char *const columns[] = { "f:a", "g", NULL };
  g_autoptr(HBaseReadOptions) options = hbase_read_options_new ();
  g_autoptr(HBaseReadOptions) copy = NULL;
  g_autoptr(GPtrArray) list = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_column_unref);
  gboolean filter_freed;
  GBytes *filter = tracked_bytes ("KeyOnlyFilter()", &filter_freed);
  HBaseReadOptions *boxed;
  char *columns_copy;

  /* zeroed: the defaults of HBASE_READ_OPTIONS_INIT */
  g_assert_null (options->columns);
  g_assert_cmpuint (options->max_versions, ==, 0);
  g_assert_null (options->filter);
  g_assert_null (options->column_list);
  g_assert_null (options->filter_bytes);
  g_assert_null (options->typed_filter);

  /* setters copy strings and arrays: changing the source changes nothing */
  columns_copy = g_strdup ("f:a");
  {
    const char *mutable_columns[] = { columns_copy, NULL };

    hbase_read_options_set_columns (options, mutable_columns);
  }
  columns_copy[0] = 'x';
  g_free (columns_copy);
  g_assert_cmpstr (options->columns[0], ==, "f:a");
  g_assert_null (options->columns[1]);
  hbase_read_options_set_columns (options, columns);   /* replaces, frees the old */
  g_assert_cmpstrv (options->columns, columns);
  g_assert_true (options->columns != columns);

  hbase_read_options_set_filter (options, "FirstKeyOnlyFilter()");
  hbase_read_options_set_filter (options, "KeyOnlyFilter()");
  g_assert_cmpstr (options->filter, ==, "KeyOnlyFilter()");

  g_ptr_array_add (list, hbase_column_new ("f", NULL));
  hbase_read_options_set_column_list (options, list);
  g_assert_true (options->column_list != list);
  g_ptr_array_set_size (list, 0);   /* the options keep their own array */
  g_assert_cmpuint (options->column_list->len, ==, 1);
  g_assert_nonnull (hbase_column_get_family (g_ptr_array_index (options->column_list, 0)));

  hbase_read_options_set_filter_bytes (options, filter);
  g_bytes_unref (filter);   /* the options hold it now */
  g_assert_false (filter_freed);
  g_assert_true (options->filter_bytes == filter);
  options->max_versions = 3;

  /* a deep copy: its strings and arrays are its own */
  copy = hbase_read_options_copy (options);
  g_assert_true (copy->columns != options->columns);
  g_assert_cmpstrv (copy->columns, columns);
  g_assert_true (copy->filter != options->filter);
  g_assert_cmpstr (copy->filter, ==, "KeyOnlyFilter()");
  g_assert_true (copy->column_list != options->column_list);
  g_assert_cmpuint (copy->column_list->len, ==, 1);
  g_assert_true (copy->filter_bytes == filter);
  g_assert_cmpuint (copy->max_versions, ==, 3);

  /* a setter drops the previous value: the copy holds the bytes alone,
   * and freeing it releases them */
  hbase_read_options_set_filter_bytes (options, NULL);
  g_assert_null (options->filter_bytes);
  g_assert_false (filter_freed);
  g_clear_pointer (&copy, hbase_read_options_free);
  g_assert_true (filter_freed);

  /* a copy of borrowed options on the stack owns its pointers */
  {
    HBaseReadOptions borrowed = HBASE_READ_OPTIONS_INIT;

    borrowed.columns = columns;
    borrowed.filter = "KeyOnlyFilter()";
    boxed = g_boxed_copy (HBASE_TYPE_READ_OPTIONS, &borrowed);
  }
  g_assert_cmpstrv (boxed->columns, columns);
  g_assert_true (boxed->columns != columns);
  g_boxed_free (HBASE_TYPE_READ_OPTIONS, boxed);
  hbase_read_options_free (NULL);
}

/* typed_filter: referenced by the setter and by copies, released by the
 * last of them (seen through the bytes the filter holds) */
static void
test_read_options_typed_filter (void)
{
  g_autoptr(HBaseReadOptions) options = hbase_read_options_new ();
  g_autoptr(HBaseReadOptions) copy = NULL;
  gboolean prefix_freed;
  GBytes *prefix = tracked_bytes ("p", &prefix_freed);
  HBaseFilter *filter = hbase_filter_prefix (prefix);
  HBaseFilter *other = hbase_filter_first_key_only ();
  HBaseScanOptions *scan = hbase_scan_options_new ();
  HBaseScanOptions *scan_copy;

  g_bytes_unref (prefix);   /* the filter holds it */
  g_assert_null (options->typed_filter);
  hbase_read_options_set_typed_filter (options, filter);
  hbase_filter_unref (filter);   /* the options hold it now */
  g_assert_true (options->typed_filter == filter);
  copy = hbase_read_options_copy (options);
  g_assert_true (copy->typed_filter == filter);
  hbase_read_options_set_typed_filter (options, other);   /* drops the previous one */
  hbase_filter_unref (other);
  g_assert_true (options->typed_filter == other);
  g_assert_false (prefix_freed);
  g_clear_pointer (&copy, hbase_read_options_free);
  g_assert_true (prefix_freed);
  hbase_read_options_set_typed_filter (options, NULL);
  g_assert_null (options->typed_filter);

  /* the read options of scan options too */
  prefix = tracked_bytes ("p", &prefix_freed);
  filter = hbase_filter_column_prefix (prefix);
  g_bytes_unref (prefix);
  hbase_read_options_set_typed_filter (&scan->read, filter);
  hbase_filter_unref (filter);
  scan_copy = hbase_scan_options_copy (scan);
  g_assert_true (scan_copy->read.typed_filter == filter);
  hbase_scan_options_free (scan);
  g_assert_false (prefix_freed);
  hbase_scan_options_free (scan_copy);
  g_assert_true (prefix_freed);
}

static void
test_scan_options (void)
{
  g_autoptr(HBaseScanOptions) options = hbase_scan_options_new ();
  g_autoptr(HBaseScanOptions) copy = NULL;
  gboolean start_freed, stop_freed, prefix_freed, other_freed;
  GBytes *start = tracked_bytes ("a", &start_freed);
  GBytes *stop = tracked_bytes ("z", &stop_freed);
  GBytes *prefix = tracked_bytes ("p", &prefix_freed);
  GBytes *other = tracked_bytes ("b", &other_freed);
  HBaseScanOptions stack = HBASE_SCAN_OPTIONS_INIT;

  /* zeroed: the defaults of HBASE_SCAN_OPTIONS_INIT */
  g_assert_cmpmem (options, sizeof *options, &stack, sizeof stack);

  hbase_scan_options_set_start_row (options, start);
  hbase_scan_options_set_stop_row (options, stop);
  hbase_scan_options_set_prefix (options, prefix);
  g_bytes_unref (start);
  g_bytes_unref (stop);
  g_bytes_unref (prefix);
  g_assert_false (start_freed || stop_freed || prefix_freed);
  g_assert_true (options->start_row == start);
  g_assert_true (options->stop_row == stop);
  g_assert_true (options->prefix == prefix);
  {
    HBaseReadOptions read = HBASE_READ_OPTIONS_INIT;
    char *filter = g_strdup ("KeyOnlyFilter()");

    read.filter = filter;
    read.max_versions = 2;
    hbase_scan_options_set_read (options, &read);
    g_free (filter);   /* the scan options keep a copy */
  }
  g_assert_cmpstr (options->read.filter, ==, "KeyOnlyFilter()");
  g_assert_cmpuint (options->read.max_versions, ==, 2);
  options->reversed = TRUE;
  options->caching = 7;

  copy = hbase_scan_options_copy (options);
  g_assert_true (copy->start_row == start);
  g_assert_true (copy->reversed);
  g_assert_cmpuint (copy->caching, ==, 7);
  g_assert_cmpstr (copy->read.filter, ==, "KeyOnlyFilter()");
  g_assert_true (copy->read.filter != options->read.filter);

  /* setting the read options again releases the previous ones' strings
   * (valgrind and ASan runs would report a leak) */
  hbase_scan_options_set_read (options, &options->read);
  g_assert_cmpstr (options->read.filter, ==, "KeyOnlyFilter()");
  hbase_scan_options_set_read (options, NULL);
  g_assert_null (options->read.filter);
  g_assert_cmpuint (options->read.max_versions, ==, 0);

  /* a setter replaces: the old start row is then held by the copy alone */
  hbase_scan_options_set_start_row (options, other);
  g_bytes_unref (other);
  g_assert_true (options->start_row == other);
  hbase_scan_options_set_prefix (options, NULL);
  g_assert_null (options->prefix);
  g_assert_false (start_freed || prefix_freed);
  g_clear_pointer (&copy, hbase_scan_options_free);
  g_assert_true (start_freed);
  g_assert_true (prefix_freed);
  g_assert_false (stop_freed);

  /* freeing releases the rows */
  g_clear_pointer (&options, hbase_scan_options_free);
  g_assert_true (stop_freed);
  g_assert_true (other_freed);
  g_assert_true (G_TYPE_IS_BOXED (HBASE_TYPE_SCAN_OPTIONS));
}

static void
on_failure (HBaseWriteBuffer *buffer, HBaseMutation *mutation, const GError *error,
            gpointer user_data)
{
}

static void
test_write_buffer_options (void)
{
  g_autoptr(HBaseWriteBufferOptions) options = hbase_write_buffer_options_new ();
  HBaseWriteBufferOptions *copy;
  int data;

  g_assert_cmpuint (options->max_bytes, ==, 0);   /* 0: the default */
  g_assert_null (options->on_failure);
  hbase_write_buffer_options_set_on_failure (options, on_failure, &data);
  g_assert_true (options->on_failure == on_failure);
  g_assert_true (options->user_data == &data);
  options->max_mutations = 5;

  copy = g_boxed_copy (HBASE_TYPE_WRITE_BUFFER_OPTIONS, options);
  g_assert_true (copy->on_failure == on_failure);
  g_assert_true (copy->user_data == &data);
  g_assert_cmpuint (copy->max_mutations, ==, 5);
  hbase_write_buffer_options_set_on_failure (copy, NULL, NULL);
  g_assert_null (copy->on_failure);
  g_assert_true (options->on_failure == on_failure);
  g_boxed_free (HBASE_TYPE_WRITE_BUFFER_OPTIONS, copy);
  hbase_write_buffer_options_free (NULL);
}

static void
test_family_options (void)
{
  g_autoptr(HBaseFamilyOptions) options = hbase_family_options_new ();
  g_autoptr(HBaseFamilyOptions) copy = NULL;
  HBaseFamilyOptions stack = HBASE_FAMILY_OPTIONS_INIT;
  char *name = g_strdup ("cf");

  g_assert_cmpmem (options, sizeof *options, &stack, sizeof stack);
  hbase_family_options_set_name (options, name);
  name[0] = 'x';
  g_free (name);
  g_assert_cmpstr (options->name, ==, "cf");
  hbase_family_options_set_name (options, "d");
  g_assert_cmpstr (options->name, ==, "d");
  options->max_versions = 4;
  options->compression = HBASE_COMPRESSION_GZ;

  copy = hbase_family_options_copy (options);
  g_assert_true (copy->name != options->name);
  g_assert_cmpstr (copy->name, ==, "d");
  g_assert_cmpuint (copy->max_versions, ==, 4);
  g_assert_cmpint (copy->compression, ==, HBASE_COMPRESSION_GZ);
  hbase_family_options_set_name (options, NULL);
  g_assert_null (options->name);
  g_assert_cmpstr (copy->name, ==, "d");
  g_assert_true (G_TYPE_IS_BOXED (HBASE_TYPE_FAMILY_OPTIONS));
  hbase_family_options_free (NULL);
}

/* The boxed types of the configuration and of the client's counters copy
 * by value. */
static void
test_config_and_stats_types (void)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(GError) error = NULL;
  HBaseConfig *config_copy;
  HBaseClientStats stats = { .retries = 3, .open = 2 };
  HBaseClientStats *stats_copy;

  g_assert_true (hbase_config_set_gateways (config, "h1:1, h2:2", &error));
  g_assert_no_error (error);
  config_copy = g_boxed_copy (HBASE_TYPE_CONFIG, config);
  g_assert_true (config_copy != config);
  g_assert_cmpuint (hbase_config_get_n_gateways (config_copy), ==, 2);
  g_assert_cmpstr (hbase_config_get_gateway_host (config_copy, 1), ==, "h2");
  g_boxed_free (HBASE_TYPE_CONFIG, config_copy);

  stats_copy = g_boxed_copy (HBASE_TYPE_CLIENT_STATS, &stats);
  g_assert_cmpuint (stats_copy->retries, ==, 3);
  g_assert_cmpuint (stats_copy->open, ==, 2);
  g_boxed_free (HBASE_TYPE_CLIENT_STATS, stats_copy);
}

/* The objects of the layer are GObjects, and the error enum pairs with
 * its quark under its new name and the former one. */
static void
test_types (void)
{
  g_assert_true (g_type_is_a (HBASE_TYPE_CONNECTION, G_TYPE_OBJECT));
  g_assert_true (g_type_is_a (HBASE_TYPE_SCANNER, G_TYPE_OBJECT));
  g_assert_true (g_type_is_a (HBASE_TYPE_WRITE_BUFFER, G_TYPE_OBJECT));
  g_assert_cmpstr (g_type_name (HBASE_TYPE_ERROR), ==, "HBaseError");
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  g_assert_true (HBASE_TYPE_ERROR_CODE == HBASE_TYPE_ERROR);
  g_assert_cmpuint (sizeof (HBaseErrorCode), ==, sizeof (HBaseError));
  G_GNUC_END_IGNORE_DEPRECATIONS
}

/* A write buffer made by g_object_new() alone, as a binding's default
 * constructor makes it, has no table: it refuses writes with an error and
 * is released without a crash. */
static void
test_write_buffer_without_table (void)
{
  g_autoptr(GError) error = NULL;
  HBaseWriteBuffer *buffer = g_object_new (HBASE_TYPE_WRITE_BUFFER, NULL);
  g_autoptr(GBytes) row = g_bytes_new_static ("r", 1);
  g_autoptr(GBytes) value = g_bytes_new_static ("v", 1);
  g_autoptr(HBaseMutation) put = hbase_mutation_new_put (row);

  hbase_mutation_put (put, "f", "q", value);
  g_assert_false (hbase_write_buffer_add (buffer, put, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "hbase_write_buffer_new"));
  g_clear_error (&error);
  g_assert_false (hbase_write_buffer_flush (buffer, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_assert_null (hbase_write_buffer_get_table (buffer));
  g_object_unref (buffer);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/table/options/read", test_read_options);
  g_test_add_func ("/table/options/read-typed-filter", test_read_options_typed_filter);
  g_test_add_func ("/table/options/scan", test_scan_options);
  g_test_add_func ("/table/options/write-buffer", test_write_buffer_options);
  g_test_add_func ("/table/options/family", test_family_options);
  g_test_add_func ("/table/options/config-and-stats", test_config_and_stats_types);
  g_test_add_func ("/table/options/types", test_types);
  g_test_add_func ("/table/options/write-buffer-without-table", test_write_buffer_without_table);
  return g_test_run ();
}
