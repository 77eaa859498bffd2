/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-index-report.c: the report of a maintenance pass
 * (HBaseIndexReport): rows and entries seen, entries missing or extra,
 * rows in doubt or repaired, and examples. */
#include "config.h"

#include "hbase-index-maintenance-private.h"

/* --- reports -------------------------------------------------------------------------------- */

G_DEFINE_BOXED_TYPE (HBaseIndexReport, hbase_index_report, hbase_index_report_copy,
                     hbase_index_report_free)

HBaseIndexReport *
_hbase_index_report_new (void)
{
  HBaseIndexReport *report = g_new0 (HBaseIndexReport, 1);

  report->examples = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (report->examples, NULL);
  return report;
}

/**
 * hbase_index_report_copy:
 * @report: a report
 *
 * Copies @report.
 *
 * Returns: (transfer full): a copy
 *
 * Since: 0.1
 */
HBaseIndexReport *
hbase_index_report_copy (const HBaseIndexReport *report)
{
  HBaseIndexReport *copy;

  g_return_val_if_fail (report != NULL, NULL);
  copy = _hbase_index_report_new ();
  copy->rows = report->rows;
  copy->entries = report->entries;
  copy->missing = report->missing;
  copy->extra = report->extra;
  copy->in_doubt = report->in_doubt;
  copy->repaired = report->repaired;
  copy->rebuilt = report->rebuilt;
  copy->note = g_strdup (report->note);
  g_ptr_array_set_size (copy->examples, 0);
  for (guint i = 0; i < report->examples->len; i++)
    g_ptr_array_add (copy->examples, g_strdup (g_ptr_array_index (report->examples, i)));
  return copy;
}

/**
 * hbase_index_report_free:
 * @report: (nullable) (transfer full): a report
 *
 * Frees @report.  Does nothing for %NULL.
 *
 * Since: 0.1
 */
void
hbase_index_report_free (HBaseIndexReport *report)
{
  if (report == NULL)
    return;
  g_ptr_array_unref (report->examples);
  g_free (report->note);
  g_free (report);
}

/**
 * hbase_index_report_get_rows:
 * @report: a report
 *
 * Gets how many rows of the table were read.
 *
 * Returns: HBase rows read
 *
 * Since: 0.1
 */
guint64
hbase_index_report_get_rows (const HBaseIndexReport *report)
{
  g_return_val_if_fail (report != NULL, 0);
  return report->rows;
}

/**
 * hbase_index_report_get_entries:
 * @report: a report
 *
 * Gets how many index entries the rows read call for.
 *
 * Returns: index entries the rows should have (verify, repair) or were
 *   given (rebuild)
 *
 * Since: 0.1
 */
guint64
hbase_index_report_get_entries (const HBaseIndexReport *report)
{
  g_return_val_if_fail (report != NULL, 0);
  return report->entries;
}

/**
 * hbase_index_report_get_missing:
 * @report: a report
 *
 * Gets how many values of rows lack their index entry.
 *
 * Returns: values of HBase rows without their index entry (queries would
 *   miss those rows)
 *
 * Since: 0.1
 */
guint64
hbase_index_report_get_missing (const HBaseIndexReport *report)
{
  g_return_val_if_fail (report != NULL, 0);
  return report->missing;
}

/**
 * hbase_index_report_get_extra:
 * @report: a report
 *
 * Gets how many index entries point to a row that does not have the value.
 *
 * Returns: index entries whose row does not have that value (queries
 *   fetch and drop those rows)
 *
 * Since: 0.1
 */
guint64
hbase_index_report_get_extra (const HBaseIndexReport *report)
{
  g_return_val_if_fail (report != NULL, 0);
  return report->extra;
}

/**
 * hbase_index_report_get_in_doubt:
 * @report: a report
 *
 * Gets how many rows have index changes still pending.
 *
 * Returns: rows with index changes still pending (a write in flight, or
 *   one whose outcome is unknown and whose lease has not ended); a repair
 *   leaves those it could not settle
 *
 * Since: 0.1
 */
guint64
hbase_index_report_get_in_doubt (const HBaseIndexReport *report)
{
  g_return_val_if_fail (report != NULL, 0);
  return report->in_doubt;
}

/**
 * hbase_index_report_get_repaired:
 * @report: a report
 *
 * Gets how many rows a repair corrected.
 *
 * Returns: rows a repair made exact
 *
 * Since: 0.1
 */
guint64
hbase_index_report_get_repaired (const HBaseIndexReport *report)
{
  g_return_val_if_fail (report != NULL, 0);
  return report->repaired;
}

/**
 * hbase_index_report_get_rebuilt:
 * @report: a report
 *
 * Tells whether the index was rebuilt from scratch.
 *
 * Returns: whether the index was rebuilt from scratch
 *
 * Since: 0.1
 */
gboolean
hbase_index_report_get_rebuilt (const HBaseIndexReport *report)
{
  g_return_val_if_fail (report != NULL, FALSE);
  return report->rebuilt;
}

/**
 * hbase_index_report_is_consistent:
 * @report: a report of hbase_index_verify()
 *
 * Tells whether a verify found the index exact.
 *
 * Returns: %TRUE when nothing was missing nor extra
 *
 * Since: 0.1
 */
gboolean
hbase_index_report_is_consistent (const HBaseIndexReport *report)
{
  g_return_val_if_fail (report != NULL, FALSE);
  return report->missing == 0 && report->extra == 0;
}

/**
 * hbase_index_report_get_examples:
 * @report: a report
 *
 * Gets a few of the discrepancies found, described in words for people.  The
 * array belongs to @report.
 *
 * Returns: (transfer none) (array zero-terminated=1): some discrepancies
 *   in words
 *
 * Since: 0.1
 */
const char *const *
hbase_index_report_get_examples (const HBaseIndexReport *report)
{
  g_return_val_if_fail (report != NULL, NULL);
  return (const char *const *) report->examples->pdata;
}

/**
 * hbase_index_report_to_string:
 * @report: a report
 *
 * The report as lines of "key: value", for a command-line tool.
 *
 * Returns: (transfer full): the text
 *
 * Since: 0.1
 */
char *
hbase_index_report_to_string (const HBaseIndexReport *report)
{
  GString *out;

  g_return_val_if_fail (report != NULL, NULL);
  out = g_string_new (NULL);
  g_string_append_printf (out, "rows: %" G_GUINT64_FORMAT "\n", report->rows);
  g_string_append_printf (out, "entries: %" G_GUINT64_FORMAT "\n", report->entries);
  g_string_append_printf (out, "missing: %" G_GUINT64_FORMAT "\n", report->missing);
  g_string_append_printf (out, "extra: %" G_GUINT64_FORMAT "\n", report->extra);
  g_string_append_printf (out, "in doubt: %" G_GUINT64_FORMAT "\n", report->in_doubt);
  g_string_append_printf (out, "repaired: %" G_GUINT64_FORMAT "\n", report->repaired);
  g_string_append_printf (out, "rebuilt: %s\n", report->rebuilt ? "yes" : "no");
  if (report->note != NULL)
    g_string_append_printf (out, "note: %s\n", report->note);
  for (guint i = 0; i + 1 < report->examples->len; i++)
    g_string_append_printf (out, "example: %s\n", (char *) g_ptr_array_index (report->examples, i));
  return g_string_free (out, FALSE);
}
