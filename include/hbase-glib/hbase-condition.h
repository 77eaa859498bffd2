/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-condition.h: the cell test of a check-and-mutate. */
#ifndef HBASE_CONDITION_H
#define HBASE_CONDITION_H

#if !defined(__HBASE_GLIB_INSIDE__) && !defined(HBASE_GLIB_COMPILATION)
#error "Only <hbase-glib/hbase-glib.h> can be included directly."
#endif

#include <glib-object.h>

G_BEGIN_DECLS

/**
 * HBaseCompareOp:
 * @HBASE_COMPARE_LESS: passes when the cell's value is less than the
 *   given value
 * @HBASE_COMPARE_LESS_OR_EQUAL: cell value <= given value
 * @HBASE_COMPARE_EQUAL: cell value == given value
 * @HBASE_COMPARE_NOT_EQUAL: cell value != given value
 * @HBASE_COMPARE_GREATER_OR_EQUAL: cell value >= given value
 * @HBASE_COMPARE_GREATER: cell value > given value
 * @HBASE_COMPARE_NO_OP: HBase's NO_OP; refused by check-and-mutate
 *   (%HBASE_ERROR_ILLEGAL_ARGUMENT): HBase 2.6's region server throws
 *   "Unknown Compare op NO_OP" for it
 *
 * How a check-and-mutate compares the current value of a cell with a
 * given value: bytes compared as unsigned, shorter first on a common
 * prefix, as HBase sorts them.  The names read "cell OP value", which is
 * how HBase's filters read them too; HBase's checkAndMutate reads its
 * operator the other way round ("value OP cell"), so the library sends the
 * mirrored operator.  A missing cell passes no ordering comparison.
 *
 * Since: 0.1
 */
typedef enum {
  HBASE_COMPARE_LESS,
  HBASE_COMPARE_LESS_OR_EQUAL,
  HBASE_COMPARE_EQUAL,
  HBASE_COMPARE_NOT_EQUAL,
  HBASE_COMPARE_GREATER_OR_EQUAL,
  HBASE_COMPARE_GREATER,
  HBASE_COMPARE_NO_OP,
} HBaseCompareOp;

/**
 * HBaseCondition:
 *
 * A test of one cell (the newest version of one column) of the row a
 * check-and-mutate changes.  Builders never fail; a bad condition is
 * reported by hbase_table_check_and_mutate() before anything is sent.
 * Immutable once built; copied with hbase_condition_copy().
 *
 * Since: 0.1
 */
typedef struct _HBaseCondition HBaseCondition;

#define HBASE_TYPE_CONDITION (hbase_condition_get_type ())
GType           hbase_condition_get_type    (void) G_GNUC_CONST;

HBaseCondition *hbase_condition_new         (const char     *family,
                                             const char     *qualifier,
                                             HBaseCompareOp  op,
                                             GBytes         *value);
HBaseCondition *hbase_condition_new_bytes   (GBytes         *family,
                                             GBytes         *qualifier,
                                             HBaseCompareOp  op,
                                             GBytes         *value);
HBaseCondition *hbase_condition_new_absent  (const char     *family,
                                             const char     *qualifier);
HBaseCondition *hbase_condition_new_present (const char     *family,
                                             const char     *qualifier);
HBaseCondition *hbase_condition_copy        (const HBaseCondition *condition);
void            hbase_condition_free        (HBaseCondition *condition);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseCondition, hbase_condition_free)

G_END_DECLS

#endif /* HBASE_CONDITION_H */
