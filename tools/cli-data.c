/* SPDX-License-Identifier: Apache-2.0 */
/* cli-data.c: the hbase-glib commands that read and write rows: get, put,
 * delete, scan, count, incr, counter, check-and-put. */
#include "config.h"

#include <string.h>

#include "cli.h"

#define ROWS_GROUP "Rows"

/* --- shared helpers ---------------------------------------------------------------- */

/* "FAMILY:QUALIFIER" (an empty qualifier after the colon is allowed) as
 * bytes, escapes allowed in both. */
static gboolean
parse_cell_column (const char *text, GBytes **family, GBytes **qualifier, GError **error)
{
  const char *colon = strchr (text, ':');
  g_autofree char *family_text = NULL;

  if (colon == NULL || colon == text)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "column \"%s\" must be FAMILY:QUALIFIER", text);
      return FALSE;
    }
  family_text = g_strndup (text, (gsize) (colon - text));
  if ((*family = cli_unescape (family_text, "column family", error)) == NULL)
    return FALSE;
  if ((*qualifier = cli_unescape (colon + 1, "column qualifier", error)) == NULL)
    {
      g_clear_pointer (family, g_bytes_unref);
      return FALSE;
    }
  return TRUE;
}

/* "FAMILY:QUALIFIER=VALUE": the first '=' ends the column (write a '=' of
 * the column as \x3d). */
static gboolean
add_assignment (HBaseMutation *put, const char *text, gint64 timestamp, gboolean int64, GError **error)
{
  const char *equals = strchr (text, '=');
  g_autofree char *column = NULL;
  g_autoptr(GBytes) family = NULL;
  g_autoptr(GBytes) qualifier = NULL;
  g_autoptr(GBytes) value = NULL;

  if (equals == NULL)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "\"%s\" is not FAMILY:QUALIFIER=VALUE", text);
      return FALSE;
    }
  column = g_strndup (text, (gsize) (equals - text));
  if (!parse_cell_column (column, &family, &qualifier, error))
    return FALSE;
  if (int64)
    {
      gint64 number;

      if (!cli_parse_int64 (equals + 1, "value", &number, error))
        return FALSE;
      value = hbase_counter_encode (number);
    }
  else if ((value = cli_unescape (equals + 1, "value", error)) == NULL)
    return FALSE;
  hbase_mutation_put_bytes (put, family, qualifier, value, timestamp);
  return TRUE;
}

/* Column arguments of reads ("FAMILY" or "FAMILY:QUALIFIER", escapes
 * allowed) as the NULL-terminated list HBaseReadOptions takes. */
static GStrv
read_columns (char **given, GError **error)
{
  g_autoptr(GPtrArray) columns = g_ptr_array_new_with_free_func (g_free);

  for (char **c = given; c != NULL && *c != NULL; c++)
    {
      g_autofree char *family = NULL;
      g_autofree char *qualifier = NULL;

      if (!cli_parse_column (*c, &family, &qualifier, error))
        return NULL;
      g_ptr_array_add (columns, qualifier != NULL ? g_strconcat (family, ":", qualifier, NULL)
                                                  : g_steal_pointer (&family));
    }
  g_ptr_array_add (columns, NULL);
  return (GStrv) g_ptr_array_free (g_steal_pointer (&columns), FALSE);
}

/* Splits a line of TSV into at most @max fields (the last one keeps its
 * tabs), after removing the line end. */
static char **
split_line (char *line, int max)
{
  gsize length = strlen (line);

  while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r'))
    line[--length] = '\0';
  return g_strsplit (line, "\t", max);
}

/* --- get --------------------------------------------------------------------------------- */

static int
run_get (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  CliOutput output = { 0 };
  g_auto(GStrv) column_args = NULL;
  g_auto(GStrv) columns = NULL;
  g_autofree char *filter = NULL;
  int versions = 0;
  const GOptionEntry entries[] = {
    { "column", 'c', 0, G_OPTION_ARG_STRING_ARRAY, &column_args,
      "Only this column, FAMILY or FAMILY:QUALIFIER (repeatable)", "COLUMN" },
    { "versions", 0, 0, G_OPTION_ARG_INT, &versions, "Up to N versions of each column (default 1)", "N" },
    { "filter", 'f', 0, G_OPTION_ARG_STRING, &filter, "A filter in the HBase filter language", "FILTER" },
    CLI_OUTPUT_ENTRIES (&output),
    G_OPTION_ENTRY_NULL
  };
  HBaseReadOptions read = HBASE_READ_OPTIONS_INIT;
  g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(GString) buffer = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  int status;

  status = cli_parse (cli, command, entries, &argc, &argv);
  if (status == CLI_EXIT_OK)
    status = cli_expect_args (command, argc, 2, -1);
  if (status != CLI_EXIT_OK)
    goto out;
  if (versions < 0)
    {
      status = cli_usage (command, "--versions must not be negative");
      goto out;
    }
  if (!cli_output_check (&output, &error) || (columns = read_columns (column_args, &error)) == NULL)
    goto failed;
  for (int i = 2; i < argc; i++)
    {
      GBytes *key = cli_unescape (argv[i], "row", &error);

      if (key == NULL)
        goto failed;
      g_ptr_array_add (keys, key);
    }
  read.columns = columns[0] != NULL ? (const char *const *) columns : NULL;
  read.max_versions = (guint) versions;
  read.filter = filter;
  if ((table = cli_table (cli, argv[1], &error)) == NULL ||
      (rows = hbase_table_get_multiple (table, keys, &read, NULL, &error)) == NULL)
    goto failed;
  for (guint i = 0; i < rows->len; i++)
    {
      HBaseRow *row = g_ptr_array_index (rows, i);

      if (hbase_row_is_empty (row))
        {
          g_autoptr(GString) name = g_string_new (NULL);

          cli_escape_bytes (name, g_ptr_array_index (keys, i), FALSE);
          g_printerr ("hbase-glib get: row %s not found in %s\n", name->str, argv[1]);
          status = CLI_EXIT_NOT_FOUND;
          continue;
        }
      cli_output_row (&output, row, buffer);
    }
  goto out;
failed:
  status = cli_fail (cli, command, error);
out:
  g_free (output.format_name);
  return status;
}

/* --- put --------------------------------------------------------------------------------- */

typedef struct {
  guint64 failures;
  GString *first;
} PutFailures;

static void
on_put_failure (HBaseWriteBuffer *buffer, HBaseMutation *mutation, const GError *error, gpointer user_data)
{
  PutFailures *failures = user_data;

  if (failures->failures++ == 0)
    {
      cli_escape_bytes (failures->first, hbase_mutation_get_row (mutation), FALSE);
      g_string_append_printf (failures->first, ": %s", error->message);
    }
}

/* Lines "ROW\tFAMILY:QUALIFIER\tVALUE" or "ROW\tFAMILY:QUALIFIER\tTIMESTAMP\tVALUE"
 * (what scan prints) from stdin, through a write buffer; consecutive lines
 * of one row make one put. */
/* --- put from standard input ------------------------------------------------------------ */

/* One line of `put TABLE -`: ROW<tab>FAMILY:QUALIFIER[<tab>TIMESTAMP]<tab>VALUE
 * (escapes allowed, the value a decimal number with @int64).  @line loses
 * its line end.  TRUE with *@key NULL for an empty line; *@timestamp is
 * left alone when the line has none. */
gboolean
cli_parse_put_line (char *line, gboolean int64, GBytes **key, GBytes **family, GBytes **qualifier,
                    gint64 *timestamp, GBytes **value, GError **error)
{
  g_auto(GStrv) fields = split_line (line, 4);
  guint n = g_strv_length (fields);
  g_autoptr(GBytes) row = NULL;
  g_autoptr(GBytes) cell_family = NULL;
  g_autoptr(GBytes) cell_qualifier = NULL;
  gint64 cell_timestamp = *timestamp;

  *key = *family = *qualifier = *value = NULL;
  if (n == 0 || (n == 1 && fields[0][0] == '\0'))
    return TRUE;
  if (n < 3)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "expected ROW<tab>FAMILY:QUALIFIER<tab>VALUE");
      return FALSE;
    }
  if ((row = cli_unescape (fields[0], "row", error)) == NULL ||
      !parse_cell_column (fields[1], &cell_family, &cell_qualifier, error) ||
      (n == 4 && !cli_parse_int64 (fields[2], "timestamp", &cell_timestamp, error)))
    return FALSE;
  if (int64)
    {
      gint64 number;

      if (!cli_parse_int64 (fields[n - 1], "value", &number, error))
        return FALSE;
      *value = hbase_counter_encode (number);
    }
  else if ((*value = cli_unescape (fields[n - 1], "value", error)) == NULL)
    return FALSE;
  *key = g_steal_pointer (&row);
  *family = g_steal_pointer (&cell_family);
  *qualifier = g_steal_pointer (&cell_qualifier);
  *timestamp = cell_timestamp;
  return TRUE;
}

static int
put_from_stdin (Cli *cli, const CliCommand *command, HBaseTable *table, gint64 timestamp, gboolean int64)
{
  PutFailures failures = { 0, g_string_new (NULL) };
  HBaseWriteBufferOptions options = HBASE_WRITE_BUFFER_OPTIONS_INIT;
  g_autoptr(HBaseWriteBuffer) buffer = NULL;
  g_autoptr(HBaseMutation) put = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;
  size_t capacity = 0;
  guint64 line_number = 0, cells = 0, rows = 0;
  CliProgress progress;
  int status = CLI_EXIT_OK;

  options.on_failure = on_put_failure;
  options.user_data = &failures;
  options.max_mutations = 1000;
  options.background_flush = TRUE;   /* failures are read after close */
  if ((buffer = hbase_write_buffer_new (table, &options, &error)) == NULL)
    goto failed;
  cli_progress_start (&progress, "cells", 0, FALSE);
  while (getline (&line, &capacity, stdin) >= 0)
    {
      g_autoptr(GBytes) key = NULL;
      g_autoptr(GBytes) family = NULL;
      g_autoptr(GBytes) qualifier = NULL;
      g_autoptr(GBytes) value = NULL;
      gint64 cell_timestamp = timestamp;

      line_number++;
      if (!cli_parse_put_line (line, int64, &key, &family, &qualifier, &cell_timestamp, &value, &error))
        {
          g_prefix_error (&error, "line %" G_GUINT64_FORMAT ": ", line_number);
          goto failed_flush;
        }
      if (key == NULL)
        continue;
      if (put != NULL && !g_bytes_equal (hbase_mutation_get_row (put), key))
        {
          if (!hbase_write_buffer_add (buffer, put, NULL, &error))
            goto failed_flush;
          g_clear_pointer (&put, hbase_mutation_unref);
        }
      if (put == NULL)
        {
          put = hbase_mutation_new_put (key);
          rows++;
        }
      hbase_mutation_put_bytes (put, family, qualifier, value, cell_timestamp);
      cells++;
      cli_progress_update (&progress, cells);
    }
  if (put != NULL && !hbase_write_buffer_add (buffer, put, NULL, &error))
    goto failed_flush;
  if (!hbase_write_buffer_close (buffer, NULL, &error))
    goto failed;
  cli_progress_finish (&progress);
  if (failures.failures > 0)
    {
      g_printerr ("hbase-glib put: %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " rows were not written; "
                  "the first: %s\n", failures.failures, rows, failures.first->str);
      status = CLI_EXIT_FAILED;
    }
  else
    g_printerr ("%" G_GUINT64_FORMAT " %s in %" G_GUINT64_FORMAT " %s written\n", cells,
                cells == 1 ? "cell" : "cells", rows, rows == 1 ? "row" : "rows");
  g_string_free (failures.first, TRUE);
  return status;
failed_flush:
  /* what was read before the bad line is written */
  {
    g_autoptr(GError) close_error = NULL;

    cli_progress_finish (&progress);
    if ((put == NULL || hbase_write_buffer_add (buffer, put, NULL, &close_error)) &&
        hbase_write_buffer_close (buffer, NULL, &close_error) && failures.failures == 0)
      {
        char *message = g_strconcat (error->message, " (the lines before it were written)", NULL);

        g_free (error->message);
        error->message = message;
      }
  }
failed:
  g_string_free (failures.first, TRUE);
  return cli_fail (cli, command, error);
}

static int
run_put (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  gint64 timestamp = -1;
  gboolean int64 = FALSE, no_index = FALSE;
  const GOptionEntry entries[] = {
    CLI_NO_INDEX_ENTRY (&no_index),
    { "timestamp", 0, 0, G_OPTION_ARG_INT64, &timestamp,
      "Version of the cells (milliseconds since 1970; default: the server's clock)", "TS" },
    { "int64", 0, 0, G_OPTION_ARG_NONE, &int64,
      "Values are whole numbers, stored as 8-byte big-endian counters", NULL },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(HBaseMutation) put = NULL;
  g_autoptr(GBytes) key = NULL;
  g_autoptr(GError) error = NULL;
  int status;

  if ((status = cli_parse (cli, command, entries, &argc, &argv)) != CLI_EXIT_OK ||
      (status = cli_expect_args (command, argc, 2, -1)) != CLI_EXIT_OK)
    return status;
  if (timestamp < -1)
    return cli_usage (command, "--timestamp must not be negative");
  if (strcmp (argv[2], "-") == 0)
    {
      if (argc != 3)
        return cli_usage (command, "with \"-\" the cells come from stdin, not the command line");
      if ((table = cli_existing_table (cli, argv[1], no_index, &error)) == NULL)
        return cli_fail (cli, command, error);
      return put_from_stdin (cli, command, table, timestamp, int64);
    }
  if (argc < 4)
    return cli_usage (command, "no FAMILY:QUALIFIER=VALUE to write");
  if ((key = cli_unescape (argv[2], "row", &error)) == NULL)
    return cli_fail (cli, command, error);
  put = hbase_mutation_new_put (key);
  for (int i = 3; i < argc; i++)
    if (!add_assignment (put, argv[i], timestamp, int64, &error))
      return cli_fail (cli, command, error);
  if ((table = cli_write_table (cli, argv[1], no_index, &error)) == NULL ||
      !hbase_table_apply (table, put, NULL, &error))
    return cli_fail (cli, command, error);
  return CLI_EXIT_OK;
}

/* --- delete --------------------------------------------------------------------------------- */

static int
delete_from_stdin (Cli *cli, const CliCommand *command, HBaseTable *table)
{
  HBaseWriteBufferOptions options = HBASE_WRITE_BUFFER_OPTIONS_INIT;
  PutFailures failures = { 0, g_string_new (NULL) };
  g_autoptr(HBaseWriteBuffer) buffer = NULL;
  g_autoptr(GBytes) previous = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;
  size_t capacity = 0;
  guint64 rows = 0;
  int status = CLI_EXIT_OK;

  options.on_failure = on_put_failure;
  options.user_data = &failures;
  options.max_mutations = 1000;
  options.background_flush = TRUE;   /* failures are read after close */
  if ((buffer = hbase_write_buffer_new (table, &options, &error)) == NULL)
    goto failed;
  while (getline (&line, &capacity, stdin) >= 0)
    {
      g_auto(GStrv) fields = split_line (line, 2);
      g_autoptr(GBytes) key = NULL;
      g_autoptr(HBaseMutation) delete = NULL;

      if (fields[0] == NULL || fields[0][0] == '\0')
        continue;
      if ((key = cli_unescape (fields[0], "row", &error)) == NULL)
        goto failed_close;
      /* scan output has a line per cell: one delete per row */
      if (previous != NULL && g_bytes_equal (previous, key))
        continue;
      delete = hbase_mutation_new_delete (key);
      if (!hbase_write_buffer_add (buffer, delete, NULL, &error))
        goto failed_close;
      g_clear_pointer (&previous, g_bytes_unref);
      previous = g_steal_pointer (&key);
      rows++;
    }
  if (!hbase_write_buffer_close (buffer, NULL, &error))
    goto failed;
  if (failures.failures > 0)
    {
      g_printerr ("hbase-glib delete: %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " rows were not deleted; "
                  "the first: %s\n", failures.failures, rows, failures.first->str);
      status = CLI_EXIT_FAILED;
    }
  else
    g_printerr ("%" G_GUINT64_FORMAT " %s deleted\n", rows, rows == 1 ? "row" : "rows");
  g_string_free (failures.first, TRUE);
  return status;
failed_close:
  {
    g_autoptr(GError) close_error = NULL;

    hbase_write_buffer_close (buffer, NULL, &close_error);
  }
failed:
  g_string_free (failures.first, TRUE);
  return cli_fail (cli, command, error);
}

static int
run_delete (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  gboolean no_index = FALSE;
  const GOptionEntry entries[] = { CLI_NO_INDEX_ENTRY (&no_index), G_OPTION_ENTRY_NULL };
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(HBaseMutation) delete = NULL;
  g_autoptr(GBytes) key = NULL;
  g_autoptr(GError) error = NULL;
  int status;

  if ((status = cli_parse (cli, command, entries, &argc, &argv)) != CLI_EXIT_OK ||
      (status = cli_expect_args (command, argc, 2, -1)) != CLI_EXIT_OK)
    return status;
  if (strcmp (argv[2], "-") == 0)
    {
      if (argc != 3)
        return cli_usage (command, "with \"-\" the rows come from stdin, not the command line");
      if ((table = cli_existing_table (cli, argv[1], no_index, &error)) == NULL)
        return cli_fail (cli, command, error);
      return delete_from_stdin (cli, command, table);
    }
  if ((key = cli_unescape (argv[2], "row", &error)) == NULL)
    return cli_fail (cli, command, error);
  delete = hbase_mutation_new_delete (key);
  for (int i = 3; i < argc; i++)
    {
      g_autofree char *family = NULL;
      g_autofree char *qualifier = NULL;

      if (!cli_parse_column (argv[i], &family, &qualifier, &error))
        return cli_fail (cli, command, error);
      if (qualifier != NULL)
        hbase_mutation_delete_column (delete, family, qualifier);
      else
        hbase_mutation_delete_family (delete, family);
    }
  if ((table = cli_write_table (cli, argv[1], no_index, &error)) == NULL ||
      !hbase_table_apply (table, delete, NULL, &error))
    return cli_fail (cli, command, error);
  return CLI_EXIT_OK;
}

/* --- scan and count ------------------------------------------------------------------------- */

typedef struct {
  char *start;
  char *stop;
  char *prefix;
  char *filter;
  char **columns;
  int limit;
  int caching;
  int versions;
  gboolean reverse;
} RangeArgs;

#define RANGE_ENTRIES(r) \
  { "start", 's', 0, G_OPTION_ARG_STRING, &(r)->start, "First row (inclusive; the highest with --reverse)", "ROW" }, \
  { "stop", 'e', 0, G_OPTION_ARG_STRING, &(r)->stop, "Row to stop before (exclusive)", "ROW" }, \
  { "prefix", 'p', 0, G_OPTION_ARG_STRING, &(r)->prefix, "Only rows starting with PREFIX", "PREFIX" }, \
  { "filter", 'f', 0, G_OPTION_ARG_STRING, &(r)->filter, \
    "A filter in the HBase filter language, e.g. \"ValueFilter(=, 'binary:x')\"", "FILTER" }, \
  { "reverse", 'r', 0, G_OPTION_ARG_NONE, &(r)->reverse, "From the highest row to the lowest", NULL }, \
  { "caching", 0, 0, G_OPTION_ARG_INT, &(r)->caching, "Rows fetched per round trip (default 100)", "N" }

static void
range_args_clear (RangeArgs *range)
{
  g_free (range->start);
  g_free (range->stop);
  g_free (range->prefix);
  g_free (range->filter);
  g_strfreev (range->columns);
}

/* The scan options of @range; they point into @keep_bytes and @columns,
 * which must outlive them. */
static gboolean
range_scan_options (RangeArgs *range, HBaseScanOptions *scan, GPtrArray *keep_bytes, GStrv *columns,
                    GError **error)
{
  struct { const char *text; GBytes **slot; const char *what; } keys[] = {
    { range->start, &scan->start_row, "start row" },
    { range->stop, &scan->stop_row, "stop row" },
    { range->prefix, &scan->prefix, "prefix" },
  };
  if (range->limit < 0 || range->caching < 0 || range->versions < 0)
    {
      g_set_error_literal (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                           "--limit, --caching and --versions must not be negative");
      return FALSE;
    }
  for (gsize i = 0; i < G_N_ELEMENTS (keys); i++)
    if (keys[i].text != NULL)
      {
        if ((*keys[i].slot = cli_unescape (keys[i].text, keys[i].what, error)) == NULL)
          return FALSE;
        g_ptr_array_add (keep_bytes, *keys[i].slot);
      }
  if ((*columns = read_columns (range->columns, error)) == NULL)
    return FALSE;
  scan->read.columns = (*columns)[0] != NULL ? (const char *const *) *columns : NULL;
  scan->read.filter = range->filter;
  scan->read.max_versions = (guint) range->versions;
  scan->reversed = range->reverse;
  scan->limit = (guint) range->limit;
  scan->caching = (guint) range->caching;
  return TRUE;
}

static int
run_scan (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  CliOutput output = { 0 };
  RangeArgs range = { 0 };
  const GOptionEntry entries[] = {
    RANGE_ENTRIES (&range),
    { "limit", 'l', 0, G_OPTION_ARG_INT, &range.limit, "At most N rows (default all)", "N" },
    { "column", 'c', 0, G_OPTION_ARG_STRING_ARRAY, &range.columns,
      "Only this column, FAMILY or FAMILY:QUALIFIER (repeatable)", "COLUMN" },
    { "versions", 0, 0, G_OPTION_ARG_INT, &range.versions, "Up to N versions of each column (default 1)", "N" },
    { "keys-only", 'k', 0, G_OPTION_ARG_NONE, &output.keys_only, "Print only the row keys", NULL },
    CLI_OUTPUT_ENTRIES (&output),
    G_OPTION_ENTRY_NULL
  };
  HBaseScanOptions scan = HBASE_SCAN_OPTIONS_INIT;
  g_autoptr(GPtrArray) keep_bytes = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_auto(GStrv) columns = NULL;
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(HBaseScanner) scanner = NULL;
  g_autoptr(GString) buffer = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *filter = NULL;
  HBaseRow *row;
  int status;

  status = cli_parse (cli, command, entries, &argc, &argv);
  if (status == CLI_EXIT_OK)
    status = cli_expect_args (command, argc, 1, 1);
  if (status != CLI_EXIT_OK)
    goto out;
  if (!cli_output_check (&output, &error))
    goto failed;
  if (!range_scan_options (&range, &scan, keep_bytes, &columns, &error))
    goto failed;
  if (output.keys_only && range.filter == NULL)
    {
      /* only the first cell of each row, without its value */
      filter = g_strdup ("FirstKeyOnlyFilter() AND KeyOnlyFilter()");
      scan.read.filter = filter;
    }
  if ((table = cli_table (cli, argv[1], &error)) == NULL ||
      (scanner = hbase_table_scan (table, &scan, &error)) == NULL)
    goto failed;
  while (hbase_scanner_next (scanner, &row, NULL, &error) && row != NULL)
    {
      cli_output_row (&output, row, buffer);
      hbase_row_unref (row);
    }
  if (error != NULL)
    goto failed;
  goto out;
failed:
  status = cli_fail (cli, command, error);
out:
  g_free (output.format_name);
  range_args_clear (&range);
  return status;
}

static int
run_count (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  RangeArgs range = { 0 };
  gboolean progress_forced = FALSE;
  g_autofree char *format_name = NULL;
  const GOptionEntry entries[] = {
    RANGE_ENTRIES (&range),
    { "progress", 0, 0, G_OPTION_ARG_NONE, &progress_forced,
      "Show progress on stderr even when it is not a terminal", NULL },
    CLI_FORMAT_NAME_ENTRY (&format_name),
    G_OPTION_ENTRY_NULL
  };
  HBaseScanOptions scan = HBASE_SCAN_OPTIONS_INIT;
  g_autoptr(GPtrArray) keep_bytes = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_auto(GStrv) columns = NULL;
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(HBaseScanner) scanner = NULL;
  g_autoptr(GError) error = NULL;
  CliFormat format = CLI_FORMAT_TSV;
  CliProgress progress;
  guint64 count = 0;
  HBaseRow *row;
  int status;

  status = cli_parse (cli, command, entries, &argc, &argv);
  if (status == CLI_EXIT_OK && (status = cli_expect_args (command, argc, 1, 1)) == CLI_EXIT_OK)
    status = cli_format_parse (cli, command, format_name, &format);
  if (status != CLI_EXIT_OK)
    goto out;
  if (!range_scan_options (&range, &scan, keep_bytes, &columns, &error))
    goto failed;
  if (range.filter == NULL)
    scan.read.filter = "FirstKeyOnlyFilter() AND KeyOnlyFilter()";
  if (scan.caching == 0)
    scan.caching = 1000;
  if ((table = cli_table (cli, argv[1], &error)) == NULL ||
      (scanner = hbase_table_scan (table, &scan, &error)) == NULL)
    goto failed;
  cli_progress_start (&progress, "rows", 0, progress_forced);
  while (hbase_scanner_next (scanner, &row, NULL, &error) && row != NULL)
    {
      hbase_row_unref (row);
      cli_progress_update (&progress, ++count);
    }
  cli_progress_finish (&progress);
  if (error != NULL)
    goto failed;
  cli_print_integer (format, "count", (gint64) count);
  goto out;
failed:
  status = cli_fail (cli, command, error);
out:
  range_args_clear (&range);
  return status;
}

/* --- check-and-put -------------------------------------------------------------------------- */

static gboolean
parse_op (const char *text, HBaseCompareOp *op, GError **error)
{
  static const struct { const char *name; const char *symbol; HBaseCompareOp op; } ops[] = {
    { "eq", "=", HBASE_COMPARE_EQUAL }, { "ne", "!=", HBASE_COMPARE_NOT_EQUAL },
    { "lt", "<", HBASE_COMPARE_LESS }, { "le", "<=", HBASE_COMPARE_LESS_OR_EQUAL },
    { "gt", ">", HBASE_COMPARE_GREATER }, { "ge", ">=", HBASE_COMPARE_GREATER_OR_EQUAL },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (ops); i++)
    if (g_ascii_strcasecmp (text, ops[i].name) == 0 || strcmp (text, ops[i].symbol) == 0)
      {
        *op = ops[i].op;
        return TRUE;
      }
  g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
               "unknown comparison \"%s\" (eq, ne, lt, le, gt or ge)", text);
  return FALSE;
}

static int
run_check_and_put (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  g_autofree char *if_equal = NULL;
  g_autofree char *if_absent = NULL;
  g_autofree char *if_present = NULL;
  g_autofree char *op_name = NULL;
  gboolean no_index = FALSE;
  g_autofree char *format_name = NULL;
  CliFormat format = CLI_FORMAT_TSV;
  const GOptionEntry entries[] = {
    CLI_NO_INDEX_ENTRY (&no_index),
    CLI_FORMAT_NAME_ENTRY (&format_name),
    { "if", 0, 0, G_OPTION_ARG_STRING, &if_equal,
      "Write only if the cell compares to VALUE (with --op; equal by default)", "FAMILY:QUALIFIER=VALUE" },
    { "op", 0, 0, G_OPTION_ARG_STRING, &op_name,
      "How --if compares the cell with VALUE: eq, ne, lt, le, gt, ge (cell OP value)", "OP" },
    { "if-absent", 0, 0, G_OPTION_ARG_STRING, &if_absent, "Write only if the cell does not exist",
      "FAMILY:QUALIFIER" },
    { "if-present", 0, 0, G_OPTION_ARG_STRING, &if_present, "Write only if the cell exists",
      "FAMILY:QUALIFIER" },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(GBytes) key = NULL;
  g_autoptr(HBaseCondition) condition = NULL;
  g_autoptr(GPtrArray) changes = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
  g_autoptr(GError) error = NULL;
  HBaseMutation *put;
  HBaseCompareOp op = HBASE_COMPARE_EQUAL;
  gboolean applied = FALSE;
  int status;

  if ((status = cli_parse (cli, command, entries, &argc, &argv)) != CLI_EXIT_OK ||
      (status = cli_expect_args (command, argc, 3, -1)) != CLI_EXIT_OK ||
      (status = cli_format_parse (cli, command, format_name, &format)) != CLI_EXIT_OK)
    return status;
  if ((if_equal != NULL) + (if_absent != NULL) + (if_present != NULL) != 1)
    return cli_usage (command, "give exactly one of --if, --if-absent and --if-present");
  if (op_name != NULL && if_equal == NULL)
    return cli_usage (command, "--op goes with --if");
  if (op_name != NULL && !parse_op (op_name, &op, &error))
    return cli_fail (cli, command, error);
  if ((key = cli_unescape (argv[2], "row", &error)) == NULL)
    return cli_fail (cli, command, error);
  if (if_equal != NULL)
    {
      const char *equals = strchr (if_equal, '=');
      g_autofree char *column = NULL;
      g_autoptr(GBytes) family = NULL;
      g_autoptr(GBytes) qualifier = NULL;
      g_autoptr(GBytes) value = NULL;

      if (equals == NULL)
        return cli_usage (command, "--if takes FAMILY:QUALIFIER=VALUE");
      column = g_strndup (if_equal, (gsize) (equals - if_equal));
      if (!parse_cell_column (column, &family, &qualifier, &error) ||
          (value = cli_unescape (equals + 1, "value", &error)) == NULL)
        return cli_fail (cli, command, error);
      condition = hbase_condition_new_bytes (family, qualifier, op, value);
    }
  else
    {
      g_autofree char *family = NULL;
      g_autofree char *qualifier = NULL;

      if (!cli_parse_column (if_absent != NULL ? if_absent : if_present, &family, &qualifier, &error))
        return cli_fail (cli, command, error);
      if (qualifier == NULL)
        return cli_usage (command, "the tested column must be FAMILY:QUALIFIER");
      condition = if_absent != NULL ? hbase_condition_new_absent (family, qualifier)
                                    : hbase_condition_new_present (family, qualifier);
    }
  put = hbase_mutation_new_put (key);
  g_ptr_array_add (changes, put);
  for (int i = 3; i < argc; i++)
    if (!add_assignment (put, argv[i], -1, FALSE, &error))
      return cli_fail (cli, command, error);
  if ((table = cli_write_table (cli, argv[1], no_index, &error)) == NULL ||
      !hbase_table_check_and_mutate (table, condition, changes, &applied, NULL, &error))
    return cli_fail (cli, command, error);
  if (format == CLI_FORMAT_JSON)
    printf ("{\"applied\":%s}\n", applied ? "true" : "false");
  else
    printf ("%s\n", applied ? "applied" : "not applied");
  return applied ? CLI_EXIT_OK : CLI_EXIT_NOT_APPLIED;
}

/* --- the table ----------------------------------------------------------------------------- */

const CliCommand cli_data_commands[] = {
  { "get", ROWS_GROUP, "TABLE ROW...", "Print rows, one line per cell (or one JSON object per row).",
    "A row that does not exist is reported on stderr, and the exit status is 3.\n"
    "TSV lines are ROW<tab>FAMILY:QUALIFIER[<tab>TIMESTAMP]<tab>VALUE; bytes that are\n"
    "not printable text are written as \\xNN, a backslash as \\\\.  JSON values are\n"
    "strings when the bytes are UTF-8, {\"base64\": \"...\"} otherwise (--base64: always\n"
    "base64 strings).\n"
    "\n"
    "Example: hbase-glib get dim_product '03|P0000006' -c d:name -c d:category", run_get },
  { "put", ROWS_GROUP, "TABLE ROW FAMILY:QUALIFIER=VALUE... | TABLE -", "Write cells of a row, or many rows from stdin.",
    "The first '=' ends the column; write a '=' inside a column as \\x3d.  With \"-\",\n"
    "each line of stdin is ROW<tab>FAMILY:QUALIFIER<tab>VALUE or\n"
    "ROW<tab>FAMILY:QUALIFIER<tab>TIMESTAMP<tab>VALUE (what scan prints, so\n"
    "`hbase-glib scan a | hbase-glib put b -` copies a table), written in batches.\n"
    "\n"
    "Example: hbase-glib put users u1 info:name=Ada 'info:bytes=\\x00\\xff'", run_put },
  { "delete", ROWS_GROUP, "TABLE ROW [FAMILY[:QUALIFIER]...] | TABLE -", "Delete a row, or some of its families or columns.",
    "With only ROW, the whole row; FAMILY deletes a family, FAMILY:QUALIFIER every\n"
    "version of a column.  Deleting what does not exist is not an error.  With \"-\",\n"
    "the rows are the first fields of the lines of stdin (what scan prints).", run_delete },
  { "scan", ROWS_GROUP, "TABLE", "Print the rows of a key range, in key order.",
    "Output as for get.  --prefix combines with --start/--stop by narrowing the\n"
    "range.  The scanner fetches --caching rows per round trip, so memory stays\n"
    "small however long the range.\n"
    "\n"
    "Example: hbase-glib scan dim_product --prefix '03|' --limit 10 -o json", run_scan },
  { "count", ROWS_GROUP, "TABLE", "Count the rows of a table or key range.",
    "Fetches only the first key of each row.  Shows progress on stderr when it is a\n"
    "terminal.", run_count },
  { "incr", ROWS_GROUP, "TABLE ROW FAMILY:QUALIFIER [AMOUNT]", "Add to a 64-bit counter; print the new value.",
    "AMOUNT is 1 by default and may be negative.  Counters are 8-byte big-endian\n"
    "cells, as HBase's increments store them.", cli_run_incr },
  { "counter", ROWS_GROUP, "TABLE ROW FAMILY:QUALIFIER [VALUE]", "Print a 64-bit counter, or set it to VALUE.",
    "A missing counter reads as 0; a cell that is not 8 bytes wide is an error.", cli_run_counter },
  { "check-and-put", ROWS_GROUP, "TABLE ROW FAMILY:QUALIFIER=VALUE...", "Write cells only if a test of one cell passes, atomically.",
    "Prints \"applied\" (exit status 0) or \"not applied\" (exit status 5).\n"
    "\n"
    "Example: hbase-glib check-and-put users u1 --if-absent info:email info:email=ada@example.org",
    run_check_and_put },
  { NULL, NULL, NULL, NULL, NULL, NULL }
};
