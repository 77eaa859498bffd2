/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-zset-private.h: what the sorted-set files share (hbase-zset.c,
 * hbase-zset-range.c, hbase-zset-iter.c, hbase-structures-import.c): the
 * handle, the scores read before a change, and score ranges as qualifier
 * bounds. */
#ifndef HBASE_ZSET_PRIVATE_H
#define HBASE_ZSET_PRIVATE_H

#include <hbase-glib/hbase-zset.h>

#include "hbase-structures-private.h"

G_BEGIN_DECLS

#define CHUNK_MEMBERS 1000

struct _HBaseZSet {
  GObject parent_instance;
  StructStore store;
  GBytes *key;
  GByteArray *row;
  guint page_size;
};

typedef struct {
  gboolean present;
  gdouble score;
} Current;

typedef struct {
  GByteArray *lo;
  gboolean lo_inclusive;
  GByteArray *hi;
  gboolean hi_inclusive;
} Bounds;

gboolean    _hbase_zset_check      (HBaseZSet         *zset,
                                    GError           **error);

/* The qualifiers of a member's score cells: 's' ascending, 'r' descending. */
GByteArray *_hbase_zset_score_qualifier   (gdouble     score,
                                           GBytes     *member);
GByteArray *_hbase_zset_reverse_qualifier (gdouble     score,
                                           GBytes     *member);

/* The meta cell and the scores of @members (distinct), in one get. */
gboolean    _hbase_zset_read_current (HBaseZSet      *zset,
                                      GPtrArray      *members,
                                      StructMeta     *meta,
                                      Current        *current,
                                      gint64         *max_timestamp,
                                      GCancellable   *cancellable,
                                      GError        **error);
/* Adds to @change what turns @before into @after for @member. */
void        _hbase_zset_change_member (StructChange      *change,
                                       const StructStore *store,
                                       GBytes            *member,
                                       const Current     *before,
                                       const Current     *after);

void        _hbase_zset_bounds_clear  (Bounds         *bounds);
gboolean    _hbase_zset_check_range   (const HBaseScoreRange *range,
                                       GError        **error);
/* The qualifier bounds of the score cells of @range; FALSE when no score
 * can be in it. */
gboolean    _hbase_zset_range_bounds  (const HBaseScoreRange *range,
                                       gboolean        reverse,
                                       Bounds         *bounds);
/* Bounds covering every score cell of one direction. */
void        _hbase_zset_block_bounds  (gboolean        reverse,
                                       Bounds         *bounds);
/* One page of the cells from @lo (to @bounds->hi): @limit after @offset. */
HbaseThriftTResult *_hbase_zset_read_range (HBaseZSet        *zset,
                                       const GByteArray *lo,
                                       gboolean          lo_inclusive,
                                       const Bounds     *bounds,
                                       guint             offset,
                                       guint             limit,
                                       GCancellable     *cancellable,
                                       GError          **error);

/* How many cells lie in @bounds (hbase-zset-range.c). */
gboolean    _hbase_zset_count_range   (HBaseZSet        *zset,
                                       const Bounds     *bounds,
                                       guint64          *count,
                                       GCancellable     *cancellable,
                                       GError          **error);

/* --- lex ranges, range removals, combinations (hbase-zset-lex.c, -trim.c, -combine.c) --- */

/* The entry of an 's' (or, with @descending, 'r') cell; NULL with BAD_DATA. */
HBaseZSetEntry *_hbase_zset_entry_of_cell (const HbaseThriftTColumnValue *cell,
                                           gboolean          descending,
                                           GError          **error);
/* Every entry, in ascending order: (transfer container) HBaseZSetEntry, or NULL. */
GPtrArray  *_hbase_zset_read_all      (HBaseZSet        *zset,
                                       GCancellable     *cancellable,
                                       GError          **error);
/* The entries of a lex range (Redis syntax) with LIMIT, appended to @entries. */
gboolean    _hbase_zset_lex_entries   (HBaseZSet        *zset,
                                       GBytes           *min,
                                       GBytes           *max,
                                       gboolean          reverse,
                                       gint64            offset,
                                       gint64            count,
                                       GPtrArray        *entries,
                                       GCancellable     *cancellable,
                                       GError          **error);

G_END_DECLS

#endif /* HBASE_ZSET_PRIVATE_H */
