/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-native-client.h (private): reads and writes through HBase's own
 * RPC: where hbase:meta is (the ClientMetaService registry of the first
 * reachable bootstrap server), which region holds a row (a reversed scan
 * of hbase:meta, cached), and get, put and delete-row on that region's
 * server (scans: hbase-native-scan.h).  Not wired to the public table API yet (docs/native-backend.md).
 */
#ifndef HBASE_NATIVE_CLIENT_H
#define HBASE_NATIVE_CLIENT_H

#include <gio/gio.h>

#include "hbase-native-cells.h"

G_BEGIN_DECLS

/* A put cell with this timestamp gets the server's time. */
#define HBASE_NATIVE_LATEST_TIMESTAMP G_MAXINT64

typedef struct _HBaseNativeClient HBaseNativeClient;

/* Where a region is. */
typedef struct
{
  char   *table;       /* as hbase:meta names it: "ns:name", or "name" in the default namespace */
  GBytes *name;        /* the region name (hbase:meta's row key) */
  GBytes *start_key;   /* empty: the table's start */
  GBytes *end_key;     /* empty: the table's end */
  guint64 region_id;
  char   *host;
  guint   port;
} HBaseNativeRegion;

/* A column to read: a whole family when @qualifier is NULL. */
typedef struct
{
  GBytes *family;
  GBytes *qualifier;
} HBaseNativeColumn;

void               _hbase_native_region_free (HBaseNativeRegion *region);

/* @bootstrap: "host:port" servers that serve ClientMetaService (masters
 * or region servers), tried in order; @timeout_ms bounds each operation
 * (connects included). */
HBaseNativeClient *_hbase_native_client_new  (const char *const *bootstrap,
                                              guint              timeout_ms);
void               _hbase_native_client_free (HBaseNativeClient *self);

/* hbase:meta's location, from the first bootstrap server that answers
 * (one that cannot be connected to is skipped). */
HBaseNativeRegion *_hbase_native_client_locate_meta (HBaseNativeClient *self,
                                                     GCancellable      *cancellable,
                                                     GError           **error);
/* The region of @table holding @row, from the cache or hbase:meta.  A
 * missing table is HBASE_ERROR_NOT_FOUND naming TableNotFoundException,
 * as the Java client reports it. */
HBaseNativeRegion *_hbase_native_client_locate      (HBaseNativeClient *self,
                                                     const char        *table,
                                                     GBytes            *row,
                                                     GCancellable      *cancellable,
                                                     GError           **error);
/* How many regions are cached, and dropping one (as a NotServingRegion
 * reply does). */
guint              _hbase_native_client_n_cached     (HBaseNativeClient *self);
/* Caches a copy of @region (what a lookup does), replacing the cached
 * regions of its table it overlaps. */
void               _hbase_native_client_cache        (HBaseNativeClient       *self,
                                                      const HBaseNativeRegion *region);
void               _hbase_native_client_forget       (HBaseNativeClient *self,
                                                      const char        *table,
                                                      GBytes            *region_name);

/* The cells of @row (HBaseNativeCell *; an empty array when the row does
 * not exist).  @columns (HBaseNativeColumn *, NULL: all), @max_versions
 * (0: the server's default, 1). */
GPtrArray         *_hbase_native_client_get        (HBaseNativeClient *self,
                                                    const char        *table,
                                                    GBytes            *row,
                                                    GPtrArray         *columns,
                                                    guint              max_versions,
                                                    GCancellable      *cancellable,
                                                    GError           **error);
/* Writes @cells (HBaseNativeCell *: family, qualifier, value, timestamp
 * or HBASE_NATIVE_LATEST_TIMESTAMP; their row and type are ignored) to
 * @row, in one Mutate call. */
gboolean           _hbase_native_client_put        (HBaseNativeClient *self,
                                                    const char        *table,
                                                    GBytes            *row,
                                                    GPtrArray         *cells,
                                                    GCancellable      *cancellable,
                                                    GError           **error);
/* Deletes every cell of @row (all families, all versions up to now). */
gboolean           _hbase_native_client_delete_row (HBaseNativeClient *self,
                                                    const char        *table,
                                                    GBytes            *row,
                                                    GCancellable      *cancellable,
                                                    GError           **error);

/* For the operations (hbase-native-ops.c): the ClientService connection
 * to @region's server (owned by @self), and the deadline of an operation
 * starting now (monotonic µs). */
typedef struct _HBaseNativeConnection HBaseNativeConnection;
HBaseNativeConnection *_hbase_native_client_connection (HBaseNativeClient       *self,
                                                        const HBaseNativeRegion *region);
gint64                 _hbase_native_client_deadline   (HBaseNativeClient       *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseNativeClient, _hbase_native_client_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseNativeRegion, _hbase_native_region_free)

G_END_DECLS

#endif /* HBASE_NATIVE_CLIENT_H */
