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
 */
#define HBASE_ZSET_MAX_MEMBER_SIZE 16378

/**
 * HBASE_ZSET_SCORE_SIZE:
 *
 * The size of an encoded score (hbase_zset_encode_score()).
 */
#define HBASE_ZSET_SCORE_SIZE 8

/**
 * HBaseZSetOptions:
 * @family: (nullable): the column family holding the sorted set; %NULL
 *   for "z"
 * @page_size: entries read per request when streaming; 0 for 1000
 *
 * Where and how a sorted set is stored.  Initialise with
 * %HBASE_ZSET_OPTIONS_INIT.
 */
typedef struct {
  const char *family;
  guint page_size;
} HBaseZSetOptions;

#define HBASE_ZSET_OPTIONS_INIT { NULL, 0 }

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
 */
typedef struct {
  gdouble min;
  gboolean min_exclusive;
  gdouble max;
  gboolean max_exclusive;
} HBaseScoreRange;

#define HBASE_SCORE_RANGE_INIT { -HUGE_VAL, FALSE, HUGE_VAL, FALSE }

/**
 * HBaseZSetEntry:
 * @member: the member
 * @score: its score
 *
 * A member and its score, as pops and hbase_zset_iter_collect() return
 * them.
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
 * atomic (see hbase_zset_add()).  Free with hbase_zset_free().
 */
typedef struct _HBaseZSet HBaseZSet;

/**
 * HBaseZSetIter:
 *
 * A stream of (member, score) entries, read a page at a time.  Use from
 * one thread at a time.  Free with hbase_zset_iter_free().
 */
typedef struct _HBaseZSetIter HBaseZSetIter;

HBaseZSet     *hbase_zset_new            (HBaseTable             *table,
                                          GBytes                 *key,
                                          const HBaseZSetOptions *options,
                                          GError                **error);
void           hbase_zset_free           (HBaseZSet              *zset);
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
void           hbase_zset_iter_free      (HBaseZSetIter          *iter);

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

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseZSet, hbase_zset_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseZSetIter, hbase_zset_iter_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseZSetEntry, hbase_zset_entry_free)

G_END_DECLS

#endif /* HBASE_ZSET_H */
