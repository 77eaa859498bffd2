/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-table-native.h (private): what the table layer's native-backend
 * code (hbase-table-native.c) shares with the scanner: the client's native
 * client, rows built from native cells, columns converted, and the
 * NOT_SUPPORTED error every operation the native backend lacks gives.
 */
#ifndef HBASE_TABLE_NATIVE_H
#define HBASE_TABLE_NATIVE_H

#include "hbase-table-call.h"
#include "../native/hbase-native-scan.h"

G_BEGIN_DECLS

/* The native client of @table's client (made on first use); NULL on the
 * Thrift2 backend. */
HBaseNativeClient *_hbase_table_native_client        (HBaseTable *table);
/* The same for @client (the admin calls). */
HBaseNativeClient *_hbase_table_native_client_of     (HBaseClient *client);
/* An HBaseRow of @cells (HBaseNativeCell *, one row, the server's order);
 * no cell: an empty row without a key, as the Thrift2 path gives. */
HBaseRow          *_hbase_table_native_row           (GPtrArray  *cells);
/* @columns (HBaseColumn *) as HBaseNativeColumn *; NULL for NULL or none. */
GPtrArray         *_hbase_table_native_columns       (GPtrArray  *columns);
/* The TPuts and TDeletes of @rm as HBaseNativeMutation *, or NULL with
 * @error set. */
GPtrArray         *_hbase_table_native_row_mutations (HbaseThriftTRowMutations *rm,
                                                      GError                  **error);
/* Increment, append and check-and-mutate (hbase-table-native-atomic.c):
 * whether @call is one of them, and running it. */
gboolean           _hbase_table_native_atomic_supports (TableCall *call);
gboolean           _hbase_table_native_atomic_run      (HBaseNativeClient *native,
                                                        TableCall         *call,
                                                        GCancellable      *cancellable,
                                                        GError           **error);
/* The generated TGets of the structures' reads (hbase-table-native-generated.c):
 * the columns of one (HBaseNativeColumn *, NULL for all), and running
 * them all (a TResult each in call->results). */
GPtrArray         *_hbase_table_native_tget_columns  (HbaseThriftTGet *tget);
gboolean           _hbase_table_native_get_generated (HBaseNativeClient *native,
                                                      TableCall         *call,
                                                      GCancellable      *cancellable,
                                                      GError           **error);
/* HBASE_ERROR_NOT_SUPPORTED: "@what is not supported on the native
 * backend yet ..."; returns FALSE. */
gboolean           _hbase_table_native_not_supported (GError    **error,
                                                      const char *what);

G_END_DECLS

#endif /* HBASE_TABLE_NATIVE_H */
