/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-zset-iter.c: reading a sorted set's entries in order: the iterator
 * over score cells page by page (ZRANGEBYSCORE, ZRANGE by rank), ZPOPMIN
 * and ZPOPMAX, which pop the first entries of that order, and
 * hbase_zset_read_plain() over the plain one-row layout. */
#include "config.h"

#include <math.h>
#include <string.h>

#include <hbase-glib/hbase-zset.h>

#include "hbase-structures-private.h"
#include "hbase-zset-private.h"
#include "hbase-structures-async-private.h"

/* ZRANGE near the end of the set reads the other index up to this many */
#define RANK_FROM_END_MAX 10000

/* --- iterators ----------------------------------------------------------------------------- */

typedef enum {
  CELLS_ASCENDING,     /* 's' cells */
  CELLS_DESCENDING,    /* 'r' cells */
  CELLS_PLAIN,         /* plain: qualifier = member, value = score text */
} CellKind;

struct _HBaseZSetIter {
  gatomicrefcount ref_count;
  HBaseZSet *zset;            /* referenced; a private one for plain reads */
  CellKind kind;
  Bounds bounds;              /* lo moves forward page by page */
  gboolean empty;
  guint64 offset;             /* to skip with the next request */
  gint64 remaining;           /* -1: no limit */
  guint page;                 /* entries per request */
  GPtrArray *buffer;          /* HBaseZSetEntry */
  guint next;
  gboolean exhausted;
  GError *failure;

  /* ZRANGE by rank: resolved against the cardinality at the first read */
  gboolean rank_pending;
  gint64 start, stop;
};

static HBaseZSetIter *
iter_new (HBaseZSet *zset, CellKind kind)
{
  HBaseZSetIter *iter = g_new0 (HBaseZSetIter, 1);

  g_atomic_ref_count_init (&iter->ref_count);
  if (zset != NULL)
    {
      iter->zset = g_object_ref (zset);
      iter->page = zset->page_size;
    }
  iter->kind = kind;
  iter->remaining = -1;
  iter->buffer = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_zset_entry_free);
  return iter;
}

G_DEFINE_BOXED_TYPE (HBaseZSetIter, hbase_zset_iter, hbase_zset_iter_ref, hbase_zset_iter_unref)

/**
 * hbase_zset_iter_ref:
 * @iter: an iterator
 *
 * Takes a reference.
 *
 * Returns: (transfer full): @iter, with one more reference
 *
 * Since: 0.1
 */
HBaseZSetIter *
hbase_zset_iter_ref (HBaseZSetIter *iter)
{
  g_return_val_if_fail (iter != NULL, NULL);
  g_atomic_ref_count_inc (&iter->ref_count);
  return iter;
}

/**
 * hbase_zset_iter_unref:
 * @iter: (nullable) (transfer full): an iterator
 *
 * Drops a reference; the last one frees the iterator.
 *
 * Since: 0.1
 */
void
hbase_zset_iter_unref (HBaseZSetIter *iter)
{
  if (iter == NULL || !g_atomic_ref_count_dec (&iter->ref_count))
    return;
  g_clear_object (&iter->zset);
  _hbase_zset_bounds_clear (&iter->bounds);
  g_ptr_array_unref (iter->buffer);
  g_clear_error (&iter->failure);
  g_free (iter);
}

static gboolean
parse_plain_score (const GByteArray *value, gdouble *score, GError **error)
{
  g_autofree char *text = g_strndup ((const char *) value->data, value->len);
  char *end = NULL;

  g_strstrip (text);
  *score = g_ascii_strtod (text, &end);
  if (text[0] == '\0' || end == NULL || *end != '\0' || isnan (*score))
    {
      g_autofree char *shown = g_strescape (text, NULL);

      g_set_error (error, HBASE_ERROR, HBASE_ERROR_BAD_DATA,
                   "the score \"%s\" is not a number", shown);
      return FALSE;
    }
  return TRUE;
}

static gboolean
decode_cell (HBaseZSetIter *iter, HbaseThriftTColumnValue *cell, GError **error)
{
  const GByteArray *q = cell->qualifier;
  GBytes *member = NULL;
  gdouble score;

  if (iter->kind == CELLS_PLAIN)
    {
      if (!parse_plain_score (cell->value, &score, error))
        {
          g_autofree char *raw = g_strndup ((const char *) q->data, q->len);
          g_autofree char *shown = g_strescape (raw, NULL);

          g_prefix_error (error, "member \"%s\": ", shown);
          return FALSE;
        }
      member = g_bytes_new (q->data, q->len);
    }
  else
    {
      guint8 encoded[8];

      if (q->len < 9)
        goto bad;
      memcpy (encoded, q->data + 1, 8);
      if (iter->kind == CELLS_DESCENDING)
        {
          for (guint i = 0; i < 8; i++)
            encoded[i] = (guint8) ~encoded[i];
          member = _hbase_desc_member_decode (q->data + 9, q->len - 9);
          if (member == NULL)
            goto bad;
        }
      else
        member = g_bytes_new (q->data + 9, q->len - 9);
      score = _hbase_score_decode (encoded);
      if (isnan (score))
        {
          g_bytes_unref (member);
          goto bad;
        }
    }
  g_ptr_array_add (iter->buffer, hbase_zset_entry_new (member, score));
  g_bytes_unref (member);
  return TRUE;

bad:
  g_set_error (error, HBASE_ERROR, HBASE_ERROR_BAD_DATA,
               "a %s qualifier of %u bytes is malformed",
               iter->kind == CELLS_DESCENDING ? "descending" : "score", q->len);
  return FALSE;
}

/* ZRANGE by rank: the cardinality turns start/stop into an offset and a
 * count; near the end of the set the other index is read (and reversed),
 * so that ZRANGE -10 -1 skips 0 cells rather than all but ten. */
static gboolean
resolve_rank (HBaseZSetIter *iter, GCancellable *cancellable, GError **error)
{
  guint64 card = 0;
  gint64 start = iter->start, stop = iter->stop, n;

  iter->rank_pending = FALSE;
  if (!hbase_zset_card (iter->zset, &card, cancellable, error))
    return FALSE;
  if (start < 0)
    start += (gint64) card;
  if (stop < 0)
    stop += (gint64) card;
  if (start < 0)
    start = 0;
  if (start > stop || start >= (gint64) card)
    {
      iter->empty = TRUE;
      return TRUE;
    }
  if (stop >= (gint64) card)
    stop = (gint64) card - 1;
  n = stop - start + 1;
  if ((gint64) card - 1 - stop < start && n <= RANK_FROM_END_MAX)
    {
      g_autoptr(HbaseThriftTResult) result = NULL;
      Bounds other = { 0 };

      iter->kind = iter->kind == CELLS_ASCENDING ? CELLS_DESCENDING : CELLS_ASCENDING;
      _hbase_zset_block_bounds (iter->kind == CELLS_DESCENDING, &other);
      result = _hbase_zset_read_range (iter->zset, other.lo, TRUE, &other, (guint) ((gint64) card - 1 - stop),
                                       (guint) n, cancellable, error);
      _hbase_zset_bounds_clear (&other);
      if (result == NULL)
        return FALSE;
      for (guint i = 0; i < result->columnValues->len; i++)
        if (!decode_cell (iter, g_ptr_array_index (result->columnValues, i), error))
          return FALSE;
      for (guint i = 0; i < iter->buffer->len / 2; i++)
        {
          gpointer tmp = iter->buffer->pdata[i];

          iter->buffer->pdata[i] = iter->buffer->pdata[iter->buffer->len - 1 - i];
          iter->buffer->pdata[iter->buffer->len - 1 - i] = tmp;
        }
      iter->exhausted = TRUE;
      return TRUE;
    }
  iter->offset = (guint64) start;
  iter->remaining = n;
  return TRUE;
}

static gboolean
iter_fill (HBaseZSetIter *iter, GCancellable *cancellable, GError **error)
{
  g_autoptr(HbaseThriftTResult) result = NULL;
  guint limit = iter->page;
  GPtrArray *values;

  g_ptr_array_set_size (iter->buffer, 0);
  iter->next = 0;
  if (iter->remaining >= 0)
    limit = (guint) MIN ((gint64) limit, iter->remaining);
  if (limit == 0 || iter->offset > G_MAXINT32)
    {
      iter->exhausted = TRUE;
      return TRUE;
    }
  result = _hbase_zset_read_range (iter->zset, iter->bounds.lo, iter->bounds.lo_inclusive, &iter->bounds,
                                   (guint) iter->offset, limit, cancellable, error);
  if (result == NULL)
    return FALSE;
  iter->offset = 0;
  values = result->columnValues;
  for (guint i = 0; i < values->len; i++)
    if (!decode_cell (iter, g_ptr_array_index (values, i), error))
      return FALSE;
  if (values->len > 0)
    {
      g_byte_array_unref (iter->bounds.lo);
      iter->bounds.lo = g_byte_array_ref (((HbaseThriftTColumnValue *)
                                           g_ptr_array_index (values, values->len - 1))->qualifier);
      iter->bounds.lo_inclusive = FALSE;
    }
  if (iter->remaining >= 0)
    iter->remaining -= values->len;
  if (values->len < limit || iter->remaining == 0)
    iter->exhausted = TRUE;
  return TRUE;
}

/**
 * hbase_zset_iter_next:
 * @iter: an iterator
 * @member: (out) (transfer full) (nullable): the next member, %NULL at the
 *   end
 * @score: (out) (optional): its score
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * The next entry, reading the next page when the current one is used up.
 *
 * Returns: %TRUE with @member set (%NULL at the end), or %FALSE with
 *   @error set
 *
 * Since: 0.1
 */
gboolean
hbase_zset_iter_next (HBaseZSetIter *iter, GBytes **member, gdouble *score,
                      GCancellable *cancellable, GError **error)
{
  HBaseZSetEntry *entry;

  if (member != NULL)
    *member = NULL;
  if (score != NULL)
    *score = NAN;
  if (iter == NULL || member == NULL)
    return _hbase_illegal (error, "hbase_zset_iter_next needs an iterator and a place for the "
                           "member");
  if (iter->failure != NULL)
    {
      g_propagate_error (error, g_error_copy (iter->failure));
      return FALSE;
    }
  if (iter->rank_pending && !resolve_rank (iter, cancellable, error))
    return FALSE;
  if (iter->empty)
    return TRUE;
  if (iter->next >= iter->buffer->len)
    {
      if (iter->exhausted)
        return TRUE;
      if (!iter_fill (iter, cancellable, error))
        return FALSE;
      if (iter->next >= iter->buffer->len)
        return TRUE;
    }
  entry = g_ptr_array_index (iter->buffer, iter->next++);
  *member = g_bytes_ref (entry->member);
  if (score != NULL)
    *score = entry->score;
  return TRUE;
}

/**
 * hbase_zset_iter_collect:
 * @iter: an iterator
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Reads the rest of @iter into an array.
 *
 * Returns: (transfer container) (element-type HBaseZSetEntry) (nullable):
 *   the entries, or %NULL with @error set
 *
 * Since: 0.1
 */
GPtrArray *
hbase_zset_iter_collect (HBaseZSetIter *iter, GCancellable *cancellable, GError **error)
{
  g_autoptr(GPtrArray) entries = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_zset_entry_free);

  for (;;)
    {
      g_autoptr(GBytes) member = NULL;
      gdouble score;

      if (!hbase_zset_iter_next (iter, &member, &score, cancellable, error))
        return NULL;
      if (member == NULL)
        return g_steal_pointer (&entries);
      g_ptr_array_add (entries, hbase_zset_entry_new (member, score));
    }
}

static HBaseZSetIter *
failed_iter (GError *error)
{
  HBaseZSetIter *iter = iter_new (NULL, CELLS_ASCENDING);

  iter->failure = error;
  return iter;
}

/**
 * hbase_zset_range_by_score:
 * @zset: a sorted set
 * @range: the scores
 * @reverse: from the highest score down (ZREVRANGEBYSCORE) rather than
 *   up
 * @offset: LIMIT's offset: entries of the range to skip; negative gives
 *   nothing, as in Redis
 * @count: LIMIT's count: at most this many; negative for all
 *
 * ZRANGEBYSCORE and ZREVRANGEBYSCORE with inclusive, exclusive or
 * infinite bounds and LIMIT.  Members with equal scores come in byte
 * order (reversed with @reverse), as in Redis.  Runs on the server: a
 * column range over the ascending (or descending) score cells, @offset
 * skipped there, pages of the options' page size (or @count) sent; its
 * cost depends on @offset and what is returned, not on the set's size.
 * Nothing is read until hbase_zset_iter_next().
 *
 * Returns: (transfer full): an iterator
 *
 * Since: 0.1
 */
HBaseZSetIter *
hbase_zset_range_by_score (HBaseZSet *zset, const HBaseScoreRange *range, gboolean reverse,
                           gint64 offset, gint64 count)
{
  HBaseZSetIter *iter;
  GError *error = NULL;

  if (!_hbase_zset_check (zset, &error) || !_hbase_zset_check_range (range, &error))
    return failed_iter (error);
  iter = iter_new (zset, reverse ? CELLS_DESCENDING : CELLS_ASCENDING);
  if (offset < 0 || count == 0 || !_hbase_zset_range_bounds (range, reverse, &iter->bounds))
    {
      iter->empty = TRUE;
      return iter;
    }
  iter->offset = (guint64) offset;
  iter->remaining = count < 0 ? -1 : count;
  return iter;
}

/**
 * hbase_zset_range_by_rank:
 * @zset: a sorted set
 * @start: first rank, negative counting from the end (-1 the last)
 * @stop: last rank (inclusive), negative counting from the end
 * @reverse: ranks from the highest score (ZRANGE ... REV, ZREVRANGE)
 *
 * ZRANGE by index, with Redis's treatment of out-of-range indexes.  The
 * cardinality is read first; @start is then skipped on the server (or,
 * near the end of the set, the other index is read from its start).
 *
 * Returns: (transfer full): an iterator
 *
 * Since: 0.1
 */
HBaseZSetIter *
hbase_zset_range_by_rank (HBaseZSet *zset, gint64 start, gint64 stop, gboolean reverse)
{
  HBaseZSetIter *iter;
  GError *error = NULL;

  if (!_hbase_zset_check (zset, &error))
    return failed_iter (error);
  iter = iter_new (zset, reverse ? CELLS_DESCENDING : CELLS_ASCENDING);
  _hbase_zset_block_bounds (reverse, &iter->bounds);
  iter->rank_pending = TRUE;
  iter->start = start;
  iter->stop = stop;
  return iter;
}

/* --- ZPOPMIN, ZPOPMAX ---------------------------------------------------------------------- */

/* Pops up to @count (<= CHUNK_MEMBERS) entries atomically: the meta cell
 * is read first, then the first cells of the index; the compare-and-set on
 * that meta cell proves nothing changed in between. */
static gboolean
pop_chunk (HBaseZSet *zset, gboolean max, guint count, GPtrArray *entries,
           GCancellable *cancellable, GError **error)
{
  g_autoptr(GPtrArray) none = g_ptr_array_new ();
  gint64 start = g_get_monotonic_time ();

  for (guint attempt = 0;; attempt++)
    {
      g_autoptr(HBaseZSetIter) iter = NULL;
      StructMeta old, next;
      StructChange change;
      gboolean applied = FALSE, ok;
      guint n;

      if (!_hbase_conflict_backoff (&zset->store, attempt, start, cancellable, error) ||
          !_hbase_zset_read_current (zset, none, &old, NULL, NULL, cancellable, error))
        return FALSE;
      if (!old.present || old.card == 0)
        return TRUE;
      iter = iter_new (zset, max ? CELLS_DESCENDING : CELLS_ASCENDING);
      _hbase_zset_block_bounds (max, &iter->bounds);
      iter->remaining = MIN ((gint64) count, old.card);
      iter->page = count;      /* one request, whatever the page size */
      if (!iter_fill (iter, cancellable, error))
        return FALSE;
      n = iter->buffer->len;
      if (n == 0)
        continue;   /* emptied meanwhile */
      _hbase_change_init (&change);
      for (guint i = 0; i < n; i++)
        {
          HBaseZSetEntry *entry = g_ptr_array_index (iter->buffer, i);
          Current before = { TRUE, entry->score }, gone = { FALSE, 0 };

          _hbase_zset_change_member (&change, &zset->store, entry->member, &before, &gone);
        }
      _hbase_meta_next (&old, STRUCT_KIND_ZSET, 1, MAX (old.card - (gint64) n, 0), 0, &next);
      ok = _hbase_change_commit (&zset->store, zset->row->data, zset->row->len, &old, &next,
                                 &change, &applied, cancellable, error);
      _hbase_change_clear (&change);
      if (!ok)
        return FALSE;
      if (applied)
        {
          for (guint i = 0; i < n; i++)
            g_ptr_array_add (entries, hbase_zset_entry_copy (g_ptr_array_index (iter->buffer, i)));
          return TRUE;
        }
    }
}

/**
 * hbase_zset_pop:
 * @zset: a sorted set
 * @max: pop the highest scores (ZPOPMAX) rather than the lowest (ZPOPMIN)
 * @count: how many at most (Redis's default is 1); 0 pops nothing
 * @entries: (out) (transfer container) (element-type HBaseZSetEntry): the
 *   popped entries, lowest first (highest first with @max)
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * ZPOPMIN, ZPOPMAX: reads the first @count cells of one index (on the
 * server, whatever the set's size) and removes them atomically, up to
 * 1000 at a time.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_zset_pop (HBaseZSet *zset, gboolean max, guint64 count, GPtrArray **entries,
                GCancellable *cancellable, GError **error)
{
  g_autoptr(GPtrArray) popped = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_zset_entry_free);

  if (entries != NULL)
    *entries = NULL;
  if (!_hbase_zset_check (zset, error))
    return FALSE;
  if (entries == NULL)
    return _hbase_illegal (error, "hbase_zset_pop needs a place for the entries");
  while (popped->len < count)
    {
      guint before = popped->len;

      if (!pop_chunk (zset, max, (guint) MIN (count - popped->len, (guint64) CHUNK_MEMBERS), popped,
                      cancellable, error))
        {
          if (popped->len > 0)
            g_prefix_error (error, "%u entries were popped, then: ", popped->len);
          return FALSE;
        }
      if (popped->len == before)
        break;
    }
  *entries = g_steal_pointer (&popped);
  return TRUE;
}

/* --- the plain one-row layout -------------------------------------------------------------- */

/**
 * hbase_zset_read_plain:
 * @table: the table
 * @row: the row holding the sorted set
 * @family: the family whose qualifiers are the members
 * @error: return location for an error
 *
 * Reads a sorted set stored as a weighted set in one row: every qualifier of
 * @family in @row is a member and its value the score as text ("95.5",
 * "1.0E10", "-Infinity": Java's Double.toString, or any C float syntax).
 * Entries come in member byte order (that layout has no score order), a
 * page of 1000 at a time; a value that is not a number fails the read with
 * %HBASE_ERROR_BAD_DATA naming the member.
 *
 * Returns: (transfer full) (nullable): an iterator, or %NULL with
 *   %HBASE_ERROR_ILLEGAL_ARGUMENT
 *
 * Since: 0.1
 */
HBaseZSetIter *
hbase_zset_read_plain (HBaseTable *table, GBytes *row, const char *family, GError **error)
{
  HBaseZSetOptions options = HBASE_ZSET_OPTIONS_INIT;
  g_autoptr(HBaseZSet) zset = NULL;
  HBaseZSetIter *iter;

  if (family == NULL)
    {
      _hbase_illegal (error, "the family is NULL");
      return NULL;
    }
  options.family = family;
  zset = hbase_zset_new (table, row, &options, error);
  if (zset == NULL)
    return NULL;
  iter = iter_new (zset, CELLS_PLAIN);
  /* the whole family: from the empty qualifier up */
  iter->bounds.lo = g_byte_array_new ();
  iter->bounds.lo_inclusive = TRUE;
  iter->bounds.hi = NULL;
  return iter;
}

HBaseClient *
_hbase_zset_iter_get_client (HBaseZSetIter *iter)
{
  return iter != NULL ? _hbase_zset_client (iter->zset) : NULL;
}
