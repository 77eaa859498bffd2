/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-filter.c: HBaseFilter, typed filters rendered to the HBase filter
 * language (ParseFilter of hbase-client, used by the Thrift2 gateway for
 * TGet/TScan.filterString), each also kept as a tree of HBase filter
 * classes and arguments (src/native/hbase-native-filter.h) that the
 * native backend sends as FilterProtos messages.
 *
 * Rendering rules, from ParseFilter's code:
 *  - byte-string arguments are single-quoted with every quote doubled;
 *    the parser unescapes them byte by byte (createUnescapdArgument), so any
 *    byte sequence survives, parentheses and commas included;
 *  - comparators are 'type:value', split at the first colon;
 *  - integers, booleans and operators are written bare;
 *  - the parser's handling of a closing parenthesis pops one operator too
 *    many when a group mixes operators ("(A AND SKIP B)" and
 *    "(A OR B AND C)" fail on the server), so every combinator is
 *    rendered as its own parenthesised group with one kind of operator:
 *    "(A AND B AND C)", "(SKIP A)".  Grouping is then explicit and
 *    precedence never matters.
 *
 * A filter is rendered when it is built (combinators copy their operands'
 * text), so rendering it again costs a copy.  The first problem of a
 * filter or any operand is kept and reported at rendering.
 *
 * Long because: one constructor per filter and combinator of HBase's filter
 * language, each a few lines of rendering with its documentation, all built
 * on the rendering helpers at the top; split, they would share those
 * helpers through a header for no gain. */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-error.h>
#include <hbase-glib/hbase-filter.h>

#include "hbase-filter-private.h"

struct _HBaseFilter {
  gatomicrefcount ref_count;
  GByteArray *text;     /* the rendering */
  char *problem;        /* NULL when valid */
  HBaseNativeFilter *tree;  /* what the rendering means */
};

/* HBaseCompareOp's values are HBaseProtos.CompareType's */
G_STATIC_ASSERT (HBASE_COMPARE_LESS == 0 && HBASE_COMPARE_GREATER == 5 &&
                 HBASE_COMPARE_NO_OP == HBASE_NATIVE_COMPARE_NO_OP);
G_STATIC_ASSERT ((int) HBASE_COMPARATOR_SUBSTRING == (int) HBASE_NATIVE_COMPARATOR_SUBSTRING &&
                 (int) HBASE_COMPARATOR_REGEX == (int) HBASE_NATIVE_COMPARATOR_REGEX_STRING);

G_DEFINE_BOXED_TYPE (HBaseFilter, hbase_filter, hbase_filter_ref, hbase_filter_unref)

static HBaseFilter *
filter_new (const char *name)
{
  HBaseFilter *filter = g_new0 (HBaseFilter, 1);

  g_atomic_ref_count_init (&filter->ref_count);
  filter->text = g_byte_array_new ();
  if (name != NULL)
    {
      g_byte_array_append (filter->text, (const guint8 *) name, (guint) strlen (name));
      g_byte_array_append (filter->text, (const guint8 *) "(", 1);
    }
  return filter;
}

/* The tree node of @filter, of @kind. */
static HBaseNativeFilter *
node (HBaseFilter *filter, HBaseNativeFilterKind kind)
{
  filter->tree = _hbase_native_filter_new (kind);
  return filter->tree;
}

static GBytes *
ref_bytes (GBytes *bytes)
{
  return bytes != NULL ? g_bytes_ref (bytes) : NULL;
}

static void
problem (HBaseFilter *filter, const char *format, ...) G_GNUC_PRINTF (2, 3);

static void
problem (HBaseFilter *filter, const char *format, ...)
{
  va_list args;

  if (filter->problem != NULL)
    return;   /* keep the first */
  va_start (args, format);
  filter->problem = g_strdup_vprintf (format, args);
  va_end (args);
}

static void
append_text (HBaseFilter *filter, const char *text)
{
  g_byte_array_append (filter->text, (const guint8 *) text, (guint) strlen (text));
}

static void
separator (HBaseFilter *filter)
{
  guint8 last = filter->text->data[filter->text->len - 1];

  if (last != '(')
    append_text (filter, ", ");
}

/* 'bytes', a quote doubled: @prefix (a comparator type) then @data. */
static void
append_quoted (HBaseFilter *filter, const char *prefix, const guint8 *data, gsize len)
{
  gsize run = 0;

  separator (filter);
  g_byte_array_append (filter->text, (const guint8 *) "'", 1);
  if (prefix != NULL)
    append_text (filter, prefix);
  for (gsize i = 0; i < len; i++)
    if (data[i] == '\'')
      {
        g_byte_array_append (filter->text, data + run, (guint) (i + 1 - run));
        g_byte_array_append (filter->text, (const guint8 *) "'", 1);
        run = i + 1;
      }
  if (len > run)
    g_byte_array_append (filter->text, data + run, (guint) (len - run));
  g_byte_array_append (filter->text, (const guint8 *) "'", 1);
}

static void
append_bytes (HBaseFilter *filter, GBytes *bytes)
{
  gsize len = 0;
  const guint8 *data = bytes != NULL ? g_bytes_get_data (bytes, &len) : NULL;

  append_quoted (filter, NULL, data, len);
}

static void
append_bare (HBaseFilter *filter, const char *format, ...) G_GNUC_PRINTF (2, 3);

static void
append_bare (HBaseFilter *filter, const char *format, ...)
{
  va_list args;
  g_autofree char *text = NULL;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  separator (filter);
  append_text (filter, text);
}

static void
append_bool (HBaseFilter *filter, gboolean value)
{
  append_bare (filter, "%s", value ? "true" : "false");
}

static HBaseFilter *
finish (HBaseFilter *filter)
{
  g_byte_array_append (filter->text, (const guint8 *) ")", 1);
  return filter;
}

static const char *
op_text (HBaseCompareOp op)
{
  switch (op)
    {
    case HBASE_COMPARE_LESS: return "<";
    case HBASE_COMPARE_LESS_OR_EQUAL: return "<=";
    case HBASE_COMPARE_EQUAL: return "=";
    case HBASE_COMPARE_NOT_EQUAL: return "!=";
    case HBASE_COMPARE_GREATER_OR_EQUAL: return ">=";
    case HBASE_COMPARE_GREATER: return ">";
    case HBASE_COMPARE_NO_OP:
    default:
      return NULL;
    }
}

/* op, 'type:value' */
static void
append_comparison (HBaseFilter *filter, const char *what, HBaseCompareOp op,
                   HBaseComparator comparator, GBytes *value)
{
  const char *op_string = op_text (op);
  const char *type;
  gsize len = 0;
  const guint8 *data = value != NULL ? g_bytes_get_data (value, &len) : NULL;

  switch (comparator)
    {
    case HBASE_COMPARATOR_BINARY: type = "binary:"; break;
    case HBASE_COMPARATOR_BINARY_PREFIX: type = "binaryprefix:"; break;
    case HBASE_COMPARATOR_REGEX: type = "regexstring:"; break;
    case HBASE_COMPARATOR_SUBSTRING: type = "substring:"; break;
    default:
      type = "binary:";
      problem (filter, "%s: unknown comparator %d", what, (int) comparator);
      break;
    }
  if (op_string == NULL)
    {
      problem (filter, "%s: the operator %d has no form in the filter language (NO_OP "
               "neither)", what, (int) op);
      op_string = "=";
    }
  if ((comparator == HBASE_COMPARATOR_REGEX || comparator == HBASE_COMPARATOR_SUBSTRING) &&
      op != HBASE_COMPARE_EQUAL && op != HBASE_COMPARE_NOT_EQUAL)
    problem (filter, "%s: a %s comparator takes only EQUAL or NOT_EQUAL", what,
             comparator == HBASE_COMPARATOR_REGEX ? "regex" : "substring");
  if ((comparator == HBASE_COMPARATOR_REGEX || comparator == HBASE_COMPARATOR_SUBSTRING) &&
      !g_utf8_validate ((const char *) data, (gssize) len, NULL))
    problem (filter, "%s: the gateway reads a %s as UTF-8, and this one is not valid UTF-8 "
             "(use a binary comparator for raw bytes)", what,
             comparator == HBASE_COMPARATOR_REGEX ? "regular expression" : "substring");
  append_bare (filter, "%s", op_string);
  append_quoted (filter, type, data, len);
  filter->tree->compare_op = (guint) op;
  filter->tree->comparator = (HBaseNativeComparatorKind) comparator;
  filter->tree->value = value != NULL ? g_bytes_ref (value) : g_bytes_new (NULL, 0);
}

static void
append_family (HBaseFilter *filter, const char *what, const char *family)
{
  if (family == NULL || family[0] == '\0')
    {
      problem (filter, "%s needs a column family", what);
      family = "";
    }
  append_quoted (filter, NULL, (const guint8 *) family, strlen (family));
  filter->tree->family = g_bytes_new (family, strlen (family));
}

/**
 * hbase_filter_ref:
 * @filter: a filter
 *
 * Takes a reference on @filter; release it with hbase_filter_unref().
 *
 * Returns: (transfer full): @filter
 *
 * Since: 0.1
 */
HBaseFilter *
hbase_filter_ref (HBaseFilter *filter)
{
  g_return_val_if_fail (filter != NULL, NULL);
  g_atomic_ref_count_inc (&filter->ref_count);
  return filter;
}

/**
 * hbase_filter_unref:
 * @filter: (nullable) (transfer full): a filter
 *
 * Drops a reference; the last one frees the filter.  Does nothing for %NULL.
 *
 * Since: 0.1
 */
void
hbase_filter_unref (HBaseFilter *filter)
{
  if (filter == NULL || !g_atomic_ref_count_dec (&filter->ref_count))
    return;
  g_byte_array_unref (filter->text);
  g_free (filter->problem);
  _hbase_native_filter_unref (filter->tree);
  g_free (filter);
}

/* --- rows ------------------------------------------------------------------ */

/**
 * hbase_filter_prefix:
 * @prefix: the row key prefix
 *
 * PrefixFilter: rows whose key starts with @prefix.  (A scan's own prefix
 * option narrows the key range instead, which reads less.)
 *
 * Returns: (transfer full): the filter
 *
 * Since: 0.1
 */
HBaseFilter *
hbase_filter_prefix (GBytes *prefix)
{
  HBaseFilter *filter = filter_new ("PrefixFilter");

  node (filter, HBASE_NATIVE_FILTER_PREFIX)->bytes = ref_bytes (prefix);

  if (prefix == NULL)
    problem (filter, "PrefixFilter needs a prefix");
  append_bytes (filter, prefix);
  return finish (filter);
}

/**
 * hbase_filter_inclusive_stop:
 * @stop_row: the last row
 *
 * InclusiveStopFilter: rows up to and including @stop_row; the scan ends
 * after it.
 *
 * Returns: (transfer full): the filter
 *
 * Since: 0.1
 */
HBaseFilter *
hbase_filter_inclusive_stop (GBytes *stop_row)
{
  HBaseFilter *filter = filter_new ("InclusiveStopFilter");

  node (filter, HBASE_NATIVE_FILTER_INCLUSIVE_STOP)->bytes = ref_bytes (stop_row);

  if (stop_row == NULL)
    problem (filter, "InclusiveStopFilter needs a row");
  append_bytes (filter, stop_row);
  return finish (filter);
}

/**
 * hbase_filter_page:
 * @page_size: rows, at least 0
 *
 * PageFilter: at most @page_size rows per region (HBase applies it in each
 * region separately, so a scan over several regions can return more; the
 * scan's limit is exact).
 *
 * Returns: (transfer full): the filter
 *
 * Since: 0.1
 */
HBaseFilter *
hbase_filter_page (gint64 page_size)
{
  HBaseFilter *filter = filter_new ("PageFilter");

  node (filter, HBASE_NATIVE_FILTER_PAGE)->number = page_size;

  if (page_size < 0)
    problem (filter, "PageFilter needs a page size of at least 0, not %" G_GINT64_FORMAT,
             page_size);
  append_bare (filter, "%" G_GINT64_FORMAT, page_size);
  return finish (filter);
}

/**
 * hbase_filter_row:
 * @op: how the row key compares ("row OP value")
 * @comparator: the comparator
 * @value: the bytes to compare with
 *
 * RowFilter: rows whose key compares so.
 *
 * Returns: (transfer full): the filter
 *
 * Since: 0.1
 */
HBaseFilter *
hbase_filter_row (HBaseCompareOp op, HBaseComparator comparator, GBytes *value)
{
  HBaseFilter *filter = filter_new ("RowFilter");

  node (filter, HBASE_NATIVE_FILTER_ROW);
  append_comparison (filter, "RowFilter", op, comparator, value);
  return finish (filter);
}

/* --- columns --------------------------------------------------------------- */

/**
 * hbase_filter_family:
 * @op: how the family compares
 * @comparator: the comparator
 * @value: the bytes to compare with
 *
 * FamilyFilter: cells whose family compares so.
 *
 * Returns: (transfer full): the filter
 *
 * Since: 0.1
 */
HBaseFilter *
hbase_filter_family (HBaseCompareOp op, HBaseComparator comparator, GBytes *value)
{
  HBaseFilter *filter = filter_new ("FamilyFilter");

  node (filter, HBASE_NATIVE_FILTER_FAMILY);
  append_comparison (filter, "FamilyFilter", op, comparator, value);
  return finish (filter);
}

/**
 * hbase_filter_qualifier:
 * @op: how the qualifier compares
 * @comparator: the comparator
 * @value: the bytes to compare with
 *
 * QualifierFilter: cells whose qualifier compares so.
 *
 * Returns: (transfer full): the filter
 *
 * Since: 0.1
 */
HBaseFilter *
hbase_filter_qualifier (HBaseCompareOp op, HBaseComparator comparator, GBytes *value)
{
  HBaseFilter *filter = filter_new ("QualifierFilter");

  node (filter, HBASE_NATIVE_FILTER_QUALIFIER);
  append_comparison (filter, "QualifierFilter", op, comparator, value);
  return finish (filter);
}

/**
 * hbase_filter_column_prefix:
 * @prefix: a qualifier prefix
 *
 * ColumnPrefixFilter: cells whose qualifier starts with @prefix.
 *
 * Returns: (transfer full): the filter
 *
 * Since: 0.1
 */
HBaseFilter *
hbase_filter_column_prefix (GBytes *prefix)
{
  HBaseFilter *filter = filter_new ("ColumnPrefixFilter");

  node (filter, HBASE_NATIVE_FILTER_COLUMN_PREFIX)->bytes = ref_bytes (prefix);

  if (prefix == NULL)
    problem (filter, "ColumnPrefixFilter needs a prefix");
  append_bytes (filter, prefix);
  return finish (filter);
}

/**
 * hbase_filter_multiple_column_prefix:
 * @prefixes: (array length=n_prefixes): qualifier prefixes
 * @n_prefixes: how many, at least 1
 *
 * MultipleColumnPrefixFilter: cells whose qualifier starts with any of
 * @prefixes.
 *
 * Returns: (transfer full): the filter
 *
 * Since: 0.1
 */
HBaseFilter *
hbase_filter_multiple_column_prefix (GBytes **prefixes, guint n_prefixes)
{
  HBaseFilter *filter = filter_new ("MultipleColumnPrefixFilter");
  HBaseNativeFilter *tree = node (filter, HBASE_NATIVE_FILTER_MULTIPLE_COLUMN_PREFIX);

  tree->list = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

  if (prefixes == NULL || n_prefixes == 0)
    problem (filter, "MultipleColumnPrefixFilter needs at least one prefix");
  for (guint i = 0; prefixes != NULL && i < n_prefixes; i++)
    {
      if (prefixes[i] == NULL)
        problem (filter, "MultipleColumnPrefixFilter: prefix %u is NULL", i);
      append_bytes (filter, prefixes[i]);
      if (prefixes[i] != NULL)
        g_ptr_array_add (tree->list, g_bytes_ref (prefixes[i]));
    }
  return finish (filter);
}

/**
 * hbase_filter_column_range:
 * @min_qualifier: (nullable): the lowest qualifier; %NULL or empty for no
 *   lower bound
 * @min_inclusive: whether @min_qualifier itself is in
 * @max_qualifier: (nullable): the highest qualifier; %NULL or empty for no
 *   upper bound
 * @max_inclusive: whether @max_qualifier itself is in
 *
 * ColumnRangeFilter: cells whose qualifier lies in the range.
 *
 * Returns: (transfer full): the filter
 *
 * Since: 0.1
 */
HBaseFilter *
hbase_filter_column_range (GBytes  *min_qualifier,
                           gboolean min_inclusive,
                           GBytes  *max_qualifier,
                           gboolean max_inclusive)
{
  HBaseFilter *filter = filter_new ("ColumnRangeFilter");
  HBaseNativeFilter *tree = node (filter, HBASE_NATIVE_FILTER_COLUMN_RANGE);

  tree->bytes = ref_bytes (min_qualifier);
  tree->flag = min_inclusive != FALSE;
  tree->bytes2 = ref_bytes (max_qualifier);
  tree->flag2 = max_inclusive != FALSE;

  append_bytes (filter, min_qualifier);
  append_bool (filter, min_inclusive);
  append_bytes (filter, max_qualifier);
  append_bool (filter, max_inclusive);
  return finish (filter);
}

/**
 * hbase_filter_column_pagination:
 * @limit: columns per row, at least 0
 * @offset: columns skipped first, at least 0
 *
 * ColumnPaginationFilter: @limit columns of each row from the @offset-th.
 *
 * Returns: (transfer full): the filter
 *
 * Since: 0.1
 */
HBaseFilter *
hbase_filter_column_pagination (gint32 limit, gint32 offset)
{
  HBaseFilter *filter = filter_new ("ColumnPaginationFilter");
  HBaseNativeFilter *tree = node (filter, HBASE_NATIVE_FILTER_COLUMN_PAGINATION);

  tree->number = limit;
  tree->number2 = offset;

  if (limit < 0 || offset < 0)
    problem (filter, "ColumnPaginationFilter needs a limit and an offset of at least 0, not %d "
             "and %d", (int) limit, (int) offset);
  append_bare (filter, "%d", (int) limit);
  append_bare (filter, "%d", (int) offset);
  return finish (filter);
}

/**
 * hbase_filter_column_count:
 * @limit: columns, at least 0
 *
 * ColumnCountGetFilter: the first @limit columns of a row (the rest of the
 * scan stops at the first row that has more; meant for gets).
 *
 * Returns: (transfer full): the filter
 *
 * Since: 0.1
 */
HBaseFilter *
hbase_filter_column_count (gint32 limit)
{
  HBaseFilter *filter = filter_new ("ColumnCountGetFilter");

  node (filter, HBASE_NATIVE_FILTER_COLUMN_COUNT_GET)->number = limit;

  if (limit < 0)
    problem (filter, "ColumnCountGetFilter needs a limit of at least 0, not %d", (int) limit);
  append_bare (filter, "%d", (int) limit);
  return finish (filter);
}

/* --- cells ----------------------------------------------------------------- */

/**
 * hbase_filter_key_only:
 * @length_as_value: replace each value by its length (4 bytes, big-endian)
 *   rather than by nothing
 *
 * KeyOnlyFilter: cells without their values.
 *
 * Returns: (transfer full): the filter
 *
 * Since: 0.1
 */
HBaseFilter *
hbase_filter_key_only (gboolean length_as_value)
{
  HBaseFilter *filter = filter_new ("KeyOnlyFilter");

  node (filter, HBASE_NATIVE_FILTER_KEY_ONLY)->flag = length_as_value != FALSE;

  if (length_as_value)
    append_bool (filter, TRUE);
  return finish (filter);
}

/**
 * hbase_filter_first_key_only:
 *
 * FirstKeyOnlyFilter: the first cell of each row only (for counting rows).
 *
 * Returns: (transfer full): the filter
 *
 * Since: 0.1
 */
HBaseFilter *
hbase_filter_first_key_only (void)
{
  HBaseFilter *filter = filter_new ("FirstKeyOnlyFilter");

  node (filter, HBASE_NATIVE_FILTER_FIRST_KEY_ONLY);
  return finish (filter);
}

/**
 * hbase_filter_timestamps:
 * @timestamps: (array length=n_timestamps): timestamps, each at least 0
 * @n_timestamps: how many
 *
 * TimestampsFilter: cells with one of these timestamps.
 *
 * Returns: (transfer full): the filter
 *
 * Since: 0.1
 */
HBaseFilter *
hbase_filter_timestamps (const gint64 *timestamps, guint n_timestamps)
{
  HBaseFilter *filter = filter_new ("TimestampsFilter");
  HBaseNativeFilter *tree = node (filter, HBASE_NATIVE_FILTER_TIMESTAMPS);

  tree->timestamps = g_array_new (FALSE, FALSE, sizeof (gint64));
  if (timestamps != NULL)
    g_array_append_vals (tree->timestamps, timestamps, n_timestamps);

  if (timestamps == NULL && n_timestamps > 0)
    problem (filter, "TimestampsFilter: no timestamps");
  for (guint i = 0; timestamps != NULL && i < n_timestamps; i++)
    {
      if (timestamps[i] < 0)
        problem (filter, "TimestampsFilter: the timestamp %" G_GINT64_FORMAT " is negative",
                 timestamps[i]);
      append_bare (filter, "%" G_GINT64_FORMAT, timestamps[i]);
    }
  return finish (filter);
}

/**
 * hbase_filter_value:
 * @op: how the value compares
 * @comparator: the comparator
 * @value: the bytes to compare with
 *
 * ValueFilter: cells whose value compares so.
 *
 * Returns: (transfer full): the filter
 *
 * Since: 0.1
 */
HBaseFilter *
hbase_filter_value (HBaseCompareOp op, HBaseComparator comparator, GBytes *value)
{
  HBaseFilter *filter = filter_new ("ValueFilter");

  node (filter, HBASE_NATIVE_FILTER_VALUE);
  append_comparison (filter, "ValueFilter", op, comparator, value);
  return finish (filter);
}

/* --- values of one column --------------------------------------------------- */

static HBaseFilter *
single_column (const char *name, HBaseNativeFilterKind kind, const char *family,
               GBytes *qualifier, HBaseCompareOp op, HBaseComparator comparator, GBytes *value,
               gboolean filter_if_missing, gboolean latest_version_only)
{
  HBaseFilter *filter = filter_new (name);
  HBaseNativeFilter *tree = node (filter, kind);

  tree->qualifier = qualifier != NULL ? g_bytes_ref (qualifier) : g_bytes_new (NULL, 0);
  tree->flag = filter_if_missing != FALSE;
  tree->flag2 = latest_version_only != FALSE;

  append_family (filter, name, family);
  append_bytes (filter, qualifier);
  append_comparison (filter, name, op, comparator, value);
  append_bool (filter, filter_if_missing);
  append_bool (filter, latest_version_only);
  return finish (filter);
}

/**
 * hbase_filter_single_column_value:
 * @family: the column's family
 * @qualifier: (nullable): its qualifier; %NULL for the empty one
 * @op: how its value compares
 * @comparator: the comparator
 * @value: the bytes to compare with
 * @filter_if_missing: drop rows that lack the column (HBase keeps them
 *   otherwise)
 * @latest_version_only: test only the newest version of the column
 *   (HBase's default); otherwise a row passes when any version does
 *
 * SingleColumnValueFilter: whole rows, selected by one column's value.
 *
 * Returns: (transfer full): the filter
 *
 * Since: 0.1
 */
HBaseFilter *
hbase_filter_single_column_value (const char      *family,
                                  GBytes          *qualifier,
                                  HBaseCompareOp   op,
                                  HBaseComparator  comparator,
                                  GBytes          *value,
                                  gboolean         filter_if_missing,
                                  gboolean         latest_version_only)
{
  return single_column ("SingleColumnValueFilter", HBASE_NATIVE_FILTER_SINGLE_COLUMN_VALUE,
                        family, qualifier, op, comparator, value,
                        filter_if_missing, latest_version_only);
}

/**
 * hbase_filter_single_column_value_exclude:
 * @family: the column's family
 * @qualifier: (nullable): its qualifier
 * @op: how its value compares
 * @comparator: the comparator
 * @value: the bytes to compare with
 * @filter_if_missing: drop rows that lack the column
 * @latest_version_only: test only the newest version
 *
 * SingleColumnValueExcludeFilter: as hbase_filter_single_column_value(),
 * without the tested column in the rows returned.
 *
 * Returns: (transfer full): the filter
 *
 * Since: 0.1
 */
HBaseFilter *
hbase_filter_single_column_value_exclude (const char      *family,
                                          GBytes          *qualifier,
                                          HBaseCompareOp   op,
                                          HBaseComparator  comparator,
                                          GBytes          *value,
                                          gboolean         filter_if_missing,
                                          gboolean         latest_version_only)
{
  return single_column ("SingleColumnValueExcludeFilter",
                        HBASE_NATIVE_FILTER_SINGLE_COLUMN_VALUE_EXCLUDE, family, qualifier, op, comparator,
                        value, filter_if_missing, latest_version_only);
}

/**
 * hbase_filter_column_value:
 * @family: the column's family
 * @qualifier: (nullable): its qualifier
 * @op: how its value compares
 * @comparator: the comparator
 * @value: the bytes to compare with
 *
 * ColumnValueFilter (HBase 2.1+): only the matching cells of that column,
 * not whole rows.
 *
 * Returns: (transfer full): the filter
 *
 * Since: 0.1
 */
HBaseFilter *
hbase_filter_column_value (const char      *family,
                           GBytes          *qualifier,
                           HBaseCompareOp   op,
                           HBaseComparator  comparator,
                           GBytes          *value)
{
  HBaseFilter *filter = filter_new ("ColumnValueFilter");

  node (filter, HBASE_NATIVE_FILTER_COLUMN_VALUE)->qualifier =
    qualifier != NULL ? g_bytes_ref (qualifier) : g_bytes_new (NULL, 0);

  append_family (filter, "ColumnValueFilter", family);
  append_bytes (filter, qualifier);
  append_comparison (filter, "ColumnValueFilter", op, comparator, value);
  return finish (filter);
}

/**
 * hbase_filter_dependent_column:
 * @family: the reference column's family
 * @qualifier: (nullable): its qualifier
 * @drop_dependent_column: leave the reference column out of the results
 *
 * DependentColumnFilter: the cells whose timestamp matches one of the
 * reference column's in the same row.
 *
 * Returns: (transfer full): the filter
 *
 * Since: 0.1
 */
HBaseFilter *
hbase_filter_dependent_column (const char *family,
                               GBytes     *qualifier,
                               gboolean    drop_dependent_column)
{
  HBaseFilter *filter = filter_new ("DependentColumnFilter");
  HBaseNativeFilter *tree = node (filter, HBASE_NATIVE_FILTER_DEPENDENT_COLUMN);

  tree->qualifier = qualifier != NULL ? g_bytes_ref (qualifier) : g_bytes_new (NULL, 0);
  tree->flag = drop_dependent_column != FALSE;

  append_family (filter, "DependentColumnFilter", family);
  append_bytes (filter, qualifier);
  append_bool (filter, drop_dependent_column);
  return finish (filter);
}

/**
 * hbase_filter_dependent_column_compare:
 * @family: the reference column's family
 * @qualifier: (nullable): its qualifier
 * @drop_dependent_column: leave the reference column out of the results
 * @op: how the reference column's value must compare
 * @comparator: the comparator
 * @value: the bytes to compare with
 *
 * DependentColumnFilter with a value check: only reference cells whose
 * value compares so count.
 *
 * Returns: (transfer full): the filter
 *
 * Since: 0.1
 */
HBaseFilter *
hbase_filter_dependent_column_compare (const char      *family,
                                       GBytes          *qualifier,
                                       gboolean         drop_dependent_column,
                                       HBaseCompareOp   op,
                                       HBaseComparator  comparator,
                                       GBytes          *value)
{
  HBaseFilter *filter = filter_new ("DependentColumnFilter");
  HBaseNativeFilter *tree = node (filter, HBASE_NATIVE_FILTER_DEPENDENT_COLUMN);

  tree->qualifier = qualifier != NULL ? g_bytes_ref (qualifier) : g_bytes_new (NULL, 0);
  tree->flag = drop_dependent_column != FALSE;

  append_family (filter, "DependentColumnFilter", family);
  append_bytes (filter, qualifier);
  append_bool (filter, drop_dependent_column);
  append_comparison (filter, "DependentColumnFilter", op, comparator, value);
  return finish (filter);
}

/* --- combinators ------------------------------------------------------------ */

static void
take_operand (HBaseFilter *into, HBaseFilter *operand, const char *what, guint index)
{
  if (operand == NULL)
    {
      problem (into, "%s: operand %u is NULL", what, index);
      return;
    }
  if (operand->problem != NULL)
    problem (into, "%s", operand->problem);
  g_ptr_array_add (into->tree->children, _hbase_native_filter_ref (operand->tree));
  g_byte_array_append (into->text, operand->text->data, operand->text->len);
}

static HBaseFilter *
combine (const char *operator, HBaseFilter **filters, guint n_filters)
{
  HBaseFilter *filter;

  if (n_filters == 1 && filters != NULL && filters[0] != NULL)
    return hbase_filter_ref (filters[0]);
  filter = filter_new (NULL);
  node (filter, strcmp (operator, "OR") == 0 ? HBASE_NATIVE_FILTER_LIST_ONE
                                             : HBASE_NATIVE_FILTER_LIST_ALL);
  filter->tree->children = g_ptr_array_new_with_free_func ((GDestroyNotify) _hbase_native_filter_unref);
  if (filters == NULL || n_filters == 0)
    problem (filter, "%s needs at least one filter", operator);
  g_byte_array_append (filter->text, (const guint8 *) "(", 1);
  for (guint i = 0; filters != NULL && i < n_filters; i++)
    {
      if (i > 0)
        {
          append_text (filter, " ");
          append_text (filter, operator);
          append_text (filter, " ");
        }
      take_operand (filter, filters[i], operator, i);
    }
  return finish (filter);
}

/**
 * hbase_filter_and:
 * @first: a filter
 * @second: another
 *
 * Both (a FilterList MUST_PASS_ALL).
 *
 * Returns: (transfer full): the filter; the operands are referenced, not
 *   taken
 *
 * Since: 0.1
 */
HBaseFilter *
hbase_filter_and (HBaseFilter *first, HBaseFilter *second)
{
  HBaseFilter *both[2] = { first, second };

  return combine ("AND", both, 2);
}

/**
 * hbase_filter_or:
 * @first: a filter
 * @second: another
 *
 * Either (a FilterList MUST_PASS_ONE).
 *
 * Returns: (transfer full): the filter
 *
 * Since: 0.1
 */
HBaseFilter *
hbase_filter_or (HBaseFilter *first, HBaseFilter *second)
{
  HBaseFilter *both[2] = { first, second };

  return combine ("OR", both, 2);
}

/**
 * hbase_filter_all:
 * @filters: (array length=n_filters): filters
 * @n_filters: how many, at least 1
 *
 * All of @filters (one FilterList MUST_PASS_ALL).
 *
 * Returns: (transfer full): the filter
 *
 * Since: 0.1
 */
HBaseFilter *
hbase_filter_all (HBaseFilter **filters, guint n_filters)
{
  return combine ("AND", filters, n_filters);
}

/**
 * hbase_filter_any:
 * @filters: (array length=n_filters): filters
 * @n_filters: how many, at least 1
 *
 * Any of @filters (one FilterList MUST_PASS_ONE).
 *
 * Returns: (transfer full): the filter
 *
 * Since: 0.1
 */
HBaseFilter *
hbase_filter_any (HBaseFilter **filters, guint n_filters)
{
  return combine ("OR", filters, n_filters);
}

static HBaseFilter *
wrap (const char *operator, HBaseFilter *operand)
{
  HBaseFilter *filter = filter_new (NULL);

  node (filter, strcmp (operator, "SKIP") == 0 ? HBASE_NATIVE_FILTER_SKIP
                                               : HBASE_NATIVE_FILTER_WHILE_MATCH);
  filter->tree->children = g_ptr_array_new_with_free_func ((GDestroyNotify) _hbase_native_filter_unref);
  g_byte_array_append (filter->text, (const guint8 *) "(", 1);
  append_text (filter, operator);
  append_text (filter, " ");
  take_operand (filter, operand, operator, 0);
  return finish (filter);
}

/**
 * hbase_filter_skip:
 * @filter: a filter of cells
 *
 * SkipFilter: whole rows, dropped when @filter drops any of their cells.
 *
 * Returns: (transfer full): the filter
 *
 * Since: 0.1
 */
HBaseFilter *
hbase_filter_skip (HBaseFilter *filter)
{
  return wrap ("SKIP", filter);
}

/**
 * hbase_filter_while:
 * @filter: a filter
 *
 * WhileMatchFilter: the scan ends at the first cell @filter drops.
 *
 * Returns: (transfer full): the filter
 *
 * Since: 0.1
 */
HBaseFilter *
hbase_filter_while (HBaseFilter *filter)
{
  return wrap ("WHILE", filter);
}

/* --- rendering -------------------------------------------------------------- */

/**
 * hbase_filter_to_bytes:
 * @filter: a filter
 * @error: return location for an error
 *
 * The filter in the HBase filter language, as bytes: what
 * #HBaseReadOptions' @filter_bytes takes (TScan.filterString and
 * TGet.filterString are binary).  Every byte of a value is rendered as is
 * between single quotes, 0x00 and 0xFF included, a quote doubled; the
 * server's filter parser undoes exactly that.  The primary rendering:
 * hbase_filter_to_string() is this as a C string, when it can be one.
 *
 * Returns: (transfer full) (nullable): the rendering, or %NULL with
 *   %HBASE_ERROR_ILLEGAL_ARGUMENT when the filter or an operand was built
 *   with a bad argument
 *
 * Since: 0.1
 */
GBytes *
hbase_filter_to_bytes (HBaseFilter *filter, GError **error)
{
  if (filter == NULL)
    {
      g_set_error_literal (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT, "no filter");
      return NULL;
    }
  if (filter->problem != NULL)
    {
      g_set_error_literal (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT, filter->problem);
      return NULL;
    }
  return g_bytes_new (filter->text->data, filter->text->len);
}

/**
 * hbase_filter_to_string:
 * @filter: a filter
 * @error: return location for an error
 *
 * The filter in the HBase filter language, for #HBaseReadOptions' @filter.
 * The string may hold any byte but 0x00 (and is not necessarily UTF-8);
 * for values that may hold 0x00, use hbase_filter_to_bytes() and
 * @filter_bytes.
 *
 * Returns: (transfer full) (nullable): the rendering, or %NULL with
 *   %HBASE_ERROR_ILLEGAL_ARGUMENT when the filter was built with a bad
 *   argument or holds a 0x00 byte, which a C string cannot carry
 *
 * Since: 0.1
 */
char *
hbase_filter_to_string (HBaseFilter *filter, GError **error)
{
  if (filter == NULL)
    {
      g_set_error_literal (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT, "no filter");
      return NULL;
    }
  if (filter->problem != NULL)
    {
      g_set_error_literal (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT, filter->problem);
      return NULL;
    }
  if (memchr (filter->text->data, 0, filter->text->len) != NULL)
    {
      g_set_error_literal (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                           "the filter holds a 0x00 byte, which the filter string of "
                           "HBaseReadOptions (a C string) cannot carry");
      return NULL;
    }
  return g_strndup ((const char *) filter->text->data, filter->text->len);
}

/* --- for the table layer ----------------------------------------------------- */

HBaseNativeFilter *
_hbase_filter_get_tree (HBaseFilter *filter)
{
  return filter->tree;
}

const char *
_hbase_filter_get_problem (HBaseFilter *filter)
{
  return filter->problem;
}

gboolean
_hbase_filter_native_form (HBaseFilter *typed_filter, gboolean has_filter, GBytes **out,
                           GError **error)
{
  *out = NULL;
  if (typed_filter != NULL)
    {
      *out = _hbase_native_filter_serialize (typed_filter->tree);
      return TRUE;
    }
  if (!has_filter)
    return TRUE;
  g_set_error_literal (error, HBASE_ERROR, HBASE_ERROR_NOT_SUPPORTED,
                       "a filter string (filter or filter_bytes) is not supported on the native "
                       "backend (bootstrap servers are set): only the Thrift2 gateway parses "
                       "the filter language; build the filter with the HBaseFilter "
                       "constructors and set it with hbase_read_options_set_typed_filter(), "
                       "which both backends run");
  return FALSE;
}
