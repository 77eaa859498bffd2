/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-native-filter.h (private): a server-side filter as a tree of
 * HBase filter classes with their arguments (what the typed HBaseFilter
 * builder of the table layer records), and its FilterProtos form: the
 * Filter message a Get or a Scan carries on the native backend.
 */
#ifndef HBASE_NATIVE_FILTER_H
#define HBASE_NATIVE_FILTER_H

#include <glib.h>

G_BEGIN_DECLS

/* The HBase filter class of a node (org.apache.hadoop.hbase.filter.*). */
typedef enum
{
  HBASE_NATIVE_FILTER_PREFIX,                          /* bytes */
  HBASE_NATIVE_FILTER_INCLUSIVE_STOP,                  /* bytes */
  HBASE_NATIVE_FILTER_PAGE,                            /* number */
  HBASE_NATIVE_FILTER_ROW,                             /* comparison */
  HBASE_NATIVE_FILTER_FAMILY,                          /* comparison */
  HBASE_NATIVE_FILTER_QUALIFIER,                       /* comparison */
  HBASE_NATIVE_FILTER_COLUMN_PREFIX,                   /* bytes */
  HBASE_NATIVE_FILTER_MULTIPLE_COLUMN_PREFIX,          /* list */
  HBASE_NATIVE_FILTER_COLUMN_RANGE,                    /* bytes, flag, bytes2, flag2 */
  HBASE_NATIVE_FILTER_COLUMN_PAGINATION,               /* number (limit), number2 (offset) */
  HBASE_NATIVE_FILTER_COLUMN_COUNT_GET,                /* number */
  HBASE_NATIVE_FILTER_KEY_ONLY,                        /* flag (length as value) */
  HBASE_NATIVE_FILTER_FIRST_KEY_ONLY,
  HBASE_NATIVE_FILTER_TIMESTAMPS,                      /* timestamps */
  HBASE_NATIVE_FILTER_VALUE,                           /* comparison */
  HBASE_NATIVE_FILTER_SINGLE_COLUMN_VALUE,             /* column, comparison, flag (filter if
                                                        * missing), flag2 (latest version only) */
  HBASE_NATIVE_FILTER_SINGLE_COLUMN_VALUE_EXCLUDE,     /* the same */
  HBASE_NATIVE_FILTER_COLUMN_VALUE,                    /* column, comparison */
  HBASE_NATIVE_FILTER_DEPENDENT_COLUMN,                /* column, flag (drop), comparison or
                                                        * compare_op NO_OP */
  HBASE_NATIVE_FILTER_LIST_ALL,                        /* children: FilterList MUST_PASS_ALL */
  HBASE_NATIVE_FILTER_LIST_ONE,                        /* children: FilterList MUST_PASS_ONE */
  HBASE_NATIVE_FILTER_SKIP,                            /* one child */
  HBASE_NATIVE_FILTER_WHILE_MATCH,                     /* one child */
} HBaseNativeFilterKind;

/* The comparator of a comparison (ComparatorProtos). */
typedef enum
{
  HBASE_NATIVE_COMPARATOR_BINARY,
  HBASE_NATIVE_COMPARATOR_BINARY_PREFIX,
  HBASE_NATIVE_COMPARATOR_REGEX_STRING,     /* value: UTF-8 */
  HBASE_NATIVE_COMPARATOR_SUBSTRING,        /* value: UTF-8 */
} HBaseNativeComparatorKind;

/* HBaseProtos.CompareType's NO_OP: no comparison. */
#define HBASE_NATIVE_COMPARE_NO_OP 6

/* One node, immutable once built and reference-counted (a combinator
 * references its children); the fields its kind does not use are zero. */
typedef struct _HBaseNativeFilter HBaseNativeFilter;
struct _HBaseNativeFilter
{
  gatomicrefcount           ref_count;
  HBaseNativeFilterKind     kind;
  GBytes                   *bytes;        /* prefix, stop row, lowest qualifier (NULL: none) */
  GBytes                   *bytes2;       /* highest qualifier (NULL: none) */
  gboolean                  flag, flag2;
  gint64                    number, number2;
  GPtrArray                *list;         /* GBytes *: column prefixes */
  GArray                   *timestamps;   /* gint64 */
  GBytes                   *family;       /* the column of a column value filter */
  GBytes                   *qualifier;
  guint                     compare_op;   /* HBaseProtos.CompareType */
  HBaseNativeComparatorKind comparator;
  GBytes                   *value;        /* the comparator's bytes */
  GPtrArray                *children;     /* HBaseNativeFilter * */
};

/* A node of @kind, every other field zero (compare_op: NO_OP); the
 * caller fills it before sharing it. */
HBaseNativeFilter *_hbase_native_filter_new   (HBaseNativeFilterKind kind);
HBaseNativeFilter *_hbase_native_filter_ref   (HBaseNativeFilter    *filter);
void               _hbase_native_filter_unref (HBaseNativeFilter    *filter);

/* The serialized FilterProtos.Filter message of @filter (name
 * "org.apache.hadoop.hbase.filter.X", serialized_filter X's message), as
 * the server's filter parser would build it from the filter language
 * rendering of the same filter. */
GBytes            *_hbase_native_filter_serialize (const HBaseNativeFilter *filter);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseNativeFilter, _hbase_native_filter_unref)

G_END_DECLS

#endif /* HBASE_NATIVE_FILTER_H */
