/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-zset-range.c: score ranges of a sorted set as qualifier ranges of
 * its score cells ('s' ascending, 'r' descending), the paged read of such a
 * range, and what is answered from them alone: ZCOUNT and ZRANK. */
#include "config.h"

#include <math.h>
#include <string.h>

#include <hbase-glib/hbase-zset.h>

#include "hbase-structures-private.h"
#include "hbase-zset-private.h"

/* counting: a page is read, then ever larger server-side skips */
#define COUNT_PAGE 1024
#define COUNT_MAX_STEP (1u << 20)

/* --- score ranges as qualifier ranges ------------------------------------------------------ */

void
_hbase_zset_bounds_clear (Bounds *bounds)
{
  g_clear_pointer (&bounds->lo, g_byte_array_unref);
  g_clear_pointer (&bounds->hi, g_byte_array_unref);
}

static GByteArray *
prefix_only (guint8 prefix)
{
  GByteArray *array = g_byte_array_new ();

  g_byte_array_append (array, &prefix, 1);
  return array;
}

gboolean
_hbase_zset_check_range (const HBaseScoreRange *range, GError **error)
{
  if (range == NULL)
    return _hbase_illegal (error, "the score range is NULL");
  if (isnan (range->min) || isnan (range->max))
    return _hbase_illegal (error, "min or max is not a float");
  return TRUE;
}

static gdouble
fold (gdouble x)
{
  return x == 0.0 ? 0.0 : x;
}

static guint64
encoded_u64 (gdouble score)
{
  guint8 encoded[8];
  guint64 value = 0;

  _hbase_score_encode (score, encoded);
  for (guint i = 0; i < 8; i++)
    value = (value << 8) | encoded[i];
  return value;
}

/* prefix, then the 8 bytes of @value (complemented for 'r') */
static GByteArray *
bound_qualifier (guint8 prefix, guint64 value)
{
  GByteArray *qualifier = g_byte_array_sized_new (9);

  if (prefix == STRUCT_REVERSE_PREFIX)
    value = ~value;
  g_byte_array_append (qualifier, &prefix, 1);
  for (guint i = 0; i < 8; i++)
    {
      guint8 byte = (guint8) (value >> (56 - 8 * i));

      g_byte_array_append (qualifier, &byte, 1);
    }
  return qualifier;
}

/* The qualifier range of the scores in @range in the ascending ('s') or
 * descending ('r') cells; FALSE when the range is empty.  The encoding
 * maps the doubles onto 64-bit numbers in order, so "the next double"
 * of an exclusive bound is the encoded number plus (or minus) one. */
gboolean
_hbase_zset_range_bounds (const HBaseScoreRange *range, gboolean reverse, Bounds *bounds)
{
  gdouble min = fold (range->min), max = fold (range->max);
  guint64 lo = encoded_u64 (min), hi = encoded_u64 (max);

  memset (bounds, 0, sizeof *bounds);
  if (min > max || (min == max && (range->min_exclusive || range->max_exclusive)))
    return FALSE;
  if ((range->min_exclusive && min == HUGE_VAL) || (range->max_exclusive && max == -HUGE_VAL))
    return FALSE;
  bounds->lo_inclusive = TRUE;
  bounds->hi_inclusive = FALSE;
  if (!reverse)
    {
      bounds->lo = bound_qualifier (STRUCT_SCORE_PREFIX, range->min_exclusive ? lo + 1 : lo);
      if (range->max_exclusive)
        bounds->hi = bound_qualifier (STRUCT_SCORE_PREFIX, hi);
      else if (max == HUGE_VAL)
        bounds->hi = prefix_only (STRUCT_SCORE_PREFIX + 1);
      else
        bounds->hi = bound_qualifier (STRUCT_SCORE_PREFIX, hi + 1);
    }
  else
    {
      bounds->lo = bound_qualifier (STRUCT_REVERSE_PREFIX, range->max_exclusive ? hi - 1 : hi);
      if (range->min_exclusive)
        bounds->hi = bound_qualifier (STRUCT_REVERSE_PREFIX, lo);
      else if (min == -HUGE_VAL)
        bounds->hi = prefix_only (STRUCT_REVERSE_PREFIX + 1);
      else
        bounds->hi = bound_qualifier (STRUCT_REVERSE_PREFIX, lo - 1);
    }
  return TRUE;
}

void
_hbase_zset_block_bounds (gboolean reverse, Bounds *bounds)
{
  guint8 prefix = reverse ? STRUCT_REVERSE_PREFIX : STRUCT_SCORE_PREFIX;

  bounds->lo = prefix_only (prefix);
  bounds->lo_inclusive = TRUE;
  bounds->hi = prefix_only ((guint8) (prefix + 1));
  bounds->hi_inclusive = FALSE;
}

/* One get of the qualifier range, skipping @offset, at most @limit. */
HbaseThriftTResult *
_hbase_zset_read_range (HBaseZSet *zset, const GByteArray *lo, gboolean lo_inclusive, const Bounds *bounds,
                        guint offset, guint limit, GCancellable *cancellable, GError **error)
{
  g_autoptr(GPtrArray) gets = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) results = NULL;
  HbaseThriftTGet *get = _hbase_sget_new (&zset->store, zset->row->data, zset->row->len);
  HbaseThriftTColumn *column = g_object_new (HBASE_THRIFT_TYPE_T_COLUMN, NULL);

  column->family = g_byte_array_ref (zset->store.family);
  g_ptr_array_add (get->columns, column);
  get->__isset_columns = TRUE;
  _hbase_sget_set_range (get, lo->data, lo->len, lo_inclusive,
                         bounds->hi != NULL ? bounds->hi->data : NULL,
                         bounds->hi != NULL ? bounds->hi->len : 0, bounds->hi_inclusive, offset,
                         limit);
  g_ptr_array_add (gets, get);
  results = _hbase_sget_run (&zset->store, gets, cancellable, error);
  if (results == NULL)
    return NULL;
  return g_object_ref (g_ptr_array_index (results, 0));
}

/* How many cells lie in @bounds: a page is read; if it is full, the server
 * skips ever larger steps (storeOffset) without sending the cells, so
 * the cost is O(count) on the server, O(log count) requests and at most a
 * page of qualifiers transferred. */
gboolean
_hbase_zset_count_range (HBaseZSet *zset, const Bounds *bounds, guint64 *count,
                         GCancellable *cancellable, GError **error)
{
  g_autoptr(GByteArray) lo = g_byte_array_ref (bounds->lo);
  gboolean lo_inclusive = bounds->lo_inclusive;
  guint64 total = 0;
  guint step = COUNT_PAGE;
  gboolean paging = TRUE;

  for (;;)
    {
      g_autoptr(HbaseThriftTResult) result = NULL;
      guint n;

      if (paging)
        {
          result = _hbase_zset_read_range (zset, lo, lo_inclusive, bounds, 0, COUNT_PAGE, cancellable, error);
          if (result == NULL)
            return FALSE;
          n = result->columnValues->len;
          total += n;
          if (n < COUNT_PAGE)
            break;
          g_byte_array_unref (lo);
          lo = g_byte_array_ref (((HbaseThriftTColumnValue *)
                                  g_ptr_array_index (result->columnValues, n - 1))->qualifier);
          lo_inclusive = FALSE;
          paging = FALSE;
          step = 2 * COUNT_PAGE;
          continue;
        }
      /* is there a cell @step cells on? */
      result = _hbase_zset_read_range (zset, lo, lo_inclusive, bounds, step - 1, 1, cancellable, error);
      if (result == NULL)
        return FALSE;
      if (result->columnValues->len == 1)
        {
          total += step;
          g_byte_array_unref (lo);
          lo = g_byte_array_ref (((HbaseThriftTColumnValue *)
                                  g_ptr_array_index (result->columnValues, 0))->qualifier);
          lo_inclusive = FALSE;
          step = MIN (step * 2, COUNT_MAX_STEP);
        }
      else if (step > COUNT_PAGE)
        step /= 2;
      else
        paging = TRUE;
    }
  *count = total;
  return TRUE;
}

/**
 * hbase_zset_count:
 * @zset: a sorted set
 * @range: the scores to count
 * @count: (out): how many members have a score in @range
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * ZCOUNT.  Runs on the server over the score-ordered cells of @range
 * only: one request for up to 1024 members, then server-side skips of
 * growing size (O(log count) requests; the members are not sent).
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_zset_count (HBaseZSet *zset, const HBaseScoreRange *range, guint64 *count,
                  GCancellable *cancellable, GError **error)
{
  Bounds bounds;
  gboolean ok;

  if (count != NULL)
    *count = 0;
  if (!_hbase_zset_check (zset, error) || !_hbase_zset_check_range (range, error))
    return FALSE;
  if (count == NULL)
    return _hbase_illegal (error, "hbase_zset_count needs a place for the count");
  if (!_hbase_zset_range_bounds (range, FALSE, &bounds))
    return TRUE;
  ok = _hbase_zset_count_range (zset, &bounds, count, cancellable, error);
  _hbase_zset_bounds_clear (&bounds);
  return ok;
}

/**
 * hbase_zset_rank:
 * @zset: a sorted set
 * @member: a member
 * @reverse: ZREVRANK (rank from the highest score) rather than ZRANK
 * @found: (out) (optional): whether @member is in the set
 * @rank: (out) (optional): its 0-based rank
 * @score: (out) (optional): its score (ZRANK's WITHSCORE)
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * ZRANK, ZREVRANK: the member's score (one cell), then a count of the
 * cells before it in the ascending (or descending) cells, as
 * hbase_zset_count() counts.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_zset_rank (HBaseZSet *zset, GBytes *member, gboolean reverse, gboolean *found, guint64 *rank,
                 gdouble *score, GCancellable *cancellable, GError **error)
{
  gboolean is_found = FALSE;
  gdouble value = NAN;
  guint64 before = 0;
  Bounds bounds = { 0 };
  gboolean ok;

  if (found != NULL)
    *found = FALSE;
  if (rank != NULL)
    *rank = 0;
  if (score != NULL)
    *score = NAN;
  if (!hbase_zset_score (zset, member, &is_found, &value, cancellable, error))
    return FALSE;
  if (!is_found)
    return TRUE;
  _hbase_zset_block_bounds (reverse, &bounds);
  g_byte_array_unref (bounds.hi);
  bounds.hi = reverse ? _hbase_zset_reverse_qualifier (value, member) : _hbase_zset_score_qualifier (value, member);
  ok = _hbase_zset_count_range (zset, &bounds, &before, cancellable, error);
  _hbase_zset_bounds_clear (&bounds);
  if (!ok)
    return FALSE;
  if (found != NULL)
    *found = TRUE;
  if (rank != NULL)
    *rank = before;
  if (score != NULL)
    *score = value;
  return TRUE;
}
