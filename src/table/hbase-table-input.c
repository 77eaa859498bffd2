/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-table-input.c: the checks and conversions of caller input that the
 * table, scanner and admin code share: row keys, read options, filter
 * strings, table names, and GBytes/strings into the generated structs'
 * GByteArrays.  Everything here runs before a request is sent, so a bad
 * argument never reaches the gateway. */
#include "config.h"

#include <string.h>

#include "hbase-table-private.h"

#define MAX_NAME_LENGTH 255


GByteArray *
_hbase_byte_array_from_bytes (GBytes *bytes)
{
  GByteArray *array = g_byte_array_new ();
  gsize size = 0;
  const guint8 *data = bytes != NULL ? g_bytes_get_data (bytes, &size) : NULL;

  if (size > 0)
    g_byte_array_append (array, data, (guint) size);
  return array;
}

GByteArray *
_hbase_byte_array_from_string (const char *text)
{
  GByteArray *array = g_byte_array_new ();

  if (text != NULL)
    g_byte_array_append (array, (const guint8 *) text, (guint) strlen (text));
  return array;
}

gboolean
_hbase_check_row (GBytes *row, const char *what, GError **error)
{
  if (row == NULL || g_bytes_get_size (row) == 0)
    {
      /* HBase has no empty row key: an empty key would read nothing and a
       * write would be rejected by the region server anyway */
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT, "the %s is %s",
                   what != NULL ? what : "row", row == NULL ? "NULL" : "empty");
      return FALSE;
    }
  return TRUE;
}

/* Catches what is certainly malformed in a filter string (unbalanced
 * parentheses, an unterminated quote) before sending: the gateway answers
 * a filter it cannot parse with a bare "Internal error processing get",
 * which does not say what is wrong.  In the filter language a quote inside
 * a quoted string is doubled, so counting quotes is enough. */
static gboolean
check_filter_syntax (const char *filter, GError **error)
{
  gboolean quoted = FALSE;
  int depth = 0;

  for (const char *p = filter; *p != '\0'; p++)
    {
      if (*p == '\'')
        quoted = !quoted;
      else if (!quoted && *p == '(')
        depth++;
      else if (!quoted && *p == ')' && --depth < 0)
        return _hbase_illegal (error, "the filter \"%s\" has a ')' without its '('", filter);
    }
  if (quoted)
    return _hbase_illegal (error, "the filter \"%s\" has an unterminated quoted string", filter);
  if (depth > 0)
    return _hbase_illegal (error, "the filter \"%s\" has %d unclosed '('", filter, depth);
  return TRUE;
}

gboolean
_hbase_read_options_check (const HBaseReadOptions *options, GError **error)
{
  if (options == NULL)
    return TRUE;
  for (guint i = 0; options->columns != NULL && options->columns[i] != NULL; i++)
    {
      const char *column = options->columns[i];

      if (column[0] == '\0')
        return _hbase_illegal (error, "column %u is empty (use \"family\" or \"family:qualifier\")", i);
      if (column[0] == ':')
        return _hbase_illegal (error, "column %u (\"%s\") has no family", i, column);
    }
  if (options->max_versions > G_MAXINT32)
    return _hbase_illegal (error, "max_versions %u is too large", options->max_versions);
  if (options->min_timestamp < 0 || options->max_timestamp < 0)
    return _hbase_illegal (error, "timestamps cannot be negative (min %" G_GINT64_FORMAT
                    ", max %" G_GINT64_FORMAT ")", options->min_timestamp, options->max_timestamp);
  if (options->max_timestamp != 0 && options->max_timestamp < options->min_timestamp)
    return _hbase_illegal (error, "max_timestamp %" G_GINT64_FORMAT " is before min_timestamp %"
                    G_GINT64_FORMAT, options->max_timestamp, options->min_timestamp);
  if (options->filter != NULL && options->filter[0] == '\0')
    return _hbase_illegal (error, "the filter is empty (use NULL for no filter)");
  return options->filter == NULL || check_filter_syntax (options->filter, error);
}

GPtrArray *
_hbase_read_options_columns (const HBaseReadOptions *options)
{
  GPtrArray *columns;

  if (options == NULL || options->columns == NULL || options->columns[0] == NULL)
    return NULL;
  columns = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; options->columns[i] != NULL; i++)
    {
      const char *spec = options->columns[i];
      const char *colon = strchr (spec, ':');
      HbaseThriftTColumn *column = g_object_new (HBASE_THRIFT_TYPE_T_COLUMN, NULL);

      if (colon == NULL)
        column->family = _hbase_byte_array_from_string (spec);
      else
        {
          column->family = g_byte_array_new ();
          g_byte_array_append (column->family, (const guint8 *) spec, (guint) (colon - spec));
          column->qualifier = _hbase_byte_array_from_string (colon + 1);
          column->__isset_qualifier = TRUE;
        }
      g_ptr_array_add (columns, column);
    }
  return columns;
}

/* HBase's TableName rules: a namespace of letters, digits and '_'; a
 * qualifier of those and '.' and '-', not starting with either. */
static gboolean
check_name_part (const char *part, gsize len, gboolean is_namespace, const char *name,
                 GError **error)
{
  const char *what = is_namespace ? "namespace" : "table qualifier";

  if (len == 0)
    return _hbase_illegal (error, "table name \"%s\": the %s is empty", name, what);
  if (len > MAX_NAME_LENGTH)
    return _hbase_illegal (error, "table name \"%s\": the %s is longer than %u bytes", name, what,
                    MAX_NAME_LENGTH);
  if (!is_namespace && (part[0] == '.' || part[0] == '-'))
    return _hbase_illegal (error, "table name \"%s\": the %s starts with '%c'", name, what, part[0]);
  for (gsize i = 0; i < len; i++)
    {
      char c = part[i];

      if (g_ascii_isalnum (c) || c == '_' || (!is_namespace && (c == '.' || c == '-')))
        continue;
      return _hbase_illegal (error, "table name \"%s\": the %s has the illegal character '%c' "
                      "(allowed: letters, digits, '_'%s)", name, what,
                      g_ascii_isprint (c) ? c : '?', is_namespace ? "" : ", '.', '-'");
    }
  return TRUE;
}

gboolean
_hbase_check_table_name (const char *name, GError **error)
{
  const char *colon;

  if (name == NULL)
    return _hbase_illegal (error, "the table name is NULL");
  colon = strchr (name, ':');
  if (colon == NULL)
    return check_name_part (name, strlen (name), FALSE, name, error);
  return check_name_part (name, (gsize) (colon - name), TRUE, name, error) &&
         check_name_part (colon + 1, strlen (colon + 1), FALSE, name, error);
}
