/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-native-client.h (private): reads and writes through HBase's own
 * RPC: where hbase:meta is (the ClientMetaService registry of the first
 * reachable bootstrap server), which region holds a row (a reversed scan
 * of hbase:meta, cached), and get, put and delete-row on that region's
 * server (scans: hbase-native-scan.h).  One client serves many threads at
 * once: the region cache is under a lock, and each server has a bounded
 * pool of connections, each lent to one call at a time.  Failed calls are
 * retried as HBase's own client does (relocate, back off, reconnect),
 * never past the operation's deadline.  The table layer runs HBaseTable
 * on it for clients with bootstrap servers (docs/native-backend.md).
 */
#ifndef HBASE_NATIVE_CLIENT_H
#define HBASE_NATIVE_CLIENT_H

#include <gio/gio.h>
#include <protobuf-c/protobuf-c.h>

#include "hbase-native-cells.h"
#include "hbase-native-connection.h"

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
  gint    extra_refs;  /* holders beyond the first (_hbase_native_region_ref); 0 when made */
} HBaseNativeRegion;

/* A column to read: a whole family when @qualifier is NULL. */
typedef struct
{
  GBytes *family;
  GBytes *qualifier;
} HBaseNativeColumn;

/* Drops one holder of @region: the last one frees it.  A region is not
 * changed once made, so the cache lends its own (a reference, no copy). */
void               _hbase_native_region_free (HBaseNativeRegion *region);
HBaseNativeRegion *_hbase_native_region_ref  (HBaseNativeRegion *region);

/* @bootstrap: "host:port" servers that serve ClientMetaService (masters
 * or region servers), tried in order; @timeout_ms bounds each operation
 * (connects included). */
HBaseNativeClient *_hbase_native_client_new  (const char *const *bootstrap,
                                              guint              timeout_ms);
void               _hbase_native_client_free (HBaseNativeClient *self);

/* At most @pool_size connections to one server (0: 8); a call waits
 * for a free one until its deadline.  Set before the client is shared. */
void               _hbase_native_client_set_pool_size       (HBaseNativeClient *self,
                                                             guint              pool_size);
/* The connect timeout (0: the operation timeout). */
void               _hbase_native_client_set_connect_timeout (HBaseNativeClient *self,
                                                             guint              connect_timeout_ms);
/* The base pause of the backoff (0: 100 ms). */
void               _hbase_native_client_set_pause           (HBaseNativeClient *self,
                                                             guint              pause_ms);
/* The largest reply frame accepted from a server (the max-message-size
 * setting; 0: HBASE_NATIVE_MAX_FRAME). */
void               _hbase_native_client_set_max_message     (HBaseNativeClient *self,
                                                             gsize              max_message);
/* A connection to @host:@port for @service with the client's connect
 * timeout and reply limit (it connects on its first call). */
HBaseNativeConnection *_hbase_native_client_connection_new  (HBaseNativeClient *self,
                                                             const char        *host,
                                                             guint              port,
                                                             const char        *service);

/* Makes every call fail, before anything is sent, with
 * HBASE_ERROR_NOT_SUPPORTED and @message (a setting the client cannot
 * honour, such as Kerberos).  Set before the client is shared. */
void               _hbase_native_client_refuse              (HBaseNativeClient *self,
                                                             const char        *message);
/* FALSE, with @error set, if the client was made to refuse its calls. */
gboolean           _hbase_native_client_check_refused       (HBaseNativeClient *self,
                                                             GError           **error);

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
/* The error of a lookup that found the row's region offline (or a hole)
 * or not yet on a server (a region just split, merged or created), as the
 * Java client names them: retried, the region looked up again. */
void               _hbase_native_error_unassigned    (GError    **error,
                                                      const char *table,
                                                      gboolean    offline);
/* Takes @meta as hbase:meta's location, as if the registry had named it
 * (tests put a server that is gone there). */
void               _hbase_native_client_cache_meta   (HBaseNativeClient       *self,
                                                      const HBaseNativeRegion *meta);

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
/* The same within the time range [@min_ts, @max_ts) (@max_ts 0: none). */
GPtrArray         *_hbase_native_client_get_range  (HBaseNativeClient *self,
                                                    const char        *table,
                                                    GBytes            *row,
                                                    GPtrArray         *columns,
                                                    guint              max_versions,
                                                    gint64             min_ts,
                                                    gint64             max_ts,
                                                    GCancellable      *cancellable,
                                                    GError           **error);
/* The cells of each of @rows (GBytes *), in their order (GPtrArray * of
 * HBaseNativeCell *, empty for a missing row), read with one Multi call
 * per region server (one RegionAction per region); a region or row
 * answered with a retryable exception is tried again as the policy
 * says, the others kept (hbase-native-multi.c). */
GPtrArray         *_hbase_native_client_get_multi  (HBaseNativeClient *self,
                                                    const char        *table,
                                                    GPtrArray         *rows,
                                                    GPtrArray         *columns,
                                                    guint              max_versions,
                                                    gint64             min_ts,
                                                    gint64             max_ts,
                                                    GCancellable      *cancellable,
                                                    GError           **error);
/* Whether @row has a cell the same read would return (a Get with
 * existence_only: no cell is sent back). */
gboolean           _hbase_native_client_exists     (HBaseNativeClient *self,
                                                    const char        *table,
                                                    GBytes            *row,
                                                    GPtrArray         *columns,
                                                    guint              max_versions,
                                                    gint64             min_ts,
                                                    gint64             max_ts,
                                                    gboolean          *exists,
                                                    GCancellable      *cancellable,
                                                    GError           **error);
/* The same three reads with a server-side filter: @filter, a serialized
 * FilterProtos Filter message (hbase-native-filter.h), NULL for none. */
GPtrArray         *_hbase_native_client_get_filtered       (HBaseNativeClient *self,
                                                            const char        *table,
                                                            GBytes            *row,
                                                            GPtrArray         *columns,
                                                            guint              max_versions,
                                                            gint64             min_ts,
                                                            gint64             max_ts,
                                                            GBytes            *filter,
                                                            GCancellable      *cancellable,
                                                            GError           **error);
/* The same with HBase's per-family paging of a row's cells (Get's
 * storeLimit and storeOffset; 0: none). */
GPtrArray         *_hbase_native_client_get_paged          (HBaseNativeClient *self,
                                                            const char        *table,
                                                            GBytes            *row,
                                                            GPtrArray         *columns,
                                                            guint              max_versions,
                                                            gint64             min_ts,
                                                            gint64             max_ts,
                                                            GBytes            *filter,
                                                            guint              store_limit,
                                                            guint              store_offset,
                                                            GCancellable      *cancellable,
                                                            GError           **error);
GPtrArray         *_hbase_native_client_get_multi_filtered (HBaseNativeClient *self,
                                                            const char        *table,
                                                            GPtrArray         *rows,
                                                            GPtrArray         *columns,
                                                            guint              max_versions,
                                                            gint64             min_ts,
                                                            gint64             max_ts,
                                                            GBytes            *filter,
                                                            GCancellable      *cancellable,
                                                            GError           **error);
gboolean           _hbase_native_client_exists_filtered    (HBaseNativeClient *self,
                                                            const char        *table,
                                                            GBytes            *row,
                                                            GPtrArray         *columns,
                                                            guint              max_versions,
                                                            gint64             min_ts,
                                                            gint64             max_ts,
                                                            GBytes            *filter,
                                                            gboolean          *exists,
                                                            GCancellable      *cancellable,
                                                            GError           **error);
/* A cell of a get's reply as it lies in the reply (no copy): valid only
 * while the HBaseNativeCellFunc it is given to runs. */
typedef struct
{
  const guint8 *row, *family, *qualifier, *value;
  gsize         row_len, family_len, qualifier_len, value_len;
  gint64        timestamp;
  guint8        type;
} HBaseNativeCellView;
typedef void (*HBaseNativeCellFunc) (const HBaseNativeCellView *cell, gpointer user_data);
/* _hbase_native_client_get_filtered() without the cells: each is given
 * to @func, in order, once the reply is whole and checked (never for a
 * failed attempt). */
gboolean           _hbase_native_client_get_visit          (HBaseNativeClient *self,
                                                            const char        *table,
                                                            GBytes            *row,
                                                            GPtrArray         *columns,
                                                            guint              max_versions,
                                                            gint64             min_ts,
                                                            gint64             max_ts,
                                                            GBytes            *filter,
                                                            HBaseNativeCellFunc func,
                                                            gpointer           user_data,
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
/* One Mutate of @row: a put of @cells (family, qualifier, value,
 * timestamp or HBASE_NATIVE_LATEST_TIMESTAMP), or a delete of @cells
 * (type HBASE_NATIVE_CELL_DELETE: one version, at the cell's timestamp
 * or the newest; _DELETE_COLUMN: every version up to it; _DELETE_FAMILY:
 * the family up to it, no qualifier), of the whole row when @cells is
 * empty.  @timestamp: the mutation's own (the cells' default, and a whole
 * row delete's bound), or HBASE_NATIVE_LATEST_TIMESTAMP; @durability:
 * MutationProto.Durability (0: the table's).  Row and type of put cells
 * are ignored. */
gboolean           _hbase_native_client_mutate     (HBaseNativeClient *self,
                                                    const char        *table,
                                                    GBytes            *row,
                                                    gboolean           is_put,
                                                    GPtrArray         *cells,
                                                    gint64             timestamp,
                                                    guint              durability,
                                                    GCancellable      *cancellable,
                                                    GError           **error);
/* One mutation of _hbase_native_client_mutate_row(), as the arguments of
 * _hbase_native_client_mutate(). */
typedef struct
{
  gboolean   is_put;
  GPtrArray *cells;
  gint64     timestamp;
  guint      durability;
} HBaseNativeMutation;
/* @mutations (HBaseNativeMutation *) of @row applied all or none: one
 * atomic RegionAction of a Multi call. */
gboolean           _hbase_native_client_mutate_row (HBaseNativeClient *self,
                                                    const char        *table,
                                                    GBytes            *row,
                                                    GPtrArray         *mutations,
                                                    GCancellable      *cancellable,
                                                    GError           **error);
/* @mutations (HBaseNativeMutation *) of @rows (GBytes *, one each), not
 * atomically: one Multi call per region server, one RegionAction per
 * region, in order per row; retryable failures sent again (with the later
 * mutations of their row).  After a failure, some may be applied
 * (hbase-native-multi-write.c). */
gboolean           _hbase_native_client_mutate_multi (HBaseNativeClient *self,
                                                      const char        *table,
                                                      GPtrArray         *rows,
                                                      GPtrArray         *mutations,
                                                      GCancellable      *cancellable,
                                                      GError           **error);
/* Deletes every cell of @row (all families, all versions up to now). */
gboolean           _hbase_native_client_delete_row (HBaseNativeClient *self,
                                                    const char        *table,
                                                    GBytes            *row,
                                                    GCancellable      *cancellable,
                                                    GError           **error);

/* The same, with the deadline of the operation it is part of (monotonic
 * µs, 0: none). */
HBaseNativeRegion *_hbase_native_client_locate_by   (HBaseNativeClient *self,
                                                     const char        *table,
                                                     GBytes            *row,
                                                     gint64             deadline,
                                                     GCancellable      *cancellable,
                                                     GError           **error);

/* For the operations (hbase-native-ops.c, hbase-native-scan.c): the
 * deadline of an operation starting now (monotonic µs, 0: none), and one
 * ClientService call on @region's server through a connection of its
 * pool (waiting for a free one until @deadline).  A connection whose call
 * failed on the wire is dropped; the next call makes a new one. */
gint64             _hbase_native_client_deadline   (HBaseNativeClient       *self);
gboolean           _hbase_native_client_call       (HBaseNativeClient                *self,
                                                    const HBaseNativeRegion          *region,
                                                    const char                       *method,
                                                    const ProtobufCMessage           *param,
                                                    const ProtobufCMessageDescriptor *descriptor,
                                                    ProtobufCMessage                **response,
                                                    GBytes                          **cellblock,
                                                    gint64                            deadline,
                                                    GCancellable                     *cancellable,
                                                    GError                          **error);

/* The same, and *@sent says whether the request was written (so the
 * server may have run it), for calls that must not run twice. */
gboolean           _hbase_native_client_call_sent  (HBaseNativeClient                *self,
                                                    const HBaseNativeRegion          *region,
                                                    const char                       *method,
                                                    const ProtobufCMessage           *param,
                                                    const ProtobufCMessageDescriptor *descriptor,
                                                    ProtobufCMessage                **response,
                                                    GBytes                          **cellblock,
                                                    gint64                            deadline,
                                                    gboolean                         *sent,
                                                    GCancellable                     *cancellable,
                                                    GError                          **error);

/* What to do after a failed attempt (notes: errors and retries). */
typedef enum
{
  HBASE_NATIVE_RETRY_NO,        /* report the error */
  HBASE_NATIVE_RETRY_RELOCATE,  /* forget the region, look it up again, call again */
  HBASE_NATIVE_RETRY_SAME,      /* call the same server again */
} HBaseNativeRetry;

/* The most attempts of one call (the first included). */
#define HBASE_NATIVE_MAX_ATTEMPTS 16

/* The decision, with no side effect: after attempt number @attempt (0:
 * the first) failed with @error, at @now, for an operation ending at
 * @deadline (0: none), with a backoff pause of @pause_ms.  Relocate on a
 * region that is elsewhere (at once the first time), on a server that is
 * gone or cannot be reached (refused, reset, a connect that timed out
 * before the deadline); the same server on a busy or opening region,
 * a full call queue, throttling; nothing on a permanent error
 * (do_not_retry, a final class), a malformed reply, cancellation, or when the
 * wait (*@wait_us: @pause_ms × 1, 2, 3, 5, 10, 20, 40, 100, 100…) would
 * end at or past @deadline. */
HBaseNativeRetry   _hbase_native_retry_decide      (const GError *error,
                                                    guint         attempt,
                                                    guint         pause_ms,
                                                    gint64        now,
                                                    gint64        deadline,
                                                    gint64       *wait_us);
/* Acts on the decision for @local (the error of attempt @attempt on
 * @region of @table, NULL when the region was not located): forgets the
 * region, waits (cancellably); TRUE when the caller should try again
 * (then *@local is cleared), FALSE to report *@local (which may now be
 * a cancellation). */
gboolean           _hbase_native_client_retry      (HBaseNativeClient       *self,
                                                    const char              *table,
                                                    const HBaseNativeRegion *region,
                                                    guint                    attempt,
                                                    gint64                   deadline,
                                                    GCancellable            *cancellable,
                                                    GError                 **local);

/* For the master's calls (hbase-native-master.c): the bootstrap servers,
 * the connect timeout, and the active master's "host:port" remembered
 * (a copy, NULL when unknown; setting NULL forgets it). */
const char *const *_hbase_native_client_get_bootstrap       (HBaseNativeClient *self);
guint              _hbase_native_client_get_connect_timeout (HBaseNativeClient *self);
char              *_hbase_native_client_dup_master          (HBaseNativeClient *self);
void               _hbase_native_client_set_master          (HBaseNativeClient *self,
                                                             const char        *master);

/* Pool statistics of @address ("host:port"): connections open now
 * (lent or idle), the most open at once, and connections made by the
 * whole client. */
void               _hbase_native_client_pool_stats (HBaseNativeClient *self,
                                                    const char        *address,
                                                    guint             *n_open,
                                                    guint             *peak,
                                                    guint             *n_made);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseNativeClient, _hbase_native_client_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseNativeRegion, _hbase_native_region_free)

G_END_DECLS

#endif /* HBASE_NATIVE_CLIENT_H */
