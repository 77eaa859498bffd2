/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of the byte encodings of sets and sorted sets
 * (docs/structures-layout.md): the order-preserving double encoding, with
 * property tests over random and extreme values; the descending member
 * encoding; the shard hash; the meta cell; and the boxed member-and-score
 * entry of sorted sets.  No server needed. */
#include "config.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include <hbase-glib/hbase-glib.h>

#include "../../src/structures/hbase-structures-private.h"
#include "../support/test-env.h"

static gboolean quick;

static guint
n_rounds (guint full)
{
  return quick ? full / 10 : full;
}

static int
sign (int x)
{
  return x < 0 ? -1 : x > 0 ? 1 : 0;
}

static int
compare_doubles (gdouble a, gdouble b)
{
  return a < b ? -1 : a > b ? 1 : 0;
}

static int
compare_encoded (gdouble a, gdouble b)
{
  guint8 x[8], y[8];

  _hbase_score_encode (a, x);
  _hbase_score_encode (b, y);
  return sign (memcmp (x, y, 8));
}

/* any double but NaN: random bit patterns cover every exponent */
static gdouble
random_double (GRand *rand)
{
  static const gdouble special[] = {
    0.0, -0.0, 1.0, -1.0, HUGE_VAL, -HUGE_VAL, DBL_MAX, -DBL_MAX, DBL_MIN, -DBL_MIN,
    4.9406564584124654e-324, -4.9406564584124654e-324, 9007199254740993.0, 0.1, -0.1,
    1e308, -1e-308, 3.0, 2.9999999999999996,
  };

  for (;;)
    {
      guint64 bits;
      gdouble value;

      switch (g_rand_int_range (rand, 0, 4))
        {
        case 0:
          return special[g_rand_int_range (rand, 0, G_N_ELEMENTS (special))];
        case 1:
          return (gdouble) g_rand_int_range (rand, -1000, 1000) / 4.0;
        default:
          bits = ((guint64) g_rand_int (rand) << 32) | g_rand_int (rand);
          memcpy (&value, &bits, sizeof value);
          if (!isnan (value))
            return value;
        }
    }
}

static void
test_score_special_values (void)
{
  static const struct {
    gdouble value;
    const char *hex;
  } cases[] = {
    { -HUGE_VAL, "000fffffffffffff" },
    { -1.0, "400fffffffffffff" },
    { -0.0, "8000000000000000" },
    { 0.0, "8000000000000000" },
    { 4.9406564584124654e-324, "8000000000000001" },
    { 1.0, "bff0000000000000" },
    { 95.5, "c057e00000000000" },
    { HUGE_VAL, "fff0000000000000" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      guint8 encoded[8];
      g_autofree char *hex = NULL;
      GString *text = g_string_new (NULL);

      g_assert_true (hbase_zset_encode_score (cases[i].value, encoded));
      for (guint j = 0; j < 8; j++)
        g_string_append_printf (text, "%02x", encoded[j]);
      hex = g_string_free (text, FALSE);
      g_assert_cmpstr (hex, ==, cases[i].hex);
      g_assert_true (hbase_zset_decode_score (encoded) == cases[i].value);
    }
  /* -0.0 comes back as +0.0 */
  {
    guint8 encoded[8];

    g_assert_true (hbase_zset_encode_score (-0.0, encoded));
    g_assert_false (signbit (hbase_zset_decode_score (encoded)));
  }
  /* NaN is refused, whatever its bits */
  {
    guint8 encoded[8] = { 0 };
    guint64 bits = G_GUINT64_CONSTANT (0xfff8000000000001);
    gdouble nan_value;

    memcpy (&nan_value, &bits, sizeof nan_value);
    g_assert_false (hbase_zset_encode_score (NAN, encoded));
    g_assert_false (hbase_zset_encode_score (-NAN, encoded));
    g_assert_false (hbase_zset_encode_score (nan_value, encoded));
    g_assert_false (hbase_zset_encode_score (1.0, NULL));
  }
}

static void
test_score_order_property (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (20240501);
  guint rounds = n_rounds (200000);

  for (guint i = 0; i < rounds; i++)
    {
      gdouble a = random_double (rand);
      gdouble b = g_rand_boolean (rand) ? random_double (rand) : nextafter (a, random_double (rand));
      guint8 encoded[8];

      /* order: bytes compare as the numbers do (-0.0 == 0.0) */
      if (compare_encoded (a, b) != compare_doubles (a, b))
        g_error ("order of %.17g and %.17g: bytes %d, numbers %d", a, b, compare_encoded (a, b),
                 compare_doubles (a, b));
      /* round trip, bit for bit except -0.0 */
      _hbase_score_encode (a, encoded);
      if (a != 0.0)
        g_assert_true (memcmp (&(gdouble) { _hbase_score_decode (encoded) }, &a, 8) == 0);
      else
        g_assert_true (_hbase_score_decode (encoded) == 0.0);
    }
}

static void
test_score_adjacent (void)
{
  /* the next double up encodes as the next 64-bit number up (away from
   * zero's fold), which is what exclusive bounds rely on */
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  guint rounds = n_rounds (100000);

  for (guint i = 0; i < rounds; i++)
    {
      gdouble a = random_double (rand), b = nextafter (a, HUGE_VAL);
      guint8 x[8], y[8];
      guint64 u = 0, v = 0;

      if (a == HUGE_VAL || a == 0.0 || b == 0.0)
        continue;
      _hbase_score_encode (a, x);
      _hbase_score_encode (b, y);
      for (guint j = 0; j < 8; j++)
        {
          u = (u << 8) | x[j];
          v = (v << 8) | y[j];
        }
      g_assert_cmpuint (v, ==, u + 1);
    }
}

static GBytes *
random_member (GRand *rand)
{
  static const char *const samples[] = { "", "a", "ab", "\xe4\xb8\xad\xe6\x96\x87", "a\0b", "\0", "\0\0", "\xff", "\xff\0" };
  static const gsize lengths[] = { 0, 1, 2, 6, 3, 1, 2, 1, 2 };
  guint8 data[12];
  guint len;

  if (g_rand_int_range (rand, 0, 3) == 0)
    {
      guint i = (guint) g_rand_int_range (rand, 0, G_N_ELEMENTS (samples));

      return g_bytes_new (samples[i], lengths[i]);
    }
  len = (guint) g_rand_int_range (rand, 0, sizeof data);
  for (guint i = 0; i < len; i++)
    {
      /* few distinct bytes, so prefixes and NULs are common */
      static const guint8 alphabet[] = { 0x00, 0x01, 'a', 'b', 0xfe, 0xff };

      data[i] = alphabet[g_rand_int_range (rand, 0, sizeof alphabet)];
    }
  return g_bytes_new (data, len);
}

static void
test_descending_members (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (99);
  guint rounds = n_rounds (100000);

  for (guint i = 0; i < rounds; i++)
    {
      g_autoptr(GBytes) a = random_member (rand);
      g_autoptr(GBytes) b = random_member (rand);
      g_autoptr(GByteArray) x = g_byte_array_new ();
      g_autoptr(GByteArray) y = g_byte_array_new ();
      g_autoptr(GBytes) back = NULL;
      gsize a_len, b_len;
      const guint8 *a_data = g_bytes_get_data (a, &a_len);
      const guint8 *b_data = g_bytes_get_data (b, &b_len);

      _hbase_desc_member_append (x, a_data, a_len);
      _hbase_desc_member_append (y, b_data, b_len);
      /* exactly the reverse order */
      g_assert_cmpint (sign (_hbase_bytes_compare (x->data, x->len, y->data, y->len)), ==,
                       -sign (_hbase_bytes_compare (a_data, a_len, b_data, b_len)));
      back = _hbase_desc_member_decode (x->data, x->len);
      g_assert_nonnull (back);
      g_assert_true (g_bytes_equal (back, a));
    }
  /* malformed: no end mark, a bad escape, bytes after the end */
  {
    static const guint8 no_end[] = { 0x9e };
    static const guint8 bad_escape[] = { 0xff, 0x05, 0xff, 0xff };
    static const guint8 trailing[] = { 0xff, 0xff, 0x9e };
    static const guint8 ok[] = { 0x9e, 0xff, 0x00, 0xff, 0xff };   /* "a\0" */
    g_autoptr(GBytes) decoded = _hbase_desc_member_decode (ok, sizeof ok);

    g_assert_null (_hbase_desc_member_decode (no_end, sizeof no_end));
    g_assert_null (_hbase_desc_member_decode (bad_escape, sizeof bad_escape));
    g_assert_null (_hbase_desc_member_decode (trailing, sizeof trailing));
    g_assert_null (_hbase_desc_member_decode (NULL, 0));
    g_assert_cmpuint (g_bytes_get_size (decoded), ==, 2);
    g_assert_true (memcmp (g_bytes_get_data (decoded, NULL), "a\0", 2) == 0);
  }
}

/* The whole 's' and 'r' qualifiers: (score, member) ascending, and
 * exactly reversed. */
static void
test_qualifier_order (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (4242);
  guint rounds = n_rounds (50000);

  for (guint i = 0; i < rounds; i++)
    {
      gdouble scores[2] = { random_double (rand), 0 };
      g_autoptr(GBytes) a = random_member (rand);
      g_autoptr(GBytes) b = random_member (rand);
      GBytes *members[2] = { a, b };
      GByteArray *asc[2], *desc[2];
      int expected;

      scores[1] = g_rand_boolean (rand) ? scores[0] : random_double (rand);
      for (guint k = 0; k < 2; k++)
        {
          guint8 encoded[8];
          gsize len;
          const guint8 *data = g_bytes_get_data (members[k], &len);

          _hbase_score_encode (scores[k], encoded);
          asc[k] = g_byte_array_new ();
          g_byte_array_append (asc[k], (const guint8 *) "s", 1);
          g_byte_array_append (asc[k], encoded, 8);
          g_byte_array_append (asc[k], data, (guint) len);
          for (guint j = 0; j < 8; j++)
            encoded[j] = (guint8) ~encoded[j];
          desc[k] = g_byte_array_new ();
          g_byte_array_append (desc[k], (const guint8 *) "r", 1);
          g_byte_array_append (desc[k], encoded, 8);
          _hbase_desc_member_append (desc[k], data, len);
        }
      /* Redis's order: score, then member bytes */
      expected = compare_doubles (scores[0], scores[1]);
      if (expected == 0)
        expected = sign (_hbase_gbytes_compare (a, b));
      g_assert_cmpint (sign (_hbase_bytes_compare (asc[0]->data, asc[0]->len, asc[1]->data,
                                                   asc[1]->len)), ==, expected);
      g_assert_cmpint (sign (_hbase_bytes_compare (desc[0]->data, desc[0]->len, desc[1]->data,
                                                   desc[1]->len)), ==, -expected);
      for (guint k = 0; k < 2; k++)
        {
          g_byte_array_unref (asc[k]);
          g_byte_array_unref (desc[k]);
        }
    }
}

static void
test_member_hash (void)
{
  /* FNV-1a 32-bit reference values (other languages must match) */
  g_assert_cmpuint (_hbase_member_hash ((const guint8 *) "", 0), ==, 0x811c9dc5u);
  g_assert_cmpuint (_hbase_member_hash ((const guint8 *) "a", 1), ==, 0xe40c292cu);
  g_assert_cmpuint (_hbase_member_hash ((const guint8 *) "foobar", 6), ==, 0xbf9cf968u);
}

static void
test_meta (void)
{
  StructMeta first, second, parsed;
  g_autoptr(GError) error = NULL;

  _hbase_meta_next (NULL, STRUCT_KIND_SET, 4, 10, 0, &first);
  g_assert_true (_hbase_meta_parse (first.raw, STRUCT_META_SIZE, STRUCT_KIND_SET, 4, &parsed,
                                    &error));
  g_assert_no_error (error);
  g_assert_cmpint (parsed.card, ==, 10);
  g_assert_cmpint (parsed.clock, ==, first.clock);
  g_assert_cmpuint (parsed.shards, ==, 4);
  g_assert_cmpuint (parsed.nonce, ==, first.nonce);
  g_assert_cmpuint (first.raw[16], ==, 'S');
  g_assert_cmpuint (first.raw[17], ==, 1);

  /* the clock always moves on, even when the wall clock is behind */
  _hbase_meta_next (&first, STRUCT_KIND_SET, 4, 11, first.clock + 5000, &second);
  g_assert_cmpint (second.clock, ==, first.clock + 5000);
  _hbase_meta_next (&second, STRUCT_KIND_SET, 4, 11, 0, &first);
  g_assert_cmpint (first.clock, ==, second.clock + 1);

  /* a sorted set read as a set, a wrong shard count, a foreign cell */
  _hbase_meta_next (NULL, STRUCT_KIND_ZSET, 1, 1, 0, &first);
  g_assert_false (_hbase_meta_parse (first.raw, STRUCT_META_SIZE, STRUCT_KIND_SET, 1, &parsed,
                                     &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_BAD_DATA);
  g_assert_nonnull (strstr (error->message, "sorted set"));
  g_clear_error (&error);
  _hbase_meta_next (NULL, STRUCT_KIND_SET, 8, 1, 0, &first);
  g_assert_false (_hbase_meta_parse (first.raw, STRUCT_META_SIZE, STRUCT_KIND_SET, 4, &parsed,
                                     &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_BAD_DATA);
  g_assert_nonnull (strstr (error->message, "8 shard"));
  g_clear_error (&error);
  g_assert_false (_hbase_meta_parse ((const guint8 *) "1", 1, STRUCT_KIND_SET, 1, &parsed,
                                     &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_BAD_DATA);
  g_clear_error (&error);

  /* a clock with no later timestamp, a cardinality that would overflow:
   * refused, not incremented past G_MAXINT64 */
  _hbase_meta_next (NULL, STRUCT_KIND_SET, 1, 1, G_MAXINT64, &first);
  g_assert_cmpint (first.clock, ==, G_MAXINT64 - 1);
  g_assert_true (_hbase_meta_parse (first.raw, STRUCT_META_SIZE, STRUCT_KIND_SET, 1, &parsed,
                                    &error));
  _hbase_meta_next (&parsed, STRUCT_KIND_SET, 1, 1, 0, &second);
  g_assert_cmpint (second.clock, ==, G_MAXINT64 - 1);
  memset (first.raw + 8, 0xff, 8);
  first.raw[8] = 0x7f;
  g_assert_false (_hbase_meta_parse (first.raw, STRUCT_META_SIZE, STRUCT_KIND_SET, 1, &parsed,
                                     &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_BAD_DATA);
  g_assert_nonnull (strstr (error->message, "clock"));
  g_clear_error (&error);
  _hbase_meta_next (NULL, STRUCT_KIND_SET, 1, G_MAXINT64, 0, &first);
  g_assert_false (_hbase_meta_parse (first.raw, STRUCT_META_SIZE, STRUCT_KIND_SET, 1, &parsed,
                                     &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_BAD_DATA);
  g_assert_nonnull (strstr (error->message, "cardinality"));
}

/* An entry holds its member and score; a copy, made directly or as a
 * boxed value, is its own; a NULL member is the empty member. */
static void
test_entry (void)
{
  g_autoptr(GBytes) member = g_bytes_new ("m\0n", 3);
  g_autoptr(HBaseZSetEntry) entry = hbase_zset_entry_new (member, -2.5);
  g_autoptr(HBaseZSetEntry) copy = NULL;
  g_autoptr(HBaseZSetEntry) empty = hbase_zset_entry_new (NULL, 0);
  HBaseZSetEntry *boxed;

  g_assert_true (g_bytes_equal (entry->member, member));
  g_assert_cmpfloat (entry->score, ==, -2.5);
  copy = hbase_zset_entry_copy (entry);
  g_assert_true (copy != entry);
  g_assert_true (g_bytes_equal (copy->member, member));
  g_assert_cmpfloat (copy->score, ==, -2.5);
  copy->score = 7;
  g_assert_cmpfloat (entry->score, ==, -2.5);

  g_assert_nonnull (empty->member);
  g_assert_cmpuint (g_bytes_get_size (empty->member), ==, 0);

  g_assert_true (G_TYPE_IS_BOXED (HBASE_TYPE_ZSET_ENTRY));
  boxed = g_boxed_copy (HBASE_TYPE_ZSET_ENTRY, entry);
  g_assert_true (boxed != entry);
  g_assert_true (g_bytes_equal (boxed->member, member));
  g_assert_cmpfloat (boxed->score, ==, -2.5);
  g_boxed_free (HBASE_TYPE_ZSET_ENTRY, boxed);
  hbase_zset_entry_free (NULL);
}

/* The option structs: _new gives the defaults, copies are deep, the
 * setter replaces, and the handles and iterators have their types. */
static void
test_options (void)
{
  g_autoptr(HBaseSetOptions) set_options = hbase_set_options_new ();
  g_autoptr(HBaseSetOptions) set_copy = NULL;
  g_autoptr(HBaseZSetOptions) zset_options = hbase_zset_options_new ();
  g_autoptr(HBaseZSetOptions) zset_copy = NULL;
  g_autoptr(HBaseScoreRange) range = hbase_score_range_new (-1.0, TRUE, 2.0, FALSE);
  g_autoptr(HBaseScoreRange) range_copy = NULL;
  HBaseSetOptions set_stack = HBASE_SET_OPTIONS_INIT;
  HBaseZSetOptions zset_stack = HBASE_ZSET_OPTIONS_INIT;

  g_assert_true (g_type_is_a (HBASE_TYPE_SET, G_TYPE_OBJECT));
  g_assert_true (g_type_is_a (HBASE_TYPE_ZSET, G_TYPE_OBJECT));
  g_assert_true (G_TYPE_IS_BOXED (HBASE_TYPE_SET_ITER));
  g_assert_true (G_TYPE_IS_BOXED (HBASE_TYPE_ZSET_ITER));
  g_assert_true (G_TYPE_IS_BOXED (HBASE_TYPE_SET_OPTIONS));
  g_assert_true (G_TYPE_IS_BOXED (HBASE_TYPE_ZSET_OPTIONS));
  g_assert_null (set_stack.family);
  g_assert_null (zset_stack.family);

  g_assert_null (set_options->family);
  g_assert_cmpuint (set_options->shards, ==, 0);
  g_assert_cmpuint (set_options->page_size, ==, 0);
  hbase_set_options_set_family (set_options, "members");
  set_options->shards = 4;
  set_copy = hbase_set_options_copy (set_options);
  hbase_set_options_set_family (set_options, "other");
  g_assert_cmpstr (set_options->family, ==, "other");
  g_assert_cmpstr (set_copy->family, ==, "members");
  g_assert_cmpuint (set_copy->shards, ==, 4);
  hbase_set_options_set_family (set_options, NULL);
  g_assert_null (set_options->family);

  g_assert_null (zset_options->family);
  hbase_zset_options_set_family (zset_options, "scores");
  zset_options->page_size = 10;
  zset_copy = g_boxed_copy (HBASE_TYPE_ZSET_OPTIONS, zset_options);
  hbase_zset_options_set_family (zset_options, "other");
  g_assert_cmpstr (zset_copy->family, ==, "scores");
  g_assert_cmpuint (zset_copy->page_size, ==, 10);

  range_copy = hbase_score_range_copy (range);
  g_assert_true (range_copy != range);
  g_assert_cmpfloat (range_copy->min, ==, -1.0);
  g_assert_true (range_copy->min_exclusive);
  g_assert_cmpfloat (range_copy->max, ==, 2.0);
  g_assert_false (range_copy->max_exclusive);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  quick = test_quick ();
  g_test_add_func ("/structures/encoding/score-special-values", test_score_special_values);
  g_test_add_func ("/structures/encoding/score-order-property", test_score_order_property);
  g_test_add_func ("/structures/encoding/score-adjacent", test_score_adjacent);
  g_test_add_func ("/structures/encoding/descending-members", test_descending_members);
  g_test_add_func ("/structures/encoding/qualifier-order", test_qualifier_order);
  g_test_add_func ("/structures/encoding/member-hash", test_member_hash);
  g_test_add_func ("/structures/encoding/meta", test_meta);
  g_test_add_func ("/structures/zset-entry", test_entry);
  g_test_add_func ("/structures/options", test_options);
  return g_test_run ();
}
