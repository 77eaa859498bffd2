/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-zset.h: a sorted set (member -> double score) kept in one HBase
 * row, with Redis's sorted-set semantics and score-ordered reads that run
 * on the server. */
#ifndef HBASE_ZSET_H
#define HBASE_ZSET_H

#if !defined(__HBASE_GLIB_INSIDE__) && !defined(HBASE_GLIB_COMPILATION)
#error "Only <hbase-glib/hbase-glib.h> can be included directly."
#endif

#include <math.h>

#include <gio/gio.h>

#include <hbase-glib/hbase-table.h>

G_BEGIN_DECLS

/**
 * HBASE_ZSET_MAX_MEMBER_SIZE:
 *
 * The longest member of a sorted set, in bytes: its descending-order
 * qualifier (up to twice its length plus 11 bytes) must fit in HBase's
 * 32767-byte qualifiers.
 *
 * Since: 0.1
 */
#define HBASE_ZSET_MAX_MEMBER_SIZE 16378

/**
 * HBASE_ZSET_SCORE_SIZE:
 *
 * The size of an encoded score (hbase_zset_encode_score()).
 *
 * Since: 0.1
 */
#define HBASE_ZSET_SCORE_SIZE 8

/**
 * HBaseZSetOptions:
 * @family: (nullable): the column family holding the sorted set; %NULL
 *   for "z"
 * @page_size: entries read per request when streaming; 0 for 1000
 *
 * Where and how a sorted set is stored.  Initialise with
 * %HBASE_ZSET_OPTIONS_INIT, or allocate with hbase_zset_options_new().
 * Who owns the pointers (a struct from hbase_zset_options_new() owns what
 * its setters stored, a struct on the stack borrows them) is explained in
 * docs/api-conventions.md.
 *
 * Since: 0.1
 */
typedef struct {
  const char *family;
  guint page_size;
  /*< private >*/
  gpointer padding[8];
} HBaseZSetOptions;

#define HBASE_ZSET_OPTIONS_INIT { .family = NULL, .page_size = 0 }

#define HBASE_TYPE_ZSET_OPTIONS (hbase_zset_options_get_type ())
GType             hbase_zset_options_get_type   (void) G_GNUC_CONST;
HBaseZSetOptions *hbase_zset_options_new        (void);
HBaseZSetOptions *hbase_zset_options_copy       (const HBaseZSetOptions *options);
void              hbase_zset_options_free       (HBaseZSetOptions       *options);
void              hbase_zset_options_set_family (HBaseZSetOptions       *options,
                                                 const char             *family);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseZSetOptions, hbase_zset_options_free)

/**
 * HBaseZAddFlags:
 * @HBASE_ZADD_NONE: add new members, update existing ones
 * @HBASE_ZADD_NX: only add new members, never update
 * @HBASE_ZADD_XX: only update existing members, never add
 * @HBASE_ZADD_GT: update an existing member only to a greater score (new
 *   members are still added)
 * @HBASE_ZADD_LT: update an existing member only to a lower score
 * @HBASE_ZADD_CH: count changed members too, not just added ones
 *
 * ZADD's options, with Redis's rules: NX with XX, and any two of GT, LT
 * and NX, are refused (%HBASE_ERROR_ILLEGAL_ARGUMENT).  INCR is
 * hbase_zset_add_incr().
 *
 * Since: 0.1
 */
typedef enum {
  HBASE_ZADD_NONE = 0,
  HBASE_ZADD_NX = 1 << 0,
  HBASE_ZADD_XX = 1 << 1,
  HBASE_ZADD_GT = 1 << 2,
  HBASE_ZADD_LT = 1 << 3,
  HBASE_ZADD_CH = 1 << 4,
} HBaseZAddFlags;

/**
 * HBaseScoreRange:
 * @min: the lowest score (-inf allowed)
 * @min_exclusive: whether @min itself is excluded (Redis's "(min")
 * @max: the highest score (+inf allowed)
 * @max_exclusive: whether @max itself is excluded
 *
 * A range of scores.  Initialise with %HBASE_SCORE_RANGE_INIT (every
 * score).  NaN bounds are refused.
 *
 * Since: 0.1
 */
typedef struct {
  gdouble min;
  gboolean min_exclusive;
  gdouble max;
  gboolean max_exclusive;
} HBaseScoreRange;

#define HBASE_SCORE_RANGE_INIT { -HUGE_VAL, FALSE, HUGE_VAL, FALSE }

#define HBASE_TYPE_SCORE_RANGE (hbase_score_range_get_type ())
GType            hbase_score_range_get_type (void) G_GNUC_CONST;
HBaseScoreRange *hbase_score_range_new      (gdouble                min,
                                             gboolean               min_exclusive,
                                             gdouble                max,
                                             gboolean               max_exclusive);
HBaseScoreRange *hbase_score_range_copy     (const HBaseScoreRange *range);
void             hbase_score_range_free     (HBaseScoreRange       *range);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseScoreRange, hbase_score_range_free)

/**
 * HBaseZSetEntry:
 * @member: the member
 * @score: its score
 *
 * A member and its score, as pops and hbase_zset_iter_collect() return
 * them.
 *
 * Since: 0.1
 */
typedef struct {
  GBytes *member;
  gdouble score;
} HBaseZSetEntry;

#define HBASE_TYPE_ZSET_ENTRY (hbase_zset_entry_get_type ())
GType           hbase_zset_entry_get_type  (void) G_GNUC_CONST;
HBaseZSetEntry *hbase_zset_entry_new       (GBytes               *member,
                                            gdouble               score);
HBaseZSetEntry *hbase_zset_entry_copy      (const HBaseZSetEntry *entry);
void            hbase_zset_entry_free      (HBaseZSetEntry       *entry);

/**
 * HBaseZSet:
 *
 * A handle on one sorted set: a table, a row key and #HBaseZSetOptions.
 * Creating it reads and writes nothing.  Thread-safe; every change is
 * atomic (see hbase_zset_add()).  Release it with g_object_unref():
 * iterators made from it stay valid, and the data is untouched.
 *
 * Since: 0.1
 */
#define HBASE_TYPE_ZSET (hbase_zset_get_type ())
G_DECLARE_FINAL_TYPE (HBaseZSet, hbase_zset, HBASE, ZSET, GObject)

/**
 * HBaseZSetIter:
 *
 * A stream of (member, score) entries, read a page at a time.  Use from
 * one thread at a time.  Reference-counted: release it with
 * hbase_zset_iter_unref().
 *
 * Since: 0.1
 */
typedef struct _HBaseZSetIter HBaseZSetIter;

#define HBASE_TYPE_ZSET_ITER (hbase_zset_iter_get_type ())
GType          hbase_zset_iter_get_type  (void) G_GNUC_CONST;
HBaseZSetIter *hbase_zset_iter_ref       (HBaseZSetIter          *iter);
void           hbase_zset_iter_unref     (HBaseZSetIter          *iter);

HBaseZSet     *hbase_zset_new            (HBaseTable             *table,
                                          GBytes                 *key,
                                          const HBaseZSetOptions *options,
                                          GError                **error);
GBytes        *hbase_zset_get_key        (HBaseZSet              *zset);

/* ZADD, ZADD INCR, ZINCRBY, ZREM, ZPOPMIN/ZPOPMAX */
gboolean       hbase_zset_add            (HBaseZSet              *zset,
                                          HBaseZAddFlags          flags,
                                          GPtrArray              *members,
                                          const gdouble          *scores,
                                          guint64                *n_result,
                                          GCancellable           *cancellable,
                                          GError                **error);
gboolean       hbase_zset_add_incr       (HBaseZSet              *zset,
                                          HBaseZAddFlags          flags,
                                          GBytes                 *member,
                                          gdouble                 increment,
                                          gboolean               *applied,
                                          gdouble                *score,
                                          GCancellable           *cancellable,
                                          GError                **error);
gboolean       hbase_zset_incr_by        (HBaseZSet              *zset,
                                          GBytes                 *member,
                                          gdouble                 increment,
                                          gdouble                *score,
                                          GCancellable           *cancellable,
                                          GError                **error);
gboolean       hbase_zset_remove         (HBaseZSet              *zset,
                                          GPtrArray              *members,
                                          guint64                *n_removed,
                                          GCancellable           *cancellable,
                                          GError                **error);
gboolean       hbase_zset_pop            (HBaseZSet              *zset,
                                          gboolean                max,
                                          guint64                 count,
                                          GPtrArray             **entries,
                                          GCancellable           *cancellable,
                                          GError                **error);
gboolean       hbase_zset_clear          (HBaseZSet              *zset,
                                          GCancellable           *cancellable,
                                          GError                **error);

/* ZSCORE, ZMSCORE, ZCARD, ZCOUNT, ZRANK/ZREVRANK */
gboolean       hbase_zset_score          (HBaseZSet              *zset,
                                          GBytes                 *member,
                                          gboolean               *found,
                                          gdouble                *score,
                                          GCancellable           *cancellable,
                                          GError                **error);
gboolean       hbase_zset_scores         (HBaseZSet              *zset,
                                          GPtrArray              *members,
                                          gboolean               *found,
                                          gdouble                *scores,
                                          GCancellable           *cancellable,
                                          GError                **error);
gboolean       hbase_zset_scores_array   (HBaseZSet              *zset,
                                          GPtrArray              *members,
                                          GArray                **found,
                                          GArray                **scores,
                                          GCancellable           *cancellable,
                                          GError                **error);
gboolean       hbase_zset_add_array      (HBaseZSet              *zset,
                                          HBaseZAddFlags          flags,
                                          GPtrArray              *members,
                                          GArray                 *scores,
                                          guint64                *n_result,
                                          GCancellable           *cancellable,
                                          GError                **error);
gboolean       hbase_zset_card           (HBaseZSet              *zset,
                                          guint64                *card,
                                          GCancellable           *cancellable,
                                          GError                **error);
gboolean       hbase_zset_count          (HBaseZSet              *zset,
                                          const HBaseScoreRange  *range,
                                          guint64                *count,
                                          GCancellable           *cancellable,
                                          GError                **error);
gboolean       hbase_zset_rank           (HBaseZSet              *zset,
                                          GBytes                 *member,
                                          gboolean                reverse,
                                          gboolean               *found,
                                          guint64                *rank,
                                          gdouble                *score,
                                          GCancellable           *cancellable,
                                          GError                **error);

/* ZRANGEBYSCORE, ZREVRANGEBYSCORE, ZRANGE, ZRANGE REV */
HBaseZSetIter *hbase_zset_range_by_score (HBaseZSet              *zset,
                                          const HBaseScoreRange  *range,
                                          gboolean                reverse,
                                          gint64                  offset,
                                          gint64                  count);
HBaseZSetIter *hbase_zset_range_by_rank  (HBaseZSet              *zset,
                                          gint64                  start,
                                          gint64                  stop,
                                          gboolean                reverse);

gboolean       hbase_zset_iter_next      (HBaseZSetIter          *iter,
                                          GBytes                **member,
                                          gdouble                *score,
                                          GCancellable           *cancellable,
                                          GError                **error);
GPtrArray     *hbase_zset_iter_collect   (HBaseZSetIter          *iter,
                                          GCancellable           *cancellable,
                                          GError                **error);

/* the plain layout: qualifier = member, value = score as text */
HBaseZSetIter *hbase_zset_read_plain     (HBaseTable             *table,
                                          GBytes                 *row,
                                          const char             *family,
                                          GError                **error);
gboolean       hbase_zset_import_plain   (HBaseZSet              *zset,
                                          HBaseTable             *source,
                                          GBytes                 *row,
                                          const char             *family,
                                          guint64                *n_added,
                                          GCancellable           *cancellable,
                                          GError                **error);

/* the order-preserving score encoding of docs/structures-layout.md */
gboolean       hbase_zset_encode_score   (gdouble                 score,
                                          guint8                 *encoded);
gdouble        hbase_zset_decode_score   (const guint8           *encoded);

/* the same calls without blocking: on the client's worker pool */
void       hbase_zset_add_async (HBaseZSet             *zset,
                                 HBaseZAddFlags        flags,
                                 GPtrArray             *members,
                                 GArray                *scores,
                                 GCancellable          *cancellable,
                                 GAsyncReadyCallback   callback,
                                 gpointer              user_data);
gboolean   hbase_zset_add_finish (HBaseZSet             *zset,
                                  GAsyncResult          *result,
                                  guint64               *n_result,
                                  GError                **error);
void       hbase_zset_add_incr_async (HBaseZSet             *zset,
                                      HBaseZAddFlags        flags,
                                      GBytes                *member,
                                      gdouble               increment,
                                      GCancellable          *cancellable,
                                      GAsyncReadyCallback   callback,
                                      gpointer              user_data);
gboolean   hbase_zset_add_incr_finish (HBaseZSet             *zset,
                                       GAsyncResult          *result,
                                       gboolean              *applied,
                                       gdouble               *score,
                                       GError                **error);
void       hbase_zset_incr_by_async (HBaseZSet             *zset,
                                     GBytes                *member,
                                     gdouble               increment,
                                     GCancellable          *cancellable,
                                     GAsyncReadyCallback   callback,
                                     gpointer              user_data);
gboolean   hbase_zset_incr_by_finish (HBaseZSet             *zset,
                                      GAsyncResult          *result,
                                      gdouble               *score,
                                      GError                **error);
void       hbase_zset_remove_async (HBaseZSet             *zset,
                                    GPtrArray             *members,
                                    GCancellable          *cancellable,
                                    GAsyncReadyCallback   callback,
                                    gpointer              user_data);
gboolean   hbase_zset_remove_finish (HBaseZSet             *zset,
                                     GAsyncResult          *result,
                                     guint64               *n_removed,
                                     GError                **error);
void       hbase_zset_pop_async (HBaseZSet             *zset,
                                 gboolean              max,
                                 guint64               count,
                                 GCancellable          *cancellable,
                                 GAsyncReadyCallback   callback,
                                 gpointer              user_data);
gboolean   hbase_zset_pop_finish (HBaseZSet             *zset,
                                  GAsyncResult          *result,
                                  GPtrArray             **entries,
                                  GError                **error);
void       hbase_zset_clear_async (HBaseZSet             *zset,
                                   GCancellable          *cancellable,
                                   GAsyncReadyCallback   callback,
                                   gpointer              user_data);
gboolean   hbase_zset_clear_finish (HBaseZSet             *zset,
                                    GAsyncResult          *result,
                                    GError                **error);
void       hbase_zset_score_async (HBaseZSet             *zset,
                                   GBytes                *member,
                                   GCancellable          *cancellable,
                                   GAsyncReadyCallback   callback,
                                   gpointer              user_data);
gboolean   hbase_zset_score_finish (HBaseZSet             *zset,
                                    GAsyncResult          *result,
                                    gboolean              *found,
                                    gdouble               *score,
                                    GError                **error);
void       hbase_zset_scores_async (HBaseZSet             *zset,
                                    GPtrArray             *members,
                                    GCancellable          *cancellable,
                                    GAsyncReadyCallback   callback,
                                    gpointer              user_data);
gboolean   hbase_zset_scores_finish (HBaseZSet             *zset,
                                     GAsyncResult          *result,
                                     GArray                **found,
                                     GArray                **scores,
                                     GError                **error);
void       hbase_zset_card_async (HBaseZSet             *zset,
                                  GCancellable          *cancellable,
                                  GAsyncReadyCallback   callback,
                                  gpointer              user_data);
gboolean   hbase_zset_card_finish (HBaseZSet             *zset,
                                   GAsyncResult          *result,
                                   guint64               *card,
                                   GError                **error);
void       hbase_zset_count_async (HBaseZSet             *zset,
                                   const HBaseScoreRange *range,
                                   GCancellable          *cancellable,
                                   GAsyncReadyCallback   callback,
                                   gpointer              user_data);
gboolean   hbase_zset_count_finish (HBaseZSet             *zset,
                                    GAsyncResult          *result,
                                    guint64               *count,
                                    GError                **error);
void       hbase_zset_rank_async (HBaseZSet             *zset,
                                  GBytes                *member,
                                  gboolean              reverse,
                                  GCancellable          *cancellable,
                                  GAsyncReadyCallback   callback,
                                  gpointer              user_data);
gboolean   hbase_zset_rank_finish (HBaseZSet             *zset,
                                   GAsyncResult          *result,
                                   gboolean              *found,
                                   guint64               *rank,
                                   gdouble               *score,
                                   GError                **error);
void       hbase_zset_iter_next_async (HBaseZSetIter         *iter,
                                       GCancellable          *cancellable,
                                       GAsyncReadyCallback   callback,
                                       gpointer              user_data);
gboolean   hbase_zset_iter_next_finish (HBaseZSetIter         *iter,
                                        GAsyncResult          *result,
                                        GBytes                **member,
                                        gdouble               *score,
                                        GError                **error);
void       hbase_zset_iter_collect_async (HBaseZSetIter         *iter,
                                          GCancellable          *cancellable,
                                          GAsyncReadyCallback   callback,
                                          gpointer              user_data);
GPtrArray *hbase_zset_iter_collect_finish (HBaseZSetIter         *iter,
                                           GAsyncResult          *result,
                                           GError                **error);
void       hbase_zset_import_plain_async (HBaseZSet             *zset,
                                          HBaseTable            *source,
                                          GBytes                *row,
                                          const char            *family,
                                          GCancellable          *cancellable,
                                          GAsyncReadyCallback   callback,
                                          gpointer              user_data);
gboolean   hbase_zset_import_plain_finish (HBaseZSet             *zset,
                                           GAsyncResult          *result,
                                           guint64               *n_added,
                                           GError                **error);

/* --- lex ranges, range removals, ZMSCORE, ZRANDMEMBER, union/inter/diff ---------------- */

/**
 * HBaseZAggregate:
 * @HBASE_ZAGGREGATE_SUM: the sum of the weighted scores (Redis's default)
 * @HBASE_ZAGGREGATE_MIN: the lowest weighted score
 * @HBASE_ZAGGREGATE_MAX: the highest weighted score
 *
 * How ZUNION and ZINTER combine the scores of a member found in several
 * sets (AGGREGATE SUM|MIN|MAX).
 *
 * Since: 0.1
 */
typedef enum {
  HBASE_ZAGGREGATE_SUM = 0,
  HBASE_ZAGGREGATE_MIN = 1,
  HBASE_ZAGGREGATE_MAX = 2,
} HBaseZAggregate;

/**
 * HBaseZCombineOptions:
 * @weights: (nullable) (element-type gdouble): one factor per input set
 *   (the set the call is made on first), or %NULL for 1 each (WEIGHTS);
 *   set it with hbase_zcombine_options_set_weights()
 * @aggregate: how scores of the same member combine (AGGREGATE); ignored
 *   by the differences
 *
 * The options of ZUNION and ZINTER (and their STORE forms).  Initialise
 * with %HBASE_ZCOMBINE_OPTIONS_INIT, or allocate with
 * hbase_zcombine_options_new().
 *
 * Since: 0.1
 */
typedef struct {
  GArray *weights;
  HBaseZAggregate aggregate;
  /*< private >*/
  gpointer padding[8];
} HBaseZCombineOptions;

#define HBASE_ZCOMBINE_OPTIONS_INIT { .weights = NULL, .aggregate = HBASE_ZAGGREGATE_SUM }

#define HBASE_TYPE_ZCOMBINE_OPTIONS (hbase_zcombine_options_get_type ())
GType                 hbase_zcombine_options_get_type    (void) G_GNUC_CONST;
HBaseZCombineOptions *hbase_zcombine_options_new         (void);
HBaseZCombineOptions *hbase_zcombine_options_copy        (const HBaseZCombineOptions *options);
void                  hbase_zcombine_options_free        (HBaseZCombineOptions       *options);
void                  hbase_zcombine_options_set_weights (HBaseZCombineOptions       *options,
                                                          const gdouble              *weights,
                                                          guint                       n_weights);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseZCombineOptions, hbase_zcombine_options_free)

/* ZRANGEBYLEX, ZREVRANGEBYLEX, ZLEXCOUNT: bounds in Redis's syntax */
GPtrArray     *hbase_zset_range_by_lex         (HBaseZSet              *zset,
                                                GBytes                 *min,
                                                GBytes                 *max,
                                                gboolean                reverse,
                                                gint64                  offset,
                                                gint64                  count,
                                                GCancellable           *cancellable,
                                                GError                **error);
void           hbase_zset_range_by_lex_async   (HBaseZSet              *zset,
                                                GBytes                 *min,
                                                GBytes                 *max,
                                                gboolean                reverse,
                                                gint64                  offset,
                                                gint64                  count,
                                                GCancellable           *cancellable,
                                                GAsyncReadyCallback     callback,
                                                gpointer                user_data);
GPtrArray     *hbase_zset_range_by_lex_finish  (HBaseZSet              *zset,
                                                GAsyncResult           *result,
                                                GError                **error);
gboolean       hbase_zset_lex_count            (HBaseZSet              *zset,
                                                GBytes                 *min,
                                                GBytes                 *max,
                                                guint64                *count,
                                                GCancellable           *cancellable,
                                                GError                **error);
void           hbase_zset_lex_count_async      (HBaseZSet              *zset,
                                                GBytes                 *min,
                                                GBytes                 *max,
                                                GCancellable           *cancellable,
                                                GAsyncReadyCallback     callback,
                                                gpointer                user_data);
gboolean       hbase_zset_lex_count_finish     (HBaseZSet              *zset,
                                                GAsyncResult           *result,
                                                guint64                *count,
                                                GError                **error);

/* ZREMRANGEBYSCORE, ZREMRANGEBYRANK, ZREMRANGEBYLEX */
gboolean       hbase_zset_remove_range_by_score        (HBaseZSet              *zset,
                                                        const HBaseScoreRange  *range,
                                                        guint64                *n_removed,
                                                        GCancellable           *cancellable,
                                                        GError                **error);
void           hbase_zset_remove_range_by_score_async  (HBaseZSet              *zset,
                                                        const HBaseScoreRange  *range,
                                                        GCancellable           *cancellable,
                                                        GAsyncReadyCallback     callback,
                                                        gpointer                user_data);
gboolean       hbase_zset_remove_range_by_score_finish (HBaseZSet              *zset,
                                                        GAsyncResult           *result,
                                                        guint64                *n_removed,
                                                        GError                **error);
gboolean       hbase_zset_remove_range_by_rank         (HBaseZSet              *zset,
                                                        gint64                  start,
                                                        gint64                  stop,
                                                        guint64                *n_removed,
                                                        GCancellable           *cancellable,
                                                        GError                **error);
void           hbase_zset_remove_range_by_rank_async   (HBaseZSet              *zset,
                                                        gint64                  start,
                                                        gint64                  stop,
                                                        GCancellable           *cancellable,
                                                        GAsyncReadyCallback     callback,
                                                        gpointer                user_data);
gboolean       hbase_zset_remove_range_by_rank_finish  (HBaseZSet              *zset,
                                                        GAsyncResult           *result,
                                                        guint64                *n_removed,
                                                        GError                **error);
gboolean       hbase_zset_remove_range_by_lex          (HBaseZSet              *zset,
                                                        GBytes                 *min,
                                                        GBytes                 *max,
                                                        guint64                *n_removed,
                                                        GCancellable           *cancellable,
                                                        GError                **error);
void           hbase_zset_remove_range_by_lex_async    (HBaseZSet              *zset,
                                                        GBytes                 *min,
                                                        GBytes                 *max,
                                                        GCancellable           *cancellable,
                                                        GAsyncReadyCallback     callback,
                                                        gpointer                user_data);
gboolean       hbase_zset_remove_range_by_lex_finish   (HBaseZSet              *zset,
                                                        GAsyncResult           *result,
                                                        guint64                *n_removed,
                                                        GError                **error);

/* ZMSCORE with arrays a binding can read, ZRANDMEMBER */
gboolean       hbase_zset_mscore               (HBaseZSet              *zset,
                                                GPtrArray              *members,
                                                GArray                **scores,
                                                GArray                **found,
                                                GCancellable           *cancellable,
                                                GError                **error);
void           hbase_zset_mscore_async         (HBaseZSet              *zset,
                                                GPtrArray              *members,
                                                GCancellable           *cancellable,
                                                GAsyncReadyCallback     callback,
                                                gpointer                user_data);
gboolean       hbase_zset_mscore_finish        (HBaseZSet              *zset,
                                                GAsyncResult           *result,
                                                GArray                **scores,
                                                GArray                **found,
                                                GError                **error);
GPtrArray     *hbase_zset_random_members       (HBaseZSet              *zset,
                                                gint64                  count,
                                                GCancellable           *cancellable,
                                                GError                **error);
void           hbase_zset_random_members_async (HBaseZSet              *zset,
                                                gint64                  count,
                                                GCancellable           *cancellable,
                                                GAsyncReadyCallback     callback,
                                                gpointer                user_data);
GPtrArray     *hbase_zset_random_members_finish (HBaseZSet             *zset,
                                                 GAsyncResult          *result,
                                                 GError               **error);

/* ZUNION, ZINTER, ZDIFF and their STORE forms */
GPtrArray     *hbase_zset_union                (HBaseZSet                  *zset,
                                                GPtrArray                  *others,
                                                const HBaseZCombineOptions *options,
                                                GCancellable               *cancellable,
                                                GError                    **error);
GPtrArray     *hbase_zset_inter                (HBaseZSet                  *zset,
                                                GPtrArray                  *others,
                                                const HBaseZCombineOptions *options,
                                                GCancellable               *cancellable,
                                                GError                    **error);
GPtrArray     *hbase_zset_diff                 (HBaseZSet                  *zset,
                                                GPtrArray                  *others,
                                                GCancellable               *cancellable,
                                                GError                    **error);
gboolean       hbase_zset_union_store          (HBaseZSet                  *destination,
                                                GPtrArray                  *sources,
                                                const HBaseZCombineOptions *options,
                                                guint64                    *card,
                                                GCancellable               *cancellable,
                                                GError                    **error);
gboolean       hbase_zset_inter_store          (HBaseZSet                  *destination,
                                                GPtrArray                  *sources,
                                                const HBaseZCombineOptions *options,
                                                guint64                    *card,
                                                GCancellable               *cancellable,
                                                GError                    **error);
gboolean       hbase_zset_diff_store           (HBaseZSet                  *destination,
                                                GPtrArray                  *sources,
                                                guint64                    *card,
                                                GCancellable               *cancellable,
                                                GError                    **error);
void           hbase_zset_union_async          (HBaseZSet                  *zset,
                                                GPtrArray                  *others,
                                                const HBaseZCombineOptions *options,
                                                GCancellable               *cancellable,
                                                GAsyncReadyCallback         callback,
                                                gpointer                    user_data);
GPtrArray     *hbase_zset_union_finish         (HBaseZSet                  *zset,
                                                GAsyncResult               *result,
                                                GError                    **error);
void           hbase_zset_inter_async          (HBaseZSet                  *zset,
                                                GPtrArray                  *others,
                                                const HBaseZCombineOptions *options,
                                                GCancellable               *cancellable,
                                                GAsyncReadyCallback         callback,
                                                gpointer                    user_data);
GPtrArray     *hbase_zset_inter_finish         (HBaseZSet                  *zset,
                                                GAsyncResult               *result,
                                                GError                    **error);
void           hbase_zset_diff_async           (HBaseZSet                  *zset,
                                                GPtrArray                  *others,
                                                GCancellable               *cancellable,
                                                GAsyncReadyCallback         callback,
                                                gpointer                    user_data);
GPtrArray     *hbase_zset_diff_finish          (HBaseZSet                  *zset,
                                                GAsyncResult               *result,
                                                GError                    **error);
void           hbase_zset_union_store_async    (HBaseZSet                  *destination,
                                                GPtrArray                  *sources,
                                                const HBaseZCombineOptions *options,
                                                GCancellable               *cancellable,
                                                GAsyncReadyCallback         callback,
                                                gpointer                    user_data);
gboolean       hbase_zset_union_store_finish   (HBaseZSet                  *destination,
                                                GAsyncResult               *result,
                                                guint64                    *card,
                                                GError                    **error);
void           hbase_zset_inter_store_async    (HBaseZSet                  *destination,
                                                GPtrArray                  *sources,
                                                const HBaseZCombineOptions *options,
                                                GCancellable               *cancellable,
                                                GAsyncReadyCallback         callback,
                                                gpointer                    user_data);
gboolean       hbase_zset_inter_store_finish   (HBaseZSet                  *destination,
                                                GAsyncResult               *result,
                                                guint64                    *card,
                                                GError                    **error);
void           hbase_zset_diff_store_async     (HBaseZSet                  *destination,
                                                GPtrArray                  *sources,
                                                GCancellable               *cancellable,
                                                GAsyncReadyCallback         callback,
                                                gpointer                    user_data);
gboolean       hbase_zset_diff_store_finish    (HBaseZSet                  *destination,
                                                GAsyncResult               *result,
                                                guint64                    *card,
                                                GError                    **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseZSetIter, hbase_zset_iter_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseZSetEntry, hbase_zset_entry_free)

/* string forms: keys and members as NUL-terminated strings (binary
 * members need the GBytes forms above) */
HBaseZSet     *hbase_zset_new_string     (HBaseTable             *table,
                                          const char             *key,
                                          const HBaseZSetOptions *options,
                                          GError                **error);
gboolean       hbase_zset_add_string     (HBaseZSet              *zset,
                                          const char             *member,
                                          gdouble                 score,
                                          gboolean               *added,
                                          GCancellable           *cancellable,
                                          GError                **error);
gboolean       hbase_zset_remove_string  (HBaseZSet              *zset,
                                          const char             *member,
                                          gboolean               *removed,
                                          GCancellable           *cancellable,
                                          GError                **error);
gboolean       hbase_zset_score_string   (HBaseZSet              *zset,
                                          const char             *member,
                                          gboolean               *found,
                                          gdouble                *score,
                                          GCancellable           *cancellable,
                                          GError                **error);

/* string forms, asynchronous */
void           hbase_zset_add_string_async     (HBaseZSet           *zset,
                                                const char          *member,
                                                gdouble              score,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);
gboolean       hbase_zset_add_string_finish    (HBaseZSet           *zset,
                                                GAsyncResult        *result,
                                                gboolean            *added,
                                                GError             **error);
void           hbase_zset_remove_string_async  (HBaseZSet           *zset,
                                                const char          *member,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);
gboolean       hbase_zset_remove_string_finish (HBaseZSet           *zset,
                                                GAsyncResult        *result,
                                                gboolean            *removed,
                                                GError             **error);
void           hbase_zset_score_string_async   (HBaseZSet           *zset,
                                                const char          *member,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);
gboolean       hbase_zset_score_string_finish  (HBaseZSet           *zset,
                                                GAsyncResult        *result,
                                                gboolean            *found,
                                                gdouble             *score,
                                                GError             **error);

/* deprecated: the 0.1 names, for one release (see NEWS) */
G_GNUC_DEPRECATED_FOR (g_object_unref)
void hbase_zset_free (HBaseZSet *zset);
G_GNUC_DEPRECATED_FOR (hbase_zset_iter_unref)
void hbase_zset_iter_free (HBaseZSetIter *iter);

G_END_DECLS

#endif /* HBASE_ZSET_H */
