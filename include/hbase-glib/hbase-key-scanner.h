/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-key-scanner.h: scans of a key schema's ranges, fanned out over the
 * salt buckets and merged in key order; paged queries. */
#ifndef HBASE_KEY_SCANNER_H
#define HBASE_KEY_SCANNER_H

#if !defined(__HBASE_GLIB_INSIDE__) && !defined(HBASE_GLIB_COMPILATION)
#error "Only <hbase-glib/hbase-glib.h> can be included directly."
#endif

#include <gio/gio.h>

#include <hbase-glib/hbase-filter.h>
#include <hbase-glib/hbase-key-schema.h>
#include <hbase-glib/hbase-row.h>
#include <hbase-glib/hbase-table.h>

G_BEGIN_DECLS

/**
 * HBaseKeyScanOptions:
 * @range: (nullable): the keys to scan; %NULL for all
 * @after: (nullable): only keys after this one (an unsalted key, e.g. the
 *   last key of a previous page); %NULL for no such bound
 * @limit: at most this many rows in all, 0 for no limit; sent to the
 *   gateway too (TScan.limit, exact, unlike PageFilter which counts per
 *   region)
 * @caching: rows fetched per round trip and bucket, 0 for 100
 * @parallelism: buckets fetched at once, 0 for the client's pool size
 * @read: columns, versions, time range and filter, as for gets
 *
 * What an #HBaseKeyScanner reads.  Initialise with
 * %HBASE_KEY_SCAN_OPTIONS_INIT, or allocate with
 * hbase_key_scan_options_new().  Who owns the pointers (a struct from
 * hbase_key_scan_options_new() owns what its setters stored, a struct on
 * the stack borrows them) is explained in docs/api-conventions.md.
 *
 * Since: 0.1
 */
typedef struct {
  const HBaseKeyRange *range;
  GBytes *after;
  guint limit;
  guint caching;
  guint parallelism;
  HBaseReadOptions read;
  /*< private >*/
  gpointer padding[8];
} HBaseKeyScanOptions;

#define HBASE_KEY_SCAN_OPTIONS_INIT { .range = NULL, .read = HBASE_READ_OPTIONS_INIT }

#define HBASE_TYPE_KEY_SCAN_OPTIONS (hbase_key_scan_options_get_type ())
GType                hbase_key_scan_options_get_type  (void) G_GNUC_CONST;
HBaseKeyScanOptions *hbase_key_scan_options_new       (void);
HBaseKeyScanOptions *hbase_key_scan_options_copy      (const HBaseKeyScanOptions *options);
void                 hbase_key_scan_options_free      (HBaseKeyScanOptions       *options);
void                 hbase_key_scan_options_set_range (HBaseKeyScanOptions       *options,
                                                       const HBaseKeyRange       *range);
void                 hbase_key_scan_options_set_after (HBaseKeyScanOptions       *options,
                                                       GBytes                    *after);
void                 hbase_key_scan_options_set_read  (HBaseKeyScanOptions       *options,
                                                       const HBaseReadOptions    *read);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseKeyScanOptions, hbase_key_scan_options_free)

/**
 * HBaseKeyScanner:
 *
 * A scan of a key range of a table keyed by an #HBaseKeySchema.  For a
 * salted schema it opens one #HBaseScanner per bucket that can hold the
 * range (see hbase_key_schema_get_range_buckets()), fetches from them in
 * parallel on worker threads through the table's client, and merges their
 * rows in the order of the unsalted keys, so the rows come out exactly as
 * from the same data unsalted.  Memory stays bounded: at most about 1.5
 * times @caching rows per bucket are buffered.  For an unsalted schema it
 * is one scan.  Use from one thread at a time.  Releasing the last
 * reference (g_object_unref()) stops the fetches in flight, waiting for the
 * round trips under way, and closes every bucket's scan.
 *
 * Since: 0.1
 */
#define HBASE_TYPE_KEY_SCANNER (hbase_key_scanner_get_type ())
G_DECLARE_FINAL_TYPE (HBaseKeyScanner, hbase_key_scanner, HBASE, KEY_SCANNER, GObject)

HBaseKeyScanner *hbase_key_scanner_new           (HBaseTable                *table,
                                                  HBaseKeySchema            *schema,
                                                  const HBaseKeyScanOptions *options,
                                                  GError                   **error);
gboolean         hbase_key_scanner_next          (HBaseKeyScanner           *scanner,
                                                  HBaseRow                 **row,
                                                  GCancellable              *cancellable,
                                                  GError                   **error);
void             hbase_key_scanner_next_async    (HBaseKeyScanner           *scanner,
                                                  GCancellable              *cancellable,
                                                  GAsyncReadyCallback        callback,
                                                  gpointer                   user_data);
gboolean         hbase_key_scanner_next_finish   (HBaseKeyScanner           *scanner,
                                                  GAsyncResult              *result,
                                                  HBaseRow                 **row,
                                                  GError                   **error);
guint            hbase_key_scanner_get_n_buckets (HBaseKeyScanner           *scanner);

/**
 * HBaseKeyQuery:
 * @range: (nullable): the keys wanted; %NULL for all
 * @filter: (nullable): a server-side filter
 * @columns: (nullable) (array zero-terminated=1): columns to return, as in
 *   #HBaseReadOptions; %NULL for all
 * @limit: rows per page, 0 for every row in one page
 * @page_token: (nullable): where to resume: the token the previous page
 *   gave; %NULL for the first page
 *
 * A paged query over a key range.  Initialise with %HBASE_KEY_QUERY_INIT,
 * or allocate with hbase_key_query_new().  Who owns the pointers (a struct
 * from hbase_key_query_new() owns what its setters stored, a struct on the
 * stack borrows them) is explained in docs/api-conventions.md.
 *
 * Since: 0.1
 */
typedef struct {
  const HBaseKeyRange *range;
  HBaseFilter *filter;
  const char *const *columns;
  guint limit;
  const char *page_token;
  /*< private >*/
  gpointer padding[8];
} HBaseKeyQuery;

#define HBASE_KEY_QUERY_INIT { .range = NULL, .limit = 0 }

#define HBASE_TYPE_KEY_QUERY (hbase_key_query_get_type ())
GType          hbase_key_query_get_type       (void) G_GNUC_CONST;
HBaseKeyQuery *hbase_key_query_new            (void);
HBaseKeyQuery *hbase_key_query_copy           (const HBaseKeyQuery *query);
void           hbase_key_query_free           (HBaseKeyQuery       *query);
void           hbase_key_query_set_range      (HBaseKeyQuery       *query,
                                               const HBaseKeyRange *range);
void           hbase_key_query_set_filter     (HBaseKeyQuery       *query,
                                               HBaseFilter         *filter);
void           hbase_key_query_set_columns    (HBaseKeyQuery       *query,
                                               const char *const   *columns);
void           hbase_key_query_set_page_token (HBaseKeyQuery       *query,
                                               const char          *page_token);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseKeyQuery, hbase_key_query_free)

GPtrArray       *hbase_key_query_run             (HBaseTable                *table,
                                                  HBaseKeySchema            *schema,
                                                  const HBaseKeyQuery       *query,
                                                  char                     **next_page_token,
                                                  GCancellable              *cancellable,
                                                  GError                   **error);
void             hbase_key_query_run_async       (HBaseTable                *table,
                                                  HBaseKeySchema            *schema,
                                                  const HBaseKeyQuery       *query,
                                                  GCancellable              *cancellable,
                                                  GAsyncReadyCallback        callback,
                                                  gpointer                   user_data);
GPtrArray       *hbase_key_query_run_finish      (HBaseTable                *table,
                                                  GAsyncResult              *result,
                                                  char                     **next_page_token,
                                                  GError                   **error);

/* deprecated: the 0.1 names, for one release (see NEWS) */
G_GNUC_DEPRECATED_FOR (g_object_unref)
void hbase_key_scanner_free (HBaseKeyScanner *scanner);

G_END_DECLS

#endif /* HBASE_KEY_SCANNER_H */
