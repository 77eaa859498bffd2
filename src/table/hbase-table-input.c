/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-table-input.c: the checks and conversions of caller input that the
 * table, scanner and admin code share: row keys, read options, filter
 * strings, table names, and GBytes/strings into the generated structs'
 * GByteArrays.  Everything here runs before a request is sent, so a bad
 * argument never reaches the gateway. */
#include "config.h"

#include <string.h>

#include "hbase-filter-private.h"
#include "hbase-name-cache.h"
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

/* The filter for messages: printable bytes as they are, the others
 * (0x00 included) as \xNN. */
static char *
filter_describe (const guint8 *filter, gsize len)
{
  GString *text = g_string_sized_new (len);

  for (gsize i = 0; i < len; i++)
    {
      if (g_ascii_isprint (filter[i]) && filter[i] != '\\')
        g_string_append_c (text, (char) filter[i]);
      else
        g_string_append_printf (text, "\\x%02X", filter[i]);
    }
  return g_string_free (text, FALSE);
}

/* Catches what is certainly malformed in a filter (unbalanced parentheses,
 * an unterminated quote) before sending: the gateway answers a filter it
 * cannot parse with a bare "Internal error processing get", which does not
 * say what is wrong.  In the filter language a quote inside a quoted
 * string is doubled, so counting quotes is enough; any other byte (0x00
 * included) is taken as it is inside quotes. */
static gboolean
check_filter_syntax (const guint8 *filter, gsize len, GError **error)
{
  g_autofree char *shown = NULL;
  gboolean quoted = FALSE;
  int depth = 0;

  for (gsize i = 0; i < len; i++)
    {
      if (filter[i] == '\'')
        quoted = !quoted;
      else if (!quoted && filter[i] == '(')
        depth++;
      else if (!quoted && filter[i] == ')' && --depth < 0)
        {
          shown = filter_describe (filter, len);
          return _hbase_illegal (error, "the filter \"%s\" has a ')' without its '('", shown);
        }
    }
  if (quoted || depth > 0)
    shown = filter_describe (filter, len);
  if (quoted)
    return _hbase_illegal (error, "the filter \"%s\" has an unterminated quoted string", shown);
  if (depth > 0)
    return _hbase_illegal (error, "the filter \"%s\" has %d unclosed '('", shown, depth);
  return TRUE;
}

static gboolean
check_column_list (GPtrArray *list, GError **error)
{
  for (guint i = 0; i < list->len; i++)
    {
      HBaseColumn *column = g_ptr_array_index (list, i);
      GBytes *family = column != NULL ? hbase_column_get_family (column) : NULL;

      if (column == NULL)
        return _hbase_illegal (error, "column %u of the column list is NULL", i);
      if (family == NULL || g_bytes_get_size (family) == 0)
        return _hbase_illegal (error, "column %u of the column list has no family", i);
      if (memchr (g_bytes_get_data (family, NULL), ':', g_bytes_get_size (family)) != NULL)
        return _hbase_illegal (error, "column %u of the column list has a family with a ':'", i);
    }
  return TRUE;
}

gboolean
_hbase_read_options_check (const HBaseReadOptions *options, GError **error)
{
  if (options == NULL)
    return TRUE;
  if (options->columns != NULL && options->column_list != NULL)
    return _hbase_illegal (error, "the read options give both columns and column_list: "
                           "use one of them");
  if (options->filter != NULL && options->filter_bytes != NULL)
    return _hbase_illegal (error, "the read options give both filter and filter_bytes: "
                           "use one of them");
  if (options->typed_filter != NULL && (options->filter != NULL || options->filter_bytes != NULL))
    return _hbase_illegal (error, "the read options give both typed_filter and %s: use one "
                           "of them", options->filter != NULL ? "filter" : "filter_bytes");
  if (options->typed_filter != NULL &&
      _hbase_filter_get_problem (options->typed_filter) != NULL)
    return _hbase_illegal (error, "%s", _hbase_filter_get_problem (options->typed_filter));
  for (guint i = 0; options->columns != NULL && options->columns[i] != NULL; i++)
    {
      const char *column = options->columns[i];

      if (column[0] == '\0')
        return _hbase_illegal (error, "column %u is empty (use \"family\" or \"family:qualifier\")", i);
      if (column[0] == ':')
        return _hbase_illegal (error, "column %u (\"%s\") has no family", i, column);
    }
  if (options->column_list != NULL && !check_column_list (options->column_list, error))
    return FALSE;
  if (options->max_versions > G_MAXINT32)
    return _hbase_illegal (error, "max_versions %u is too large", options->max_versions);
  if (options->min_timestamp < 0 || options->max_timestamp < 0)
    return _hbase_illegal (error, "timestamps cannot be negative (min %" G_GINT64_FORMAT
                    ", max %" G_GINT64_FORMAT ")", options->min_timestamp, options->max_timestamp);
  if (options->max_timestamp != 0 && options->max_timestamp < options->min_timestamp)
    return _hbase_illegal (error, "max_timestamp %" G_GINT64_FORMAT " is before min_timestamp %"
                    G_GINT64_FORMAT, options->max_timestamp, options->min_timestamp);
  if ((options->filter != NULL && options->filter[0] == '\0') ||
      (options->filter_bytes != NULL && g_bytes_get_size (options->filter_bytes) == 0))
    return _hbase_illegal (error, "the filter is empty (use NULL for no filter)");
  if (options->filter != NULL)
    return check_filter_syntax ((const guint8 *) options->filter, strlen (options->filter),
                                error);
  if (options->filter_bytes != NULL)
    return check_filter_syntax (g_bytes_get_data (options->filter_bytes, NULL),
                                g_bytes_get_size (options->filter_bytes), error);
  return TRUE;
}

GPtrArray *
_hbase_read_options_column_list (const HBaseReadOptions *options)
{
  GPtrArray *list;

  if (options == NULL)
    return NULL;
  if (options->column_list != NULL)
    {
      /* a copy: the caller may change its list once the call is prepared */
      if (options->column_list->len == 0)
        return NULL;
      list = g_ptr_array_new_full (options->column_list->len,
                                   (GDestroyNotify) hbase_column_unref);
      for (guint i = 0; i < options->column_list->len; i++)
        g_ptr_array_add (list, hbase_column_ref (g_ptr_array_index (options->column_list, i)));
      return list;
    }
  if (options->columns == NULL || options->columns[0] == NULL)
    return NULL;
  /* parsed once per thread for the same strings (hbase-name-cache.c) */
  return _hbase_name_cache_columns (options->columns);
}

GPtrArray *
_hbase_read_options_columns (const HBaseReadOptions *options)
{
  g_autoptr(GPtrArray) list = _hbase_read_options_column_list (options);
  GPtrArray *columns;

  if (list == NULL)
    return NULL;
  columns = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < list->len; i++)
    {
      HBaseColumn *spec = g_ptr_array_index (list, i);
      HbaseThriftTColumn *column = g_object_new (HBASE_THRIFT_TYPE_T_COLUMN, NULL);

      column->family = _hbase_byte_array_from_bytes (hbase_column_get_family (spec));
      if (hbase_column_get_qualifier (spec) != NULL)
        {
          column->qualifier = _hbase_byte_array_from_bytes (hbase_column_get_qualifier (spec));
          column->__isset_qualifier = TRUE;
        }
      g_ptr_array_add (columns, column);
    }
  return columns;
}

GBytes *
_hbase_read_options_filter (const HBaseReadOptions *options)
{
  if (options == NULL)
    return NULL;
  if (options->filter_bytes != NULL)
    return g_bytes_ref (options->filter_bytes);
  if (options->filter != NULL)
    return g_bytes_new (options->filter, strlen (options->filter));
  if (options->typed_filter != NULL)   /* checked: valid */
    return hbase_filter_to_bytes (options->typed_filter, NULL);
  return NULL;
}

char *
_hbase_read_options_describe_filter (const HBaseReadOptions *options)
{
  if (options == NULL)
    return NULL;
  if (options->filter_bytes != NULL)
    return filter_describe (g_bytes_get_data (options->filter_bytes, NULL),
                            g_bytes_get_size (options->filter_bytes));
  if (options->typed_filter != NULL)
    {
      g_autoptr(GBytes) text = hbase_filter_to_bytes (options->typed_filter, NULL);

      return text != NULL ? filter_describe (g_bytes_get_data (text, NULL),
                                             g_bytes_get_size (text))
                          : NULL;
    }
  return g_strdup (options->filter);
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
