/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-native-scan.h (private): scanning a key range over HBase's own RPC
 * (ClientService Scan: open, next, close), region after region.
 */
#ifndef HBASE_NATIVE_SCAN_H
#define HBASE_NATIVE_SCAN_H

#include "hbase-native-client.h"

G_BEGIN_DECLS

typedef struct _HBaseNativeScanner HBaseNativeScanner;

/* A scan of @table from @start_row (NULL or empty: the table's start) to
 * @stop_row (excluded; NULL or empty: the table's end), of @columns
 * (HBaseNativeColumn *, NULL: all; copied), @max_versions (0: 1), asking
 * for @caching rows per call (0: 100).  Nothing is sent until the first
 * _next().  @client must outlive the scanner. */
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
/* The next rows (HBaseNativeRow *), in key order; an empty array when the
 * scan is over.  The server's scanner is closed at each region's end. */
GPtrArray          *_hbase_native_scanner_next  (HBaseNativeScanner *self,
                                                 GCancellable       *cancellable,
                                                 GError            **error);
/* Closes the server's scanner if one is open (before the end of the scan);
 * _next() then returns no more rows. */
gboolean            _hbase_native_scanner_close (HBaseNativeScanner *self,
                                                 GCancellable       *cancellable,
                                                 GError            **error);
/* Frees the scanner, closing the server's scanner first if it is open. */
void                _hbase_native_scanner_free  (HBaseNativeScanner *self);
/* How many Scan calls the scanner made (opens, nexts, closes). */
guint               _hbase_native_scanner_get_n_calls (HBaseNativeScanner *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseNativeScanner, _hbase_native_scanner_free)

G_END_DECLS

#endif /* HBASE_NATIVE_SCAN_H */
