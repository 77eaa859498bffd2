/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of HBaseKeySchema: encodings of every field type (the file table's
 * padded keys among them), errors for values a field cannot hold, decoding,
 * property tests that the order of encoded keys is the order of the value
 * tuples and that key ranges hold exactly the keys they should, salting
 * (MurmurHash3 and Phoenix's hash, time-aligned buckets, split keys).
 *
 * HBASE_GLIB_TEST_QUICK=1 runs fewer random cases.
 *
 * Long because: the property tests of every field type share the
 * generators of random tuples defined here. */
#include "config.h"

#include <math.h>
#include <string.h>

#include <hbase-glib/hbase-glib.h>

#include "../../src/rowkey/hbase-rowkey-private.h"
#include "../support/test-env.h"

static guint
n_cases (guint full)
{
  return test_quick () ? full / 10 : full;
}

static char *
hex (GBytes *bytes)
{
  GString *out = g_string_new (NULL);
  gsize len;
  const guint8 *data = bytes != NULL ? g_bytes_get_data (bytes, &len) : NULL;

  if (bytes == NULL)
    return g_string_free (out, FALSE);
  for (gsize i = 0; i < len; i++)
    if (data[i] >= 0x21 && data[i] < 0x7f && data[i] != '\\')
      g_string_append_c (out, (char) data[i]);
    else
      g_string_append_printf (out, "\\x%02x", data[i]);
  return g_string_free (out, FALSE);
}

static void
assert_hex (GBytes *bytes, const char *expected)
{
  g_autofree char *text = hex (bytes);

  g_assert_cmpstr (text, ==, expected);
}

/* --- the file-table example -------------------------------------------------------------- */

static const HBaseKeyField file_key[] = {
  { "user", HBASE_KEY_FIELD_DECIMAL, 6, 0, FALSE },
  { "time", HBASE_KEY_FIELD_DECIMAL, 8, 0, FALSE },
  { "file", HBASE_KEY_FIELD_DECIMAL, 6, 0, FALSE },
};

static void
test_file_table (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseKeySchema) schema = hbase_key_schema_new (file_key, 3, NULL, &error);
  HBaseKeyValue values[] = { HBASE_KEY_UINT (1), HBASE_KEY_UINT (20120902), HBASE_KEY_UINT (1) };
  g_autoptr(GBytes) key = NULL;
  g_autoptr(GVariant) decoded = NULL;
  guint64 user, time, file;

  g_assert_no_error (error);
  key = hbase_key_schema_encode (schema, values, 3, &error);
  g_assert_no_error (error);
  assert_hex (key, "00000120120902000001");
  decoded = hbase_key_schema_decode (schema, key, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (g_variant_get_type_string (decoded), ==, "(ttt)");
  g_variant_get (decoded, "(ttt)", &user, &time, &file);
  g_assert_cmpuint (user, ==, 1);
  g_assert_cmpuint (time, ==, 20120902);
  g_assert_cmpuint (file, ==, 1);

  /* the biggest user id that fits, and one more */
  values[0] = HBASE_KEY_UINT (999999);
  g_clear_pointer (&key, g_bytes_unref);
  key = hbase_key_schema_encode (schema, values, 3, &error);
  g_assert_no_error (error);
  assert_hex (key, "99999920120902000001");
  values[0] = HBASE_KEY_UINT (1000000);
  g_clear_pointer (&key, g_bytes_unref);
  key = hbase_key_schema_encode (schema, values, 3, &error);
  g_assert_null (key);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "\"user\""));
  g_clear_error (&error);

  /* the user of the file-table example: user 1, September 2012 */
  {
    HBaseKeyValue user1[] = { HBASE_KEY_UINT (1) };
    HBaseKeyValue from = HBASE_KEY_UINT (20120901), to = HBASE_KEY_UINT (20121001);
    HBaseKeyRange range = { user1, 1, &from, TRUE, &to, FALSE };
    g_autoptr(GBytes) start = NULL, stop = NULL;

    g_assert_true (hbase_key_schema_get_row_range (schema, &range, &start, &stop, &error));
    g_assert_no_error (error);
    assert_hex (start, "00000120120901");
    assert_hex (stop, "00000120121001");
  }
}

/* --- encodings of each type ----------------------------------------------- */

static GBytes *
encode_one (const HBaseKeyField *field, HBaseKeyValue value, GError **error)
{
  g_autoptr(HBaseKeySchema) schema = hbase_key_schema_new (field, 1, NULL, NULL);

  g_assert_nonnull (schema);
  return hbase_key_schema_encode (schema, &value, 1, error);
}

static void
check_encoding (const HBaseKeyField *field, HBaseKeyValue value, const char *expected)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) key = encode_one (field, value, &error);

  g_assert_no_error (error);
  assert_hex (key, expected);
}

static void
check_refused (const HBaseKeyField *field, HBaseKeyValue value, const char *fragment)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) key = encode_one (field, value, &error);

  g_assert_null (key);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  if (strstr (error->message, fragment) == NULL)
    g_error ("\"%s\" does not say \"%s\"", error->message, fragment);
}

/* hbase_key_schema_find_field() gives a field's index by name, -1 for a
 * name the schema does not have; hbase_key_schema_ref() keeps the schema
 * alive after the creator's reference goes. */
static void
test_find_field_and_ref (void)
{
  g_autoptr(GError) error = NULL;
  HBaseKeySchema *schema = hbase_key_schema_new (file_key, 3, NULL, &error);
  g_autoptr(HBaseKeySchema) kept = NULL;
  HBaseKeyValue values[] = { HBASE_KEY_UINT (1), HBASE_KEY_UINT (20120902), HBASE_KEY_UINT (1) };
  g_autoptr(GBytes) key = NULL;

  g_assert_no_error (error);
  g_assert_cmpint (hbase_key_schema_find_field (schema, "user"), ==, 0);
  g_assert_cmpint (hbase_key_schema_find_field (schema, "time"), ==, 1);
  g_assert_cmpint (hbase_key_schema_find_field (schema, "file"), ==, 2);
  g_assert_cmpint (hbase_key_schema_find_field (schema, "File"), ==, -1);
  g_assert_cmpint (hbase_key_schema_find_field (schema, ""), ==, -1);
  g_assert_cmpint (hbase_key_schema_find_field (schema, NULL), ==, -1);

  kept = hbase_key_schema_ref (schema);
  g_assert_true (kept == schema);
  hbase_key_schema_unref (schema);
  g_assert_cmpuint (hbase_key_schema_get_n_fields (kept), ==, 3);
  key = hbase_key_schema_encode (kept, values, 3, &error);
  g_assert_no_error (error);
  assert_hex (key, "00000120120902000001");
  g_assert_true (G_TYPE_IS_BOXED (HBASE_TYPE_KEY_SCHEMA));
}

static void
test_encodings (void)
{
  const HBaseKeyField decimal = { "d", HBASE_KEY_FIELD_DECIMAL, 4, 0, FALSE };
  const HBaseKeyField decimal20 = { "d", HBASE_KEY_FIELD_DECIMAL, 20, 0, FALSE };
  const HBaseKeyField string = { "s", HBASE_KEY_FIELD_STRING, 4, ' ', FALSE };
  const HBaseKeyField string0 = { "s", HBASE_KEY_FIELD_STRING, 3, 0, FALSE };
  const HBaseKeyField u16 = { "u", HBASE_KEY_FIELD_UINT, 2, 0, FALSE };
  const HBaseKeyField i8 = { "i", HBASE_KEY_FIELD_INT, 1, 0, FALSE };
  const HBaseKeyField i32 = { "i", HBASE_KEY_FIELD_INT, 4, 0, FALSE };
  const HBaseKeyField i64 = { "i", HBASE_KEY_FIELD_INT, 8, 0, FALSE };
  const HBaseKeyField u64 = { "u", HBASE_KEY_FIELD_UINT, 8, 0, FALSE };
  const HBaseKeyField dbl = { "x", HBASE_KEY_FIELD_DOUBLE, 0, 0, FALSE };
  const HBaseKeyField rts = { "t", HBASE_KEY_FIELD_REVERSE_TIMESTAMP, 0, 0, FALSE };
  const HBaseKeyField bytes = { "b", HBASE_KEY_FIELD_BYTES, 0, 0, FALSE };
  const HBaseKeyField desc = { "b", HBASE_KEY_FIELD_BYTES, 0, 0, TRUE };
  const HBaseKeyField desc_u16 = { "u", HBASE_KEY_FIELD_UINT, 2, 0, TRUE };

  check_encoding (&decimal, HBASE_KEY_UINT (42), "0042");
  check_encoding (&decimal, HBASE_KEY_INT (9999), "9999");
  check_encoding (&decimal20, HBASE_KEY_UINT (G_MAXUINT64), "18446744073709551615");
  check_encoding (&decimal20, HBASE_KEY_UINT (7), "00000000000000000007");
  check_refused (&decimal, HBASE_KEY_UINT (10000), "wider than the 4 digits");
  check_refused (&decimal, HBASE_KEY_INT (-1), "negative");
  check_refused (&decimal, HBASE_KEY_DOUBLE (1.0), "cannot hold a double");

  check_encoding (&string, HBASE_KEY_STRING ("ab"), "ab\\x20\\x20");
  check_encoding (&string, HBASE_KEY_STRING ("a b"), "a\\x20b\\x20");
  check_encoding (&string, HBASE_KEY_STRING (""), "\\x20\\x20\\x20\\x20");
  check_encoding (&string0, HBASE_KEY_BYTES ("\xff\x00\x01", 3), "\\xff\\x00\\x01");
  check_refused (&string, HBASE_KEY_STRING ("abcde"), "wider than the 4 bytes");
  check_refused (&string, HBASE_KEY_STRING ("a\tb"), "cannot hold the byte 0x09");
  check_refused (&string, HBASE_KEY_STRING ("ab "), "cannot end with its pad byte");
  check_refused (&string0, HBASE_KEY_BYTES ("a\x00", 2), "cannot end with its pad byte");
  check_refused (&string, HBASE_KEY_UINT (1), "cannot hold an unsigned integer");

  check_encoding (&u16, HBASE_KEY_UINT (0x1234), "\\x124");
  check_encoding (&u16, HBASE_KEY_UINT (65535), "\\xff\\xff");
  check_refused (&u16, HBASE_KEY_UINT (65536), "does not fit the 2 bytes");
  check_refused (&u16, HBASE_KEY_INT (-1), "negative");
  check_encoding (&u64, HBASE_KEY_UINT (G_MAXUINT64), "\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff");

  check_encoding (&i8, HBASE_KEY_INT (-128), "\\x00");
  check_encoding (&i8, HBASE_KEY_INT (-1), "\\x7f");
  check_encoding (&i8, HBASE_KEY_INT (0), "\\x80");
  check_encoding (&i8, HBASE_KEY_INT (127), "\\xff");
  check_refused (&i8, HBASE_KEY_INT (128), "does not fit the 1 bytes");
  check_refused (&i8, HBASE_KEY_INT (-129), "-129 does not fit");
  check_encoding (&i32, HBASE_KEY_INT (1), "\\x80\\x00\\x00\\x01");
  check_encoding (&i64, HBASE_KEY_INT (G_MININT64), "\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00");
  check_encoding (&i64, HBASE_KEY_INT (G_MAXINT64), "\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff");
  check_refused (&i64, HBASE_KEY_UINT ((guint64) G_MAXINT64 + 1), "does not fit the 8 bytes");

  check_encoding (&dbl, HBASE_KEY_DOUBLE (0.0), "\\x80\\x00\\x00\\x00\\x00\\x00\\x00\\x00");
  check_encoding (&dbl, HBASE_KEY_DOUBLE (-0.0), "\\x7f\\xff\\xff\\xff\\xff\\xff\\xff\\xff");
  check_encoding (&dbl, HBASE_KEY_DOUBLE (1.0), "\\xbf\\xf0\\x00\\x00\\x00\\x00\\x00\\x00");
  check_encoding (&dbl, HBASE_KEY_DOUBLE (-1.0), "@\\x0f\\xff\\xff\\xff\\xff\\xff\\xff");
  check_encoding (&dbl, HBASE_KEY_DOUBLE (NAN), "\\xff\\xf8\\x00\\x00\\x00\\x00\\x00\\x00");
  check_encoding (&dbl, HBASE_KEY_DOUBLE (-NAN), "\\xff\\xf8\\x00\\x00\\x00\\x00\\x00\\x00");
  check_refused (&dbl, HBASE_KEY_INT (1), "cannot hold a signed integer");

  check_encoding (&rts, HBASE_KEY_INT (0), "\\x7f\\xff\\xff\\xff\\xff\\xff\\xff\\xff");
  check_encoding (&rts, HBASE_KEY_INT (G_MAXINT64), "\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00");
  check_refused (&rts, HBASE_KEY_INT (-1), "needs 0 to");

  check_encoding (&bytes, HBASE_KEY_STRING (""), "\\x00\\x01");
  check_encoding (&bytes, HBASE_KEY_BYTES ("a\x00\xff", 3), "a\\x00\\xff\\xff\\x00\\x01");
  check_encoding (&bytes, HBASE_KEY_BYTES ("\x00\x00", 2), "\\x00\\xff\\x00\\xff\\x00\\x01");
  check_encoding (&desc, HBASE_KEY_STRING ("a"), "\\x9e\\xff\\xfe");
  check_encoding (&desc_u16, HBASE_KEY_UINT (1), "\\xff\\xfe");
  check_refused (&bytes, HBASE_KEY_DOUBLE (0), "cannot hold a double");
}

static void
test_bad_schemas (void)
{
  static const struct {
    HBaseKeyField field;
    const char *fragment;
  } cases[] = {
    { { NULL, HBASE_KEY_FIELD_BYTES, 0, 0, FALSE }, "no name" },
    { { "d", HBASE_KEY_FIELD_DECIMAL, 0, 0, FALSE }, "1 to 20 digits" },
    { { "d", HBASE_KEY_FIELD_DECIMAL, 21, 0, FALSE }, "1 to 20 digits" },
    { { "s", HBASE_KEY_FIELD_STRING, 0, 0, FALSE }, "1 to 65536 bytes" },
    { { "u", HBASE_KEY_FIELD_UINT, 3, 0, FALSE }, "1, 2, 4 or 8" },
    { { "i", HBASE_KEY_FIELD_INT, 16, 0, FALSE }, "1, 2, 4 or 8" },
    { { "b", HBASE_KEY_FIELD_BYTES, 4, 0, FALSE }, "leave width 0" },
    { { "x", (HBaseKeyFieldType) 99, 0, 0, FALSE }, "unknown type" },
  };
  const HBaseKeyField twice[] = {
    { "a", HBASE_KEY_FIELD_BYTES, 0, 0, FALSE }, { "a", HBASE_KEY_FIELD_BYTES, 0, 0, FALSE },
  };
  HBaseSaltOptions salt = HBASE_SALT_OPTIONS_INIT;
  const char *const missing[] = { "nope", NULL };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(HBaseKeySchema) schema = hbase_key_schema_new (&cases[i].field, 1, NULL, &error);

      g_assert_null (schema);
      g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
      g_assert_nonnull (strstr (error->message, cases[i].fragment));
    }
  {
    g_autoptr(GError) error = NULL;

    g_assert_null (hbase_key_schema_new (twice, 2, NULL, &error));
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
    g_clear_error (&error);
    g_assert_null (hbase_key_schema_new (twice, 0, NULL, &error));
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
    g_clear_error (&error);

    salt.n_buckets = 257;
    g_assert_null (hbase_key_schema_new (file_key, 3, &salt, &error));
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
    g_clear_error (&error);
    salt.n_buckets = 10;
    salt.hash_fields = missing;
    g_assert_null (hbase_key_schema_new (file_key, 3, &salt, &error));
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
    g_clear_error (&error);
    salt.hash_fields = NULL;
    salt.period_field = "time";
    salt.n_periods = 12;     /* 10 buckets are not 12 equal runs */
    g_assert_null (hbase_key_schema_new (file_key, 3, &salt, &error));
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
    g_clear_error (&error);
    salt.n_buckets = 24;
    salt.n_periods = 4;      /* the month function needs 12 */
    g_assert_null (hbase_key_schema_new (file_key, 3, &salt, &error));
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
    g_clear_error (&error);
  }
}

static void
test_wrong_count (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseKeySchema) schema = hbase_key_schema_new (file_key, 3, NULL, &error);
  HBaseKeyValue values[] = { HBASE_KEY_UINT (1), HBASE_KEY_UINT (2), HBASE_KEY_UINT (3),
                             HBASE_KEY_UINT (4) };
  g_autoptr(GBytes) prefix = NULL;
  g_autoptr(GByteArray) out = g_byte_array_new ();

  g_assert_null (hbase_key_schema_encode (schema, values, 2, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (hbase_key_schema_encode (schema, values, 4, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  prefix = hbase_key_schema_encode_prefix (schema, values, 2, &error);
  g_assert_no_error (error);
  assert_hex (prefix, "00000100000002");

  /* a failed encode_into leaves the array as it was */
  g_byte_array_append (out, (const guint8 *) "xy", 2);
  values[2] = HBASE_KEY_UINT (1000000);
  g_assert_false (hbase_key_schema_encode_into (schema, out, values, 3, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_assert_cmpuint (out->len, ==, 2);
}

static void
test_decode_errors (void)
{
  const HBaseKeyField fields[] = {
    { "d", HBASE_KEY_FIELD_DECIMAL, 2, 0, FALSE },
    { "b", HBASE_KEY_FIELD_BYTES, 0, 0, FALSE },
  };
  static const struct {
    const char *key;
    gsize len;
  } bad[] = {
    { "1", 1 },              /* ends inside the decimal */
    { "1x\x00\x01", 4 },     /* not a digit */
    { "12ab", 4 },           /* no terminator */
    { "12a\x00", 4 },        /* ends inside an escape */
    { "12a\x00\x07", 5 },    /* bad escape */
    { "12a\x00\x01z", 6 },   /* trailing bytes */
  };
  g_autoptr(HBaseKeySchema) schema = hbase_key_schema_new (fields, 2, NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) key = g_bytes_new (bad[i].key, bad[i].len);
      g_autoptr(GVariant) tuple = hbase_key_schema_decode (schema, key, &error);

      g_assert_null (tuple);
      g_assert_error (error, HBASE_ERROR, HBASE_ERROR_BAD_DATA);
    }

  /* a double field: the one NaN the encoder writes decodes, another does
   * not (it would decode to a value that encodes to other bytes) */
  {
    const HBaseKeyField double_field[] = { { "x", HBASE_KEY_FIELD_DOUBLE, 0, 0, FALSE } };
    g_autoptr(HBaseKeySchema) doubles = hbase_key_schema_new (double_field, 1, NULL, NULL);
    g_autoptr(GBytes) nan_key = hbase_key_schema_encode (doubles, &HBASE_KEY_DOUBLE (NAN), 1, NULL);
    g_autoptr(GBytes) other_nan = g_bytes_new ("\x00\x00\x00\x00\x00\x2a\x60\x5c", 8);
    g_autoptr(GVariant) tuple = hbase_key_schema_decode (doubles, nan_key, NULL);
    g_autoptr(GError) error = NULL;
    double d = 0;

    g_assert_nonnull (tuple);
    g_variant_get_child (tuple, 0, "d", &d);
    g_assert_true (isnan (d));
    g_assert_null (hbase_key_schema_decode (doubles, other_nan, &error));
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_BAD_DATA);
  }
}

/* --- random tuples ----------------------------------------------------------- */

/* Every type, both directions, widths that make edge cases likely. */
static const HBaseKeyField all_types[] = {
  { "int8", HBASE_KEY_FIELD_INT, 1, 0, FALSE },
  { "bytes", HBASE_KEY_FIELD_BYTES, 0, 0, FALSE },
  { "double", HBASE_KEY_FIELD_DOUBLE, 0, 0, FALSE },
  { "dec", HBASE_KEY_FIELD_DECIMAL, 3, 0, FALSE },
  { "str", HBASE_KEY_FIELD_STRING, 3, 0, FALSE },
  { "desc_bytes", HBASE_KEY_FIELD_BYTES, 0, 0, TRUE },
  { "uint16", HBASE_KEY_FIELD_UINT, 2, 0, FALSE },
  { "int64", HBASE_KEY_FIELD_INT, 8, 0, FALSE },
  { "rts", HBASE_KEY_FIELD_REVERSE_TIMESTAMP, 0, 0, FALSE },
  { "desc_int", HBASE_KEY_FIELD_INT, 2, 0, TRUE },
  { "text", HBASE_KEY_FIELD_STRING, 2, 'a', FALSE },
};
#define N_ALL G_N_ELEMENTS (all_types)

typedef struct {
  HBaseKeyValue values[N_ALL];
  guint8 storage[N_ALL][8];   /* bytes of the byte-valued fields */
} Tuple;

static void
random_bytes (GRand *rand, guint8 *out, gsize *size, gsize max, guint8 low)
{
  static const guint8 interesting[] = { 0x00, 0x01, 0xfe, 0xff, 'a', 'b' };

  *size = (gsize) g_rand_int_range (rand, 0, (gint32) max + 1);
  for (gsize i = 0; i < *size; i++)
    {
      guint8 b = g_rand_boolean (rand)
                 ? interesting[g_rand_int_range (rand, 0, G_N_ELEMENTS (interesting))]
                 : (guint8) g_rand_int_range (rand, 0, 256);

      out[i] = b < low ? low : b;
    }
}

static gint64
random_int (GRand *rand, gint64 min, gint64 max)
{
  gint64 edges[] = { min, min + 1, -1, 0, 1, max - 1, max };

  if (g_rand_int_range (rand, 0, 3) == 0)
    {
      gint64 v = edges[g_rand_int_range (rand, 0, G_N_ELEMENTS (edges))];

      return CLAMP (v, min, max);
    }
  if ((guint64) max - (guint64) min < G_MAXINT32 && min > G_MININT32)
    return min + g_rand_int_range (rand, 0, (gint32) (max - min + 1));
  return (gint64) (((guint64) g_rand_int (rand) << 32) | g_rand_int (rand));
}

static double
random_double (GRand *rand)
{
  static const double edges[] = { 0.0, -0.0, 1.0, -1.0, 1e-310, -1e-310, 1e308, -1e308,
                                  INFINITY, -INFINITY, NAN, 0.5, -0.5 };

  if (g_rand_int_range (rand, 0, 2) == 0)
    return edges[g_rand_int_range (rand, 0, G_N_ELEMENTS (edges))];
  return g_rand_double_range (rand, -1e6, 1e6);
}

static void
random_tuple (GRand *rand, Tuple *t)
{
  for (guint i = 0; i < N_ALL; i++)
    {
      const HBaseKeyField *f = &all_types[i];
      gsize size;

      switch (f->type)
        {
        case HBASE_KEY_FIELD_INT:
          {
            gint64 max = f->width == 8 ? G_MAXINT64 : (G_GINT64_CONSTANT (1) << (f->width * 8 - 1)) - 1;

            t->values[i] = HBASE_KEY_INT (random_int (rand, -max - 1, max));
            break;
          }
        case HBASE_KEY_FIELD_UINT:
          t->values[i] = HBASE_KEY_UINT ((guint64) random_int (rand, 0, 65535));
          break;
        case HBASE_KEY_FIELD_DECIMAL:
          t->values[i] = HBASE_KEY_UINT ((guint64) random_int (rand, 0, 999));
          break;
        case HBASE_KEY_FIELD_REVERSE_TIMESTAMP:
          t->values[i] = HBASE_KEY_INT (random_int (rand, 0, G_MAXINT64) & G_MAXINT64);
          break;
        case HBASE_KEY_FIELD_DOUBLE:
          t->values[i] = HBASE_KEY_DOUBLE (random_double (rand));
          break;
        case HBASE_KEY_FIELD_STRING:
          random_bytes (rand, t->storage[i], &size, f->width, f->pad);
          /* a string field value may not end with the pad byte */
          while (size > 0 && t->storage[i][size - 1] == f->pad)
            size--;
          t->values[i] = HBASE_KEY_BYTES (t->storage[i], size);
          break;
        case HBASE_KEY_FIELD_BYTES:
          random_bytes (rand, t->storage[i], &size, 4, 0);
          t->values[i] = HBASE_KEY_BYTES (t->storage[i], size);
          break;
        default:
          g_assert_not_reached ();
        }
    }
}

static int
compare_doubles (double a, double b)
{
  /* -0.0 < +0.0, every NaN equal and above +inf */
  if (isnan (a) || isnan (b))
    return isnan (a) ? (isnan (b) ? 0 : 1) : -1;
  if (a < b)
    return -1;
  if (a > b)
    return 1;
  if (signbit (a) != signbit (b))
    return signbit (a) ? -1 : 1;
  return 0;
}

static int
compare_raw (gconstpointer a, gsize a_len, gconstpointer b, gsize b_len)
{
  int cmp = MIN (a_len, b_len) > 0 ? memcmp (a, b, MIN (a_len, b_len)) : 0;

  if (cmp != 0)
    return cmp < 0 ? -1 : 1;
  return a_len < b_len ? -1 : a_len > b_len ? 1 : 0;
}

/* The order the values of one field should sort in. */
static int
compare_field (const HBaseKeyField *f, const HBaseKeyValue *a, const HBaseKeyValue *b)
{
  int cmp;

  switch (f->type)
    {
    case HBASE_KEY_FIELD_INT:
      cmp = a->v.i < b->v.i ? -1 : a->v.i > b->v.i;
      break;
    case HBASE_KEY_FIELD_REVERSE_TIMESTAMP:
      cmp = a->v.i > b->v.i ? -1 : a->v.i < b->v.i;   /* newest first */
      break;
    case HBASE_KEY_FIELD_UINT:
    case HBASE_KEY_FIELD_DECIMAL:
      cmp = a->v.u < b->v.u ? -1 : a->v.u > b->v.u;
      break;
    case HBASE_KEY_FIELD_DOUBLE:
      cmp = compare_doubles (a->v.d, b->v.d);
      break;
    default:
      cmp = compare_raw (a->v.b.data, a->v.b.size, b->v.b.data, b->v.b.size);
      break;
    }
  return f->descending ? -cmp : cmp;
}

static int
compare_tuples (const Tuple *a, const Tuple *b, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      int cmp = compare_field (&all_types[i], &a->values[i], &b->values[i]);

      if (cmp != 0)
        return cmp;
    }
  return 0;
}

static int
compare_keys (GBytes *a, GBytes *b)
{
  int cmp = g_bytes_compare (a, b);

  return cmp < 0 ? -1 : cmp > 0;
}

static void
check_round_trip (HBaseKeySchema *schema, const Tuple *t, GBytes *key)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) decoded = hbase_key_schema_decode (schema, key, &error);
  g_autoptr(GBytes) again = NULL;

  g_assert_no_error (error);
  for (guint i = 0; i < N_ALL; i++)
    {
      g_autoptr(GVariant) child = g_variant_get_child_value (decoded, i);
      const HBaseKeyField *f = &all_types[i];

      switch (f->type)
        {
        case HBASE_KEY_FIELD_INT:
        case HBASE_KEY_FIELD_REVERSE_TIMESTAMP:
          g_assert_cmpint (g_variant_get_int64 (child), ==, t->values[i].v.i);
          break;
        case HBASE_KEY_FIELD_UINT:
        case HBASE_KEY_FIELD_DECIMAL:
          g_assert_cmpuint (g_variant_get_uint64 (child), ==, t->values[i].v.u);
          break;
        case HBASE_KEY_FIELD_DOUBLE:
          g_assert_cmpint (compare_doubles (g_variant_get_double (child), t->values[i].v.d), ==, 0);
          break;
        default:
          {
            gsize size;
            gconstpointer data = g_variant_get_fixed_array (child, &size, 1);

            g_assert_cmpmem (data, size, t->values[i].v.b.data, t->values[i].v.b.size);
          }
        }
    }
  again = hbase_key_schema_encode_variant (schema, decoded, &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (again, key));

  /* the allocation-free form gives the same values */
  {
    HBaseKeyValue values[N_ALL];
    g_autoptr(GByteArray) storage = g_byte_array_new ();
    g_autoptr(GBytes) third = NULL;

    g_assert_true (hbase_key_schema_decode_values (schema, key, values, N_ALL, storage, &error));
    g_assert_no_error (error);
    for (guint i = 0; i < N_ALL; i++)
      g_assert_cmpint (compare_field (&all_types[i], &values[i], &t->values[i]), ==, 0);
    third = hbase_key_schema_encode (schema, values, N_ALL, &error);
    g_assert_no_error (error);
    g_assert_true (g_bytes_equal (third, key));
    g_assert_false (hbase_key_schema_decode_values (schema, key, values, N_ALL - 1, storage,
                                                    &error));
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
    g_clear_error (&error);
  }
}

/* Encoded order == tuple order for random pairs, prefixes of the schema
 * too (a shorter schema checks that fields end where they should). */
static void
test_order_property (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (20120902);
  guint cases = n_cases (20000);

  for (guint n = 1; n <= N_ALL; n += (n < 3 ? 1 : 4))
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(HBaseKeySchema) schema = hbase_key_schema_new (all_types, n, NULL, &error);

      g_assert_no_error (error);
      for (guint c = 0; c < cases / 4; c++)
        {
          Tuple a, b;
          g_autoptr(GBytes) ka = NULL, kb = NULL;

          random_tuple (rand, &a);
          if (g_rand_int_range (rand, 0, 4) == 0)
            {
              /* share a random number of leading fields */
              guint shared = (guint) g_rand_int_range (rand, 0, (gint32) n + 1);

              random_tuple (rand, &b);
              for (guint i = 0; i < shared; i++)
                {
                  memcpy (b.storage[i], a.storage[i], sizeof a.storage[i]);
                  b.values[i] = a.values[i];
                  if (b.values[i].kind == HBASE_KEY_VALUE_BYTES)
                    b.values[i].v.b.data = b.storage[i];
                }
            }
          else
            random_tuple (rand, &b);
          ka = hbase_key_schema_encode (schema, a.values, n, &error);
          g_assert_no_error (error);
          kb = hbase_key_schema_encode (schema, b.values, n, &error);
          g_assert_no_error (error);
          if (compare_keys (ka, kb) != compare_tuples (&a, &b, n))
            {
              g_autofree char *ha = hex (ka), *hb = hex (kb);

              g_error ("case %u (%u fields): keys %s and %s compare %d, tuples %d", c, n, ha, hb,
                       compare_keys (ka, kb), compare_tuples (&a, &b, n));
            }
          if (n == N_ALL)
            check_round_trip (schema, &a, ka);
        }
    }
}

/* A range holds exactly the keys whose tuples satisfy it. */
static gboolean
in_range (const Tuple *t, const HBaseKeyRange *range)
{
  const HBaseKeyField *f;
  int cmp;

  for (guint i = 0; i < range->n_equal; i++)
    if (compare_field (&all_types[i], &t->values[i], &range->equal[i]) != 0)
      return FALSE;
  f = &all_types[range->n_equal];
  if (range->lower != NULL)
    {
      cmp = compare_field (f, &t->values[range->n_equal], range->lower);
      if (f->descending)
        cmp = -cmp;
      if (cmp < 0 || (cmp == 0 && !range->lower_inclusive))
        return FALSE;
    }
  if (range->upper != NULL)
    {
      cmp = compare_field (f, &t->values[range->n_equal], range->upper);
      if (f->descending)
        cmp = -cmp;
      if (cmp > 0 || (cmp == 0 && !range->upper_inclusive))
        return FALSE;
    }
  return TRUE;
}

static gboolean
key_in_rows (GBytes *key, GBytes *start, GBytes *stop)
{
  if (start != NULL && g_bytes_get_size (start) > 0 && g_bytes_compare (key, start) < 0)
    return FALSE;
  if (stop != NULL && g_bytes_get_size (stop) > 0 && g_bytes_compare (key, stop) >= 0)
    return FALSE;
  if (start != NULL && stop != NULL && g_bytes_equal (start, stop))
    return FALSE;
  return TRUE;
}

static void
test_range_property (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);
  guint cases = n_cases (3000);
  /* the fields used for ranges, in order: int8, bytes, double, dec, str,
   * desc_bytes, uint16 (every kind of edge) */
  const guint n = 7;
  g_autoptr(HBaseKeySchema) schema = hbase_key_schema_new (all_types, n, NULL, NULL);
  Tuple pool[64];

  for (guint i = 0; i < G_N_ELEMENTS (pool); i++)
    random_tuple (rand, &pool[i]);
  for (guint c = 0; c < cases; c++)
    {
      Tuple *base = &pool[g_rand_int_range (rand, 0, G_N_ELEMENTS (pool))];
      Tuple *lo = &pool[g_rand_int_range (rand, 0, G_N_ELEMENTS (pool))];
      Tuple *hi = &pool[g_rand_int_range (rand, 0, G_N_ELEMENTS (pool))];
      HBaseKeyRange range = HBASE_KEY_RANGE_INIT;
      g_autoptr(GBytes) start = NULL, stop = NULL;
      g_autoptr(GError) error = NULL;

      range.n_equal = (guint) g_rand_int_range (rand, 0, (gint32) n);
      range.equal = base->values;
      if (g_rand_int_range (rand, 0, 4) != 0)
        range.lower = &lo->values[range.n_equal];
      if (g_rand_int_range (rand, 0, 4) != 0)
        range.upper = &hi->values[range.n_equal];
      range.lower_inclusive = g_rand_boolean (rand);
      range.upper_inclusive = g_rand_boolean (rand);
      g_assert_true (hbase_key_schema_get_row_range (schema, &range, &start, &stop, &error));
      g_assert_no_error (error);

      for (guint k = 0; k < 40; k++)
        {
          Tuple t;
          g_autoptr(GBytes) key = NULL;

          /* candidates near the range: the base's equal fields mostly,
           * the bound values sometimes */
          random_tuple (rand, &t);
          if (g_rand_int_range (rand, 0, 4) != 0)
            for (guint i = 0; i < range.n_equal; i++)
              {
                memcpy (t.storage[i], base->storage[i], sizeof t.storage[i]);
                t.values[i] = base->values[i];
                if (t.values[i].kind == HBASE_KEY_VALUE_BYTES)
                  t.values[i].v.b.data = t.storage[i];
              }
          if (g_rand_boolean (rand))
            {
              Tuple *from = g_rand_boolean (rand) ? lo : hi;
              guint i = range.n_equal;

              memcpy (t.storage[i], from->storage[i], sizeof t.storage[i]);
              t.values[i] = from->values[i];
              if (t.values[i].kind == HBASE_KEY_VALUE_BYTES)
                t.values[i].v.b.data = t.storage[i];
            }
          key = hbase_key_schema_encode (schema, t.values, n, &error);
          g_assert_no_error (error);
          if (key_in_rows (key, start, stop) != in_range (&t, &range))
            {
              g_autofree char *hk = hex (key), *hs = hex (start), *ht = hex (stop);

              g_error ("case %u: key %s in [%s, %s) is %d, the range says %d (n_equal %u, "
                       "lower %s %d, upper %s %d)", c, hk, hs, ht, key_in_rows (key, start, stop),
                       in_range (&t, &range), range.n_equal, range.lower ? "set" : "none",
                       range.lower_inclusive, range.upper ? "set" : "none", range.upper_inclusive);
            }
        }
    }
}

/* Byte-level edges: 0xFF carries, the empty stop row, empty ranges. */
static void
test_range_edges (void)
{
  const HBaseKeyField fields[] = {
    { "a", HBASE_KEY_FIELD_UINT, 1, 0, FALSE },
    { "b", HBASE_KEY_FIELD_UINT, 1, 0, FALSE },
    { "c", HBASE_KEY_FIELD_BYTES, 0, 0, FALSE },
  };
  g_autoptr(HBaseKeySchema) schema = hbase_key_schema_new (fields, 3, NULL, NULL);
  HBaseKeyValue ff[] = { HBASE_KEY_UINT (0xff), HBASE_KEY_UINT (0xff) };
  HBaseKeyValue fe[] = { HBASE_KEY_UINT (0xfe), HBASE_KEY_UINT (0xff) };
  HBaseKeyValue v_ff = HBASE_KEY_UINT (0xff), v_10 = HBASE_KEY_UINT (0x10);
  static const struct {
    int which;          /* 0: ff prefix, 1: fe prefix */
    guint n_equal;
    int lower, upper;   /* -1 none, else 0xff or 0x10 */
    gboolean lower_inclusive, upper_inclusive;
    const char *start, *stop;   /* NULL: no row */
  } cases[] = {
    /* everything */
    { 0, 0, -1, -1, FALSE, FALSE, NULL, NULL },
    /* a = 0xff: all keys from ff, no stop row (nothing sorts above ff...) */
    { 0, 1, -1, -1, FALSE, FALSE, "\\xff", NULL },
    /* a = 0xfe, b = 0xff: fe ff .. ff (the carry) */
    { 1, 2, -1, -1, FALSE, FALSE, "\\xfe\\xff", "\\xff" },
    /* a = 0xfe, b <= 0xff: up to ff */
    { 1, 1, -1, 0xff, FALSE, TRUE, "\\xfe", "\\xff" },
    /* a = 0xfe, b < 0xff */
    { 1, 1, -1, 0xff, FALSE, FALSE, "\\xfe", "\\xfe\\xff" },
    /* a = 0xfe, b > 0xff: nothing (start == stop) */
    { 1, 1, 0xff, -1, FALSE, FALSE, "\\xff", "\\xff" },
    /* a = 0xff, b > 0x10 */
    { 0, 1, 0x10, -1, FALSE, FALSE, "\\xff\\x11", NULL },
    /* a = 0xff, 0x10 <= b <= 0xff: stop at the table's end */
    { 0, 1, 0x10, 0xff, TRUE, TRUE, "\\xff\\x10", NULL },
    /* a = 0xff, b > 0xff: all 0xFF prefix, nothing above it */
    { 0, 1, 0xff, -1, FALSE, FALSE, "\\xff\\xff", "\\xff\\xff" },
    /* a >= 0x10 */
    { 0, 0, 0x10, -1, TRUE, FALSE, "\\x10", NULL },
    /* a < 0x10 */
    { 0, 0, -1, 0x10, FALSE, FALSE, NULL, "\\x10" },
    /* 0xff < a < 0x10: empty, start == stop */
    { 0, 0, 0xff, 0x10, FALSE, FALSE, "\\xff", "\\xff" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      HBaseKeyRange range = HBASE_KEY_RANGE_INIT;
      g_autoptr(GBytes) start = NULL, stop = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *hs = NULL, *ht = NULL;

      range.equal = cases[i].which == 0 ? ff : fe;
      range.n_equal = cases[i].n_equal;
      range.lower = cases[i].lower < 0 ? NULL : cases[i].lower == 0xff ? &v_ff : &v_10;
      range.upper = cases[i].upper < 0 ? NULL : cases[i].upper == 0xff ? &v_ff : &v_10;
      range.lower_inclusive = cases[i].lower_inclusive;
      range.upper_inclusive = cases[i].upper_inclusive;
      g_assert_true (hbase_key_schema_get_row_range (schema, &range, &start, &stop, &error));
      g_assert_no_error (error);
      hs = hex (start);
      ht = hex (stop);
      g_test_message ("case %u: [%s, %s)", i, hs, ht);
      if (cases[i].start == NULL)
        g_assert_null (start);
      else
        g_assert_cmpstr (hs, ==, cases[i].start);
      if (cases[i].stop == NULL)
        g_assert_null (stop);
      else
        g_assert_cmpstr (ht, ==, cases[i].stop);
    }

  /* every field fixed and a bound: refused */
  {
    HBaseKeyValue all[] = { HBASE_KEY_UINT (1), HBASE_KEY_UINT (2), HBASE_KEY_STRING ("x") };
    HBaseKeyRange range = { all, 3, &v_10, TRUE, NULL, FALSE };
    g_autoptr(GError) error = NULL;

    g_assert_false (hbase_key_schema_get_row_range (schema, &range, NULL, NULL, &error));
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  }
  /* a bound too wide for its field: an error, not a truncated range */
  {
    HBaseKeyValue big = HBASE_KEY_UINT (256);
    HBaseKeyRange range = { NULL, 0, &big, TRUE, NULL, FALSE };
    g_autoptr(GError) error = NULL;

    g_assert_false (hbase_key_schema_get_row_range (schema, &range, NULL, NULL, &error));
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  }
}

/* --- salting -------------------------------------------------------------- */

static void
test_hashes (void)
{
  /* published MurmurHash3 x86_32 vectors */
  g_assert_cmpuint (_hbase_murmur3_32 ((const guint8 *) "", 0, 0), ==, 0);
  g_assert_cmpuint (_hbase_murmur3_32 ((const guint8 *) "", 0, 1), ==, 0x514e28b7);
  g_assert_cmpuint (_hbase_murmur3_32 ((const guint8 *) "hello", 5, 0), ==, 0x248bfa47);
  g_assert_cmpuint (_hbase_murmur3_32 ((const guint8 *) "The quick brown fox jumps over the lazy dog",
                                       43, 0), ==, 0x2e4ff723);
  /* Phoenix: h = 31 * 1 + 'a' = 128 */
  g_assert_cmpuint (_hbase_phoenix_salt ((const guint8 *) "a", 1, 10), ==, 8);
  /* signed bytes: 31 + (-1) = 30 */
  g_assert_cmpuint (_hbase_phoenix_salt ((const guint8 *) "\xff", 1, 7), ==, 2);
  /* overflow into a negative int: abs of the remainder.  "zzzzzzz":
   * h = 1, then h = 31h + 122 seven times, in Java int arithmetic */
  {
    gint32 h = 1;
    gint32 rest;

    for (int i = 0; i < 7; i++)
      h = (gint32) ((guint32) h * 31u + 122u);
    rest = h % 13;
    g_assert_cmpuint (_hbase_phoenix_salt ((const guint8 *) "zzzzzzz", 7, 13), ==,
                      (guint) (rest < 0 ? -rest : rest));
  }
}

static void
test_salted_keys (void)
{
  HBaseSaltOptions salt = HBASE_SALT_OPTIONS_INIT;
  const char *const user_only[] = { "user", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseKeySchema) schema = NULL;
  g_autoptr(HBaseKeySchema) phoenix = NULL;
  HBaseKeyValue values[] = { HBASE_KEY_UINT (1), HBASE_KEY_UINT (20120902), HBASE_KEY_UINT (1) };
  g_autoptr(GBytes) key = NULL, pkey = NULL;
  g_autoptr(GVariant) decoded = NULL;
  g_autoptr(GPtrArray) splits = NULL;
  guint bucket = 0;
  const guint8 *data;

  salt.n_buckets = 16;
  salt.hash_fields = user_only;
  schema = hbase_key_schema_new (file_key, 3, &salt, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (hbase_key_schema_get_n_buckets (schema), ==, 16);
  key = hbase_key_schema_encode (schema, values, 3, &error);
  g_assert_no_error (error);
  data = g_bytes_get_data (key, NULL);
  g_assert_cmpuint (g_bytes_get_size (key), ==, 21);
  g_assert_cmpuint (data[0], ==, _hbase_murmur3_32 ((const guint8 *) "000001", 6, 0) % 16);
  g_assert_cmpmem (data + 1, 20, "00000120120902000001", 20);
  /* the bucket from the user alone */
  g_assert_true (hbase_key_schema_get_bucket (schema, values, 1, &bucket, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (bucket, ==, data[0]);
  decoded = hbase_key_schema_decode (schema, key, &error);
  g_assert_no_error (error);
  /* a wrong bucket byte is bad data */
  {
    g_autoptr(GByteArray) wrong = g_byte_array_new ();
    g_autoptr(GBytes) wrong_key = NULL;
    g_autoptr(GVariant) none = NULL;
    guint8 other = (guint8) ((data[0] + 1) % 16);

    g_byte_array_append (wrong, &other, 1);
    g_byte_array_append (wrong, data + 1, 20);
    wrong_key = g_bytes_new (wrong->data, wrong->len);
    none = hbase_key_schema_decode (schema, wrong_key, &error);
    g_assert_null (none);
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_BAD_DATA);
    g_clear_error (&error);
  }
  /* without the user there is no bucket */
  g_assert_false (hbase_key_schema_get_bucket (schema, values, 0, &bucket, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);

  /* range buckets: user fixed → one bucket; otherwise all */
  {
    HBaseKeyRange by_user = { values, 1, NULL, FALSE, NULL, FALSE };
    g_autoptr(GArray) one = hbase_key_schema_get_range_buckets (schema, &by_user, &error);
    g_autoptr(GArray) all = hbase_key_schema_get_range_buckets (schema, NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (one->len, ==, 1);
    g_assert_cmpuint (g_array_index (one, guint, 0), ==, data[0]);
    g_assert_cmpuint (all->len, ==, 16);
  }

  splits = hbase_key_schema_get_split_keys (schema);
  g_assert_cmpuint (splits->len, ==, 15);
  assert_hex (splits->pdata[0], "\\x01");
  assert_hex (splits->pdata[14], "\\x0f");

  /* Phoenix: every field hashed, the salt byte of the whole key */
  salt.hash = HBASE_SALT_HASH_PHOENIX;
  salt.hash_fields = NULL;
  phoenix = hbase_key_schema_new (file_key, 3, &salt, &error);
  g_assert_no_error (error);
  pkey = hbase_key_schema_encode (phoenix, values, 3, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (((const guint8 *) g_bytes_get_data (pkey, NULL))[0], ==,
                    _hbase_phoenix_salt ((const guint8 *) "00000120120902000001", 20, 16));
}

/* The consumption records of docs/rowkey-design.md: 120 buckets, 10 per month; a month's query reads only its 10. */
static void
test_time_aligned (void)
{
  const HBaseKeyField fields[] = {
    { "month", HBASE_KEY_FIELD_STRING, 7, 0, FALSE },    /* "2021-12" */
    { "user", HBASE_KEY_FIELD_BYTES, 0, 0, FALSE },
    { "time", HBASE_KEY_FIELD_INT, 8, 0, FALSE },
  };
  HBaseSaltOptions salt = HBASE_SALT_OPTIONS_INIT;
  const char *const user_only[] = { "user", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseKeySchema) schema = NULL;

  salt.n_buckets = 120;
  salt.hash_fields = user_only;
  salt.period_field = "month";
  salt.n_periods = 12;
  schema = hbase_key_schema_new (fields, 3, &salt, &error);
  g_assert_no_error (error);

  for (guint m = 1; m <= 12; m++)
    {
      g_autofree char *month = g_strdup_printf ("2021-%02u", m);
      HBaseKeyValue values[] = { HBASE_KEY_STRING (month), HBASE_KEY_STRING ("zhangsan"),
                                 HBASE_KEY_INT (1638316800000) };
      HBaseKeyRange whole_month = { values, 1, NULL, FALSE, NULL, FALSE };
      HBaseKeyRange one_user = { values, 2, NULL, FALSE, NULL, FALSE };
      g_autoptr(GBytes) key = hbase_key_schema_encode (schema, values, 3, &error);
      g_autoptr(GArray) buckets = NULL, user_buckets = NULL;
      guint8 bucket;

      g_assert_no_error (error);
      bucket = ((const guint8 *) g_bytes_get_data (key, NULL))[0];
      g_assert_cmpuint (bucket / 10, ==, m - 1);
      buckets = hbase_key_schema_get_range_buckets (schema, &whole_month, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (buckets->len, ==, 10);
      for (guint i = 0; i < 10; i++)
        g_assert_cmpuint (g_array_index (buckets, guint, i), ==, (m - 1) * 10 + i);
      user_buckets = hbase_key_schema_get_range_buckets (schema, &one_user, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (user_buckets->len, ==, 1);
      g_assert_cmpuint (g_array_index (user_buckets, guint, 0), ==, bucket);
    }

  /* a month that is none */
  {
    HBaseKeyValue values[] = { HBASE_KEY_STRING ("2021-13"), HBASE_KEY_STRING ("x"),
                               HBASE_KEY_INT (0) };
    g_autoptr(GBytes) key = hbase_key_schema_encode (schema, values, 3, &error);

    g_assert_null (key);
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  }
}

static void
test_period_month (void)
{
  const HBaseKeyField yyyymmdd = { "d", HBASE_KEY_FIELD_DECIMAL, 8, 0, FALSE };
  const HBaseKeyField yyyymm = { "d", HBASE_KEY_FIELD_DECIMAL, 6, 0, FALSE };
  const HBaseKeyField ms = { "t", HBASE_KEY_FIELD_INT, 8, 0, FALSE };
  const HBaseKeyField text = { "s", HBASE_KEY_FIELD_BYTES, 0, 0, FALSE };
  HBaseKeyValue v;

  v = HBASE_KEY_UINT (20120914);
  g_assert_cmpuint (hbase_key_period_month (&yyyymmdd, &v, NULL), ==, 8);
  v = HBASE_KEY_UINT (201212);
  g_assert_cmpuint (hbase_key_period_month (&yyyymm, &v, NULL), ==, 11);
  v = HBASE_KEY_UINT (201213);
  g_assert_cmpuint (hbase_key_period_month (&yyyymm, &v, NULL), ==, G_MAXUINT);
  v = HBASE_KEY_INT (1638316800000);   /* 2021-12-01T00:00:00Z */
  g_assert_cmpuint (hbase_key_period_month (&ms, &v, NULL), ==, 11);
  v = HBASE_KEY_INT (1638316799999);   /* a millisecond earlier: November */
  g_assert_cmpuint (hbase_key_period_month (&ms, &v, NULL), ==, 10);
  v = HBASE_KEY_INT (-1);              /* 1969-12-31 */
  g_assert_cmpuint (hbase_key_period_month (&ms, &v, NULL), ==, 11);
  v = HBASE_KEY_STRING ("2021-03_zhangsan");
  g_assert_cmpuint (hbase_key_period_month (&text, &v, NULL), ==, 2);
  v = HBASE_KEY_STRING ("202104");
  g_assert_cmpuint (hbase_key_period_month (&text, &v, NULL), ==, 3);
  v = HBASE_KEY_STRING ("21-04");
  g_assert_cmpuint (hbase_key_period_month (&text, &v, NULL), ==, G_MAXUINT);
}

/* A month range reads only the buckets of the months it covers. */
static void
test_month_range_buckets (void)
{
  HBaseSaltOptions salt = HBASE_SALT_OPTIONS_INIT;
  const char *const file_only[] = { "file", NULL };
  const HBaseKeyField fields[] = {
    { "time", HBASE_KEY_FIELD_DECIMAL, 8, 0, FALSE },
    { "file", HBASE_KEY_FIELD_DECIMAL, 6, 0, FALSE },
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseKeySchema) schema = NULL;
  HBaseKeyValue from = HBASE_KEY_UINT (20120901), to = HBASE_KEY_UINT (20121015);
  HBaseKeyValue year_later = HBASE_KEY_UINT (20130901);
  HBaseKeyRange range = { NULL, 0, &from, TRUE, &to, FALSE };
  g_autoptr(GArray) buckets = NULL, all = NULL;

  salt.n_buckets = 24;
  salt.hash_fields = file_only;
  salt.period_field = "time";
  salt.n_periods = 12;
  schema = hbase_key_schema_new (fields, 2, &salt, &error);
  g_assert_no_error (error);
  buckets = hbase_key_schema_get_range_buckets (schema, &range, &error);
  g_assert_no_error (error);
  /* September and October: buckets 16, 17, 18, 19 */
  g_assert_cmpuint (buckets->len, ==, 4);
  g_assert_cmpuint (g_array_index (buckets, guint, 0), ==, 16);
  g_assert_cmpuint (g_array_index (buckets, guint, 3), ==, 19);
  range.upper = &year_later;
  all = hbase_key_schema_get_range_buckets (schema, &range, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (all->len, ==, 24);
}

static void
test_variant (void)
{
  const HBaseKeyField fields[] = {
    { "u", HBASE_KEY_FIELD_UINT, 4, 0, FALSE },
    { "s", HBASE_KEY_FIELD_BYTES, 0, 0, FALSE },
    { "d", HBASE_KEY_FIELD_DOUBLE, 0, 0, FALSE },
  };
  g_autoptr(HBaseKeySchema) schema = hbase_key_schema_new (fields, 3, NULL, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) tuple = g_variant_ref_sink (g_variant_new ("(usd)", 7, "ab", 2.5));
  g_autoptr(GVariant) wrong = g_variant_ref_sink (g_variant_new ("(usb)", 7, "ab", TRUE));
  g_autoptr(GBytes) key = hbase_key_schema_encode_variant (schema, tuple, &error);
  g_autoptr(GBytes) none = NULL;
  g_autoptr(GVariant) back = NULL;

  g_assert_no_error (error);
  assert_hex (key, "\\x00\\x00\\x00\\x07ab\\x00\\x01\\xc0\\x04\\x00\\x00\\x00\\x00\\x00\\x00");
  back = hbase_key_schema_decode (schema, key, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (g_variant_get_type_string (back), ==, "(tayd)");
  none = hbase_key_schema_encode_variant (schema, wrong, &error);
  g_assert_null (none);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/rowkey/schema/file-table", test_file_table);
  g_test_add_func ("/rowkey/schema/find-field-and-ref", test_find_field_and_ref);
  g_test_add_func ("/rowkey/schema/encodings", test_encodings);
  g_test_add_func ("/rowkey/schema/bad-schemas", test_bad_schemas);
  g_test_add_func ("/rowkey/schema/wrong-count", test_wrong_count);
  g_test_add_func ("/rowkey/schema/decode-errors", test_decode_errors);
  g_test_add_func ("/rowkey/schema/variant", test_variant);
  g_test_add_func ("/rowkey/schema/order-property", test_order_property);
  g_test_add_func ("/rowkey/range/property", test_range_property);
  g_test_add_func ("/rowkey/range/edges", test_range_edges);
  g_test_add_func ("/rowkey/salt/hashes", test_hashes);
  g_test_add_func ("/rowkey/salt/keys", test_salted_keys);
  g_test_add_func ("/rowkey/salt/time-aligned", test_time_aligned);
  g_test_add_func ("/rowkey/salt/period-month", test_period_month);
  g_test_add_func ("/rowkey/salt/month-range-buckets", test_month_range_buckets);
  return g_test_run ();
}
