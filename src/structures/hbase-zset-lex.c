/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-zset-lex.c: ranges by member (ZRANGEBYLEX, ZREVRANGEBYLEX,
 * ZLEXCOUNT), with Redis's bound syntax: "[a" (a included), "(a" (a
 * excluded), "-" (before every member) and "+" (after every member).
 *
 * As in Redis, a lex range is meant for a set whose members all have the
 * same score.  Then the members in range are contiguous in the ascending
 * cells ('s' enc(score) member), and the range is a column range read on
 * the server, LIMIT's offset skipped there.  When the scores differ, the
 * set is read in score order and the range is found the way Redis finds
 * it in a small sorted set: the first member (from the start, or from
 * the end in reverse) that passes the lower (upper) bound, then members
 * up to the first one past the other bound. */
#include "config.h"

#include <math.h>
#include <string.h>

#include <hbase-glib/hbase-zset.h>

#include "hbase-structures-private.h"
#include "hbase-zset-private.h"

typedef enum {
  LEX_MIN = -1,     /* "-" */
  LEX_MEMBER = 0,   /* "[m" or "(m" */
  LEX_MAX = 1,      /* "+" */
} LexKind;

typedef struct {
  LexKind kind;
  gboolean exclusive;
  GBytes *member;
} LexBound;

static void
lex_bound_clear (LexBound *bound)
{
  g_clear_pointer (&bound->member, g_bytes_unref);
}

static gboolean
lex_bound_parse (GBytes *spec, LexBound *bound, GError **error)
{
  gsize len = 0;
  const guint8 *data = spec != NULL ? g_bytes_get_data (spec, &len) : NULL;

  memset (bound, 0, sizeof *bound);
  if (len == 0)
    return _hbase_illegal (error, "min or max not valid string range item");
  switch (data[0])
    {
    case '-':
    case '+':
      if (len != 1)
        return _hbase_illegal (error, "min or max not valid string range item");
      bound->kind = data[0] == '-' ? LEX_MIN : LEX_MAX;
      bound->exclusive = TRUE;
      return TRUE;
    case '[':
    case '(':
      bound->kind = LEX_MEMBER;
      bound->exclusive = data[0] == '(';
      bound->member = g_bytes_new (data + 1, len - 1);
      return TRUE;
    default:
      return _hbase_illegal (error, "min or max not valid string range item");
    }
}

/* "-" < every member < "+", members in byte order */
static int
lex_compare (const LexBound *a, const LexBound *b)
{
  if (a->kind != LEX_MEMBER || b->kind != LEX_MEMBER)
    return (int) a->kind - (int) b->kind;
  return _hbase_gbytes_compare (a->member, b->member);
}

static gboolean
lex_range_empty (const LexBound *min, const LexBound *max)
{
  int cmp = lex_compare (min, max);

  return cmp > 0 || (cmp == 0 && (min->exclusive || max->exclusive));
}

static gboolean
gte_min (GBytes *member, const LexBound *min)
{
  int cmp;

  if (min->kind != LEX_MEMBER)
    return min->kind == LEX_MIN;
  cmp = _hbase_gbytes_compare (member, min->member);
  return min->exclusive ? cmp > 0 : cmp >= 0;
}

static gboolean
lte_max (GBytes *member, const LexBound *max)
{
  int cmp;

  if (max->kind != LEX_MEMBER)
    return max->kind == LEX_MAX;
  cmp = _hbase_gbytes_compare (member, max->member);
  return max->exclusive ? cmp < 0 : cmp <= 0;
}

/* --- cells and whole sets ------------------------------------------------------------------ */

HBaseZSetEntry *
_hbase_zset_entry_of_cell (const HbaseThriftTColumnValue *cell, gboolean descending, GError **error)
{
  const GByteArray *q = cell->qualifier;
  g_autoptr(GBytes) member = NULL;
  guint8 encoded[8];
  gdouble score;

  if (q->len >= 9)
    {
      memcpy (encoded, q->data + 1, 8);
      if (descending)
        {
          for (guint i = 0; i < 8; i++)
            encoded[i] = (guint8) ~encoded[i];
          member = _hbase_desc_member_decode (q->data + 9, q->len - 9);
        }
      else
        member = g_bytes_new (q->data + 9, q->len - 9);
      score = _hbase_score_decode (encoded);
      if (member != NULL && !isnan (score))
        return hbase_zset_entry_new (member, score);
    }
  g_set_error (error, HBASE_ERROR, HBASE_ERROR_BAD_DATA, "a %s qualifier of %u bytes is malformed",
               descending ? "descending" : "score", q->len);
  return NULL;
}

GPtrArray *
_hbase_zset_read_all (HBaseZSet *zset, GCancellable *cancellable, GError **error)
{
  g_autoptr(HBaseZSetIter) iter = hbase_zset_range_by_rank (zset, 0, -1, FALSE);

  return hbase_zset_iter_collect (iter, cancellable, error);
}

/* --- the general case: the set in score order ---------------------------------------------- */

static void
lex_select (GPtrArray *all, const LexBound *min, const LexBound *max, gboolean reverse,
            gint64 offset, gint64 count, GPtrArray *entries)
{
  gint64 n = all->len, i;

#define MEMBER_AT(k) (((HBaseZSetEntry *) g_ptr_array_index (all, (guint) (k)))->member)
  if (n == 0 || offset < 0 || lex_range_empty (min, max) ||
      !gte_min (MEMBER_AT (n - 1), min) || !lte_max (MEMBER_AT (0), max))
    return;
  if (!reverse)
    {
      for (i = 0; i < n && !gte_min (MEMBER_AT (i), min); i++)
        ;
      if (i == n || !lte_max (MEMBER_AT (i), max))
        return;
      for (i += offset; i < n && count != 0 && lte_max (MEMBER_AT (i), max); i++, count--)
        g_ptr_array_add (entries, hbase_zset_entry_copy (g_ptr_array_index (all, (guint) i)));
    }
  else
    {
      for (i = n - 1; i >= 0 && !lte_max (MEMBER_AT (i), max); i--)
        ;
      if (i < 0 || !gte_min (MEMBER_AT (i), min))
        return;
      for (i -= offset; i >= 0 && count != 0 && gte_min (MEMBER_AT (i), min); i--, count--)
        g_ptr_array_add (entries, hbase_zset_entry_copy (g_ptr_array_index (all, (guint) i)));
    }
#undef MEMBER_AT
}

/* --- one score: a column range ------------------------------------------------------------- */

/* The qualifiers starting with @prefix are those from @prefix (inclusive)
 * to this (exclusive). */
static GByteArray *
prefix_successor (const GByteArray *prefix)
{
  GByteArray *next = g_byte_array_sized_new (prefix->len);

  g_byte_array_append (next, prefix->data, prefix->len);
  for (guint i = next->len; i > 0; i--)
    if (++next->data[i - 1] != 0)
      break;
  return next;
}

/* The qualifier of @bound among the cells of one score (@head: 's'
 * enc(score) or 'r' ~enc(score)). */
static GByteArray *
bound_qualifier (const GByteArray *head, gboolean descending, const LexBound *bound)
{
  GByteArray *q = g_byte_array_sized_new (head->len + 16);
  gsize len;
  const guint8 *data = g_bytes_get_data (bound->member, &len);

  g_byte_array_append (q, head->data, head->len);
  if (descending)
    _hbase_desc_member_append (q, data, len);
  else if (len > 0)
    g_byte_array_append (q, data, (guint) len);
  return q;
}

/* The cells of @score between the bounds, in the order asked; FALSE with
 * @error only. */
static gboolean
lex_read_one_score (HBaseZSet *zset, gdouble score, const LexBound *min, const LexBound *max,
                    gboolean reverse, gint64 offset, gint64 count, GPtrArray *entries,
                    guint64 *n_counted, GCancellable *cancellable, GError **error)
{
  g_autoptr(GByteArray) head = reverse ? _hbase_zset_reverse_qualifier (score, NULL)
                                       : _hbase_zset_score_qualifier (score, NULL);
  const LexBound *first = reverse ? max : min, *last = reverse ? min : max;
  Bounds bounds = { 0 };
  g_autoptr(GByteArray) lo = NULL;
  gboolean lo_inclusive;
  gboolean ok = TRUE;

  if (first->kind == LEX_MEMBER)
    {
      lo = bound_qualifier (head, reverse, first);
      lo_inclusive = !first->exclusive;
    }
  else
    {
      lo = g_byte_array_ref (head);
      lo_inclusive = TRUE;
    }
  if (last->kind == LEX_MEMBER)
    {
      bounds.hi = bound_qualifier (head, reverse, last);
      bounds.hi_inclusive = !last->exclusive;
    }
  else
    {
      bounds.hi = prefix_successor (head);
      bounds.hi_inclusive = FALSE;
    }
  bounds.lo = g_byte_array_ref (lo);
  bounds.lo_inclusive = lo_inclusive;
  if (n_counted != NULL)
    {
      ok = _hbase_zset_count_range (zset, &bounds, n_counted, cancellable, error);
      _hbase_zset_bounds_clear (&bounds);
      return ok;
    }
  while (ok && count != 0)
    {
      g_autoptr(HbaseThriftTResult) result = NULL;
      guint limit = count < 0 ? zset->page_size : (guint) MIN ((gint64) zset->page_size, count);
      GPtrArray *cells;

      result = _hbase_zset_read_range (zset, lo, lo_inclusive, &bounds, (guint) offset, limit,
                                       cancellable, error);
      if (result == NULL)
        {
          ok = FALSE;
          break;
        }
      offset = 0;
      cells = result->columnValues;
      for (guint i = 0; ok && i < cells->len; i++)
        {
          HBaseZSetEntry *entry = _hbase_zset_entry_of_cell (g_ptr_array_index (cells, i), reverse,
                                                             error);

          if (entry == NULL)
            ok = FALSE;
          else
            g_ptr_array_add (entries, entry);
        }
      if (count > 0)
        count -= cells->len;
      if (cells->len < limit)
        break;
      g_byte_array_unref (lo);
      lo = g_byte_array_ref (((HbaseThriftTColumnValue *) g_ptr_array_index (cells, cells->len - 1))->qualifier);
      lo_inclusive = FALSE;
    }
  _hbase_zset_bounds_clear (&bounds);
  return ok;
}

/* The lowest and highest scores (@empty when there is no member), in one
 * request. */
static gboolean
score_extremes (HBaseZSet *zset, gboolean *empty, gdouble *lowest, gdouble *highest,
                GCancellable *cancellable, GError **error)
{
  g_autoptr(GPtrArray) gets = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) results = NULL;
  HbaseThriftTResult *result;

  for (guint k = 0; k < 2; k++)
    {
      HbaseThriftTGet *get = _hbase_sget_new (&zset->store, zset->row->data, zset->row->len);
      HbaseThriftTColumn *column = g_object_new (HBASE_THRIFT_TYPE_T_COLUMN, NULL);
      guint8 lo = k == 0 ? STRUCT_SCORE_PREFIX : STRUCT_REVERSE_PREFIX, hi = (guint8) (lo + 1);

      column->family = g_byte_array_ref (zset->store.family);
      g_ptr_array_add (get->columns, column);
      get->__isset_columns = TRUE;
      _hbase_sget_set_range (get, &lo, 1, TRUE, &hi, 1, FALSE, 0, 1);
      g_ptr_array_add (gets, get);
    }
  results = _hbase_sget_run (&zset->store, gets, cancellable, error);
  if (results == NULL)
    return FALSE;
  *empty = TRUE;
  for (guint k = 0; k < 2; k++)
    {
      g_autoptr(HBaseZSetEntry) entry = NULL;

      result = g_ptr_array_index (results, k);
      if (result->columnValues->len == 0)
        return TRUE;
      entry = _hbase_zset_entry_of_cell (g_ptr_array_index (result->columnValues, 0), k == 1, error);
      if (entry == NULL)
        return FALSE;
      *(k == 0 ? lowest : highest) = entry->score;
    }
  *empty = FALSE;
  return TRUE;
}

/* The entries in range, or with @n_counted only their number. */
static gboolean
lex_run (HBaseZSet *zset, GBytes *min_spec, GBytes *max_spec, gboolean reverse, gint64 offset,
         gint64 count, GPtrArray *entries, guint64 *n_counted, GCancellable *cancellable,
         GError **error)
{
  LexBound min, max;
  gboolean empty = TRUE, ok;
  gdouble lowest = 0, highest = 0;

  if (!_hbase_zset_check (zset, error))
    return FALSE;
  if (!lex_bound_parse (min_spec, &min, error))
    return FALSE;
  if (!lex_bound_parse (max_spec, &max, error))
    {
      lex_bound_clear (&min);
      return FALSE;
    }
  if (lex_range_empty (&min, &max) || offset < 0 || count == 0 || offset > G_MAXINT32)
    ok = TRUE;
  else if (!score_extremes (zset, &empty, &lowest, &highest, cancellable, error))
    ok = FALSE;
  else if (empty)
    ok = TRUE;
  else if (lowest == highest)
    ok = lex_read_one_score (zset, lowest, &min, &max, reverse, offset, count, entries, n_counted,
                             cancellable, error);
  else
    {
      g_autoptr(GPtrArray) all = _hbase_zset_read_all (zset, cancellable, error);
      g_autoptr(GPtrArray) selected = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_zset_entry_free);

      ok = all != NULL;
      if (ok)
        {
          lex_select (all, &min, &max, reverse, offset, count, n_counted != NULL ? selected : entries);
          if (n_counted != NULL)
            *n_counted = selected->len;
        }
    }
  lex_bound_clear (&min);
  lex_bound_clear (&max);
  return ok;
}

gboolean
_hbase_zset_lex_entries (HBaseZSet *zset, GBytes *min, GBytes *max, gboolean reverse,
                         gint64 offset, gint64 count, GPtrArray *entries,
                         GCancellable *cancellable, GError **error)
{
  return lex_run (zset, min, max, reverse, offset, count, entries, NULL, cancellable, error);
}

/* --- the API ------------------------------------------------------------------------------- */

/**
 * hbase_zset_range_by_lex:
 * @zset: a sorted set
 * @min: the lower bound in Redis's syntax: "[" or "(" then a member
 *   (included or excluded), or "-" for no lower bound
 * @max: the upper bound: "[" or "(" then a member, or "+" for none
 * @reverse: from the upper bound down (ZREVRANGEBYLEX) rather than up;
 *   @min stays the lower bound
 * @offset: LIMIT's offset: members of the range to skip; negative gives
 *   nothing, as in Redis
 * @count: LIMIT's count: at most this many; negative for all
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * ZRANGEBYLEX and ZREVRANGEBYLEX.  Like Redis, meant for a set whose
 * members all have the same score: then the range is read on the server
 * (a column range, @offset skipped there).  When the scores differ, the
 * whole set is read and the members are taken in score order as Redis
 * takes them in a small sorted set (see the file's description); Redis
 * documents that case as unspecified.  A bound that is not in this syntax
 * is an %HBASE_ERROR_ILLEGAL_ARGUMENT.
 *
 * Returns: (transfer container) (element-type GBytes) (nullable): the
 *   members in byte order (reversed with @reverse), or %NULL with @error
 *   set
 *
 * Since: 0.1
 */
GPtrArray *
hbase_zset_range_by_lex (HBaseZSet *zset, GBytes *min, GBytes *max, gboolean reverse,
                         gint64 offset, gint64 count, GCancellable *cancellable, GError **error)
{
  g_autoptr(GPtrArray) entries = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_zset_entry_free);
  GPtrArray *members;

  if (!lex_run (zset, min, max, reverse, offset, count, entries, NULL, cancellable, error))
    return NULL;
  members = g_ptr_array_new_full (entries->len, (GDestroyNotify) g_bytes_unref);
  for (guint i = 0; i < entries->len; i++)
    g_ptr_array_add (members, g_bytes_ref (((HBaseZSetEntry *) g_ptr_array_index (entries, i))->member));
  return members;
}

/**
 * hbase_zset_lex_count:
 * @zset: a sorted set
 * @min: the lower bound, as for hbase_zset_range_by_lex()
 * @max: the upper bound
 * @count: (out): how many members are in the range
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * ZLEXCOUNT.  When every member has the same score, the range is counted
 * on the server as hbase_zset_count() counts; otherwise as
 * hbase_zset_range_by_lex() describes.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_zset_lex_count (HBaseZSet *zset, GBytes *min, GBytes *max, guint64 *count,
                      GCancellable *cancellable, GError **error)
{
  guint64 n = 0;

  if (count != NULL)
    *count = 0;
  if (count == NULL)
    return _hbase_illegal (error, "hbase_zset_lex_count needs a place for the count");
  if (!lex_run (zset, min, max, FALSE, 0, -1, NULL, &n, cancellable, error))
    return FALSE;
  *count = n;
  return TRUE;
}
