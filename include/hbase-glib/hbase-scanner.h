/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-scanner.h: streaming the rows of a key range. */
#ifndef HBASE_SCANNER_H
#define HBASE_SCANNER_H

#if !defined(__HBASE_GLIB_INSIDE__) && !defined(HBASE_GLIB_COMPILATION)
#error "Only <hbase-glib/hbase-glib.h> can be included directly."
#endif

#include <gio/gio.h>

#include <hbase-glib/hbase-row.h>
#include <hbase-glib/hbase-table.h>

G_BEGIN_DECLS

/**
 * HBaseScanOptions:
 * @start_row: (nullable): first row (inclusive; the last one when
 *   @reversed); %NULL or empty for the table's start
 * @stop_row: (nullable): where to stop (exclusive); %NULL or empty for the
 *   table's end
 * @prefix: (nullable): only rows starting with these bytes; combined with
 *   @start_row/@stop_row by narrowing the range
 * @reversed: scan from high keys to low
 * @limit: at most this many rows, 0 for all
 * @caching: rows fetched per round trip, 0 for 100
 * @batch: at most this many cells per partial row from the server, 0 for
 *   whole rows; partial rows are stitched back into whole rows
 * @read: columns, versions, time range and filter, as for gets
 *
 * What a scan returns.  Initialise with %HBASE_SCAN_OPTIONS_INIT (or
 * hbase_scan_options_new()).
 *
 * Who owns the pointers follows docs/api-conventions.md: a struct from
 * hbase_scan_options_new() or hbase_scan_options_copy() owns what its
 * setters stored, @read's included (each setter copies or references its
 * value and drops the previous one; hbase_scan_options_free() releases
 * them), while a struct on the stack filled with initialisers only
 * borrows its pointers and is never passed to the setters or to
 * hbase_scan_options_free().
 *
 * Since: 0.1
 */
typedef struct {
  GBytes *start_row;
  GBytes *stop_row;
  GBytes *prefix;
  gboolean reversed;
  guint limit;
  guint caching;
  guint batch;
  HBaseReadOptions read;
  /*< private >*/
  gpointer padding[8];
} HBaseScanOptions;

/**
 * HBASE_SCAN_OPTIONS_INIT:
 *
 * The defaults: the whole table, forward, every row, 100 rows per round
 * trip, whole rows, and the defaults of %HBASE_READ_OPTIONS_INIT.
 *
 * Since: 0.1
 */
#define HBASE_SCAN_OPTIONS_INIT { .read = HBASE_READ_OPTIONS_INIT }

#define HBASE_TYPE_SCAN_OPTIONS (hbase_scan_options_get_type ())
GType             hbase_scan_options_get_type      (void) G_GNUC_CONST;
HBaseScanOptions *hbase_scan_options_new           (void);
HBaseScanOptions *hbase_scan_options_copy          (const HBaseScanOptions *options);
void              hbase_scan_options_free          (HBaseScanOptions       *options);
void              hbase_scan_options_set_start_row (HBaseScanOptions       *options,
                                                    GBytes                 *start_row);
void              hbase_scan_options_set_stop_row  (HBaseScanOptions       *options,
                                                    GBytes                 *stop_row);
void              hbase_scan_options_set_prefix    (HBaseScanOptions       *options,
                                                    GBytes                 *prefix);
void              hbase_scan_options_set_read      (HBaseScanOptions       *options,
                                                    const HBaseReadOptions *read);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseScanOptions, hbase_scan_options_free)

/**
 * HBaseScanner:
 *
 * An open scan.  It fetches @caching rows at a time, so memory stays
 * bounded however long the range; it closes its server-side scanner when
 * exhausted or freed; when the gateway expires the scanner (after 60 s
 * without a fetch), or on the native backend the region server loses it
 * (its lease expired, the region moved, the connection broke), it opens a
 * new one just after the last row returned, so no row is lost or repeated.  Use from one thread at a time.  A #GObject:
 * the last g_object_unref() closes it.
 *
 * Since: 0.1
 */
#define HBASE_TYPE_SCANNER (hbase_scanner_get_type ())
G_DECLARE_FINAL_TYPE (HBaseScanner, hbase_scanner, HBASE, SCANNER, GObject)

HBaseScanner *hbase_table_scan          (HBaseTable             *table,
                                         const HBaseScanOptions *options,
                                         GError                **error);
gboolean      hbase_scanner_next        (HBaseScanner           *scanner,
                                         HBaseRow              **row,
                                         GCancellable           *cancellable,
                                         GError                **error);
void          hbase_scanner_next_async  (HBaseScanner           *scanner,
                                         GCancellable           *cancellable,
                                         GAsyncReadyCallback     callback,
                                         gpointer                user_data);
gboolean      hbase_scanner_next_finish (HBaseScanner           *scanner,
                                         GAsyncResult           *result,
                                         HBaseRow              **row,
                                         GError                **error);

GBytes       *hbase_prefix_stop_row     (GBytes                 *prefix);

/* string forms of the prefix (binary prefixes need the GBytes forms above) */
void          hbase_scan_options_set_prefix_string (HBaseScanOptions *options,
                                                    const char       *prefix);
HBaseScanner *hbase_table_scan_prefix              (HBaseTable       *table,
                                                    const char       *prefix,
                                                    GError          **error);

/* deprecated: the 0.1 names, for one release (see NEWS) */
G_GNUC_DEPRECATED_FOR (g_object_unref)
void hbase_scanner_free (HBaseScanner *scanner);

G_END_DECLS

#endif /* HBASE_SCANNER_H */
