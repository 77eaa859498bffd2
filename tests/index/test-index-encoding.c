/* SPDX-License-Identifier: Apache-2.0 */
/* Unit test (no server) of the Redis index's pieces: definitions and their
 * stored form, key names, value parsing, canonical forms, order-preserving
 * sort keys and scores, range bounds (score and lexicographic), sorted-set
 * members, row records as the Lua script writes them, and the query
 * semantics every fetched row is checked with. */
#include "config.h"

#include <math.h>
#include <string.h>

#include <hbase-glib/hbase-glib-thrift.h>

#include "hbase-index-private.h"
#include "../../src/table/hbase-table-private.h"
#include "../support/test-env.h"

static HBaseIndexSpec *
sample_spec (void)
{
  HBaseIndexSpec *spec = hbase_index_spec_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (hbase_index_spec_add (spec, "city", "f", "city", HBASE_INDEX_VALUE_STRING,
                                       HBASE_INDEX_EXACT | HBASE_INDEX_RANGE, &error));
  g_assert_true (hbase_index_spec_add (spec, "age", "f", "age", HBASE_INDEX_VALUE_INT64,
                                       HBASE_INDEX_EXACT | HBASE_INDEX_RANGE, &error));
  g_assert_true (hbase_index_spec_add (spec, "big", "f", "big", HBASE_INDEX_VALUE_INT64,
                                       HBASE_INDEX_RANGE | HBASE_INDEX_LEX, &error));
  g_assert_true (hbase_index_spec_add (spec, "score", "g", "score", HBASE_INDEX_VALUE_DOUBLE,
                                       HBASE_INDEX_RANGE, &error));
  g_assert_true (hbase_index_spec_add (spec, "hits", "g", "hits", HBASE_INDEX_VALUE_COUNTER,
                                       HBASE_INDEX_EXACT, &error));
  g_assert_no_error (error);
  return spec;
}

static void
test_spec (void)
{
  g_autoptr(HBaseIndexSpec) spec = sample_spec ();
  g_autoptr(HBaseIndexSpec) back = NULL;
  g_autoptr(HBaseIndexSpec) copy = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  g_autofree char *again = NULL;
  const char *family, *qualifier;
  HBaseIndexValueType type;
  HBaseIndexFlags flags;

  /* bad definitions are refused */
  g_assert_false (hbase_index_spec_add (spec, "bad name", "f", "x", HBASE_INDEX_VALUE_STRING,
                                        HBASE_INDEX_EXACT, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (hbase_index_spec_add (spec, "x", "f", "x", HBASE_INDEX_VALUE_STRING, 0, &error));
  g_clear_error (&error);
  g_assert_false (hbase_index_spec_add (spec, "x", "f", "x", HBASE_INDEX_VALUE_STRING,
                                        HBASE_INDEX_EXACT | HBASE_INDEX_LEX, &error));
  g_clear_error (&error);
  g_assert_false (hbase_index_spec_add (spec, "age", "f", "other", HBASE_INDEX_VALUE_STRING,
                                        HBASE_INDEX_EXACT, &error));
  g_clear_error (&error);
  g_assert_false (hbase_index_spec_add (spec, "again", "f", "age", HBASE_INDEX_VALUE_STRING,
                                        HBASE_INDEX_EXACT, &error));
  g_clear_error (&error);
  g_assert_false (hbase_index_spec_set_key_prefix (spec, "a*b", &error));
  g_clear_error (&error);
  g_assert_true (hbase_index_spec_set_key_prefix (spec, "app.idx", &error));
  hbase_index_spec_set_hash_tag (spec, TRUE);

  /* stored and read back the same */
  data = hbase_index_spec_to_data (spec);
  back = hbase_index_spec_new_from_data (data, &error);
  g_assert_no_error (error);
  again = hbase_index_spec_to_data (back);
  g_assert_cmpstr (data, ==, again);
  g_assert_cmpuint (hbase_index_spec_get_n_indexes (back), ==, 5);
  g_assert_cmpstr (hbase_index_spec_get_name (back, 1), ==, "age");
  g_assert_cmpstr (hbase_index_spec_get_key_prefix (back), ==, "app.idx");
  g_assert_true (hbase_index_spec_get_hash_tag (back));
  g_assert_true (hbase_index_spec_lookup (back, "big", &family, &qualifier, &type, &flags));
  g_assert_cmpstr (family, ==, "f");
  g_assert_cmpstr (qualifier, ==, "big");
  g_assert_cmpint (type, ==, HBASE_INDEX_VALUE_INT64);
  g_assert_cmpint (flags, ==, HBASE_INDEX_RANGE | HBASE_INDEX_LEX);
  g_assert_false (hbase_index_spec_lookup (back, "nope", NULL, NULL, NULL, NULL));
  copy = hbase_index_spec_copy (back);
  g_assert_cmpuint (hbase_index_spec_get_n_indexes (copy), ==, 5);

  g_assert_null (hbase_index_spec_new_from_data ("[index]\nformat=2\n", &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_BAD_DATA);
  g_clear_error (&error);
  /* bytes that are not UTF-8: refused with a message that is */
  g_assert_null (hbase_index_spec_new_from_data ("[index]\nformat=1\n[column \xff]\n", &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_BAD_DATA);
  g_assert_true (g_utf8_validate (error->message, -1, NULL));
  g_clear_error (&error);
  /* a bad escape: GLib gives a value and an error; one error comes out */
  g_assert_null (hbase_index_spec_new_from_data ("[index]\nformat=1\nprefix=a\\qb\n", &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_BAD_DATA);
  g_clear_error (&error);
  /* a lone backslash at the end of a value */
  g_assert_null (hbase_index_spec_new_from_data ("[index]\nformat=1\nprefix=ab\\\n", &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_BAD_DATA);
}

static void
test_keys (void)
{
  g_autoptr(HBaseIndexSpec) spec = sample_spec ();
  g_autofree char *base = _hbase_index_key_base (spec, "ns:users");
  g_autofree char *tagged = NULL;
  g_autofree char *range = NULL;
  g_autofree char *state = NULL;
  g_autoptr(GBytes) value = g_bytes_new ("a\0b", 3);
  g_autoptr(GBytes) exact = NULL;

  g_assert_cmpstr (base, ==, "hbidx:8=ns:users");
  hbase_index_spec_set_hash_tag (spec, TRUE);
  tagged = _hbase_index_key_base (spec, "ns:users");
  g_assert_cmpstr (tagged, ==, "hbidx:{8=ns:users}");
  range = _hbase_index_range_key (tagged, "age");
  g_assert_cmpstr (range, ==, "hbidx:{8=ns:users}:z:age");
  state = _hbase_index_key (tagged, "state");
  g_assert_cmpstr (state, ==, "hbidx:{8=ns:users}:state");
  exact = _hbase_index_exact_key (base, "city", value);
  g_assert_cmpmem (g_bytes_get_data (exact, NULL), g_bytes_get_size (exact),
                   "hbidx:8=ns:users:x:city:a\0b", 27);
}

/* The key space of a table (its base and ':') is no prefix of another
 * table's, whatever the namespaces; "default:NAME" is "NAME". */
static void
test_key_spaces (void)
{
  g_autoptr(HBaseIndexSpec) spec = sample_spec ();
  const char *const tables[] = { "t", "t:x", "t:x:x", "t2", "default:t", "x", "x:t", "tt", "t:xx",
                                 "default:t:x", "1", "1=t", "default", "default:default" };
  const char *const same[][2] = { { "t2", "default:t2" }, { "default", "default:default" } };

  for (int tagged = 0; tagged < 2; tagged++)
    {
      hbase_index_spec_set_hash_tag (spec, tagged);
      for (gsize i = 0; i < G_N_ELEMENTS (tables); i++)
        for (gsize j = 0; j < G_N_ELEMENTS (tables); j++)
          {
            g_autofree char *a = _hbase_index_key_base (spec, tables[i]);
            g_autofree char *b = _hbase_index_key_base (spec, tables[j]);
            g_autofree char *space_a = g_strconcat (a, ":", NULL);
            g_autofree char *space_b = g_strconcat (b, ":", NULL);
            g_autofree char *norm_a = _hbase_index_table_normalize (tables[i]);
            g_autofree char *norm_b = _hbase_index_table_normalize (tables[j]);

            if (strcmp (norm_a, norm_b) == 0)
              g_assert_cmpstr (a, ==, b);
            else if (g_str_has_prefix (space_b, space_a))
              g_error ("the key space of %s (%s) holds that of %s (%s)", tables[i], space_a,
                       tables[j], space_b);
          }
      for (gsize i = 0; i < G_N_ELEMENTS (same); i++)
        {
          g_autofree char *a = _hbase_index_key_base (spec, same[i][0]);
          g_autofree char *b = _hbase_index_key_base (spec, same[i][1]);

          g_assert_cmpstr (a, ==, b);
        }
    }
  hbase_index_spec_set_hash_tag (spec, FALSE);
  {
    g_autofree char *t = _hbase_index_key_base (spec, "default:t");
    g_autofree char *tx = _hbase_index_key_base (spec, "t:x");
    g_autofree char *pattern = _hbase_index_key_pattern (t, NULL);
    g_autofree char *exact = _hbase_index_key_pattern (t, "x:city:");
    g_autofree char *escaped = _hbase_index_glob_escape ("a*b?c[d]e\\f:g");

    g_assert_cmpstr (t, ==, "hbidx:1=t");
    g_assert_cmpstr (tx, ==, "hbidx:3=t:x");
    g_assert_cmpstr (pattern, ==, "hbidx:1=t:*");
    g_assert_cmpstr (exact, ==, "hbidx:1=t:x:city:*");
    g_assert_cmpstr (escaped, ==, "a\\*b\\?c\\[d\\]e\\\\f:g");
  }
}

static IndexValue
parse (HBaseIndexValueType type, const char *text)
{
  IndexValue value;

  g_assert_true (_hbase_index_value_parse (type, (const guint8 *) text, strlen (text), &value));
  return value;
}

static void
test_values (void)
{
  IndexValue value;
  g_autoptr(GBytes) canonical = NULL;
  g_autoptr(GBytes) counter = hbase_counter_encode (-5);
  const char *bad_int[] = { "", " 1", "1 ", "1.5", "abc", "9223372036854775808", "0x10" };
  const char *bad_double[] = { "", " 1", "nan", "1e", "1,5" };

  for (guint i = 0; i < G_N_ELEMENTS (bad_int); i++)
    g_assert_false (_hbase_index_value_parse (HBASE_INDEX_VALUE_INT64, (const guint8 *) bad_int[i],
                                              strlen (bad_int[i]), &value));
  for (guint i = 0; i < G_N_ELEMENTS (bad_double); i++)
    g_assert_false (_hbase_index_value_parse (HBASE_INDEX_VALUE_DOUBLE,
                                              (const guint8 *) bad_double[i],
                                              strlen (bad_double[i]), &value));
  g_assert_false (_hbase_index_value_parse (HBASE_INDEX_VALUE_INT64, (const guint8 *) "1\0", 2,
                                            &value));
  g_assert_false (_hbase_index_value_parse (HBASE_INDEX_VALUE_COUNTER, (const guint8 *) "1234", 4,
                                            &value));

  /* canonical forms: numbers compare as numbers */
  value = parse (HBASE_INDEX_VALUE_INT64, "042");
  g_assert_cmpint (value.i, ==, 42);
  canonical = _hbase_index_value_canonical (&value);
  g_assert_cmpmem (g_bytes_get_data (canonical, NULL), g_bytes_get_size (canonical), "42", 2);
  g_clear_pointer (&canonical, g_bytes_unref);
  value = parse (HBASE_INDEX_VALUE_INT64, "-9223372036854775808");
  g_assert_cmpint (value.i, ==, G_MININT64);
  value = parse (HBASE_INDEX_VALUE_DOUBLE, "-0");
  canonical = _hbase_index_value_canonical (&value);
  g_assert_cmpmem (g_bytes_get_data (canonical, NULL), g_bytes_get_size (canonical), "0", 1);
  g_clear_pointer (&canonical, g_bytes_unref);
  value = parse (HBASE_INDEX_VALUE_DOUBLE, "2.50");
  canonical = _hbase_index_value_canonical (&value);
  g_assert_cmpmem (g_bytes_get_data (canonical, NULL), g_bytes_get_size (canonical), "2.5", 3);
  g_clear_pointer (&canonical, g_bytes_unref);
  value = parse (HBASE_INDEX_VALUE_DOUBLE, "inf");
  g_assert_true (isinf (value.d));
  g_assert_true (_hbase_index_value_parse (HBASE_INDEX_VALUE_COUNTER,
                                           g_bytes_get_data (counter, NULL), 8, &value));
  g_assert_cmpint (value.i, ==, -5);
}

/* Sort keys order exactly as the values do. */
static void
check_order (HBaseIndexValueType type, IndexValue *values, guint n)
{
  for (guint i = 0; i < n; i++)
    for (guint j = 0; j < n; j++)
      {
        g_autoptr(GBytes) a = _hbase_index_value_sortkey (&values[i]);
        g_autoptr(GBytes) b = _hbase_index_value_sortkey (&values[j]);
        int by_value = _hbase_index_value_compare (&values[i], &values[j]);
        int by_key = g_bytes_compare (a, b);

        g_assert_cmpint (by_value < 0 ? -1 : by_value > 0, ==, by_key < 0 ? -1 : by_key > 0);
      }
}

static void
test_sortkeys (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  guint n = test_quick () ? 40 : 200;
  g_autofree IndexValue *ints = g_new0 (IndexValue, n);
  g_autofree IndexValue *doubles = g_new0 (IndexValue, n);
  IndexValue *strings = g_new0 (IndexValue, n);
  const gint64 edges[] = { G_MININT64, G_MININT64 + 1, -1, 0, 1, G_MAXINT64 - 1, G_MAXINT64 };
  const double dedges[] = { -INFINITY, -1e308, -1.0, -1e-308, 0.0, 1e-308, 1.0, 1e308, INFINITY };

  for (guint i = 0; i < n; i++)
    {
      ints[i].type = HBASE_INDEX_VALUE_INT64;
      ints[i].i = i < G_N_ELEMENTS (edges) ? edges[i]
                  : (gint64) (((guint64) g_rand_int (rand) << 32 | g_rand_int (rand))
                               >> (g_rand_int (rand) % 63));
      doubles[i].type = HBASE_INDEX_VALUE_DOUBLE;
      doubles[i].d = i < G_N_ELEMENTS (dedges) ? dedges[i]
                     : (g_rand_double (rand) - 0.5) * pow (10, g_rand_int_range (rand, -20, 20));
      {
        guint8 bytes[4];
        guint len = g_rand_int_range (rand, 0, 4);

        /* a small alphabet with 00, 01 and FF so prefixes and escapes meet */
        for (guint k = 0; k < len; k++)
          bytes[k] = (const guint8[]) { 0x00, 0x01, 'a', 0xff }[g_rand_int_range (rand, 0, 4)];
        strings[i].type = HBASE_INDEX_VALUE_STRING;
        strings[i].bytes = g_bytes_new (bytes, len);
      }
    }
  check_order (HBASE_INDEX_VALUE_INT64, ints, n);
  check_order (HBASE_INDEX_VALUE_DOUBLE, doubles, n);
  check_order (HBASE_INDEX_VALUE_STRING, strings, n);
  for (guint i = 0; i < n; i++)
    _hbase_index_value_clear (&strings[i]);
  g_free (strings);
}

static const IndexColumn *
column (const HBaseIndexSpec *spec, const char *name)
{
  const IndexColumn *found = _hbase_index_spec_find (spec, name);

  g_assert_nonnull (found);
  return found;
}

static void
assert_text (GBytes *bytes, const char *text)
{
  g_assert_nonnull (bytes);
  g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), text, strlen (text));
}

static void
test_score_bounds (void)
{
  g_autoptr(HBaseIndexSpec) spec = sample_spec ();
  const IndexColumn *age = column (spec, "age");
  const IndexColumn *score = column (spec, "score");
  IndexValue lo = parse (HBASE_INDEX_VALUE_INT64, "18");
  IndexValue hi = parse (HBASE_INDEX_VALUE_INT64, "65");
  IndexValue huge = parse (HBASE_INDEX_VALUE_INT64, "9007199254740993");   /* 2^53 + 1 */
  IndexValue d = parse (HBASE_INDEX_VALUE_DOUBLE, "0.1");
  GBytes *min = NULL, *max = NULL;
  g_autofree char *s = NULL;

  g_assert_true (_hbase_index_range_bounds (age, &lo, TRUE, &hi, FALSE, &min, &max));
  assert_text (min, "18");
  assert_text (max, "(65");
  g_clear_pointer (&min, g_bytes_unref);
  g_clear_pointer (&max, g_bytes_unref);
  g_assert_true (_hbase_index_range_bounds (age, NULL, TRUE, NULL, TRUE, &min, &max));
  assert_text (min, "-inf");
  assert_text (max, "+inf");
  g_clear_pointer (&min, g_bytes_unref);
  g_clear_pointer (&max, g_bytes_unref);
  /* beyond 2^53 the score is rounded: bounds widen and become inclusive */
  g_assert_true (_hbase_index_range_bounds (age, &huge, FALSE, &huge, TRUE, &min, &max) == FALSE);
  g_assert_true (_hbase_index_range_bounds (age, &huge, TRUE, NULL, TRUE, &min, &max));
  assert_text (min, "9007199254740992");
  g_clear_pointer (&min, g_bytes_unref);
  g_clear_pointer (&max, g_bytes_unref);
  g_assert_true (_hbase_index_range_bounds (age, NULL, TRUE, &huge, FALSE, &min, &max));
  assert_text (max, "9007199254740994");
  g_clear_pointer (&min, g_bytes_unref);
  g_clear_pointer (&max, g_bytes_unref);
  /* empty ranges */
  g_assert_false (_hbase_index_range_bounds (age, &hi, TRUE, &lo, TRUE, &min, &max));
  g_assert_false (_hbase_index_range_bounds (age, &lo, FALSE, &lo, TRUE, &min, &max));
  /* doubles round-trip in %.17g */
  g_assert_true (_hbase_index_range_bounds (score, &d, FALSE, NULL, TRUE, &min, &max));
  assert_text (min, "(0.10000000000000001");
  g_clear_pointer (&min, g_bytes_unref);
  g_clear_pointer (&max, g_bytes_unref);
  s = _hbase_index_value_score (age, &huge);
  g_assert_cmpstr (s, ==, "9007199254740992");
}

static GBytes *
member_of (const IndexColumn *col, const char *value, gsize value_len, const char *row)
{
  IndexValue parsed;
  GByteArray *member = g_byte_array_new ();
  g_autoptr(GBytes) sortkey = NULL;

  g_assert_true (_hbase_index_value_parse (col->type, (const guint8 *) value, value_len, &parsed));
  sortkey = _hbase_index_value_sortkey (&parsed);
  _hbase_index_value_clear (&parsed);
  g_byte_array_append (member, g_bytes_get_data (sortkey, NULL), g_bytes_get_size (sortkey));
  g_byte_array_append (member, (const guint8 *) row, strlen (row));
  return g_byte_array_free_to_bytes (member);
}

/* A lexicographic bound accepts a member as ZRANGEBYLEX would. */
static gboolean
lex_accepts (GBytes *bound, GBytes *member, gboolean is_min)
{
  gsize len;
  const char *data = g_bytes_get_data (bound, &len);
  g_autoptr(GBytes) rest = NULL;
  int cmp;

  if (len == 1 && data[0] == '-')
    return TRUE;
  if (len == 1 && data[0] == '+')
    return TRUE;
  rest = g_bytes_new (data + 1, len - 1);
  cmp = g_bytes_compare (member, rest);
  if (is_min)
    return data[0] == '[' ? cmp >= 0 : cmp > 0;
  return data[0] == '[' ? cmp <= 0 : cmp < 0;
}

static void
check_lex_range (const IndexColumn *col, const char *lo, gsize lo_len, gboolean lo_inc,
                 const char *hi, gsize hi_len, gboolean hi_inc, const char *const *values,
                 const gsize *lens, guint n)
{
  IndexValue min, max;
  GBytes *rmin = NULL, *rmax = NULL;

  g_assert_true (_hbase_index_value_parse (col->type, (const guint8 *) lo, lo_len, &min));
  g_assert_true (_hbase_index_value_parse (col->type, (const guint8 *) hi, hi_len, &max));
  if (!_hbase_index_range_bounds (col, &min, lo_inc, &max, hi_inc, &rmin, &rmax))
    {
      /* an empty range: nothing may be inside */
      for (guint i = 0; i < n; i++)
        {
          IndexValue v;
          int a, b;

          g_assert_true (_hbase_index_value_parse (col->type, (const guint8 *) values[i], lens[i], &v));
          a = _hbase_index_value_compare (&v, &min);
          b = _hbase_index_value_compare (&v, &max);
          g_assert_false ((lo_inc ? a >= 0 : a > 0) && (hi_inc ? b <= 0 : b < 0));
          _hbase_index_value_clear (&v);
        }
    }
  else
    for (guint i = 0; i < n; i++)
      {
        g_autoptr(GBytes) member = member_of (col, values[i], lens[i], "row\x01");
        IndexValue v;
        int a, b;
        gboolean inside, accepted;

        g_assert_true (_hbase_index_value_parse (col->type, (const guint8 *) values[i], lens[i], &v));
        a = _hbase_index_value_compare (&v, &min);
        b = _hbase_index_value_compare (&v, &max);
        inside = (lo_inc ? a >= 0 : a > 0) && (hi_inc ? b <= 0 : b < 0);
        accepted = lex_accepts (rmin, member, TRUE) && lex_accepts (rmax, member, FALSE);
        g_assert_cmpint (inside, ==, accepted);
        _hbase_index_value_clear (&v);
      }
  g_clear_pointer (&rmin, g_bytes_unref);
  g_clear_pointer (&rmax, g_bytes_unref);
  _hbase_index_value_clear (&min);
  _hbase_index_value_clear (&max);
}

static void
test_lex_bounds (void)
{
  g_autoptr(HBaseIndexSpec) spec = sample_spec ();
  const IndexColumn *city = column (spec, "city");
  const IndexColumn *big = column (spec, "big");
  const char *strings[] = { "", "a", "a\0", "a\0\0", "a\x01", "ab", "b", "\0", "\xff", "a\xff" };
  const gsize string_lens[] = { 0, 1, 2, 3, 2, 2, 1, 1, 1, 2 };
  const char *ints[] = { "-9223372036854775808", "-5", "0", "7", "9007199254740993",
                         "9223372036854775807" };
  const gsize int_lens[] = { 20, 2, 1, 1, 16, 19 };

  for (guint lo = 0; lo < G_N_ELEMENTS (strings); lo++)
    for (guint hi = 0; hi < G_N_ELEMENTS (strings); hi++)
      for (guint flags = 0; flags < 4; flags++)
        check_lex_range (city, strings[lo], string_lens[lo], flags & 1, strings[hi], string_lens[hi],
                         flags & 2, strings, string_lens, G_N_ELEMENTS (strings));
  for (guint lo = 0; lo < G_N_ELEMENTS (ints); lo++)
    for (guint hi = 0; hi < G_N_ELEMENTS (ints); hi++)
      for (guint flags = 0; flags < 4; flags++)
        check_lex_range (big, ints[lo], int_lens[lo], flags & 1, ints[hi], int_lens[hi], flags & 2,
                         ints, int_lens, G_N_ELEMENTS (ints));
}

static void
test_members (void)
{
  g_autoptr(HBaseIndexSpec) spec = sample_spec ();
  const IndexColumn *city = column (spec, "city");
  const IndexColumn *age = column (spec, "age");
  const IndexColumn *score = column (spec, "score");
  g_autoptr(GBytes) m1 = member_of (city, "a\0b", 3, "row\0one");
  g_autoptr(GBytes) m2 = member_of (age, "-12", 3, "r2");
  g_autoptr(GBytes) m3 = member_of (score, "-2.5", 4, "r3");
  g_autoptr(GBytes) row = NULL;
  IndexEntry *entry;

  row = _hbase_index_member_row (city, g_bytes_get_data (m1, NULL), g_bytes_get_size (m1));
  g_assert_cmpmem (g_bytes_get_data (row, NULL), g_bytes_get_size (row), "row", 3);
  g_clear_pointer (&row, g_bytes_unref);
  entry = _hbase_index_entry_from_member (city, g_bytes_get_data (m1, NULL), g_bytes_get_size (m1),
                                          &row);
  g_assert_cmpmem (g_bytes_get_data (entry->value, NULL), g_bytes_get_size (entry->value), "a\0b", 3);
  g_assert_cmpstr (entry->flags, ==, "z");
  _hbase_index_entry_free (entry);
  g_clear_pointer (&row, g_bytes_unref);
  entry = _hbase_index_entry_from_member (age, g_bytes_get_data (m2, NULL), g_bytes_get_size (m2),
                                          &row);
  assert_text (row, "r2");
  assert_text (entry->value, "-12");
  g_assert_cmpstr (entry->score, ==, "-12");
  _hbase_index_entry_free (entry);
  g_clear_pointer (&row, g_bytes_unref);
  entry = _hbase_index_entry_from_member (score, g_bytes_get_data (m3, NULL), g_bytes_get_size (m3),
                                          &row);
  assert_text (entry->value, "-2.5");
  _hbase_index_entry_free (entry);
  g_clear_pointer (&row, g_bytes_unref);
  /* malformed */
  g_assert_null (_hbase_index_member_row (age, (const guint8 *) "12345678", 8));
  g_assert_null (_hbase_index_member_row (city, (const guint8 *) "ab\0\x05x", 5));
  /* the sort key of -0.0 is never written (0.0 is): not a member */
  g_assert_null (_hbase_index_member_row (score, (const guint8 *) "\x7f\xff\xff\xff\xff\xff\xff\xffr", 9));
  g_assert_null (_hbase_index_entry_from_member (score, (const guint8 *) "\x7f\xff\xff\xff\xff\xff\xff\xffr",
                                                 9, &row));
  g_assert_null (row);
  entry = _hbase_index_entry_new (score, (const guint8 *) "-0.0", 4);
  g_assert_cmpmem (g_bytes_get_data (entry->sortkey, NULL), 8, "\x80\0\0\0\0\0\0\0", 8);
  _hbase_index_entry_free (entry);
  /* entries: flags follow the column */
  entry = _hbase_index_entry_new (column (spec, "hits"), (const guint8 *) "12345678", 8);
  g_assert_cmpstr (_hbase_index_entry_flags (entry), ==, "x");
  g_assert_null (entry->sortkey);
  _hbase_index_entry_free (entry);
  g_assert_null (_hbase_index_entry_new (age, (const guint8 *) "x", 1));
}

static void
be (GByteArray *out, guint64 value, guint size)
{
  for (guint i = 0; i < size; i++)
    {
      guint8 byte = (guint8) (value >> (8 * (size - 1 - i)));

      g_byte_array_append (out, &byte, 1);
    }
}

static void
field (GByteArray *out, guint size, const char *text)
{
  be (out, strlen (text), size);
  g_byte_array_append (out, (const guint8 *) text, (guint) strlen (text));
}

static void
test_records (void)
{
  g_autoptr(HBaseIndexSpec) spec = sample_spec ();
  IndexEntry *city = _hbase_index_entry_new (column (spec, "city"), (const guint8 *) "Paris", 5);
  IndexEntry *age = _hbase_index_entry_new (column (spec, "age"), (const guint8 *) "42", 2);
  g_autoptr(GByteArray) out = g_byte_array_new ();
  g_autoptr(GByteArray) ops = g_byte_array_new ();
  g_autoptr(GPtrArray) list = g_ptr_array_new ();
  GBytes *blob;
  double seq = 17;
  guint64 bits;
  IndexRecord record;

  /* an entry blob: '>I1c0BI4c0I4c0I1c0' */
  blob = _hbase_index_entry_blob (age);
  g_assert_cmpuint (g_bytes_get_size (blob), ==, 1 + 3 + 1 + 4 + 2 + 4 + 8 + 1 + 2);
  g_assert_cmpmem (g_bytes_get_data (blob, NULL), 9, "\x03" "age" "\x03" "\0\0\0\x02", 9);

  /* a record as the Lua script writes it: seq 17, two entries, no
   * candidates, fix "age", one change in doubt and one pending */
  g_byte_array_append (out, (const guint8 *) "R", 1);
  memcpy (&bits, &seq, 8);
  be (out, bits, 8);
  g_ptr_array_add (list, city);
  g_ptr_array_add (list, age);
  _hbase_index_append_list (out, list);
  be (out, 0xffff, 2);
  be (out, 1, 1);
  field (out, 1, "age");
  be (out, 2, 2);
  be (ops, 0, 1);
  field (out, 1, "tok1");
  be (out, 123, 8);
  be (out, 1, 1);
  field (out, 1, "U");
  be (out, ops->len, 4);
  g_byte_array_append (out, ops->data, ops->len);
  field (out, 1, "tok2");
  be (out, 123, 8);
  be (out, 0, 1);
  field (out, 1, "");
  be (out, ops->len, 4);
  g_byte_array_append (out, ops->data, ops->len);

  g_assert_true (_hbase_index_record_parse ((const char *) out->data, out->len, &record));
  g_assert_cmpstr (record.seq, ==, "17");
  g_assert_cmpuint (record.entries->len, ==, 2);
  g_assert_cmpstr (((RecordEntry *) g_ptr_array_index (record.entries, 0))->name, ==, "city");
  assert_text (((RecordEntry *) g_ptr_array_index (record.entries, 1))->value, "42");
  g_assert_cmpuint (record.n_pending, ==, 2);
  g_assert_cmpuint (record.n_in_doubt, ==, 1);
  g_assert_cmpuint (record.tokens->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (record.tokens, 0), ==, "tok2");
  g_assert_true (record.needs_fix);
  _hbase_index_record_clear (&record);
  /* truncations and trailing bytes are refused, never read past the end */
  for (gsize len = 0; len < out->len; len++)
    g_assert_false (_hbase_index_record_parse ((const char *) out->data, len, &record));
  g_byte_array_append (out, (const guint8 *) "x", 1);
  g_assert_false (_hbase_index_record_parse ((const char *) out->data, out->len, &record));
  _hbase_index_entry_free (city);
  _hbase_index_entry_free (age);
}

/* --- query semantics on rows, through a hand-made index ---------------------------------- */

static GByteArray *
array_of (const void *data, gsize len)
{
  GByteArray *array = g_byte_array_new ();

  return g_byte_array_append (array, data, (guint) len);
}

static HBaseRow *
make_row (const char *key, ...)
{
  g_autoptr(GByteArray) row_key = array_of (key, strlen (key));
  g_autoptr(HbaseThriftTResult) result = g_object_new (HBASE_THRIFT_TYPE_T_RESULT, "row", row_key,
                                                       NULL);
  const char *family;
  va_list args;

  va_start (args, key);
  while ((family = va_arg (args, const char *)) != NULL)
    {
      const char *qualifier = va_arg (args, const char *);
      const char *value = va_arg (args, const char *);
      gsize len = va_arg (args, gsize);
      g_autoptr(GByteArray) f = array_of (family, strlen (family));
      g_autoptr(GByteArray) q = array_of (qualifier, strlen (qualifier));
      g_autoptr(GByteArray) v = array_of (value, len);

      g_ptr_array_add (result->columnValues,
                       g_object_new (HBASE_THRIFT_TYPE_T_COLUMN_VALUE, "family", f, "qualifier", q,
                                     "value", v, "timestamp", (gint64) 1, NULL));
    }
  va_end (args);
  return _hbase_row_new_from_result (result);
}

static gboolean
matches (HBaseIndex *index, HBaseIndexQuery *query, HBaseRow *row)
{
  g_autoptr(GError) error = NULL;
  gboolean result = FALSE;

  g_assert_true (hbase_index_query_matches (index, query, row, &result, &error));
  g_assert_no_error (error);
  return result;
}

static void
test_queries (void)
{
  IndexCore core = { 0 };
  HBaseIndex *index = g_object_new (HBASE_TYPE_INDEX, NULL);
  g_autoptr(HBaseIndexSpec) spec = sample_spec ();
  g_autoptr(GBytes) paris = g_bytes_new ("Paris", 5);
  g_autoptr(GBytes) lyon = g_bytes_new ("Lyon", 4);
  g_autoptr(GBytes) counter = hbase_counter_encode (3);
  g_autoptr(HBaseRow) ada = make_row ("ada", "f", "city", "Paris", (gsize) 5, "f", "age", "036",
                                      (gsize) 3, "g", "score", "2.5", (gsize) 3, "g", "hits",
                                      g_bytes_get_data (counter, NULL), (gsize) 8, NULL);
  g_autoptr(HBaseRow) bob = make_row ("bob", "f", "city", "Lyon", (gsize) 4, "f", "age", "x",
                                      (gsize) 1, NULL);
  gint64 min = 30, max = 40;
  double dmin = 2.5, dmax = 30.5;
  g_autoptr(HBaseIndexQuery) in_city = NULL;
  g_autoptr(HBaseIndexQuery) age_range = hbase_index_query_range_int64 ("age", &min, TRUE, &max,
                                                                        FALSE);
  g_autoptr(HBaseIndexQuery) score_open = hbase_index_query_range_double ("score", &dmin, FALSE,
                                                                          NULL, TRUE);
  g_autoptr(HBaseIndexQuery) score_closed = hbase_index_query_range_double ("score", &dmin, TRUE,
                                                                            NULL, TRUE);
  g_autoptr(HBaseIndexQuery) age_fraction = hbase_index_query_range_double ("age", NULL, TRUE,
                                                                            &dmax, TRUE);
  g_autoptr(HBaseIndexQuery) both = NULL;
  g_autoptr(HBaseIndexQuery) either = NULL;
  g_autoptr(HBaseIndexQuery) hits = hbase_index_query_equal_int64 ("hits", 3);
  g_autoptr(HBaseIndexQuery) unknown = hbase_index_query_equal_int64 ("nope", 3);
  g_autoptr(HBaseIndexQuery) no_range = hbase_index_query_range ("hits", NULL, TRUE, NULL, TRUE);
  g_autoptr(HBaseIndexQuery) bad_value = hbase_index_query_equal ("age", paris);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  gboolean result;
  GBytes *cities[2] = { paris, lyon };

  core.spec = spec;
  core.base = (char *) "hbidx:t";
  index->core = &core;
  in_city = hbase_index_query_in ("city", cities, 2);
  both = hbase_index_query_and (in_city, age_range);
  either = hbase_index_query_or (score_open, hits);

  g_assert_true (matches (index, in_city, ada));
  g_assert_true (matches (index, in_city, bob));
  g_assert_true (matches (index, age_range, ada));      /* "036" is 36 */
  g_assert_false (matches (index, age_range, bob));     /* "x" is no number */
  g_assert_true (matches (index, both, ada));
  g_assert_false (matches (index, both, bob));
  g_assert_false (matches (index, score_open, ada));    /* 2.5 excluded */
  g_assert_true (matches (index, score_closed, ada));
  g_assert_true (matches (index, either, ada));         /* by the counter */
  g_assert_false (matches (index, either, bob));
  g_assert_false (matches (index, age_fraction, ada));  /* 36 > 30.5 */

  g_assert_false (hbase_index_query_matches (index, unknown, ada, &result, &error));
  g_assert_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_NO_INDEX);
  g_clear_error (&error);
  g_assert_false (hbase_index_query_matches (index, no_range, ada, &result, &error));
  g_assert_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_NO_INDEX);
  g_clear_error (&error);
  g_assert_false (hbase_index_query_matches (index, bad_value, ada, &result, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);

  text = hbase_index_query_to_string (both);
  g_assert_cmpstr (text, ==, "(city IN (\"Paris\", \"Lyon\") AND age IN [30, 40))");
  index->core = NULL;   /* on the stack: not the object's to release */
  g_object_unref (index);
}

/* The spec and query types are boxed: a spec's boxed copy is a new spec
 * with the same definitions; a query's is a reference to it. */
static void
test_boxed_types (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseIndexSpec) spec = hbase_index_spec_new ();
  g_autoptr(HBaseIndexQuery) query = hbase_index_query_range ("age", NULL, TRUE, NULL, TRUE);
  HBaseIndexQuery *fresh = hbase_index_query_equal_int64 ("age", 1);
  HBaseIndexSpec *spec_copy;
  HBaseIndexQuery *query_copy;
  g_autofree char *data = NULL;
  g_autofree char *copy_data = NULL;
  g_autofree char *text = NULL;

  g_assert_true (hbase_index_spec_add (spec, "city", "f", "city", HBASE_INDEX_VALUE_STRING,
                                       HBASE_INDEX_EXACT, &error));
  g_assert_no_error (error);
  g_assert_true (G_TYPE_IS_BOXED (HBASE_TYPE_INDEX_SPEC));
  spec_copy = g_boxed_copy (HBASE_TYPE_INDEX_SPEC, spec);
  g_assert_true (spec_copy != spec);
  data = hbase_index_spec_to_data (spec);
  copy_data = hbase_index_spec_to_data (spec_copy);
  g_assert_cmpstr (copy_data, ==, data);
  g_boxed_free (HBASE_TYPE_INDEX_SPEC, spec_copy);

  g_assert_true (G_TYPE_IS_BOXED (HBASE_TYPE_INDEX_QUERY));
  /* the deprecated sinking calls: ref_sink on a fresh query keeps the
   * caller's one reference (a single unref frees it, valgrind checks) */
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  g_assert_true (hbase_index_query_is_floating (fresh));
  g_assert_true (hbase_index_query_ref_sink (fresh) == fresh);
  g_assert_false (hbase_index_query_is_floating (fresh));
  /* the 0.1 release function of the index, an object since 0.2 */
  hbase_index_free (g_object_new (HBASE_TYPE_INDEX, NULL));
  hbase_index_free (NULL);
  G_GNUC_END_IGNORE_DEPRECATIONS
  hbase_index_query_unref (fresh);
  /* a boxed copy (what a binding does with a query it receives) is a new
   * reference, whatever the query */
  query_copy = g_boxed_copy (HBASE_TYPE_INDEX_QUERY, query);
  g_assert_true (query_copy == query);
  g_boxed_free (HBASE_TYPE_INDEX_QUERY, query_copy);
  /* the copy's free dropped a reference, not the query */
  text = hbase_index_query_to_string (query);
  g_assert_nonnull (strstr (text, "age"));
}

/* Compositions take their own references to their operands: the
 * caller's references stay the caller's, released before or after the
 * composition. */
static void
test_query_ownership (void)
{
  g_autoptr(GBytes) paris = g_bytes_new ("Paris", 5);
  gint64 lo = 1, hi = 9;
  HBaseIndexQuery *kept = hbase_index_query_equal_int64 ("age", 3);
  HBaseIndexQuery *city = hbase_index_query_equal ("city", paris);
  HBaseIndexQuery *ages = hbase_index_query_range_int64 ("age", &lo, TRUE, &hi, FALSE);
  HBaseIndexQuery *parts[2];
  HBaseIndexQuery *both, *all, *any, *four;
  g_autofree char *text = NULL;

  both = hbase_index_query_and (city, ages);
  /* the operands' owner goes first */
  hbase_index_query_unref (city);
  hbase_index_query_unref (ages);
  text = hbase_index_query_to_string (both);
  g_assert_cmpstr (text, ==, "(city IN (\"Paris\") AND age IN [1, 9))");
  parts[0] = both;
  parts[1] = kept;
  any = hbase_index_query_any (parts, 2);
  four = hbase_index_query_equal_int64 ("age", 4);
  parts[0] = hbase_index_query_or (kept, four);
  parts[1] = hbase_index_query_equal_int64 ("age", 5);
  all = hbase_index_query_all (parts, 2);
  hbase_index_query_unref (parts[0]);
  hbase_index_query_unref (parts[1]);
  hbase_index_query_unref (four);
  /* the compositions go first */
  hbase_index_query_unref (any);
  hbase_index_query_unref (all);
  g_clear_pointer (&text, g_free);
  text = hbase_index_query_to_string (both);
  g_assert_cmpstr (text, ==, "(city IN (\"Paris\") AND age IN [1, 9))");
  hbase_index_query_unref (both);
  g_clear_pointer (&text, g_free);
  text = hbase_index_query_to_string (kept);
  g_assert_cmpstr (text, ==, "age IN (3)");
  hbase_index_query_unref (kept);

  /* an empty composition is a query (reported when used); a NULL array
   * with a count is a programming error, never a crash */
  any = hbase_index_query_any (NULL, 0);
  g_assert_nonnull (any);
  hbase_index_query_unref (any);
  g_test_expect_message ("hbase-glib", G_LOG_LEVEL_CRITICAL, "*queries != NULL*");
  g_assert_null (hbase_index_query_all (NULL, 3));
  g_test_assert_expected_messages ();
  g_test_expect_message ("hbase-glib", G_LOG_LEVEL_CRITICAL, "*queries != NULL*");
  g_assert_null (hbase_index_query_any (NULL, 2));
  g_test_assert_expected_messages ();
}

/* The ownership rule of docs/api-conventions.md, written the way a user
 * of filters writes it (tests/rowkey/test-filter.c checks the same for
 * filters): every condition held by g_autoptr(), composed, and released at
 * the end of its scope before the composition is used.  A composition
 * takes its own references, so the operands' owners may go first; when
 * compositions sank their operands this read freed memory (valgrind and
 * the sanitizer build report it). */
static void
test_query_autoptr_operands (void)
{
  g_autoptr(HBaseIndexQuery) both = NULL;
  g_autoptr(HBaseIndexQuery) either = NULL;
  g_autoptr(HBaseIndexQuery) all = NULL;
  g_autoptr(HBaseIndexQuery) any = NULL;
  g_autofree char *text = NULL;

  {
    g_autoptr(HBaseIndexQuery) city = hbase_index_query_equal_string ("city", "Paris");
    g_autoptr(HBaseIndexQuery) age = hbase_index_query_equal_int64 ("age", 3);

    both = hbase_index_query_and (city, age);
  }
  {
    g_autoptr(HBaseIndexQuery) city = hbase_index_query_equal_string ("city", "Lyon");
    g_autoptr(HBaseIndexQuery) age = hbase_index_query_equal_int64 ("age", 4);

    either = hbase_index_query_or (city, age);
  }
  {
    g_autoptr(HBaseIndexQuery) city = hbase_index_query_equal_string ("city", "Oslo");
    g_autoptr(HBaseIndexQuery) age = hbase_index_query_equal_int64 ("age", 5);
    HBaseIndexQuery *parts[2] = { city, age };

    all = hbase_index_query_all (parts, 2);
  }
  {
    g_autoptr(HBaseIndexQuery) city = hbase_index_query_equal_string ("city", "Nice");
    g_autoptr(HBaseIndexQuery) age = hbase_index_query_equal_int64 ("age", 6);
    HBaseIndexQuery *parts[2] = { city, age };

    any = hbase_index_query_any (parts, 2);
  }
  text = hbase_index_query_to_string (both);
  g_assert_cmpstr (text, ==, "(city IN (\"Paris\") AND age IN (3))");
  g_clear_pointer (&text, g_free);
  text = hbase_index_query_to_string (either);
  g_assert_cmpstr (text, ==, "(city IN (\"Lyon\") OR age IN (4))");
  g_clear_pointer (&text, g_free);
  text = hbase_index_query_to_string (all);
  g_assert_cmpstr (text, ==, "(city IN (\"Oslo\") AND age IN (5))");
  g_clear_pointer (&text, g_free);
  text = hbase_index_query_to_string (any);
  g_assert_cmpstr (text, ==, "(city IN (\"Nice\") OR age IN (6))");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/index/spec", test_spec);
  g_test_add_func ("/index/boxed-types", test_boxed_types);
  g_test_add_func ("/index/query-ownership", test_query_ownership);
  g_test_add_func ("/index/query-autoptr-operands", test_query_autoptr_operands);
  g_test_add_func ("/index/keys", test_keys);
  g_test_add_func ("/index/key-spaces", test_key_spaces);
  g_test_add_func ("/index/values", test_values);
  g_test_add_func ("/index/sortkeys", test_sortkeys);
  g_test_add_func ("/index/score-bounds", test_score_bounds);
  g_test_add_func ("/index/lex-bounds", test_lex_bounds);
  g_test_add_func ("/index/members", test_members);
  g_test_add_func ("/index/records", test_records);
  g_test_add_func ("/index/queries", test_queries);
  return g_test_run ();
}
