/* SPDX-License-Identifier: Apache-2.0 */
/* test-native-filter.c: the FilterProtos messages the native backend sends
 * for typed filters, decoded with protobuf-c: for each HBaseFilter
 * constructor and combinator, the filter class, its fields and its
 * comparator as HBase's ParseFilter builds them from the same filter's
 * rendering (defaults included: the regex flags and charset, can_hint,
 * empty column-range bounds, NO_OP without a comparator), nested lists,
 * SkipFilter and WhileMatchFilter, and bytes 0x00-0xFF kept exactly.
 */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-error.h>

#include "../../src/native/hbase-native-filter.h"
#include "../../src/native/hbase-native-pb.h"
#include "../../src/table/hbase-filter-private.h"
#include "Comparator.pb-c.h"
#include "Filter.pb-c.h"

#define BIN(literal) g_bytes_new ((literal), sizeof (literal) - 1)
#define CLASS(name) "org.apache.hadoop.hbase.filter." name

/* the decoded messages, freed at the end of each test */
static GPtrArray *decoded;

static void
message_free (gpointer message)
{
  protobuf_c_message_free_unpacked (message, NULL);
}

static gpointer
keep (gpointer message)
{
  g_assert_nonnull (message);
  g_ptr_array_add (decoded, message);
  return message;
}

static void
setup (void)
{
  decoded = g_ptr_array_new_with_free_func (message_free);
}

static void
teardown (void)
{
  g_clear_pointer (&decoded, g_ptr_array_unref);
}

/* The Filter message of @filter (consumed), checked to name @class. */
static Hbase__Pb__Filter *
encode (HBaseFilter *filter, const char *class)
{
  g_autoptr(GBytes) bytes = NULL;
  Hbase__Pb__Filter *message;

  g_assert_null (_hbase_filter_get_problem (filter));
  bytes = _hbase_native_filter_serialize (_hbase_filter_get_tree (filter));
  hbase_filter_unref (filter);
  message = keep (hbase__pb__filter__unpack (NULL, g_bytes_get_size (bytes),
                                             g_bytes_get_data (bytes, NULL)));
  g_assert_cmpstr (message->name, ==, class);
  g_assert_true (message->has_serialized_filter);
  return message;
}

/* X's message inside a Filter message. */
#define INNER(filter, descriptor) \
  keep (protobuf_c_message_unpack (&(descriptor), NULL, (filter)->serialized_filter.len, \
                                   (filter)->serialized_filter.data))

static void
assert_data (const ProtobufCBinaryData *data, const char *expected, gsize len)
{
  g_assert_cmpmem (data->data, data->len, expected, len);
}

#define ASSERT_DATA(data, literal) assert_data ((data), (literal), sizeof (literal) - 1)

/* A comparator holding @value: BinaryComparator and BinaryPrefixComparator
 * as a ByteArrayComparable, the text ones as ParseFilter makes them. */
static void
assert_comparator (const Hbase__Pb__Comparator *comparator, HBaseComparator kind,
                   const char *value, gsize len)
{
  g_assert_nonnull (comparator);
  g_assert_true (comparator->has_serialized_comparator);
  switch (kind)
    {
    case HBASE_COMPARATOR_BINARY:
    case HBASE_COMPARATOR_BINARY_PREFIX:
      {
        Hbase__Pb__BinaryComparator *binary;

        g_assert_cmpstr (comparator->name, ==, kind == HBASE_COMPARATOR_BINARY
                                                 ? CLASS ("BinaryComparator")
                                                 : CLASS ("BinaryPrefixComparator"));
        /* the two messages have the same fields */
        binary = keep (protobuf_c_message_unpack (kind == HBASE_COMPARATOR_BINARY
                                                    ? &hbase__pb__binary_comparator__descriptor
                                                    : &hbase__pb__binary_prefix_comparator__descriptor,
                                                  NULL, comparator->serialized_comparator.len,
                                                  comparator->serialized_comparator.data));
        g_assert_nonnull (binary->comparable);
        g_assert_true (binary->comparable->has_value);
        assert_data (&binary->comparable->value, value, len);
        break;
      }
    case HBASE_COMPARATOR_REGEX:
      {
        Hbase__Pb__RegexStringComparator *regex =
          keep (hbase__pb__regex_string_comparator__unpack (NULL,
                                                            comparator->serialized_comparator.len,
                                                            comparator->serialized_comparator.data));

        g_assert_cmpstr (comparator->name, ==, CLASS ("RegexStringComparator"));
        g_assert_cmpmem (regex->pattern, strlen (regex->pattern), value, len);
        g_assert_cmpint (regex->pattern_flags, ==, 32);   /* Pattern.DOTALL */
        g_assert_cmpstr (regex->charset, ==, "UTF-8");
        g_assert_cmpstr (regex->engine, ==, "JAVA");
        break;
      }
    case HBASE_COMPARATOR_SUBSTRING:
    default:
      {
        Hbase__Pb__SubstringComparator *substring =
          keep (hbase__pb__substring_comparator__unpack (NULL,
                                                         comparator->serialized_comparator.len,
                                                         comparator->serialized_comparator.data));

        g_assert_cmpstr (comparator->name, ==, CLASS ("SubstringComparator"));
        g_assert_cmpmem (substring->substr, strlen (substring->substr), value, len);
        break;
      }
    }
}

/* --- rows ------------------------------------------------------------------- */

static void
test_rows (void)
{
  g_autoptr(GBytes) prefix = BIN ("a'\0\xff");
  g_autoptr(GBytes) stop = BIN ("b1");
  g_autoptr(GBytes) value = BIN ("k\0");
  Hbase__Pb__Filter *f;

  setup ();
  f = encode (hbase_filter_prefix (prefix), CLASS ("PrefixFilter"));
  {
    Hbase__Pb__PrefixFilter *m = INNER (f, hbase__pb__prefix_filter__descriptor);

    g_assert_true (m->has_prefix);
    ASSERT_DATA (&m->prefix, "a'\0\xff");
  }
  f = encode (hbase_filter_inclusive_stop (stop), CLASS ("InclusiveStopFilter"));
  {
    Hbase__Pb__InclusiveStopFilter *m = INNER (f, hbase__pb__inclusive_stop_filter__descriptor);

    g_assert_true (m->has_stop_row_key);
    ASSERT_DATA (&m->stop_row_key, "b1");
  }
  f = encode (hbase_filter_page (G_GINT64_CONSTANT (5000000000)), CLASS ("PageFilter"));
  {
    Hbase__Pb__PageFilter *m = INNER (f, hbase__pb__page_filter__descriptor);

    g_assert_cmpint (m->page_size, ==, G_GINT64_CONSTANT (5000000000));
  }
  f = encode (hbase_filter_row (HBASE_COMPARE_LESS_OR_EQUAL, HBASE_COMPARATOR_BINARY, value),
              CLASS ("RowFilter"));
  {
    Hbase__Pb__RowFilter *m = INNER (f, hbase__pb__row_filter__descriptor);

    g_assert_nonnull (m->compare_filter);
    g_assert_cmpint (m->compare_filter->compare_op, ==, HBASE__PB__COMPARE_TYPE__LESS_OR_EQUAL);
    assert_comparator (m->compare_filter->comparator, HBASE_COMPARATOR_BINARY, "k\0", 2);
  }
  teardown ();
}

/* --- columns ---------------------------------------------------------------- */

static void
test_columns (void)
{
  g_autoptr(GBytes) g = BIN ("g");
  g_autoptr(GBytes) p = BIN ("p");
  g_autoptr(GBytes) q1 = BIN ("q1");
  g_autoptr(GBytes) q3 = BIN ("q3");
  g_autoptr(GBytes) empty = g_bytes_new (NULL, 0);
  GBytes *prefixes[] = { q3, p };
  Hbase__Pb__Filter *f;

  setup ();
  f = encode (hbase_filter_family (HBASE_COMPARE_NOT_EQUAL, HBASE_COMPARATOR_BINARY, g),
              CLASS ("FamilyFilter"));
  {
    Hbase__Pb__FamilyFilter *m = INNER (f, hbase__pb__family_filter__descriptor);

    g_assert_cmpint (m->compare_filter->compare_op, ==, HBASE__PB__COMPARE_TYPE__NOT_EQUAL);
    assert_comparator (m->compare_filter->comparator, HBASE_COMPARATOR_BINARY, "g", 1);
  }
  f = encode (hbase_filter_qualifier (HBASE_COMPARE_EQUAL, HBASE_COMPARATOR_BINARY_PREFIX, p),
              CLASS ("QualifierFilter"));
  {
    Hbase__Pb__QualifierFilter *m = INNER (f, hbase__pb__qualifier_filter__descriptor);

    g_assert_cmpint (m->compare_filter->compare_op, ==, HBASE__PB__COMPARE_TYPE__EQUAL);
    assert_comparator (m->compare_filter->comparator, HBASE_COMPARATOR_BINARY_PREFIX, "p", 1);
  }
  f = encode (hbase_filter_column_prefix (q1), CLASS ("ColumnPrefixFilter"));
  {
    Hbase__Pb__ColumnPrefixFilter *m = INNER (f, hbase__pb__column_prefix_filter__descriptor);

    ASSERT_DATA (&m->prefix, "q1");
  }
  f = encode (hbase_filter_multiple_column_prefix (prefixes, 2),
              CLASS ("MultipleColumnPrefixFilter"));
  {
    Hbase__Pb__MultipleColumnPrefixFilter *m =
      INNER (f, hbase__pb__multiple_column_prefix_filter__descriptor);

    g_assert_cmpuint (m->n_sorted_prefixes, ==, 2);
    ASSERT_DATA (&m->sorted_prefixes[0], "q3");
    ASSERT_DATA (&m->sorted_prefixes[1], "p");
  }
  f = encode (hbase_filter_column_range (q1, FALSE, q3, TRUE), CLASS ("ColumnRangeFilter"));
  {
    Hbase__Pb__ColumnRangeFilter *m = INNER (f, hbase__pb__column_range_filter__descriptor);

    g_assert_true (m->has_min_column && m->has_max_column);
    ASSERT_DATA (&m->min_column, "q1");
    ASSERT_DATA (&m->max_column, "q3");
    g_assert_true (m->has_min_column_inclusive && !m->min_column_inclusive);
    g_assert_true (m->has_max_column_inclusive && m->max_column_inclusive);
  }
  /* NULL or empty: no bound (ParseFilter makes an empty one null) */
  f = encode (hbase_filter_column_range (NULL, TRUE, empty, FALSE), CLASS ("ColumnRangeFilter"));
  {
    Hbase__Pb__ColumnRangeFilter *m = INNER (f, hbase__pb__column_range_filter__descriptor);

    g_assert_false (m->has_min_column);
    g_assert_false (m->has_max_column);
    g_assert_true (m->min_column_inclusive);
    g_assert_false (m->max_column_inclusive);
  }
  f = encode (hbase_filter_column_pagination (3, 7), CLASS ("ColumnPaginationFilter"));
  {
    Hbase__Pb__ColumnPaginationFilter *m =
      INNER (f, hbase__pb__column_pagination_filter__descriptor);

    g_assert_cmpint (m->limit, ==, 3);
    g_assert_true (m->has_offset);
    g_assert_cmpint (m->offset, ==, 7);
    g_assert_false (m->has_column_offset);
  }
  f = encode (hbase_filter_column_count (2), CLASS ("ColumnCountGetFilter"));
  {
    Hbase__Pb__ColumnCountGetFilter *m = INNER (f, hbase__pb__column_count_get_filter__descriptor);

    g_assert_cmpint (m->limit, ==, 2);
  }
  teardown ();
}

/* --- cells ------------------------------------------------------------------ */

static void
test_cells (void)
{
  g_autoptr(GBytes) world = BIN ("WORLD");
  g_autoptr(GBytes) regex = BIN ("^\xe4\xb8\xad.*$");
  g_autoptr(GBytes) b = BIN ("b");
  const gint64 timestamps[] = { 999, 200, G_MAXINT64 };
  Hbase__Pb__Filter *f;

  setup ();
  for (int length = 0; length <= 1; length++)
    {
      Hbase__Pb__KeyOnlyFilter *m;

      f = encode (hbase_filter_key_only (length), CLASS ("KeyOnlyFilter"));
      m = INNER (f, hbase__pb__key_only_filter__descriptor);
      g_assert_cmpint (m->len_as_val, ==, length);
    }
  f = encode (hbase_filter_first_key_only (), CLASS ("FirstKeyOnlyFilter"));
  g_assert_cmpuint (f->serialized_filter.len, ==, 0);
  f = encode (hbase_filter_timestamps (timestamps, 3), CLASS ("TimestampsFilter"));
  {
    Hbase__Pb__TimestampsFilter *m = INNER (f, hbase__pb__timestamps_filter__descriptor);

    g_assert_cmpuint (m->n_timestamps, ==, 3);
    g_assert_cmpint (m->timestamps[0], ==, 999);
    g_assert_cmpint (m->timestamps[1], ==, 200);
    g_assert_cmpint (m->timestamps[2], ==, G_MAXINT64);
    g_assert_true (m->has_can_hint);
    g_assert_false (m->can_hint);
  }
  f = encode (hbase_filter_timestamps (NULL, 0), CLASS ("TimestampsFilter"));
  {
    Hbase__Pb__TimestampsFilter *m = INNER (f, hbase__pb__timestamps_filter__descriptor);

    g_assert_cmpuint (m->n_timestamps, ==, 0);
  }
  f = encode (hbase_filter_value (HBASE_COMPARE_EQUAL, HBASE_COMPARATOR_SUBSTRING, world),
              CLASS ("ValueFilter"));
  {
    Hbase__Pb__ValueFilter *m = INNER (f, hbase__pb__value_filter__descriptor);

    g_assert_cmpint (m->compare_filter->compare_op, ==, HBASE__PB__COMPARE_TYPE__EQUAL);
    assert_comparator (m->compare_filter->comparator, HBASE_COMPARATOR_SUBSTRING, "WORLD", 5);
  }
  f = encode (hbase_filter_value (HBASE_COMPARE_NOT_EQUAL, HBASE_COMPARATOR_REGEX, regex),
              CLASS ("ValueFilter"));
  {
    Hbase__Pb__ValueFilter *m = INNER (f, hbase__pb__value_filter__descriptor);

    g_assert_cmpint (m->compare_filter->compare_op, ==, HBASE__PB__COMPARE_TYPE__NOT_EQUAL);
    assert_comparator (m->compare_filter->comparator, HBASE_COMPARATOR_REGEX,
                       "^\xe4\xb8\xad.*$", 7);
  }
  f = encode (hbase_filter_value (HBASE_COMPARE_GREATER, HBASE_COMPARATOR_BINARY, b),
              CLASS ("ValueFilter"));
  {
    Hbase__Pb__ValueFilter *m = INNER (f, hbase__pb__value_filter__descriptor);

    g_assert_cmpint (m->compare_filter->compare_op, ==, HBASE__PB__COMPARE_TYPE__GREATER);
  }
  teardown ();
}

/* --- values of one column ----------------------------------------------------- */

static void
check_single_column (const Hbase__Pb__SingleColumnValueFilter *m, const char *qualifier,
                     gboolean filter_if_missing, gboolean latest_version_only)
{
  g_assert_true (m->has_column_family);
  ASSERT_DATA (&m->column_family, "f");
  g_assert_true (m->has_column_qualifier);
  assert_data (&m->column_qualifier, qualifier, strlen (qualifier));
  g_assert_cmpint (m->compare_op, ==, HBASE__PB__COMPARE_TYPE__GREATER_OR_EQUAL);
  assert_comparator (m->comparator, HBASE_COMPARATOR_BINARY, "x\0\xff", 3);
  g_assert_true (m->has_filter_if_missing && m->has_latest_version_only);
  g_assert_cmpint (m->filter_if_missing, ==, filter_if_missing);
  g_assert_cmpint (m->latest_version_only, ==, latest_version_only);
}

static void
test_column_values (void)
{
  g_autoptr(GBytes) q1 = BIN ("q1");
  g_autoptr(GBytes) x = BIN ("x\0\xff");
  Hbase__Pb__Filter *f;

  setup ();
  f = encode (hbase_filter_single_column_value ("f", q1, HBASE_COMPARE_GREATER_OR_EQUAL,
                                                HBASE_COMPARATOR_BINARY, x, TRUE, FALSE),
              CLASS ("SingleColumnValueFilter"));
  check_single_column (INNER (f, hbase__pb__single_column_value_filter__descriptor), "q1",
                       TRUE, FALSE);
  /* a NULL qualifier is the empty one */
  f = encode (hbase_filter_single_column_value ("f", NULL, HBASE_COMPARE_GREATER_OR_EQUAL,
                                                HBASE_COMPARATOR_BINARY, x, FALSE, TRUE),
              CLASS ("SingleColumnValueFilter"));
  check_single_column (INNER (f, hbase__pb__single_column_value_filter__descriptor), "",
                       FALSE, TRUE);
  f = encode (hbase_filter_single_column_value_exclude ("f", q1, HBASE_COMPARE_GREATER_OR_EQUAL,
                                                        HBASE_COMPARATOR_BINARY, x, FALSE,
                                                        FALSE),
              CLASS ("SingleColumnValueExcludeFilter"));
  {
    Hbase__Pb__SingleColumnValueExcludeFilter *m =
      INNER (f, hbase__pb__single_column_value_exclude_filter__descriptor);

    check_single_column (m->single_column_value_filter, "q1", FALSE, FALSE);
  }
  f = encode (hbase_filter_column_value ("f", q1, HBASE_COMPARE_LESS, HBASE_COMPARATOR_BINARY, x),
              CLASS ("ColumnValueFilter"));
  {
    Hbase__Pb__ColumnValueFilter *m = INNER (f, hbase__pb__column_value_filter__descriptor);

    ASSERT_DATA (&m->family, "f");
    ASSERT_DATA (&m->qualifier, "q1");
    g_assert_cmpint (m->compare_op, ==, HBASE__PB__COMPARE_TYPE__LESS);
    assert_comparator (m->comparator, HBASE_COMPARATOR_BINARY, "x\0\xff", 3);
  }
  /* without a comparison: NO_OP and no comparator */
  f = encode (hbase_filter_dependent_column ("f", q1, TRUE), CLASS ("DependentColumnFilter"));
  {
    Hbase__Pb__DependentColumnFilter *m = INNER (f, hbase__pb__dependent_column_filter__descriptor);

    g_assert_cmpint (m->compare_filter->compare_op, ==, HBASE__PB__COMPARE_TYPE__NO_OP);
    g_assert_null (m->compare_filter->comparator);
    g_assert_true (m->has_column_family && m->has_column_qualifier);
    ASSERT_DATA (&m->column_family, "f");
    ASSERT_DATA (&m->column_qualifier, "q1");
    g_assert_true (m->has_drop_dependent_column && m->drop_dependent_column);
  }
  f = encode (hbase_filter_dependent_column_compare ("f", NULL, FALSE, HBASE_COMPARE_EQUAL,
                                                     HBASE_COMPARATOR_BINARY_PREFIX, x),
              CLASS ("DependentColumnFilter"));
  {
    Hbase__Pb__DependentColumnFilter *m = INNER (f, hbase__pb__dependent_column_filter__descriptor);

    g_assert_cmpint (m->compare_filter->compare_op, ==, HBASE__PB__COMPARE_TYPE__EQUAL);
    assert_comparator (m->compare_filter->comparator, HBASE_COMPARATOR_BINARY_PREFIX,
                       "x\0\xff", 3);
    ASSERT_DATA (&m->column_qualifier, "");
    g_assert_true (m->has_drop_dependent_column && !m->drop_dependent_column);
  }
  teardown ();
}

/* --- combinators -------------------------------------------------------------- */

static void
assert_prefix (const Hbase__Pb__Filter *f, const char *prefix)
{
  Hbase__Pb__PrefixFilter *m;

  g_assert_cmpstr (f->name, ==, CLASS ("PrefixFilter"));
  m = INNER (f, hbase__pb__prefix_filter__descriptor);
  assert_data (&m->prefix, prefix, strlen (prefix));
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
  HBaseFilter *three[] = { fa, fb, fc };
  Hbase__Pb__Filter *f;

  setup ();
  f = encode (hbase_filter_and (fa, fb), CLASS ("FilterList"));
  {
    Hbase__Pb__FilterList *m = INNER (f, hbase__pb__filter_list__descriptor);

    g_assert_cmpint (m->operator_, ==, HBASE__PB__FILTER_LIST__OPERATOR__MUST_PASS_ALL);
    g_assert_cmpuint (m->n_filters, ==, 2);
    assert_prefix (m->filters[0], "a");
    assert_prefix (m->filters[1], "b");
  }
  /* one list of three, as "(A OR B OR C)" parses */
  f = encode (hbase_filter_any (three, 3), CLASS ("FilterList"));
  {
    Hbase__Pb__FilterList *m = INNER (f, hbase__pb__filter_list__descriptor);

    g_assert_cmpint (m->operator_, ==, HBASE__PB__FILTER_LIST__OPERATOR__MUST_PASS_ONE);
    g_assert_cmpuint (m->n_filters, ==, 3);
    assert_prefix (m->filters[2], "c");
  }
  /* one filter: itself, as "(A)" parses */
  f = encode (hbase_filter_all (three, 1), CLASS ("PrefixFilter"));
  /* a group inside a group: a list inside a list */
  f = encode (hbase_filter_and (a_or_b, fc), CLASS ("FilterList"));
  {
    Hbase__Pb__FilterList *m = INNER (f, hbase__pb__filter_list__descriptor);
    Hbase__Pb__FilterList *inner;

    g_assert_cmpint (m->operator_, ==, HBASE__PB__FILTER_LIST__OPERATOR__MUST_PASS_ALL);
    g_assert_cmpuint (m->n_filters, ==, 2);
    g_assert_cmpstr (m->filters[0]->name, ==, CLASS ("FilterList"));
    inner = INNER (m->filters[0], hbase__pb__filter_list__descriptor);
    g_assert_cmpint (inner->operator_, ==, HBASE__PB__FILTER_LIST__OPERATOR__MUST_PASS_ONE);
    g_assert_cmpuint (inner->n_filters, ==, 2);
    assert_prefix (inner->filters[1], "b");
    assert_prefix (m->filters[1], "c");
  }
  f = encode (hbase_filter_skip (fa), CLASS ("SkipFilter"));
  {
    Hbase__Pb__SkipFilter *m = INNER (f, hbase__pb__skip_filter__descriptor);

    assert_prefix (m->filter, "a");
  }
  f = encode (hbase_filter_while (a_or_b), CLASS ("WhileMatchFilter"));
  {
    Hbase__Pb__WhileMatchFilter *m = INNER (f, hbase__pb__while_match_filter__descriptor);
    Hbase__Pb__FilterList *list;

    g_assert_cmpstr (m->filter->name, ==, CLASS ("FilterList"));
    list = INNER (m->filter, hbase__pb__filter_list__descriptor);
    g_assert_cmpuint (list->n_filters, ==, 2);
  }
  teardown ();
}

/* The rendering is unchanged by the tree, and a bad argument stays the
 * filter's problem (no tree is ever sent for it). */
static void
test_rendering_and_problems (void)
{
  g_autoptr(GBytes) a = BIN ("it's");
  g_autoptr(HBaseFilter) prefix = hbase_filter_prefix (a);
  g_autoptr(HBaseFilter) skip = hbase_filter_skip (prefix);
  g_autoptr(HBaseFilter) bad = hbase_filter_column_count (-1);
  g_autoptr(HBaseFilter) both = hbase_filter_and (skip, bad);
  g_autofree char *text = hbase_filter_to_string (skip, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) none = NULL;

  g_assert_cmpstr (text, ==, "(SKIP PrefixFilter('it''s'))");
  g_assert_null (_hbase_filter_get_problem (skip));
  g_assert_nonnull (_hbase_filter_get_problem (both));
  none = hbase_filter_to_bytes (both, &error);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_assert_cmpstr (error->message, ==, _hbase_filter_get_problem (both));
}

/* The native form of a read's filter, and the refusal of filter strings. */
static void
test_native_form (void)
{
  g_autoptr(GBytes) a = BIN ("a");
  g_autoptr(HBaseFilter) prefix = hbase_filter_prefix (a);
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GError) error = NULL;
  Hbase__Pb__Filter *message = NULL;

  g_assert_true (_hbase_filter_native_form (NULL, FALSE, &out, &error));
  g_assert_null (out);
  g_assert_true (_hbase_filter_native_form (prefix, FALSE, &out, &error));
  g_assert_nonnull (out);
  g_assert_true (_hbase_native_pb_filter (out, &message, &error));
  g_assert_cmpstr (message->name, ==, CLASS ("PrefixFilter"));
  protobuf_c_message_free_unpacked (&message->base, NULL);
  g_clear_pointer (&out, g_bytes_unref);
  g_assert_false (_hbase_filter_native_form (NULL, TRUE, &out, &error));
  g_assert_null (out);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_SUPPORTED);
  g_assert_nonnull (strstr (error->message, "hbase_read_options_set_typed_filter()"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/native/filter/rows", test_rows);
  g_test_add_func ("/native/filter/columns", test_columns);
  g_test_add_func ("/native/filter/cells", test_cells);
  g_test_add_func ("/native/filter/column-values", test_column_values);
  g_test_add_func ("/native/filter/combinators", test_combinators);
  g_test_add_func ("/native/filter/rendering-and-problems", test_rendering_and_problems);
  g_test_add_func ("/native/filter/native-form", test_native_form);
  return g_test_run ();
}
