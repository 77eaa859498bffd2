/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-index-query.h: queries answered from the Redis index: AND/OR of
 * equality, IN and range conditions, pages of rows, counts. */
#ifndef HBASE_INDEX_QUERY_H
#define HBASE_INDEX_QUERY_H

#if !defined(__HBASE_GLIB_INDEX_INSIDE__) && !defined(HBASE_GLIB_COMPILATION)
#error "Only <hbase-glib/hbase-glib-index.h> can be included directly."
#endif

#include <gio/gio.h>

#include <hbase-glib/hbase-glib.h>
#include <hbase-glib/hbase-index.h>

G_BEGIN_DECLS

/**
 * HBaseIndexQuery:
 *
 * A condition on indexed columns, named by their index: equality, IN, a
 * range, or an AND/OR of conditions.  Values are given as the column
 * stores them (decimal text for %HBASE_INDEX_VALUE_INT64, 8 bytes for
 * %HBASE_INDEX_VALUE_COUNTER, ...) or as numbers with the _int64 and
 * _double builders.  Builders never fail; a bad condition (an unknown
 * index, a value that does not parse) is reported by the query that uses
 * it.  Immutable and reference-counted.
 *
 * Ownership follows the rule filters follow (docs/api-conventions.md):
 * every builder and composition returns a reference the caller owns and
 * releases with hbase_index_query_unref() (or g_autoptr()); the
 * compositions (hbase_index_query_and(), hbase_index_query_or(),
 * hbase_index_query_all(), hbase_index_query_any()) take their own
 * references to their operands and never the caller's, so the operands
 * may be released before or after the composition.
 *
 * Since: 0.1
 */
typedef struct _HBaseIndexQuery HBaseIndexQuery;

#define HBASE_TYPE_INDEX_QUERY (hbase_index_query_get_type ())
GType            hbase_index_query_get_type     (void) G_GNUC_CONST;
HBaseIndexQuery *hbase_index_query_ref          (HBaseIndexQuery  *query);
G_GNUC_DEPRECATED_FOR (hbase_index_query_ref)
HBaseIndexQuery *hbase_index_query_ref_sink     (HBaseIndexQuery  *query);
G_GNUC_DEPRECATED
gboolean         hbase_index_query_is_floating  (HBaseIndexQuery  *query);
void             hbase_index_query_unref        (HBaseIndexQuery  *query);

HBaseIndexQuery *hbase_index_query_equal        (const char       *index,
                                                 GBytes           *value);
HBaseIndexQuery *hbase_index_query_equal_int64  (const char       *index,
                                                 gint64            value);
HBaseIndexQuery *hbase_index_query_in           (const char       *index,
                                                 GBytes *const    *values,
                                                 guint             n_values);
HBaseIndexQuery *hbase_index_query_range        (const char       *index,
                                                 GBytes           *min,
                                                 gboolean          min_inclusive,
                                                 GBytes           *max,
                                                 gboolean          max_inclusive);
HBaseIndexQuery *hbase_index_query_range_int64  (const char       *index,
                                                 const gint64     *min,
                                                 gboolean          min_inclusive,
                                                 const gint64     *max,
                                                 gboolean          max_inclusive);
HBaseIndexQuery *hbase_index_query_range_double (const char       *index,
                                                 const double     *min,
                                                 gboolean          min_inclusive,
                                                 const double     *max,
                                                 gboolean          max_inclusive);
HBaseIndexQuery *hbase_index_query_and          (HBaseIndexQuery  *first,
                                                 HBaseIndexQuery  *second);
HBaseIndexQuery *hbase_index_query_or           (HBaseIndexQuery  *first,
                                                 HBaseIndexQuery  *second);
HBaseIndexQuery *hbase_index_query_all          (HBaseIndexQuery **queries,
                                                 guint             n_queries);
HBaseIndexQuery *hbase_index_query_any          (HBaseIndexQuery **queries,
                                                 guint             n_queries);
char            *hbase_index_query_to_string    (HBaseIndexQuery  *query);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseIndexQuery, hbase_index_query_unref)

gboolean         hbase_index_query_matches      (HBaseIndex       *index,
                                                 HBaseIndexQuery  *query,
                                                 HBaseRow         *row,
                                                 gboolean         *matches,
                                                 GError          **error);

/**
 * HBaseIndexFindOptions:
 * @limit: rows per page, 0 for every matching row
 * @page_token: (nullable): the token of the previous page, to get the
 *   next one
 * @reversed: pages in descending row key order instead of ascending
 * @columns: (nullable) (array zero-terminated=1): "family" or
 *   "family:qualifier" entries to return, %NULL for the whole rows; the
 *   indexed columns are always fetched too, to check the rows
 * @batch_rows: rows fetched per get-multiple, 0 for 500 (up to four
 *   get-multiples run at once)
 *
 * What hbase_index_find() returns.  Initialise with
 * %HBASE_INDEX_FIND_OPTIONS_INIT, or allocate with
 * hbase_index_find_options_new(). Who owns the pointers (a struct from
 * hbase_index_find_options_new() owns what its setters stored, a struct on the stack borrows
 * them) is explained in docs/api-conventions.md.
 *
 * Since: 0.1
 */
typedef struct {
  guint limit;
  const char *page_token;
  gboolean reversed;
  const char *const *columns;
  guint batch_rows;
  /*< private >*/
  gpointer padding[8];
} HBaseIndexFindOptions;

#define HBASE_INDEX_FIND_OPTIONS_INIT { .limit = 0, .page_token = NULL }

#define HBASE_TYPE_INDEX_FIND_OPTIONS (hbase_index_find_options_get_type ())
GType                  hbase_index_find_options_get_type       (void) G_GNUC_CONST;
HBaseIndexFindOptions *hbase_index_find_options_new            (void);
HBaseIndexFindOptions *hbase_index_find_options_copy           (const HBaseIndexFindOptions *options);
void                   hbase_index_find_options_free           (HBaseIndexFindOptions       *options);
void                   hbase_index_find_options_set_page_token (HBaseIndexFindOptions       *options,
                                                                const char                  *page_token);
void                   hbase_index_find_options_set_columns    (HBaseIndexFindOptions       *options,
                                                                const char *const           *columns);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseIndexFindOptions, hbase_index_find_options_free)

/**
 * HBaseIndexPage:
 *
 * One page of rows a query found, in row key order, and the token of the
 * next page.
 *
 * Since: 0.1
 */
typedef struct _HBaseIndexPage HBaseIndexPage;

#define HBASE_TYPE_INDEX_PAGE (hbase_index_page_get_type ())
GType            hbase_index_page_get_type      (void) G_GNUC_CONST;

/**
 * HBaseIndexQueryStats:
 * @candidates: row keys the index gave (after the page token)
 * @fetched: rows read from HBase
 * @stale: rows the index gave that no longer match (removed from the
 *   index when no write of the row was in flight)
 * @repaired: stale rows whose entries were corrected
 * @scanned: the query was answered by a scan of the table (the index was
 *   dirty or Redis down, and the policy allows it)
 *
 * What answering a query took.  hbase_index_page_get_stats() lends one;
 * bindings copy it with hbase_index_query_stats_copy().
 *
 * Since: 0.1
 */
typedef struct {
  guint64 candidates;
  guint64 fetched;
  guint64 stale;
  guint64 repaired;
  gboolean scanned;
  /*< private >*/
  gpointer padding[8];
} HBaseIndexQueryStats;

#define HBASE_TYPE_INDEX_QUERY_STATS (hbase_index_query_stats_get_type ())
GType                 hbase_index_query_stats_get_type (void) G_GNUC_CONST;
HBaseIndexQueryStats *hbase_index_query_stats_new      (void);
HBaseIndexQueryStats *hbase_index_query_stats_copy     (const HBaseIndexQueryStats *stats);
void                  hbase_index_query_stats_free     (HBaseIndexQueryStats       *stats);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseIndexQueryStats, hbase_index_query_stats_free)

HBaseIndexPage  *hbase_index_find               (HBaseIndex                  *index,
                                                 HBaseIndexQuery             *query,
                                                 const HBaseIndexFindOptions *options,
                                                 GCancellable                *cancellable,
                                                 GError                     **error);
GPtrArray       *hbase_index_page_get_rows      (HBaseIndexPage              *page);
const char      *hbase_index_page_get_next_token (HBaseIndexPage             *page);
const HBaseIndexQueryStats *hbase_index_page_get_stats (HBaseIndexPage       *page);
HBaseIndexPage  *hbase_index_page_copy          (const HBaseIndexPage        *page);
void             hbase_index_page_free          (HBaseIndexPage              *page);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseIndexPage, hbase_index_page_free)

gboolean         hbase_index_count              (HBaseIndex                  *index,
                                                 HBaseIndexQuery             *query,
                                                 guint64                     *count,
                                                 GCancellable                *cancellable,
                                                 GError                     **error);

void             hbase_index_find_async         (HBaseIndex                  *index,
                                                 HBaseIndexQuery             *query,
                                                 const HBaseIndexFindOptions *options,
                                                 GCancellable                *cancellable,
                                                 GAsyncReadyCallback          callback,
                                                 gpointer                     user_data);
HBaseIndexPage  *hbase_index_find_finish        (HBaseIndex                  *index,
                                                 GAsyncResult                *result,
                                                 GError                     **error);
void             hbase_index_count_async        (HBaseIndex                  *index,
                                                 HBaseIndexQuery             *query,
                                                 GCancellable                *cancellable,
                                                 GAsyncReadyCallback          callback,
                                                 gpointer                     user_data);
gboolean         hbase_index_count_finish       (HBaseIndex                  *index,
                                                 GAsyncResult                *result,
                                                 guint64                     *count,
                                                 GError                     **error);

/* string forms: values as NUL-terminated strings (binary values need the
 * GBytes forms above) */
HBaseIndexQuery *hbase_index_query_equal_string (const char        *index,
                                                 const char        *value);
HBaseIndexQuery *hbase_index_query_in_strings   (const char        *index,
                                                 const char *const *values);

G_END_DECLS

#endif /* HBASE_INDEX_QUERY_H */
