/* SPDX-License-Identifier: Apache-2.0 */
/* cli-output.c: what the hbase-glib tool writes: bytes as escaped text
 * (and back), JSON, rows in TSV or JSON, and progress on stderr. */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include "cli.h"

/* --- escaping ----------------------------------------------------------------------- */

/* Bytes from the command line: text with the escapes \\ \t \n \r \0 and
 * \xNN (two hex digits); every other byte stands for itself. */
GBytes *
cli_unescape (const char *text, const char *what, GError **error)
{
  g_autoptr(GByteArray) out = g_byte_array_sized_new (strlen (text));

  for (const char *p = text; *p != '\0'; p++)
    {
      guint8 byte = (guint8) *p;

      if (*p == '\\')
        {
          p++;
          switch (*p)
            {
            case '\\': byte = '\\'; break;
            case 't': byte = '\t'; break;
            case 'n': byte = '\n'; break;
            case 'r': byte = '\r'; break;
            case '0': byte = '\0'; break;
            case 'x':
              if (g_ascii_isxdigit (p[1]) && g_ascii_isxdigit (p[2]))
                {
                  byte = (guint8) (g_ascii_xdigit_value (p[1]) * 16 + g_ascii_xdigit_value (p[2]));
                  p += 2;
                  break;
                }
              G_GNUC_FALLTHROUGH;
            default:
              g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                           "%s \"%s\": a backslash starts \\\\, \\t, \\n, \\r, \\0 or \\xNN "
                           "(two hex digits)", what, text);
              return NULL;
            }
        }
      g_byte_array_append (out, &byte, 1);
    }
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

/* As cli_unescape() for names that must stay C strings (no NUL byte). */
char *
cli_unescape_string (const char *text, const char *what, GError **error)
{
  g_autoptr(GBytes) bytes = cli_unescape (text, what, error);
  gsize length;
  const char *data;

  if (bytes == NULL)
    return NULL;
  data = g_bytes_get_data (bytes, &length);
  if (length > 0 && memchr (data, '\0', length) != NULL)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "%s \"%s\" must not contain a NUL byte", what, text);
      return NULL;
    }
  /* an empty GBytes may have no data at all */
  return length > 0 ? g_strndup (data, length) : g_strdup ("");
}

/* The length of the valid UTF-8 character at @p (at most @left bytes),
 * or 0 when the bytes there are not one. */
static gsize
utf8_length (const guint8 *p, gsize left)
{
  gunichar c;

  if (*p < 0x80)
    return 1;
  c = g_utf8_get_char_validated ((const char *) p, (gssize) left);
  if (c == (gunichar) -1 || c == (gunichar) -2)
    return 0;
  return (gsize) g_utf8_skip[*p];
}

/* Bytes for a line of TSV: \\ \t \n \r for those four, \xNN for other
 * control bytes, DEL and bytes that are not UTF-8 (every byte outside
 * printable ASCII with @ascii_only).  cli_unescape() reads it back. */
void
cli_escape (GString *out, const guint8 *data, gsize length, gboolean ascii_only)
{
  for (gsize i = 0; i < length;)
    {
      guint8 byte = data[i];
      gsize n;

      switch (byte)
        {
        case '\\': g_string_append (out, "\\\\"); i++; continue;
        case '\t': g_string_append (out, "\\t"); i++; continue;
        case '\n': g_string_append (out, "\\n"); i++; continue;
        case '\r': g_string_append (out, "\\r"); i++; continue;
        default: break;
        }
      if (byte >= 0x20 && byte < 0x7f)
        {
          g_string_append_c (out, (char) byte);
          i++;
          continue;
        }
      n = byte >= 0x80 && !ascii_only ? utf8_length (data + i, length - i) : 0;
      /* C1 controls (U+0080..U+009F) are escaped too */
      if (n > 0 && !(n == 2 && byte == 0xc2 && data[i + 1] < 0xa0))
        {
          g_string_append_len (out, (const char *) data + i, (gssize) n);
          i += n;
          continue;
        }
      g_string_append_printf (out, "\\x%02x", byte);
      i++;
    }
}

void
cli_escape_bytes (GString *out, GBytes *bytes, gboolean ascii_only)
{
  gsize length = 0;
  const guint8 *data = bytes != NULL ? g_bytes_get_data (bytes, &length) : NULL;

  cli_escape (out, data, length, ascii_only);
}

static gboolean
is_utf8 (const guint8 *data, gsize length)
{
  for (gsize i = 0; i < length;)
    {
      gsize n = utf8_length (data + i, length - i);

      if (n == 0)
        return FALSE;
      i += n;
    }
  return TRUE;
}

static void
json_text (GString *out, const guint8 *data, gsize length)
{
  g_string_append_c (out, '"');
  for (gsize i = 0; i < length; i++)
    {
      guint8 byte = data[i];

      switch (byte)
        {
        case '"': g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\b': g_string_append (out, "\\b"); break;
        case '\f': g_string_append (out, "\\f"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        default:
          if (byte < 0x20 || byte == 0x7f)
            g_string_append_printf (out, "\\u%04x", byte);
          else
            g_string_append_c (out, (char) byte);
        }
    }
  g_string_append_c (out, '"');
}

/* Bytes as a JSON value that gives them back exactly: a string when they
 * are UTF-8 (control characters as \uNNNN), otherwise {"base64": "..."};
 * with @base64, always a base64 string. */
void
cli_json_bytes (GString *out, const guint8 *data, gsize length, gboolean base64)
{
  if (!base64 && is_utf8 (data, length))
    {
      json_text (out, data, length);
      return;
    }
  {
    g_autofree char *encoded = g_base64_encode (data, length);

    g_string_append_printf (out, base64 ? "\"%s\"" : "{\"base64\":\"%s\"}", encoded);
  }
}

void
cli_json_string (GString *out, const char *text)
{
  json_text (out, (const guint8 *) text, strlen (text));
}

/* --- output of rows --------------------------------------------------------------------------- */

gboolean
cli_output_check (CliOutput *output, GError **error)
{
  if (output->format_name == NULL || strcmp (output->format_name, "tsv") == 0 ||
      strcmp (output->format_name, "text") == 0)
    output->format = CLI_FORMAT_TSV;
  else if (strcmp (output->format_name, "json") == 0)
    output->format = CLI_FORMAT_JSON;
  else
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "unknown output format \"%s\" (tsv or json)", output->format_name);
      return FALSE;
    }
  return TRUE;
}

int
cli_format_parse (Cli *cli, const CliCommand *command, const char *name, CliFormat *format)
{
  CliOutput output = { .format_name = (char *) name };
  g_autoptr(GError) error = NULL;

  if (!cli_output_check (&output, &error))
    return cli_fail (cli, command, error);
  *format = output.format;
  return CLI_EXIT_OK;
}

void
cli_print_integer (CliFormat format, const char *key, gint64 value)
{
  if (format == CLI_FORMAT_JSON)
    printf ("{\"%s\":%" G_GINT64_FORMAT "}\n", key, value);
  else
    printf ("%" G_GINT64_FORMAT "\n", value);
}

static void
column_bytes (GByteArray *column, const HBaseCell *cell)
{
  gsize length;
  const guint8 *data;

  g_byte_array_set_size (column, 0);
  data = g_bytes_get_data (hbase_cell_get_family ((HBaseCell *) cell), &length);
  g_byte_array_append (column, data, (guint) length);
  g_byte_array_append (column, (const guint8 *) ":", 1);
  data = g_bytes_get_data (hbase_cell_get_qualifier ((HBaseCell *) cell), &length);
  g_byte_array_append (column, data, (guint) length);
}

/* Writes @row to stdout: TSV, one line per cell ("ROW\tFAMILY:QUALIFIER
 * [\tTIMESTAMP]\tVALUE"), or one line of JSON ({"row": ..., "cells":
 * [{"column": ..., "timestamp": ..., "value": ...}]}).  With keys_only,
 * only the row key.  @buffer is scratch space. */
void
cli_output_row (const CliOutput *output, HBaseRow *row, GString *buffer)
{
  g_autoptr(GByteArray) column = g_byte_array_new ();
  GBytes *key = hbase_row_get_key (row);
  gsize key_length;
  const guint8 *key_data = g_bytes_get_data (key, &key_length);
  guint n = hbase_row_get_n_cells (row);

  g_string_truncate (buffer, 0);
  if (output->format == CLI_FORMAT_JSON)
    {
      g_string_append (buffer, "{\"row\":");
      cli_json_bytes (buffer, key_data, key_length, output->base64);
      if (!output->keys_only)
        {
          g_string_append (buffer, ",\"cells\":[");
          for (guint i = 0; i < n; i++)
            {
              const HBaseCell *cell = hbase_row_get_cell (row, i);
              gsize length;
              const guint8 *data = g_bytes_get_data (hbase_cell_get_value (cell), &length);

              column_bytes (column, cell);
              g_string_append (buffer, i > 0 ? ",{\"column\":" : "{\"column\":");
              cli_json_bytes (buffer, column->data, column->len, output->base64);
              g_string_append_printf (buffer, ",\"timestamp\":%" G_GINT64_FORMAT ",\"value\":",
                                      hbase_cell_get_timestamp (cell));
              cli_json_bytes (buffer, data, length, output->base64);
              g_string_append_c (buffer, '}');
            }
          g_string_append_c (buffer, ']');
        }
      g_string_append (buffer, "}\n");
    }
  else if (output->keys_only)
    {
      cli_escape (buffer, key_data, key_length, output->ascii);
      g_string_append_c (buffer, '\n');
    }
  else
    for (guint i = 0; i < n; i++)
      {
        const HBaseCell *cell = hbase_row_get_cell (row, i);

        column_bytes (column, cell);
        cli_escape (buffer, key_data, key_length, output->ascii);
        g_string_append_c (buffer, '\t');
        cli_escape (buffer, column->data, column->len, output->ascii);
        if (output->timestamps)
          g_string_append_printf (buffer, "\t%" G_GINT64_FORMAT, hbase_cell_get_timestamp (cell));
        g_string_append_c (buffer, '\t');
        cli_escape_bytes (buffer, hbase_cell_get_value (cell), output->ascii);
        g_string_append_c (buffer, '\n');
      }
  fwrite (buffer->str, 1, buffer->len, stdout);
}

/* --- progress ------------------------------------------------------------------------------ */

/* Progress of long work on stderr, redrawn at most ten times a second;
 * only when stderr is a terminal (or @force). */
void
cli_progress_start (CliProgress *progress, const char *unit, guint64 total, gboolean force)
{
  progress->unit = unit;
  progress->total = total;
  progress->started = g_get_monotonic_time ();
  progress->shown = 0;
  progress->drawn = FALSE;
  progress->enabled = force || isatty (STDERR_FILENO);
}

static void
progress_draw (CliProgress *progress, guint64 done)
{
  double seconds = (double) (g_get_monotonic_time () - progress->started) / G_USEC_PER_SEC;
  /* a rate over less than a fifth of a second means nothing */
  g_autofree char *rate = seconds >= 0.2 ? g_strdup_printf ("  %.0f/s", (double) done / seconds) : g_strdup ("");

  if (progress->total > 0)
    {
      const int width = 30;
      guint64 shown = MIN (done, progress->total);
      int filled = (int) ((double) shown * width / (double) progress->total);

      fprintf (stderr, "\r[%.*s%*s] %3d%%  %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT " %s%s ",
               filled, "##############################", width - filled, "",
               (int) ((double) shown * 100 / (double) progress->total),
               done, progress->total, progress->unit, rate);
    }
  else
    fprintf (stderr, "\r%" G_GUINT64_FORMAT " %s%s ", done, progress->unit, rate);
  fflush (stderr);
  progress->drawn = TRUE;
}

void
cli_progress_update (CliProgress *progress, guint64 done)
{
  gint64 now;

  if (!progress->enabled)
    return;
  now = g_get_monotonic_time ();
  if (now - progress->shown < G_USEC_PER_SEC / 10)
    return;
  progress->shown = now;
  progress_draw (progress, done);
}

void
cli_progress_finish (CliProgress *progress)
{
  if (progress->enabled && progress->drawn)
    fprintf (stderr, "\r\033[K");
  progress->drawn = FALSE;
}
