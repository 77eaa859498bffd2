/* SPDX-License-Identifier: Apache-2.0 */
/* test-rows.c: small helpers for tests that write and read rows (see
 * test-rows.h). */
#include "config.h"

#include <string.h>

#include "test-rows.h"

GBytes *
test_text (const char *value)
{
  return g_bytes_new (value, strlen (value));
}

GBytes *
test_key (const char *suffix)
{
  return g_bytes_new_take (g_strdup_printf ("%s|%s", g_test_get_path (), suffix),
                           strlen (g_test_get_path ()) + 1 + strlen (suffix));
}

static void
append_escaped (GString *out, GBytes *bytes)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  for (gsize i = 0; i < len; i++)
    if (data[i] >= 0x20 && data[i] < 0x7f && data[i] != '\\')
      g_string_append_c (out, (char) data[i]);
    else
      g_string_append_printf (out, "\\x%02x", data[i]);
}

char *
test_row_summary (HBaseRow *row, gboolean with_ts)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < hbase_row_get_n_cells (row); i++)
    {
      const HBaseCell *cell = hbase_row_get_cell (row, i);

      if (i > 0)
        g_string_append_c (out, ' ');
      append_escaped (out, hbase_cell_get_family (cell));
      g_string_append_c (out, ':');
      append_escaped (out, hbase_cell_get_qualifier (cell));
      if (with_ts)
        g_string_append_printf (out, "@%" G_GINT64_FORMAT, hbase_cell_get_timestamp (cell));
      g_string_append_c (out, '=');
      append_escaped (out, hbase_cell_get_value (cell));
    }
  return g_string_free (out, FALSE);
}
