/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of HBaseFilter: the exact filter-language text of every
 * constructor and combinator, quoting of hostile values (0x00 and 0xFF in
 * the bytes rendering, which unquotes back to the value), and the problems
 * reported at rendering.  The gateway's view of the same filters is
 * tests/integration/test-filter.c. */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-glib.h>

#define BIN(literal) g_bytes_new ((literal), sizeof (literal) - 1)

static void
assert_renders (HBaseFilter *filter, const char *expected)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = hbase_filter_to_string (filter, &error);

  g_assert_no_error (error);
  g_assert_cmpstr (text, ==, expected);
  hbase_filter_unref (filter);
}

static void
assert_refused (HBaseFilter *filter, const char *fragment)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = hbase_filter_to_string (filter, &error);
  g_autoptr(GBytes) bytes = NULL;

  g_assert_null (text);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  if (strstr (error->message, fragment) == NULL)
    g_error ("\"%s\" does not say \"%s\"", error->message, fragment);
  g_clear_error (&error);
  bytes = hbase_filter_to_bytes (filter, &error);
  g_assert_null (bytes);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  hbase_filter_unref (filter);
}

static void
test_simple (void)
{
  g_autoptr(GBytes) a = BIN ("a");
  g_autoptr(GBytes) q = BIN ("q");
  g_autoptr(GBytes) v = BIN ("v");
  g_autoptr(GBytes) p2 = BIN ("p2");
  GBytes *prefixes[] = { a, p2 };
  const gint64 stamps[] = { 5, 1796215445451 };

  assert_renders (hbase_filter_prefix (a), "PrefixFilter('a')");
  assert_renders (hbase_filter_inclusive_stop (a), "InclusiveStopFilter('a')");
  assert_renders (hbase_filter_page (10), "PageFilter(10)");
  assert_renders (hbase_filter_row (HBASE_COMPARE_LESS, HBASE_COMPARATOR_BINARY, v),
                  "RowFilter(<, 'binary:v')");
  assert_renders (hbase_filter_family (HBASE_COMPARE_EQUAL, HBASE_COMPARATOR_BINARY, v),
                  "FamilyFilter(=, 'binary:v')");
  assert_renders (hbase_filter_qualifier (HBASE_COMPARE_GREATER_OR_EQUAL,
                                          HBASE_COMPARATOR_BINARY_PREFIX, v),
                  "QualifierFilter(>=, 'binaryprefix:v')");
  assert_renders (hbase_filter_value (HBASE_COMPARE_NOT_EQUAL, HBASE_COMPARATOR_REGEX, v),
                  "ValueFilter(!=, 'regexstring:v')");
  assert_renders (hbase_filter_value (HBASE_COMPARE_EQUAL, HBASE_COMPARATOR_SUBSTRING, v),
                  "ValueFilter(=, 'substring:v')");
  assert_renders (hbase_filter_value (HBASE_COMPARE_LESS_OR_EQUAL, HBASE_COMPARATOR_BINARY, v),
                  "ValueFilter(<=, 'binary:v')");
  assert_renders (hbase_filter_value (HBASE_COMPARE_GREATER, HBASE_COMPARATOR_BINARY, v),
                  "ValueFilter(>, 'binary:v')");
  assert_renders (hbase_filter_column_prefix (a), "ColumnPrefixFilter('a')");
  assert_renders (hbase_filter_multiple_column_prefix (prefixes, 2),
                  "MultipleColumnPrefixFilter('a', 'p2')");
  assert_renders (hbase_filter_column_range (a, TRUE, NULL, FALSE),
                  "ColumnRangeFilter('a', true, '', false)");
  assert_renders (hbase_filter_column_pagination (3, 7), "ColumnPaginationFilter(3, 7)");
  assert_renders (hbase_filter_column_count (2), "ColumnCountGetFilter(2)");
  assert_renders (hbase_filter_key_only (FALSE), "KeyOnlyFilter()");
  assert_renders (hbase_filter_key_only (TRUE), "KeyOnlyFilter(true)");
  assert_renders (hbase_filter_first_key_only (), "FirstKeyOnlyFilter()");
  assert_renders (hbase_filter_timestamps (stamps, 2), "TimestampsFilter(5, 1796215445451)");
  assert_renders (hbase_filter_single_column_value ("f", q, HBASE_COMPARE_EQUAL,
                                                    HBASE_COMPARATOR_BINARY, v, TRUE, FALSE),
                  "SingleColumnValueFilter('f', 'q', =, 'binary:v', true, false)");
  assert_renders (hbase_filter_single_column_value_exclude ("f", NULL, HBASE_COMPARE_EQUAL,
                                                            HBASE_COMPARATOR_BINARY, v, FALSE,
                                                            TRUE),
                  "SingleColumnValueExcludeFilter('f', '', =, 'binary:v', false, true)");
  assert_renders (hbase_filter_column_value ("f", q, HBASE_COMPARE_GREATER,
                                             HBASE_COMPARATOR_BINARY, v),
                  "ColumnValueFilter('f', 'q', >, 'binary:v')");
  assert_renders (hbase_filter_dependent_column ("f", q, TRUE),
                  "DependentColumnFilter('f', 'q', true)");
  assert_renders (hbase_filter_dependent_column_compare ("f", q, FALSE, HBASE_COMPARE_EQUAL,
                                                         HBASE_COMPARATOR_BINARY, v),
                  "DependentColumnFilter('f', 'q', false, =, 'binary:v')");
}

static void
test_quoting (void)
{
  g_autoptr(GBytes) quote = BIN ("it's");
  g_autoptr(GBytes) quotes = BIN ("''");
  g_autoptr(GBytes) injection = BIN ("x') OR PrefixFilter('");
  g_autoptr(GBytes) high = BIN ("\x80\xff(,)");
  g_autoptr(GBytes) nul = BIN ("a\x00" "b");
  g_autoptr(HBaseFilter) with_nul = hbase_filter_prefix (nul);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) rendered = NULL;
  g_autofree char *text = NULL;

  assert_renders (hbase_filter_prefix (quote), "PrefixFilter('it''s')");
  assert_renders (hbase_filter_prefix (quotes), "PrefixFilter('''''')");
  assert_renders (hbase_filter_value (HBASE_COMPARE_EQUAL, HBASE_COMPARATOR_BINARY, injection),
                  "ValueFilter(=, 'binary:x'') OR PrefixFilter(''')");
  assert_renders (hbase_filter_prefix (high), "PrefixFilter('\x80\xff(,)')");
  assert_renders (hbase_filter_single_column_value ("it's", quote, HBASE_COMPARE_EQUAL,
                                                    HBASE_COMPARATOR_SUBSTRING, quote, TRUE, TRUE),
                  "SingleColumnValueFilter('it''s', 'it''s', =, 'substring:it''s', true, true)");

  /* 0x00: as bytes yes, as a C string no */
  rendered = hbase_filter_to_bytes (with_nul, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (rendered, NULL), g_bytes_get_size (rendered),
                   "PrefixFilter('a\x00" "b')", 19);
  text = hbase_filter_to_string (with_nul, &error);
  g_assert_null (text);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
}

/* The bytes rendering of @filter is exactly @expected (@len bytes). */
static void
assert_renders_bytes (HBaseFilter *filter, const char *expected, gsize len)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = hbase_filter_to_bytes (filter, &error);

  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), expected, len);
  hbase_filter_unref (filter);
}

#define RENDERS_BYTES(filter, literal) \
  assert_renders_bytes ((filter), (literal), sizeof (literal) - 1)

/* Values with 0x00 and 0xFF in the bytes form: every byte as it is, a
 * quote doubled, through comparators, column names and combinators. */
static void
test_bytes (void)
{
  g_autoptr(GBytes) nul_quote_ff = BIN ("\0'\xff");
  g_autoptr(GBytes) qualifier = BIN ("q\0");
  g_autoptr(GBytes) value = BIN ("\xff\0\xff");
  g_autoptr(GBytes) nul = BIN ("\0");
  g_autoptr(GBytes) ff = BIN ("\xff");
  g_autoptr(HBaseFilter) left = NULL;
  g_autoptr(HBaseFilter) right = NULL;

  RENDERS_BYTES (hbase_filter_value (HBASE_COMPARE_EQUAL, HBASE_COMPARATOR_BINARY, nul_quote_ff),
                 "ValueFilter(=, 'binary:\0''\xff')");
  RENDERS_BYTES (hbase_filter_single_column_value ("f", qualifier, HBASE_COMPARE_EQUAL,
                                                   HBASE_COMPARATOR_BINARY, value, TRUE, TRUE),
                 "SingleColumnValueFilter('f', 'q\0', =, 'binary:\xff\0\xff', true, true)");
  RENDERS_BYTES (hbase_filter_column_range (nul, TRUE, ff, FALSE),
                 "ColumnRangeFilter('\0', true, '\xff', false)");
  RENDERS_BYTES (hbase_filter_prefix (nul), "PrefixFilter('\0')");
  left = hbase_filter_value (HBASE_COMPARE_NOT_EQUAL, HBASE_COMPARATOR_BINARY, nul);
  right = hbase_filter_prefix (ff);
  RENDERS_BYTES (hbase_filter_and (left, right),
                 "(ValueFilter(!=, 'binary:\0') AND PrefixFilter('\xff'))");
}

/* What HBase's ParseFilter does to a quoted argument: drop the outer
 * quotes, turn every doubled quote into one. */
static GByteArray *
unquote (const guint8 *data, gsize len)
{
  GByteArray *out = g_byte_array_new ();

  g_assert_cmpuint (len, >=, 2);
  g_assert_cmpint (data[0], ==, '\'');
  g_assert_cmpint (data[len - 1], ==, '\'');
  for (gsize i = 1; i + 1 < len; i++)
    {
      g_byte_array_append (out, data + i, 1);
      if (data[i] == '\'')
        {
          /* a quote inside is always doubled */
          g_assert_cmpint (data[i + 1], ==, '\'');
          g_assert_cmpuint (i + 2, <, len);
          i++;
        }
    }
  return out;
}

/* Any bytes survive: the argument of PrefixFilter('...') unquoted as the
 * server does is the prefix, for random prefixes rich in 0x00, 0xFF and
 * quotes. */
static void
test_bytes_round_trip (void)
{
  static const guint8 alphabet[] = { 0x00, 0xFF, '\'', '(', ')', ',', ' ', 'a', 0x80 };

  for (guint n = 0; n < 2000; n++)
    {
      guint len = (guint) g_test_rand_int_range (1, 24);
      g_autoptr(GByteArray) prefix = g_byte_array_sized_new (len);
      g_autoptr(GBytes) prefix_bytes = NULL;
      g_autoptr(HBaseFilter) filter = NULL;
      g_autoptr(GBytes) rendered = NULL;
      g_autoptr(GByteArray) back = NULL;
      g_autoptr(GError) error = NULL;
      static const char head[] = "PrefixFilter(";
      const guint8 *data;
      gsize size;

      for (guint i = 0; i < len; i++)
        g_byte_array_append (prefix,
                             &alphabet[g_test_rand_int_range (0, G_N_ELEMENTS (alphabet))], 1);
      prefix_bytes = g_bytes_new (prefix->data, prefix->len);
      filter = hbase_filter_prefix (prefix_bytes);
      rendered = hbase_filter_to_bytes (filter, &error);
      g_assert_no_error (error);
      data = g_bytes_get_data (rendered, &size);
      g_assert_cmpuint (size, >, sizeof head);
      g_assert_cmpmem (data, sizeof head - 1, head, sizeof head - 1);
      g_assert_cmpint (data[size - 1], ==, ')');
      back = unquote (data + sizeof head - 1, size - sizeof head);
      g_assert_cmpmem (back->data, back->len, prefix->data, prefix->len);
    }
}

static void
test_combinators (void)
{
  g_autoptr(GBytes) a = BIN ("a");
  g_autoptr(GBytes) b = BIN ("b");
  g_autoptr(GBytes) c = BIN ("c");
  g_autoptr(HBaseFilter) fa = hbase_filter_prefix (a);
  g_autoptr(HBaseFilter) fb = hbase_filter_prefix (b);
  g_autoptr(HBaseFilter) fc = hbase_filter_prefix (c);
  g_autoptr(HBaseFilter) a_or_b = hbase_filter_or (fa, fb);
  g_autoptr(HBaseFilter) b_and_c = hbase_filter_and (fb, fc);
  g_autoptr(HBaseFilter) skip_c = hbase_filter_skip (fc);
  HBaseFilter *three[] = { fa, fb, fc };

  assert_renders (hbase_filter_ref (a_or_b), "(PrefixFilter('a') OR PrefixFilter('b'))");
  assert_renders (hbase_filter_and (a_or_b, fc),
                  "((PrefixFilter('a') OR PrefixFilter('b')) AND PrefixFilter('c'))");
  assert_renders (hbase_filter_or (fa, b_and_c),
                  "(PrefixFilter('a') OR (PrefixFilter('b') AND PrefixFilter('c')))");
  assert_renders (hbase_filter_and (fa, skip_c),
                  "(PrefixFilter('a') AND (SKIP PrefixFilter('c')))");
  assert_renders (hbase_filter_while (a_or_b),
                  "(WHILE (PrefixFilter('a') OR PrefixFilter('b')))");
  assert_renders (hbase_filter_all (three, 3),
                  "(PrefixFilter('a') AND PrefixFilter('b') AND PrefixFilter('c'))");
  assert_renders (hbase_filter_any (three, 3),
                  "(PrefixFilter('a') OR PrefixFilter('b') OR PrefixFilter('c'))");
  assert_renders (hbase_filter_any (three, 1), "PrefixFilter('a')");
}

static void
test_problems (void)
{
  g_autoptr(GBytes) v = BIN ("v");
  g_autoptr(GBytes) latin1 = BIN ("caf\xe9");
  g_autoptr(HBaseFilter) bad = hbase_filter_page (-1);
  g_autoptr(HBaseFilter) good = hbase_filter_first_key_only ();
  const gint64 negative[] = { -5 };

  assert_refused (hbase_filter_value (HBASE_COMPARE_LESS, HBASE_COMPARATOR_REGEX, v),
                  "only EQUAL or NOT_EQUAL");
  assert_refused (hbase_filter_row (HBASE_COMPARE_GREATER, HBASE_COMPARATOR_SUBSTRING, v),
                  "only EQUAL or NOT_EQUAL");
  assert_refused (hbase_filter_value (HBASE_COMPARE_EQUAL, HBASE_COMPARATOR_REGEX, latin1),
                  "not valid UTF-8");
  assert_refused (hbase_filter_value (HBASE_COMPARE_NO_OP, HBASE_COMPARATOR_BINARY, v),
                  "no form in the filter language");
  assert_refused (hbase_filter_value (HBASE_COMPARE_EQUAL, (HBaseComparator) 9, v),
                  "unknown comparator");
  assert_refused (hbase_filter_ref (bad), "at least 0");
  assert_refused (hbase_filter_column_pagination (-1, 0), "at least 0");
  assert_refused (hbase_filter_column_count (-2), "at least 0");
  assert_refused (hbase_filter_timestamps (negative, 1), "negative");
  assert_refused (hbase_filter_multiple_column_prefix (NULL, 0), "at least one prefix");
  assert_refused (hbase_filter_single_column_value (NULL, v, HBASE_COMPARE_EQUAL,
                                                    HBASE_COMPARATOR_BINARY, v, TRUE, TRUE),
                  "needs a column family");
  assert_refused (hbase_filter_prefix (NULL), "needs a prefix");
  /* a bad operand spoils every filter built on it */
  assert_refused (hbase_filter_and (good, bad), "at least 0");
  assert_refused (hbase_filter_skip (bad), "at least 0");
  assert_refused (hbase_filter_or (good, NULL), "operand 1 is NULL");
  assert_refused (hbase_filter_all (NULL, 0), "at least one filter");
  /* substring of a regular UTF-8 text is fine */
  {
    g_autoptr(GBytes) chinese = BIN ("\xe7\xbb\xbc\xe8\x89\xba");

    assert_renders (hbase_filter_value (HBASE_COMPARE_EQUAL, HBASE_COMPARATOR_SUBSTRING, chinese),
                    "ValueFilter(=, 'substring:\xe7\xbb\xbc\xe8\x89\xba')");
  }
}

/* HBASE_TYPE_FILTER is a boxed type whose copy is a reference: a GValue
 * holds the same filter, which outlives the value. */
static void
test_boxed (void)
{
  HBaseFilter *filter = hbase_filter_page (10);
  GValue value = G_VALUE_INIT;

  g_assert_true (G_TYPE_IS_BOXED (HBASE_TYPE_FILTER));
  g_value_init (&value, HBASE_TYPE_FILTER);
  g_value_set_boxed (&value, filter);
  g_assert_true (g_value_get_boxed (&value) == filter);
  g_value_unset (&value);
  assert_renders (filter, "PageFilter(10)");
}

/* The ownership rule of docs/api-conventions.md, shared with index
 * queries (tests/index/test-index-encoding.c checks the same for them):
 * operands held by g_autoptr() and released before the combination is
 * used.  A combinator takes its own references and never the caller's, so
 * this reads no freed memory (valgrind and the sanitizer build would say
 * so) and leaks nothing. */
static void
test_autoptr_operands (void)
{
  g_autoptr(HBaseFilter) both = NULL;
  g_autoptr(HBaseFilter) all = NULL;
  g_autoptr(HBaseFilter) skipped = NULL;

  {
    g_autoptr(GBytes) a = BIN ("a");
    g_autoptr(GBytes) b = BIN ("b");
    g_autoptr(HBaseFilter) fa = hbase_filter_prefix (a);
    g_autoptr(HBaseFilter) fb = hbase_filter_prefix (b);
    HBaseFilter *parts[2] = { fa, fb };

    both = hbase_filter_and (fa, fb);
    all = hbase_filter_any (parts, 1);   /* one operand: that filter itself */
    skipped = hbase_filter_skip (fb);
  }
  assert_renders (hbase_filter_ref (both), "(PrefixFilter('a') AND PrefixFilter('b'))");
  assert_renders (hbase_filter_ref (all), "PrefixFilter('a')");
  assert_renders (hbase_filter_ref (skipped), "(SKIP PrefixFilter('b'))");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/rowkey/filter/simple", test_simple);
  g_test_add_func ("/rowkey/filter/boxed", test_boxed);
  g_test_add_func ("/rowkey/filter/quoting", test_quoting);
  g_test_add_func ("/rowkey/filter/bytes", test_bytes);
  g_test_add_func ("/rowkey/filter/bytes-round-trip", test_bytes_round_trip);
  g_test_add_func ("/rowkey/filter/combinators", test_combinators);
  g_test_add_func ("/rowkey/filter/autoptr-operands", test_autoptr_operands);
  g_test_add_func ("/rowkey/filter/problems", test_problems);
  return g_test_run ();
}
