/* SPDX-License-Identifier: Apache-2.0 */
/* test-native-cells.c: decoding hand-built KeyValueCodec cellblocks, good
 * and malformed (truncated, lengths too long or negative, a row or family
 * running past the key), and splitting cells into rows by the results'
 * counts; every malformed input is HBASE_ERROR_PROTOCOL, never a crash.
 */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-error.h>

#include "../../src/native/hbase-native-cells.h"

static void
put32 (GByteArray *out, guint32 v)
{
  guint8 b[4] = { v >> 24, v >> 16, v >> 8, v };

  g_byte_array_append (out, b, 4);
}

/* One cell as the server writes it. */
static void
add_cell (GByteArray *out, const char *row, const char *family, const char *qualifier,
          gint64 ts, guint8 type, const char *value)
{
  gsize rl = strlen (row), fl = strlen (family), ql = strlen (qualifier), vl = strlen (value);
  guint32 key_len = 2 + rl + 1 + fl + ql + 8 + 1;
  guint8 b;

  put32 (out, 8 + key_len + vl);
  put32 (out, key_len);
  put32 (out, vl);
  b = rl >> 8; g_byte_array_append (out, &b, 1);
  b = rl & 0xff; g_byte_array_append (out, &b, 1);
  g_byte_array_append (out, (const guint8 *) row, rl);
  b = fl; g_byte_array_append (out, &b, 1);
  g_byte_array_append (out, (const guint8 *) family, fl);
  g_byte_array_append (out, (const guint8 *) qualifier, ql);
  put32 (out, (guint64) ts >> 32);
  put32 (out, (guint64) ts & 0xffffffffu);
  g_byte_array_append (out, &type, 1);
  g_byte_array_append (out, (const guint8 *) value, vl);
}

static void
assert_cell (const HBaseNativeCell *c, const char *row, const char *family, const char *qualifier,
             gint64 ts, guint8 type, const char *value)
{
  g_assert_cmpmem (g_bytes_get_data (c->row, NULL), g_bytes_get_size (c->row), row, strlen (row));
  g_assert_cmpmem (g_bytes_get_data (c->family, NULL), g_bytes_get_size (c->family), family, strlen (family));
  g_assert_cmpmem (g_bytes_get_data (c->qualifier, NULL), g_bytes_get_size (c->qualifier),
                   qualifier, strlen (qualifier));
  g_assert_cmpmem (g_bytes_get_data (c->value, NULL), g_bytes_get_size (c->value), value, strlen (value));
  g_assert_cmpint (c->timestamp, ==, ts);
  g_assert_cmpuint (c->type, ==, type);
}

static GBytes *
sample_block (void)
{
  GByteArray *b = g_byte_array_new ();

  add_cell (b, "row1", "cf", "a", 1700000000123, HBASE_NATIVE_CELL_PUT, "v1");
  add_cell (b, "row1", "cf", "", G_GINT64_CONSTANT (0x0102030405060708), HBASE_NATIVE_CELL_PUT, "");
  add_cell (b, "row2", "f2", "qualifier", 1, HBASE_NATIVE_CELL_DELETE_COLUMN, "value two");
  return g_byte_array_free_to_bytes (b);
}

static void
test_decode (void)
{
  g_autoptr(GBytes) block = sample_block ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) cells = _hbase_native_decode_cellblock (block, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (cells->len, ==, 3);
  assert_cell (cells->pdata[0], "row1", "cf", "a", 1700000000123, 4, "v1");
  assert_cell (cells->pdata[1], "row1", "cf", "", G_GINT64_CONSTANT (0x0102030405060708), 4, "");
  assert_cell (cells->pdata[2], "row2", "f2", "qualifier", 1, 12, "value two");
}

static void
test_empty (void)
{
  g_autoptr(GBytes) block = g_bytes_new ("", 0);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) cells = _hbase_native_decode_cellblock (block, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (cells->len, ==, 0);
}

static void
expect_bad (GByteArray *bytes, const char *what)
{
  g_autoptr(GBytes) block = g_bytes_new (bytes->data, bytes->len);
  g_autoptr(GError) error = NULL;
  GPtrArray *cells = _hbase_native_decode_cellblock (block, &error);

  g_assert_null (cells);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL);
  if (what != NULL && strstr (error->message, what) == NULL)
    g_error ("'%s' does not say '%s'", error->message, what);
}

static GByteArray *
one_cell (void)
{
  GByteArray *b = g_byte_array_new ();

  add_cell (b, "row", "cf", "q", 5, HBASE_NATIVE_CELL_PUT, "value");
  return b;
}

static void
test_malformed (void)
{
  g_autoptr(GBytes) good = sample_block ();
  gsize good_len = g_bytes_get_size (good);
  const guint8 *good_data = g_bytes_get_data (good, NULL);

  /* every truncation that cuts a cell */
  for (gsize cut = 1; cut < good_len; cut++)
    {
      g_autoptr(GByteArray) b = g_byte_array_new ();
      g_autoptr(GBytes) part = NULL;
      g_autoptr(GError) error = NULL;
      GPtrArray *cells;

      g_byte_array_append (b, good_data, cut);
      part = g_bytes_new (b->data, b->len);
      cells = _hbase_native_decode_cellblock (part, &error);
      if (cells != NULL)
        {
          /* only a cut between two cells decodes: at the end of cell 1 or 2 */
          g_assert_true (cells->len == 1 || cells->len == 2);
          g_ptr_array_unref (cells);
          continue;
        }
      g_assert_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL);
    }

  {
    g_autoptr(GByteArray) b = one_cell ();
    b->data[0] = 0x7f;   /* total length far beyond the block (and not 8 + key + value) */
    expect_bad (b, "not 8 + key + value");
  }
  {
    /* key and value both grown by the same amount, consistent, beyond the block */
    g_autoptr(GByteArray) b = one_cell ();
    b->data[3] += 100; b->data[11] += 100;
    expect_bad (b, "runs past the block");
  }
  {
    g_autoptr(GByteArray) b = one_cell ();
    b->data[4] = 0x80;   /* negative key length */
    expect_bad (b, "negative length");
  }
  {
    g_autoptr(GByteArray) b = one_cell ();
    b->data[8] = 0xff;   /* negative value length */
    expect_bad (b, "negative length");
  }
  {
    g_autoptr(GByteArray) b = one_cell ();
    b->data[12] = 0; b->data[13] = 200;   /* row length beyond the key */
    expect_bad (b, "row runs past the key");
  }
  {
    g_autoptr(GByteArray) b = one_cell ();
    b->data[12 + 2 + 3] = 100;   /* family length beyond the key */
    expect_bad (b, "family runs past the key");
  }
  {
    /* a key too short to hold its fixed parts: kv 8+4+0, key 4 */
    g_autoptr(GByteArray) b = g_byte_array_new ();
    put32 (b, 12); put32 (b, 4); put32 (b, 0); put32 (b, 0);
    expect_bad (b, "key is too short");
  }
  {
    g_autoptr(GByteArray) b = g_byte_array_new ();
    put32 (b, 8);   /* a header cut short */
    expect_bad (b, "truncated");
  }
}

static void
test_split_rows (void)
{
  g_autoptr(GBytes) block = sample_block ();
  static const guint32 counts[] = { 2, 0, 1 };
  g_autoptr(GPtrArray) rows = _hbase_native_split_rows (_hbase_native_decode_cellblock (block, NULL),
                                                        counts, G_N_ELEMENTS (counts), NULL);
  const HBaseNativeRow *r;

  g_assert_nonnull (rows);
  g_assert_cmpuint (rows->len, ==, 2);
  r = rows->pdata[0];
  g_assert_cmpmem (g_bytes_get_data (r->key, NULL), g_bytes_get_size (r->key), "row1", 4);
  g_assert_cmpuint (r->cells->len, ==, 2);
  r = rows->pdata[1];
  g_assert_cmpmem (g_bytes_get_data (r->key, NULL), g_bytes_get_size (r->key), "row2", 4);
  g_assert_cmpuint (r->cells->len, ==, 1);
  assert_cell (r->cells->pdata[0], "row2", "f2", "qualifier", 1, 12, "value two");
}

static void
test_split_rows_bad (void)
{
  g_autoptr(GBytes) block = sample_block ();
  static const guint32 too_many[] = { 2, 2 };
  static const guint32 too_few[] = { 2 };
  static const guint32 mixed[] = { 1, 2 };
  static const guint32 huge[] = { G_MAXUINT32 };
  const guint32 *cases[] = { too_many, too_few, mixed, huge };
  gsize n[] = { 2, 1, 2, 1 };
  const char *what[] = { "counts 2 cells, 1 are left", "counted by no result", "mixes cells of two rows",
                         "are left" };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      GPtrArray *rows = _hbase_native_split_rows (_hbase_native_decode_cellblock (block, NULL),
                                                  cases[i], n[i], &error);

      g_assert_null (rows);
      g_assert_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL);
      if (strstr (error->message, what[i]) == NULL)
        g_error ("case %" G_GSIZE_FORMAT ": '%s' does not say '%s'", i, error->message, what[i]);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/native/cells/decode", test_decode);
  g_test_add_func ("/native/cells/empty", test_empty);
  g_test_add_func ("/native/cells/malformed", test_malformed);
  g_test_add_func ("/native/cells/split-rows", test_split_rows);
  g_test_add_func ("/native/cells/split-rows-bad", test_split_rows_bad);
  return g_test_run ();
}
