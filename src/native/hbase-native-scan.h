/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-native-scan.h (private): scanning a key range over HBase's own RPC
 * (ClientService Scan: open, next, close), region after region, forward or
 * reversed.
 */
#ifndef HBASE_NATIVE_SCAN_H
#define HBASE_NATIVE_SCAN_H

#include "hbase-native-client.h"

G_BEGIN_DECLS

typedef struct _HBaseNativeScanner HBaseNativeScanner;

/* What a scan reads.  The start row is where the scan begins: its lowest
 * key forward, its highest reversed (NULL or empty: the table's start,
 * or its end when @reversed); the stop row is where it ends (NULL or
 * empty: the table's end, or its start when @reversed); each inclusive
 * or not.  @columns (HBaseNativeColumn *, NULL: all), @max_versions (0:
 * 1), the time range [@min_ts, @max_ts) (@max_ts 0: none), @caching rows
 * per call (0: 100), @batch cells per result at most (0: whole rows;
 * otherwise a row may come in several pieces, one after the other), at
 * most @limit rows (0: all; only without @batch). */
typedef struct
{
  GBytes    *start_row;
  gboolean   include_start;
  GBytes    *stop_row;
  gboolean   include_stop;
  gboolean   reversed;
  GPtrArray *columns;
  guint      max_versions;
  gint64     min_ts;
  gint64     max_ts;
  guint      caching;
  guint      batch;
  guint      limit;
} HBaseNativeScanSpec;

/* A scan of @table as @spec says (copied).  Nothing is sent until the
 * first _next().  @client must outlive the scanner. */
HBaseNativeScanner *_hbase_native_scanner_new_full (HBaseNativeClient         *client,
                                                    const char                *table,
                                                    const HBaseNativeScanSpec *spec);
/* A forward scan of [@start_row, @stop_row) (NULL or empty: the table's
 * start or end) of @columns, @max_versions, @caching rows per call. */
HBaseNativeScanner *_hbase_native_scanner_new   (HBaseNativeClient *client,
                                                 const char        *table,
                                                 GBytes            *start_row,
                                                 GBytes            *stop_row,
                                                 GPtrArray         *columns,
                                                 guint              max_versions,
                                                 guint              caching);
/* Runs @filter (a serialized FilterProtos Filter message,
 * hbase-native-filter.h; NULL: none, referenced) on the server; before
 * the first _next(). */
void                _hbase_native_scanner_set_filter (HBaseNativeScanner *self,
                                                      GBytes             *filter);
/* The next rows (HBaseNativeRow *: whole rows, or with a batch the pieces
 * of rows), in the scan's order; an empty array when the scan is over.
 * A heartbeat (a reply without rows, the server still scanning) is not
 * the end: the scanner asks again.  The server's scanner is closed at
 * each region's end.  A failed open is retried as the client's policy
 * says; a failed next ends the call with its error (the scanner can be
 * restarted: _hbase_native_scan_error_resumable()). */
GPtrArray          *_hbase_native_scanner_next  (HBaseNativeScanner *self,
                                                 GCancellable       *cancellable,
                                                 GError            **error);
/* Whether a failed _next() is one after which the scan can resume with
 * a new server scanner (as HBase's own client does): the server forgot
 * the scanner (UnknownScannerException, its lease expired: LeaseException,
 * ScannerResetException), a next out of order
 * (OutOfOrderScannerNextException), an empty reply for a scanner the
 * server closed, the region moved, or the connection broke or timed out. */
gboolean            _hbase_native_scan_error_resumable (const GError *error);
/* Forgets the server's scanner (without closing it: after a failed
 * _next() it is gone or expires on its own) and starts again at
 * @start_row (inclusive or not; NULL or empty: the range's beginning as
 * at first), with at most @limit more rows (0: all), keeping the read
 * point of the region the scanner was in (the server's mvcc read point,
 * as HBase's own client keeps it across reopenings of one region). */
void                _hbase_native_scanner_restart (HBaseNativeScanner *self,
                                                   GBytes             *start_row,
                                                   gboolean            inclusive,
                                                   guint               limit);
/* Closes the server's scanner if one is open (before the end of the scan);
 * _next() then returns no more rows. */
gboolean            _hbase_native_scanner_close (HBaseNativeScanner *self,
                                                 GCancellable       *cancellable,
                                                 GError            **error);
/* Frees the scanner, closing the server's scanner first if it is open. */
void                _hbase_native_scanner_free  (HBaseNativeScanner *self);
/* How many Scan calls the scanner made (opens, nexts, closes). */
guint               _hbase_native_scanner_get_n_calls (HBaseNativeScanner *self);
/* The open server scanner: its id and region (NULL when none is open);
 * and the mvcc read point of the region being scanned (0: none yet). */
const HBaseNativeRegion *_hbase_native_scanner_get_open (HBaseNativeScanner *self,
                                                         guint64            *scanner_id);
guint64             _hbase_native_scanner_get_read_point (HBaseNativeScanner *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseNativeScanner, _hbase_native_scanner_free)

G_END_DECLS

#endif /* HBASE_NATIVE_SCAN_H */
