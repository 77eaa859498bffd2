/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-cli-tsv.c: the text the hbase-glib command reads (tools/): the
 * escapes of its arguments (\\ \t \n \r \0 \xNN), column arguments, numbers,
 * and the TSV lines of `hbase-glib put TABLE -`, on any bytes; and the
 * escaping and JSON of its output, on any bytes.
 *
 * Input: byte 0 chooses: 0 the rest is lines of put input; 1 the rest is
 * an argument; 2 the rest is bytes to print (TSV escapes and JSON).
 *
 * Checked: every parse fails with an error or succeeds without one;
 * printed bytes read back exactly (unescape(escape(x)) == x, with and
 * without --ascii); JSON output is valid UTF-8 without raw control
 * characters. */
#include "config.h"

#include <string.h>

#include "../../tools/cli.h"
#include "fuzz-support.h"

static void
check_put_lines (FuzzInput *in)
{
  g_autofree char *text = g_strndup ((const char *) in->data, in->size);
  g_auto(GStrv) lines = g_strsplit (text, "\n", 64);

  for (char **line = lines; *line != NULL; line++)
    {
      g_autoptr(GBytes) key = NULL;
      g_autoptr(GBytes) family = NULL;
      g_autoptr(GBytes) qualifier = NULL;
      g_autoptr(GBytes) value = NULL;
      gint64 timestamp = -1;
      GError *error = NULL;
      gboolean ok;

      ok = cli_parse_put_line (*line, (line - lines) % 2, &key, &family, &qualifier, &timestamp,
                               &value, &error);
      fuzz_check_outcome ("cli_parse_put_line", ok, &error);
      if (ok && key != NULL)
        fuzz_assert (family != NULL && qualifier != NULL && value != NULL,
                     "a put line without a part");
      else
        fuzz_assert (key == NULL && family == NULL && qualifier == NULL && value == NULL,
                     "a failed or empty put line left a part");
    }
}

static void
check_argument (FuzzInput *in)
{
  g_autofree char *text = g_strndup ((const char *) in->data, in->size);
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *string = NULL;
  g_autofree char *family = NULL;
  g_autofree char *qualifier = NULL;
  GError *error = NULL;
  gint64 number;
  gboolean ok;

  bytes = cli_unescape (text, "argument", &error);
  fuzz_check_outcome ("cli_unescape", bytes != NULL, &error);
  string = cli_unescape_string (text, "name", &error);
  fuzz_check_outcome ("cli_unescape_string", string != NULL, &error);
  if (string != NULL)
    fuzz_assert (bytes != NULL && strlen (string) == g_bytes_get_size (bytes), "a name with a NUL byte");
  ok = cli_parse_column (text, &family, &qualifier, &error);
  fuzz_check_outcome ("cli_parse_column", ok, &error);
  fuzz_assert (ok == (family != NULL), "cli_parse_column: family and outcome disagree");
  ok = cli_parse_int64 (text, "number", &number, &error);
  fuzz_check_outcome ("cli_parse_int64", ok, &error);
  if (bytes != NULL)
    {
      /* what unescapes, printed, reads back the same */
      for (int ascii = 0; ascii < 2; ascii++)
        {
          g_autoptr(GString) printed = g_string_new (NULL);
          g_autoptr(GBytes) back = NULL;

          cli_escape_bytes (printed, bytes, ascii);
          back = cli_unescape (printed->str, "printed", &error);
          fuzz_check_outcome ("cli_unescape (printed)", back != NULL, &error);
          fuzz_assert (back != NULL && g_bytes_equal (back, bytes), "printed bytes do not read back");
        }
    }
}

static void
check_output (FuzzInput *in)
{
  for (int ascii = 0; ascii < 2; ascii++)
    {
      g_autoptr(GString) printed = g_string_new (NULL);
      g_autoptr(GString) json = g_string_new (NULL);
      g_autoptr(GBytes) back = NULL;
      GError *error = NULL;

      cli_escape (printed, in->data, in->size, ascii);
      fuzz_assert (strlen (printed->str) == printed->len, "escaped output holds a NUL byte");
      fuzz_assert (strchr (printed->str, '\t') == NULL && strchr (printed->str, '\n') == NULL,
                   "escaped output holds a tab or a line end");
      if (ascii)
        for (gsize i = 0; i < printed->len; i++)
          fuzz_assert ((guint8) printed->str[i] >= 0x20 && (guint8) printed->str[i] < 0x7f,
                       "--ascii output holds byte 0x%02x", (guint8) printed->str[i]);
      back = cli_unescape (printed->str, "printed", &error);
      fuzz_check_outcome ("cli_unescape (printed)", back != NULL, &error);
      fuzz_assert (back != NULL && g_bytes_get_size (back) == in->size &&
                   (in->size == 0 || memcmp (g_bytes_get_data (back, NULL), in->data, in->size) == 0),
                   "printed bytes do not read back");

      cli_json_bytes (json, in->data, in->size, ascii);
      fuzz_assert (g_utf8_validate (json->str, (gssize) json->len, NULL), "JSON output is not UTF-8");
      for (gsize i = 0; i < json->len; i++)
        fuzz_assert ((guint8) json->str[i] >= 0x20, "JSON output holds control byte 0x%02x",
                     (guint8) json->str[i]);
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  FuzzInput in = { data, size };

  fuzz_init ();
  /* messages quote the user's own bytes, as given */
  fuzz_require_utf8_errors = FALSE;
  switch (fuzz_take_u8 (&in) % 3)
    {
    case 0: check_put_lines (&in); break;
    case 1: check_argument (&in); break;
    default: check_output (&in); break;
    }
  return 0;
}
