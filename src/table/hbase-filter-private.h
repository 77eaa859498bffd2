/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-filter-private.h: what the table layer reads of an HBaseFilter
 * besides its rendering: the tree the native backend sends, and whether
 * it was built with a bad argument. */
#ifndef HBASE_FILTER_PRIVATE_H
#define HBASE_FILTER_PRIVATE_H

#include <hbase-glib/hbase-filter.h>

#include "../native/hbase-native-filter.h"

G_BEGIN_DECLS

/* @filter's tree (borrowed): what its rendering means, class by class. */
HBaseNativeFilter *_hbase_filter_get_tree    (HBaseFilter *filter);
/* The first bad argument @filter or an operand was built with, NULL when
 * it is valid (borrowed). */
const char        *_hbase_filter_get_problem (HBaseFilter *filter);

/* What the native backend sends for a read's filter: the serialized
 * Filter message of @typed_filter (valid, as the read's check made sure),
 * *@out NULL when the read has no filter; a filter string (@has_filter
 * without @typed_filter) is HBASE_ERROR_NOT_SUPPORTED, pointing at
 * hbase_read_options_set_typed_filter(). */
gboolean           _hbase_filter_native_form (HBaseFilter *typed_filter,
                                              gboolean     has_filter,
                                              GBytes     **out,
                                              GError     **error);

G_END_DECLS

#endif /* HBASE_FILTER_PRIVATE_H */
