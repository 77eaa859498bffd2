/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-index-query-private.h: what the files that answer index queries
 * share: the conditions as built (hbase-index-query.c), their plans
 * (hbase-index-plan.c), the state of one query being answered, the
 * candidates read from Redis (hbase-index-materialize.c), pages and page
 * tokens (hbase-index-page.c), rows fetched from HBase
 * (hbase-index-fetch.c), and the scan that answers when the index cannot
 * (hbase-index-fallback.c). */
#ifndef HBASE_INDEX_QUERY_PRIVATE_H
#define HBASE_INDEX_QUERY_PRIVATE_H

#include "hbase-index-private.h"

G_BEGIN_DECLS

/* --- conditions (hbase-index-query.c) ------------------------------------------------ */

typedef enum {
  QUERY_IN,               /* equality is IN with one value */
  QUERY_RANGE,
  QUERY_AND,
  QUERY_OR,
} QueryKind;

typedef enum {
  INPUT_BYTES,
  INPUT_INT64,
  INPUT_DOUBLE,
} InputKind;

typedef struct {
  InputKind kind;
  GBytes *bytes;
  gint64 i;
  double d;
} QueryInput;

struct _HBaseIndexQuery {
  gatomicrefcount ref_count;
  gint floating;          /* 1 until sunk (hbase_index_query_ref_sink) */
  QueryKind kind;
  char *index;
  GArray *values;         /* QueryInput, IN */
  gboolean has_min, has_max;
  QueryInput min, max;
  gboolean min_inclusive, max_inclusive;
  GPtrArray *children;    /* HBaseIndexQuery, AND / OR */
};

/* --- plans (hbase-index-plan.c) ------------------------------------------------------ */

typedef enum {
  NODE_SETS,              /* IN through exact sets */
  NODE_RANGE,             /* a range of the sorted set (also IN of one value) */
  NODE_AND,
  NODE_OR,
} NodeKind;

typedef struct {
  NodeKind kind;
  const IndexColumn *column;
  GArray *values;         /* IndexValue: NODE_SETS values, or a RANGE's one value */
  GPtrArray *keys;        /* GBytes: exact set keys */
  gboolean has_min, has_max;
  IndexValue min, max;
  gboolean min_inclusive, max_inclusive;
  GBytes *redis_min, *redis_max;
  gboolean empty;         /* cannot match */
  GPtrArray *children;    /* Node */
  guint64 size;
} Node;

void       _hbase_index_node_free          (gpointer              node);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Node, _hbase_index_node_free)

/* The plan of @query against the core's definitions, or NULL with @error
 * when the query does not fit them. */
Node      *_hbase_index_resolve            (IndexCore            *core,
                                            HBaseIndexQuery      *query,
                                            GError              **error);
/* Whether a value of a leaf's column satisfies the leaf. */
gboolean   _hbase_index_leaf_matches_value (Node                 *node,
                                            const IndexValue     *value);
/* Whether @row (the newest version of each indexed column, read as its
 * type) satisfies @node. */
gboolean   _hbase_index_node_matches_row   (Node                 *node,
                                            HBaseRow             *row);

/* --- one query being answered -------------------------------------------------------- */

typedef struct {
  IndexCore *core;
  GHashTable *records;    /* GBytes row -> IndexRecord (NULL: none) */
  HBaseIndexQueryStats stats;
} QueryCtx;

/* --- candidates from Redis (hbase-index-materialize.c) ------------------------------- */

/* Whether the index can answer (and its plan's sizes): FALSE with
 * @error for hard failures; *@unusable with a reason when the policy
 * applies. */
gboolean   _hbase_index_prepare            (QueryCtx                  *ctx,
                                            Node                 *root,
                                            char                **unusable,
                                            GCancellable         *cancellable,
                                            GError              **error);
/* The row keys (a set of GBytes) that satisfy @node, by the index. */
GHashTable *_hbase_index_materialize       (QueryCtx                  *ctx,
                                            Node                 *node,
                                            GError              **error);
/* The members of a set of row keys, as an array of GBytes. */
GPtrArray  *_hbase_index_set_keys          (GHashTable           *set);

/* --- pages (hbase-index-page.c) ------------------------------------------------------ */

struct _HBaseIndexPage {
  GPtrArray *rows;
  char *next_token;
  HBaseIndexQueryStats stats;
};

HBaseIndexPage *_hbase_index_page_new      (void);
/* The token of the page after the row @last of @query. */
char       *_hbase_index_token_new         (HBaseIndexQuery      *query,
                                            gboolean              reversed,
                                            GBytes               *last);
/* The row key a token of @query continues after, or NULL with
 * HBASE_INDEX_ERROR_BAD_TOKEN. */
GBytes     *_hbase_index_token_parse       (HBaseIndexQuery      *query,
                                            gboolean              reversed,
                                            const char           *token,
                                            GError              **error);

/* --- rows from HBase (hbase-index-fetch.c) ------------------------------------------- */

/* The columns to read: the requested ones and every indexed column (to
 * check the rows and repair their entries); NULL for whole rows. */
char      **_hbase_index_read_columns      (IndexCore            *core,
                                            const char *const    *requested);
/* Fetches @keys, keeps the rows that match (up to @max in @into), and
 * repairs the entries of the others. */
gboolean   _hbase_index_fetch_rows         (QueryCtx                  *ctx,
                                            Node                 *root,
                                            GPtrArray            *keys,
                                            const char *const    *columns,
                                            guint                 batch_rows,
                                            GPtrArray            *into,
                                            guint                 max,
                                            GBytes              **last,
                                            GCancellable         *cancellable,
                                            GError              **error);

/* --- the scan (hbase-index-fallback.c) ----------------------------------------------- */

/* The query answered by a scan of the table. */
HBaseIndexPage *_hbase_index_find_by_scan  (QueryCtx                  *ctx,
                                            Node                 *root,
                                            HBaseIndexQuery      *query,
                                            const HBaseIndexFindOptions *options,
                                            GBytes               *after,
                                            gboolean              count_only,
                                            guint64              *count,
                                            GCancellable         *cancellable,
                                            GError              **error);

G_END_DECLS

#endif /* HBASE_INDEX_QUERY_PRIVATE_H */
