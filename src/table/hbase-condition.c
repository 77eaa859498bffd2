/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-condition.c: HBaseCondition, the cell test of a check-and-mutate.
 *
 * Like mutations, conditions are built without errors: a bad argument is
 * kept as the condition's problem and reported by the call that sends it.
 *
 * HBase treats an empty comparison value as "no value": EQUAL then passes
 * when the cell is absent (or empty), NOT_EQUAL when it holds bytes.  An
 * ordering comparison against an empty value would silently mean the same
 * thing, so it is refused.  NO_OP exists in the Thrift enum but the region
 * server throws on it, so it is refused too. */
#include "config.h"

#include <string.h>

#include "hbase-condition-private.h"
#include "hbase-table-private.h"

struct _HBaseCondition {
  GBytes *family;
  GBytes *qualifier;      /* never NULL; may be empty */
  HBaseCompareOp op;
  GBytes *value;          /* NULL: absent (EQUAL) or present (NOT_EQUAL) */
  char *problem;
};

G_DEFINE_BOXED_TYPE (HBaseCondition, hbase_condition, hbase_condition_copy, hbase_condition_free)

static HBaseCondition *
condition_new (GBytes *family, GBytes *qualifier, HBaseCompareOp op, GBytes *value)
{
  HBaseCondition *condition = g_new0 (HBaseCondition, 1);

  condition->family = family;
  condition->qualifier = qualifier != NULL ? qualifier : g_bytes_new_static ("", 0);
  condition->op = op;
  condition->value = value != NULL && g_bytes_get_size (value) > 0 ? g_bytes_ref (value) : NULL;
  if (family == NULL || g_bytes_get_size (family) == 0)
    condition->problem = g_strdup ("the condition has no column family");
  else if ((guint) op > HBASE_COMPARE_NO_OP)
    condition->problem = g_strdup_printf ("the condition has the unknown operator %d", (int) op);
  else if (op == HBASE_COMPARE_NO_OP)
    /* HRegion.matches() throws on it; the gateway's HBase client then
     * retries the call for minutes before it fails */
    condition->problem = g_strdup ("HBASE_COMPARE_NO_OP cannot be used in a check-and-mutate "
                                   "(HBase's region server fails it with \"Unknown Compare op "
                                   "NO_OP\")");
  else if (condition->value == NULL && op != HBASE_COMPARE_EQUAL && op != HBASE_COMPARE_NOT_EQUAL)
    condition->problem = g_strdup ("the condition compares with an empty value using an ordering "
                                   "operator (HBase reads an empty value as \"no cell\"; use "
                                   "hbase_condition_new_absent() or _present())");
  return condition;
}

static GBytes *
bytes_or_null (const char *text)
{
  return text != NULL ? g_bytes_new (text, strlen (text)) : NULL;
}

/**
 * hbase_condition_new:
 * @family: the column family
 * @qualifier: (nullable): the qualifier; %NULL for the empty one
 * @op: how the cell's value compares with @value ("cell OP value")
 * @value: (nullable): the value to compare with (referenced); %NULL or
 *   empty only with %HBASE_COMPARE_EQUAL (passes when the cell is absent)
 *   or %HBASE_COMPARE_NOT_EQUAL (passes when it holds a value)
 *
 * A test of the newest version of one column.
 *
 * Returns: (transfer full): the condition
 *
 * Since: 0.1
 */
HBaseCondition *
hbase_condition_new (const char *family, const char *qualifier, HBaseCompareOp op,
                     GBytes *value)
{
  return condition_new (bytes_or_null (family), bytes_or_null (qualifier), op, value);
}

/**
 * hbase_condition_new_bytes:
 * @family: the column family (referenced)
 * @qualifier: (nullable): the qualifier (referenced), any bytes
 * @op: how the cell's value compares with @value
 * @value: (nullable): the value to compare with (referenced)
 *
 * hbase_condition_new() for binary families and qualifiers.
 *
 * Returns: (transfer full): the condition
 *
 * Since: 0.1
 */
HBaseCondition *
hbase_condition_new_bytes (GBytes *family, GBytes *qualifier, HBaseCompareOp op, GBytes *value)
{
  return condition_new (family != NULL ? g_bytes_ref (family) : NULL,
                        qualifier != NULL ? g_bytes_ref (qualifier) : NULL, op, value);
}

/**
 * hbase_condition_new_absent:
 * @family: the column family
 * @qualifier: (nullable): the qualifier; %NULL for the empty one
 *
 * Passes when the column has no cell (or an empty one: HBase does not tell
 * them apart here).  The usual "insert if not there yet".
 *
 * Returns: (transfer full): the condition
 *
 * Since: 0.1
 */
HBaseCondition *
hbase_condition_new_absent (const char *family, const char *qualifier)
{
  return hbase_condition_new (family, qualifier, HBASE_COMPARE_EQUAL, NULL);
}

/**
 * hbase_condition_new_present:
 * @family: the column family
 * @qualifier: (nullable): the qualifier; %NULL for the empty one
 *
 * Passes when the column has a cell with a non-empty value.
 *
 * Returns: (transfer full): the condition
 *
 * Since: 0.1
 */
HBaseCondition *
hbase_condition_new_present (const char *family, const char *qualifier)
{
  return hbase_condition_new (family, qualifier, HBASE_COMPARE_NOT_EQUAL, NULL);
}

/**
 * hbase_condition_copy:
 * @condition: a condition
 *
 * Copies @condition; the copy shares its bytes, which are immutable.
 *
 * Returns: (transfer full): a copy
 *
 * Since: 0.1
 */
HBaseCondition *
hbase_condition_copy (const HBaseCondition *condition)
{
  HBaseCondition *copy;

  g_return_val_if_fail (condition != NULL, NULL);
  copy = g_new0 (HBaseCondition, 1);
  copy->family = condition->family != NULL ? g_bytes_ref (condition->family) : NULL;
  copy->qualifier = g_bytes_ref (condition->qualifier);
  copy->op = condition->op;
  copy->value = condition->value != NULL ? g_bytes_ref (condition->value) : NULL;
  copy->problem = g_strdup (condition->problem);
  return copy;
}

/**
 * hbase_condition_free:
 * @condition: (nullable) (transfer full): a condition
 *
 * Frees @condition.  Does nothing for %NULL.
 *
 * Since: 0.1
 */
void
hbase_condition_free (HBaseCondition *condition)
{
  if (condition == NULL)
    return;
  g_clear_pointer (&condition->family, g_bytes_unref);
  g_clear_pointer (&condition->qualifier, g_bytes_unref);
  g_clear_pointer (&condition->value, g_bytes_unref);
  g_free (condition->problem);
  g_free (condition);
}

/* --- for the table ---------------------------------------------------------------- */

gboolean
_hbase_condition_check (const HBaseCondition *condition, GError **error)
{
  if (condition == NULL)
    return _hbase_illegal (error, "the condition is NULL");
  if (condition->problem != NULL)
    return _hbase_illegal (error, "%s", condition->problem);
  return TRUE;
}

void
_hbase_condition_to_thrift (const HBaseCondition *condition, GByteArray **family,
                            GByteArray **qualifier, HbaseThriftTCompareOp *op, GByteArray **value)
{
  /* HBase evaluates "value OP cell": the mirror of "cell OP value" */
  static const HbaseThriftTCompareOp mirrored[] = {
    [HBASE_COMPARE_LESS] = HBASE_THRIFT_T_COMPARE_OP_GREATER,
    [HBASE_COMPARE_LESS_OR_EQUAL] = HBASE_THRIFT_T_COMPARE_OP_GREATER_OR_EQUAL,
    [HBASE_COMPARE_EQUAL] = HBASE_THRIFT_T_COMPARE_OP_EQUAL,
    [HBASE_COMPARE_NOT_EQUAL] = HBASE_THRIFT_T_COMPARE_OP_NOT_EQUAL,
    [HBASE_COMPARE_GREATER_OR_EQUAL] = HBASE_THRIFT_T_COMPARE_OP_LESS_OR_EQUAL,
    [HBASE_COMPARE_GREATER] = HBASE_THRIFT_T_COMPARE_OP_LESS,
    [HBASE_COMPARE_NO_OP] = HBASE_THRIFT_T_COMPARE_OP_NO_OP,
  };

  *family = _hbase_byte_array_from_bytes (condition->family);
  *qualifier = _hbase_byte_array_from_bytes (condition->qualifier);
  *op = mirrored[condition->op];
  /* the gateway always sends the argument: "no value" is empty bytes */
  *value = _hbase_byte_array_from_bytes (condition->value);
}
