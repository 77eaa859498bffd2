/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-filter.h: typed server-side filters, rendered to the HBase filter
 * language or sent as HBase's filter messages. */
#ifndef HBASE_FILTER_H
#define HBASE_FILTER_H

#if !defined(__HBASE_GLIB_INSIDE__) && !defined(HBASE_GLIB_COMPILATION)
#error "Only <hbase-glib/hbase-glib.h> can be included directly."
#endif

#include <glib-object.h>

#include <hbase-glib/hbase-condition.h>

G_BEGIN_DECLS

/**
 * HBaseComparator:
 * @HBASE_COMPARATOR_BINARY: compares bytes, unsigned, shorter first on a
 *   common prefix (BinaryComparator)
 * @HBASE_COMPARATOR_BINARY_PREFIX: compares the first bytes of the cell
 *   with the value, as many as the value has (BinaryPrefixComparator)
 * @HBASE_COMPARATOR_REGEX: a Java regular expression, matched against the
 *   cell decoded as UTF-8 (RegexStringComparator); only
 *   %HBASE_COMPARE_EQUAL and %HBASE_COMPARE_NOT_EQUAL, and the expression
 *   must be valid UTF-8
 * @HBASE_COMPARATOR_SUBSTRING: the cell contains the value, ignoring case
 *   (SubstringComparator); only %HBASE_COMPARE_EQUAL and
 *   %HBASE_COMPARE_NOT_EQUAL, and the value must be valid UTF-8
 *
 * How a filter compares a row, family, qualifier or value with the given
 * bytes.  The #HBaseCompareOp reads "cell OP value".
 *
 * Since: 0.1
 */
typedef enum {
  HBASE_COMPARATOR_BINARY,
  HBASE_COMPARATOR_BINARY_PREFIX,
  HBASE_COMPARATOR_REGEX,
  HBASE_COMPARATOR_SUBSTRING,
} HBaseComparator;

/**
 * HBaseFilter:
 *
 * A server-side filter of the HBase filter language, built from typed
 * constructors and combined with hbase_filter_and(), hbase_filter_or(),
 * hbase_filter_skip() and hbase_filter_while().  Immutable and
 * reference-counted.
 *
 * Constructors never fail: a bad argument (an operator the comparator does
 * not allow, a regular expression that is not UTF-8, a negative count...)
 * is kept in the filter and reported, with every filter built on it, by
 * hbase_filter_to_string() and hbase_filter_to_bytes() as
 * %HBASE_ERROR_ILLEGAL_ARGUMENT.
 *
 * Rendering is injection-safe: every byte string is single-quoted with
 * quotes doubled, and the parser of the gateway reads it back byte for
 * byte, so quotes, parentheses, commas, operator words, non-ASCII text and
 * bytes 0x01-0xFF reach the server exactly.  A 0x00 byte can be rendered
 * (hbase_filter_to_bytes()) but not passed as a C string
 * (hbase_filter_to_string() refuses it).
 *
 * Every constructor and combinator returns a reference the caller owns
 * (released with hbase_filter_unref() or g_autoptr()); a combinator takes
 * its own references to its operands and never the caller's, the rule
 * index queries follow too (docs/api-conventions.md).
 *
 * A read takes a filter itself with hbase_read_options_set_typed_filter():
 * the Thrift2 backend sends its rendering, the native backend the same
 * filter as HBase's own filter messages (the only form it takes).
 *
 * Since: 0.1
 */
typedef struct _HBaseFilter HBaseFilter;

#define HBASE_TYPE_FILTER (hbase_filter_get_type ())
GType        hbase_filter_get_type                      (void) G_GNUC_CONST;
HBaseFilter *hbase_filter_ref                           (HBaseFilter     *filter);
void         hbase_filter_unref                         (HBaseFilter     *filter);

/* rows */
HBaseFilter *hbase_filter_prefix                        (GBytes          *prefix);
HBaseFilter *hbase_filter_inclusive_stop                (GBytes          *stop_row);
HBaseFilter *hbase_filter_page                          (gint64           page_size);
HBaseFilter *hbase_filter_row                           (HBaseCompareOp   op,
                                                         HBaseComparator  comparator,
                                                         GBytes          *value);

/* columns */
HBaseFilter *hbase_filter_family                        (HBaseCompareOp   op,
                                                         HBaseComparator  comparator,
                                                         GBytes          *value);
HBaseFilter *hbase_filter_qualifier                     (HBaseCompareOp   op,
                                                         HBaseComparator  comparator,
                                                         GBytes          *value);
HBaseFilter *hbase_filter_column_prefix                 (GBytes          *prefix);
HBaseFilter *hbase_filter_multiple_column_prefix        (GBytes         **prefixes,
                                                         guint            n_prefixes);
HBaseFilter *hbase_filter_column_range                  (GBytes          *min_qualifier,
                                                         gboolean         min_inclusive,
                                                         GBytes          *max_qualifier,
                                                         gboolean         max_inclusive);
HBaseFilter *hbase_filter_column_pagination             (gint32           limit,
                                                         gint32           offset);
HBaseFilter *hbase_filter_column_count                  (gint32           limit);

/* cells */
HBaseFilter *hbase_filter_key_only                      (gboolean         length_as_value);
HBaseFilter *hbase_filter_first_key_only                (void);
HBaseFilter *hbase_filter_timestamps                    (const gint64    *timestamps,
                                                         guint            n_timestamps);
HBaseFilter *hbase_filter_value                         (HBaseCompareOp   op,
                                                         HBaseComparator  comparator,
                                                         GBytes          *value);

/* values of one column */
HBaseFilter *hbase_filter_single_column_value           (const char      *family,
                                                         GBytes          *qualifier,
                                                         HBaseCompareOp   op,
                                                         HBaseComparator  comparator,
                                                         GBytes          *value,
                                                         gboolean         filter_if_missing,
                                                         gboolean         latest_version_only);
HBaseFilter *hbase_filter_single_column_value_exclude   (const char      *family,
                                                         GBytes          *qualifier,
                                                         HBaseCompareOp   op,
                                                         HBaseComparator  comparator,
                                                         GBytes          *value,
                                                         gboolean         filter_if_missing,
                                                         gboolean         latest_version_only);
HBaseFilter *hbase_filter_column_value                  (const char      *family,
                                                         GBytes          *qualifier,
                                                         HBaseCompareOp   op,
                                                         HBaseComparator  comparator,
                                                         GBytes          *value);
HBaseFilter *hbase_filter_dependent_column              (const char      *family,
                                                         GBytes          *qualifier,
                                                         gboolean         drop_dependent_column);
HBaseFilter *hbase_filter_dependent_column_compare      (const char      *family,
                                                         GBytes          *qualifier,
                                                         gboolean         drop_dependent_column,
                                                         HBaseCompareOp   op,
                                                         HBaseComparator  comparator,
                                                         GBytes          *value);

/* combinators */
HBaseFilter *hbase_filter_and                           (HBaseFilter     *first,
                                                         HBaseFilter     *second);
HBaseFilter *hbase_filter_or                            (HBaseFilter     *first,
                                                         HBaseFilter     *second);
HBaseFilter *hbase_filter_all                           (HBaseFilter    **filters,
                                                         guint            n_filters);
HBaseFilter *hbase_filter_any                           (HBaseFilter    **filters,
                                                         guint            n_filters);
HBaseFilter *hbase_filter_skip                          (HBaseFilter     *filter);
HBaseFilter *hbase_filter_while                         (HBaseFilter     *filter);

/* rendering */
GBytes      *hbase_filter_to_bytes                      (HBaseFilter     *filter,
                                                         GError         **error);
char        *hbase_filter_to_string                     (HBaseFilter     *filter,
                                                         GError         **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseFilter, hbase_filter_unref)

G_END_DECLS

#endif /* HBASE_FILTER_H */
