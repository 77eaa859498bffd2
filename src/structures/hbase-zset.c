/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-zset.c: HBaseZSet, a sorted set in one row, with Redis's
 * semantics.
 *
 * The row holds, in one family (docs/structures-layout.md):
 *   '#'                          the meta cell: cardinality, clock, nonce
 *   'm' member              ->   enc(score), 8 bytes
 *   's' enc(score) member   ->   empty: ascending (score, member) order
 *   'r' ~enc(score) ~esc(member) -> empty: descending order
 * enc() is an order-preserving encoding of doubles, so the 's' cells sort
 * exactly as Redis orders a sorted set and the 'r' cells exactly the other
 * way round.  A range by score is a ColumnRangeFilter over one of them,
 * paged with storeLimit, LIMIT's offset is storeOffset: all on the server,
 * never the whole set.  Every change is one checkAndMutate on the meta
 * cell, retried on conflict, so it is atomic and the cardinality exact.
 *
 * This file: entries, the score encoding, the handle, the cells of a
 * member, ZADD, ZREM and point reads.  Score ranges, ZCOUNT and ZRANK are
 * in hbase-zset-range.c; iterators, ZPOP and the plain layout in
 * hbase-zset-iter.c. */
#include "config.h"

#include <math.h>
#include <string.h>

#include <hbase-glib/hbase-zset.h>

#include "hbase-structures-private.h"
#include "hbase-zset-private.h"

#define DEFAULT_FAMILY "z"
#define DEFAULT_PAGE_SIZE 1000
#define CHUNK_BYTES (256 * 1024)

static const guint8 meta_qualifier[1] = { STRUCT_META_QUALIFIER };

/* --- entries ------------------------------------------------------------------------------ */

G_DEFINE_BOXED_TYPE (HBaseZSetEntry, hbase_zset_entry, hbase_zset_entry_copy,
                     hbase_zset_entry_free)

/**
 * hbase_zset_entry_new:
 * @member: (nullable): the member (referenced); %NULL for the empty member
 * @score: its score
 *
 * Makes an entry.
 *
 * Returns: (transfer full): a new entry
 *
 * Since: 0.1
 */
HBaseZSetEntry *
hbase_zset_entry_new (GBytes *member, gdouble score)
{
  HBaseZSetEntry *entry = g_new0 (HBaseZSetEntry, 1);

  entry->member = member != NULL ? g_bytes_ref (member) : g_bytes_new_static ("", 0);
  entry->score = score;
  return entry;
}

/**
 * hbase_zset_entry_copy:
 * @entry: an entry
 *
 * Copies @entry; the copy shares its member, which is immutable.
 *
 * Returns: (transfer full): a copy
 *
 * Since: 0.1
 */
HBaseZSetEntry *
hbase_zset_entry_copy (const HBaseZSetEntry *entry)
{
  g_return_val_if_fail (entry != NULL, NULL);
  return hbase_zset_entry_new (entry->member, entry->score);
}

/**
 * hbase_zset_entry_free:
 * @entry: (nullable) (transfer full): an entry
 *
 * Frees @entry.  Does nothing for %NULL.
 *
 * Since: 0.1
 */
void
hbase_zset_entry_free (HBaseZSetEntry *entry)
{
  if (entry == NULL)
    return;
  g_bytes_unref (entry->member);
  g_free (entry);
}

/* --- the encoding ------------------------------------------------------------------------- */

/**
 * hbase_zset_encode_score:
 * @score: a score (not NaN)
 * @encoded: (out caller-allocates) (array fixed-size=8): where to write
 *   %HBASE_ZSET_SCORE_SIZE bytes
 *
 * The order-preserving encoding of sorted-set qualifiers: the IEEE 754
 * bits, big-endian, with the sign bit set for positive numbers and every
 * bit inverted for negative ones, so that unsigned byte order is numeric
 * order, -inf first and +inf last.  -0.0 is encoded as +0.0 (Redis treats
 * them as equal).
 *
 * Returns: %FALSE (writing nothing) when @score is NaN
 *
 * Since: 0.1
 */
gboolean
hbase_zset_encode_score (gdouble score, guint8 *encoded)
{
  if (isnan (score) || encoded == NULL)
    return FALSE;
  _hbase_score_encode (score, encoded);
  return TRUE;
}

/**
 * hbase_zset_decode_score:
 * @encoded: (array fixed-size=8): %HBASE_ZSET_SCORE_SIZE bytes from
 *   hbase_zset_encode_score()
 *
 * Decodes a score written by hbase_zset_encode_score(), for example read from
 * a qualifier of the sorted set's row.
 *
 * Returns: the score
 *
 * Since: 0.1
 */
gdouble
hbase_zset_decode_score (const guint8 *encoded)
{
  g_return_val_if_fail (encoded != NULL, NAN);
  return _hbase_score_decode (encoded);
}

/* --- the handle --------------------------------------------------------------------------- */

G_DEFINE_FINAL_TYPE (HBaseZSet, hbase_zset, G_TYPE_OBJECT)

/* The handle is released; the data is untouched. */
static void
hbase_zset_finalize (GObject *object)
{
  HBaseZSet *zset = HBASE_ZSET (object);

  _hbase_store_clear (&zset->store);
  g_clear_pointer (&zset->key, g_bytes_unref);
  g_clear_pointer (&zset->row, g_byte_array_unref);
  G_OBJECT_CLASS (hbase_zset_parent_class)->finalize (object);
}

static void
hbase_zset_class_init (HBaseZSetClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = hbase_zset_finalize;
}

static void
hbase_zset_init (HBaseZSet *zset)
{
  (void) zset;
}

/**
 * hbase_zset_new:
 * @table: the table holding the sorted set
 * @key: its row key
 * @options: (nullable): family and page size; %NULL for the defaults
 * @error: return location for an error
 *
 * A handle on a sorted set.  Nothing is read or written: a sorted set
 * that does not exist is empty.  The table must have the family (by
 * default "z").
 *
 * Returns: (transfer full) (nullable): the handle, or %NULL with
 *   %HBASE_ERROR_ILLEGAL_ARGUMENT
 *
 * Since: 0.1
 */
HBaseZSet *
hbase_zset_new (HBaseTable *table, GBytes *key, const HBaseZSetOptions *options, GError **error)
{
  HBaseZSetOptions defaults = HBASE_ZSET_OPTIONS_INIT;
  HBaseZSet *zset;

  if (options == NULL)
    options = &defaults;
  if (!_hbase_check_row (key, "sorted set key", error))
    return NULL;
  zset = g_object_new (HBASE_TYPE_ZSET, NULL);
  if (!_hbase_store_init (&zset->store, table, options->family, DEFAULT_FAMILY, error))
    {
      g_object_unref (zset);
      return NULL;
    }
  zset->key = g_bytes_ref (key);
  zset->row = _hbase_byte_array_from_bytes (key);
  zset->page_size = options->page_size > 0 ? options->page_size : DEFAULT_PAGE_SIZE;
  return zset;
}

/**
 * hbase_zset_get_key:
 * @zset: a sorted set
 *
 * Gets the row key of @zset.
 *
 * Returns: (transfer none): its row key
 *
 * Since: 0.1
 */
GBytes *
hbase_zset_get_key (HBaseZSet *zset)
{
  g_return_val_if_fail (zset != NULL, NULL);
  return zset->key;
}

gboolean
_hbase_zset_check (HBaseZSet *zset, GError **error)
{
  if (!HBASE_IS_ZSET (zset) || zset->row == NULL)   /* no row: made by g_object_new() alone */
    return _hbase_illegal (error, !HBASE_IS_ZSET (zset) ? "not a sorted set" : "this HBaseZSet was not "
                           "made by hbase_zset_new(), the only way to make one that names a sorted set");
  return TRUE;
}

/* --- qualifiers ---------------------------------------------------------------------------- */

static GByteArray *
member_qualifier (GBytes *member)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (member, &len);
  GByteArray *qualifier = g_byte_array_sized_new ((guint) len + 1);
  guint8 prefix = STRUCT_MEMBER_PREFIX;

  g_byte_array_append (qualifier, &prefix, 1);
  if (len > 0)
    g_byte_array_append (qualifier, data, (guint) len);
  return qualifier;
}

GByteArray *
_hbase_zset_score_qualifier (gdouble score, GBytes *member)
{
  gsize len = 0;
  const guint8 *data = member != NULL ? g_bytes_get_data (member, &len) : NULL;
  GByteArray *qualifier = g_byte_array_sized_new ((guint) len + 9);
  guint8 head[9] = { STRUCT_SCORE_PREFIX };

  _hbase_score_encode (score, head + 1);
  g_byte_array_append (qualifier, head, 9);
  if (len > 0)
    g_byte_array_append (qualifier, data, (guint) len);
  return qualifier;
}

/* 'r' ~enc(score), then the member's descending encoding when @member */
GByteArray *
_hbase_zset_reverse_qualifier (gdouble score, GBytes *member)
{
  GByteArray *qualifier = g_byte_array_new ();
  guint8 head[9] = { STRUCT_REVERSE_PREFIX };

  _hbase_score_encode (score, head + 1);
  for (guint i = 1; i < 9; i++)
    head[i] = (guint8) ~head[i];
  g_byte_array_append (qualifier, head, 9);
  if (member != NULL)
    {
      gsize len;
      const guint8 *data = g_bytes_get_data (member, &len);

      _hbase_desc_member_append (qualifier, data, len);
    }
  return qualifier;
}

static gboolean
decode_member_score (const GByteArray *value, GBytes *member, gdouble *score, GError **error)
{
  if (value->len != HBASE_ZSET_SCORE_SIZE)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_BAD_DATA,
                   "the score of a member is %u bytes long, not %d: is the row a sorted set?",
                   value->len, HBASE_ZSET_SCORE_SIZE);
      return FALSE;
    }
  *score = _hbase_score_decode (value->data);
  if (isnan (*score))
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_BAD_DATA, "a member's stored score is NaN");
      return FALSE;
    }
  return TRUE;
}

/* --- reading members' scores --------------------------------------------------------------- */

/* The meta cell and the scores of @members (distinct), in one get. */
gboolean
_hbase_zset_read_current (HBaseZSet *zset, GPtrArray *members, StructMeta *meta, Current *current,
                          gint64 *max_timestamp, GCancellable *cancellable, GError **error)
{
  g_autoptr(GPtrArray) gets = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) results = NULL;
  HbaseThriftTGet *get = _hbase_sget_new (&zset->store, zset->row->data, zset->row->len);
  HbaseThriftTResult *result;

  _hbase_sget_add_column (get, &zset->store, meta_qualifier, 1);
  for (guint i = 0; i < members->len; i++)
    {
      g_autoptr(GByteArray) qualifier = member_qualifier (g_ptr_array_index (members, i));

      _hbase_sget_add_column (get, &zset->store, qualifier->data, qualifier->len);
    }
  g_ptr_array_add (gets, get);
  results = _hbase_sget_run (&zset->store, gets, cancellable, error);
  if (results == NULL)
    return FALSE;
  result = g_ptr_array_index (results, 0);
  if (!_hbase_result_meta (result, STRUCT_KIND_ZSET, 1, meta, error))
    return FALSE;
  if (max_timestamp != NULL)
    *max_timestamp = _hbase_result_max_timestamp (result);
  for (guint i = 0; i < members->len; i++)
    {
      g_autoptr(GByteArray) qualifier = member_qualifier (g_ptr_array_index (members, i));
      HbaseThriftTColumnValue *cell = _hbase_result_find (result, qualifier->data, qualifier->len);

      current[i].present = cell != NULL;
      current[i].score = 0;
      if (cell != NULL && !decode_member_score (cell->value, g_ptr_array_index (members, i),
                                                &current[i].score, error))
        return FALSE;
    }
  return TRUE;
}

/* The cells that take @member from @before to @after. */
void
_hbase_zset_change_member (StructChange *change, const StructStore *store, GBytes *member,
                           const Current *before, const Current *after)
{
  guint8 old_encoded[8], new_encoded[8];
  gboolean moved;

  if (before->present)
    _hbase_score_encode (before->score, old_encoded);
  if (after->present)
    _hbase_score_encode (after->score, new_encoded);
  moved = before->present != after->present ||
          (before->present && memcmp (old_encoded, new_encoded, 8) != 0);
  if (!moved)
    return;
  if (before->present)
    {
      g_autoptr(GByteArray) s = _hbase_zset_score_qualifier (before->score, member);
      g_autoptr(GByteArray) r = _hbase_zset_reverse_qualifier (before->score, member);

      _hbase_change_delete (change, store, s->data, s->len);
      _hbase_change_delete (change, store, r->data, r->len);
    }
  if (after->present)
    {
      g_autoptr(GByteArray) m = member_qualifier (member);
      g_autoptr(GByteArray) s = _hbase_zset_score_qualifier (after->score, member);
      g_autoptr(GByteArray) r = _hbase_zset_reverse_qualifier (after->score, member);

      _hbase_change_put (change, store, m->data, m->len, new_encoded, 8);
      _hbase_change_put (change, store, s->data, s->len, NULL, 0);
      _hbase_change_put (change, store, r->data, r->len, NULL, 0);
    }
  else
    {
      g_autoptr(GByteArray) m = member_qualifier (member);

      _hbase_change_delete (change, store, m->data, m->len);
    }
}

/* --- ZADD ----------------------------------------------------------------------------------- */

typedef struct {
  guint64 added;
  guint64 updated;
  guint64 processed;
  gdouble score;           /* INCR: the last new score */
} AddResult;

/* Applies ZADD's rules to @n pairs, in order, on the state read from the
 * row, and writes the difference with one compare-and-set (retried). */
static gboolean
add_chunk (HBaseZSet *zset, HBaseZAddFlags flags, gboolean incr, GBytes *const *members,
           const gdouble *scores, guint n, AddResult *out, GCancellable *cancellable,
           GError **error)
{
  g_autoptr(GHashTable) index = g_hash_table_new (g_bytes_hash, g_bytes_equal);
  g_autoptr(GPtrArray) distinct = g_ptr_array_new ();
  g_autofree guint *slot = g_new (guint, MAX (n, 1));
  gint64 start = g_get_monotonic_time ();

  for (guint j = 0; j < n; j++)
    {
      gpointer found;

      if (!g_hash_table_lookup_extended (index, members[j], NULL, &found))
        {
          found = GUINT_TO_POINTER (distinct->len);
          g_hash_table_insert (index, members[j], found);
          g_ptr_array_add (distinct, members[j]);
        }
      slot[j] = GPOINTER_TO_UINT (found);
    }

  for (guint attempt = 0;; attempt++)
    {
      g_autofree Current *before = g_new0 (Current, distinct->len);
      g_autofree Current *after = NULL;
      StructMeta old, next;
      StructChange change;
      AddResult result = { 0, 0, 0, 0 };
      gint64 max_timestamp = 0, card;
      gboolean applied = FALSE, ok;

      if (!_hbase_conflict_backoff (&zset->store, attempt, start, cancellable, error) ||
          !_hbase_zset_read_current (zset, distinct, &old, before, &max_timestamp, cancellable, error))
        return FALSE;
      after = g_memdup2 (before, sizeof (Current) * distinct->len);
      for (guint j = 0; j < n; j++)
        {
          Current *current = &after[slot[j]];
          gdouble score = scores[j];

          if (current->present)
            {
              if (flags & HBASE_ZADD_NX)
                continue;
              if (incr)
                {
                  score += current->score;
                  if (isnan (score))
                    return _hbase_illegal (error, "resulting score is not a number (NaN)");
                }
              if (((flags & HBASE_ZADD_LT) && score >= current->score) ||
                  ((flags & HBASE_ZADD_GT) && score <= current->score))
                continue;
              result.processed++;
              result.score = score;
              if (score != current->score)
                {
                  current->score = score;
                  result.updated++;
                }
            }
          else if (!(flags & HBASE_ZADD_XX))
            {
              current->present = TRUE;
              current->score = score;
              result.added++;
              result.processed++;
              result.score = score;
            }
        }

      _hbase_change_init (&change);
      card = old.card;
      for (guint i = 0; i < distinct->len; i++)
        {
          _hbase_zset_change_member (&change, &zset->store, g_ptr_array_index (distinct, i), &before[i],
                                     &after[i]);
          card += (after[i].present ? 1 : 0) - (before[i].present ? 1 : 0);
        }
      if (change.puts->len == 0 && change.deletes->len == 0)
        {
          _hbase_change_clear (&change);
          *out = result;
          return TRUE;
        }
      _hbase_meta_next (&old, STRUCT_KIND_ZSET, 1, card, max_timestamp + 1, &next);
      ok = _hbase_change_commit (&zset->store, zset->row->data, zset->row->len, &old, &next,
                                 &change, &applied, cancellable, error);
      _hbase_change_clear (&change);
      if (!ok)
        return FALSE;
      if (applied)
        {
          *out = result;
          return TRUE;
        }
    }
}

static gboolean
check_flags (HBaseZAddFlags flags, GError **error)
{
  const guint known = HBASE_ZADD_NX | HBASE_ZADD_XX | HBASE_ZADD_GT | HBASE_ZADD_LT |
                      HBASE_ZADD_CH;
  gboolean nx = (flags & HBASE_ZADD_NX) != 0, xx = (flags & HBASE_ZADD_XX) != 0;
  gboolean gt = (flags & HBASE_ZADD_GT) != 0, lt = (flags & HBASE_ZADD_LT) != 0;

  if ((guint) flags & ~known)
    return _hbase_illegal (error, "unknown ZADD flags 0x%x", (guint) flags & ~known);
  if (nx && xx)
    return _hbase_illegal (error, "XX and NX options at the same time are not compatible");
  if ((gt && nx) || (lt && nx) || (gt && lt))
    return _hbase_illegal (error, "GT, LT, and/or NX options at the same time are not compatible");
  return TRUE;
}

/**
 * hbase_zset_add: (skip)
 * @zset: a sorted set
 * @flags: NX, XX, GT, LT, CH as ZADD's options
 * @members: (element-type GBytes): the members (any bytes up to
 *   %HBASE_ZSET_MAX_MEMBER_SIZE)
 * @scores: (array): one score per member, ±inf allowed, NaN refused
 * @n_result: (out) (optional): ZADD's reply: members added, plus members
 *   whose score changed with %HBASE_ZADD_CH
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * ZADD.  The pairs are applied in order, as Redis does (a member given
 * twice ends with its last score).  Up to 1000 pairs (256 KiB of members)
 * are applied atomically: one read of the row, then one checkAndMutate on
 * its meta cell that writes the member, ascending and descending cells of
 * every changed member and the new cardinality, retried if another writer
 * came in between.  Longer lists are applied in such groups, in order; on
 * an error @n_result counts the groups applied.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_zset_add (HBaseZSet *zset, HBaseZAddFlags flags, GPtrArray *members, const gdouble *scores,
                guint64 *n_result, GCancellable *cancellable, GError **error)
{
  guint64 total = 0;
  guint i = 0;

  if (n_result != NULL)
    *n_result = 0;
  if (!_hbase_zset_check (zset, error) || !check_flags (flags, error) ||
      !_hbase_check_members (members, HBASE_ZSET_MAX_MEMBER_SIZE, error))
    return FALSE;
  if (scores == NULL && members->len > 0)
    return _hbase_illegal (error, "the scores are NULL");
  for (guint j = 0; j < members->len; j++)
    if (isnan (scores[j]))
      return _hbase_illegal (error, "score %u is not a number", j);
  while (i < members->len)
    {
      AddResult result;
      guint n = 0;
      gsize bytes = 0;

      while (i + n < members->len && n < CHUNK_MEMBERS && bytes < CHUNK_BYTES)
        bytes += g_bytes_get_size (g_ptr_array_index (members, i + n++)) + 10;
      if (!add_chunk (zset, flags, FALSE, (GBytes *const *) members->pdata + i, scores + i, n,
                      &result, cancellable, error))
        return FALSE;
      total += result.added + ((flags & HBASE_ZADD_CH) ? result.updated : 0);
      if (n_result != NULL)
        *n_result = total;
      i += n;
    }
  return TRUE;
}

/**
 * hbase_zset_add_incr:
 * @zset: a sorted set
 * @flags: NX, XX, GT, LT (CH changes nothing here)
 * @member: the member
 * @increment: added to the member's score (a missing member counts as 0)
 * @applied: (out) (optional): %FALSE when the flags stopped the change
 *   (ZADD INCR's nil reply)
 * @score: (out) (optional): the new score when applied
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * ZADD with INCR: atomic under concurrent writers (read, compute, then a
 * compare-and-set of the row's meta cell, retried on conflict).  A result
 * that is not a number (+inf plus -inf) is an
 * %HBASE_ERROR_ILLEGAL_ARGUMENT, with nothing changed.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_zset_add_incr (HBaseZSet *zset, HBaseZAddFlags flags, GBytes *member, gdouble increment,
                     gboolean *applied, gdouble *score, GCancellable *cancellable,
                     GError **error)
{
  g_autoptr(GPtrArray) members = g_ptr_array_new ();
  AddResult result;

  if (applied != NULL)
    *applied = FALSE;
  if (score != NULL)
    *score = NAN;
  g_ptr_array_add (members, member);
  if (!_hbase_zset_check (zset, error) || !check_flags (flags, error) ||
      !_hbase_check_members (members, HBASE_ZSET_MAX_MEMBER_SIZE, error))
    return FALSE;
  if (isnan (increment))
    return _hbase_illegal (error, "the increment is not a number");
  if (!add_chunk (zset, flags, TRUE, (GBytes *const *) members->pdata, &increment, 1, &result,
                  cancellable, error))
    return FALSE;
  if (applied != NULL)
    *applied = result.processed > 0;
  if (score != NULL && result.processed > 0)
    *score = result.score;
  return TRUE;
}

/**
 * hbase_zset_incr_by:
 * @zset: a sorted set
 * @member: the member (added with score @increment when missing)
 * @increment: what to add
 * @score: (out) (optional): the new score
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * ZINCRBY, atomic under concurrent writers: concurrent increments of the
 * same member never lose an update.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_zset_incr_by (HBaseZSet *zset, GBytes *member, gdouble increment, gdouble *score,
                    GCancellable *cancellable, GError **error)
{
  return hbase_zset_add_incr (zset, HBASE_ZADD_NONE, member, increment, NULL, score, cancellable,
                              error);
}

/* --- ZREM ---------------------------------------------------------------------------------- */

static gboolean
remove_chunk (HBaseZSet *zset, GPtrArray *distinct, guint64 *n_removed, GCancellable *cancellable,
              GError **error)
{
  gint64 start = g_get_monotonic_time ();

  for (guint attempt = 0;; attempt++)
    {
      g_autofree Current *before = g_new0 (Current, distinct->len);
      StructMeta old, next;
      StructChange change;
      gint64 max_timestamp = 0;
      guint removed = 0;
      gboolean applied = FALSE, ok;

      if (!_hbase_conflict_backoff (&zset->store, attempt, start, cancellable, error) ||
          !_hbase_zset_read_current (zset, distinct, &old, before, &max_timestamp, cancellable, error))
        return FALSE;
      _hbase_change_init (&change);
      for (guint i = 0; i < distinct->len; i++)
        {
          Current gone = { FALSE, 0 };

          if (!before[i].present)
            continue;
          _hbase_zset_change_member (&change, &zset->store, g_ptr_array_index (distinct, i), &before[i], &gone);
          removed++;
        }
      if (removed == 0)
        {
          _hbase_change_clear (&change);
          return TRUE;
        }
      _hbase_meta_next (&old, STRUCT_KIND_ZSET, 1, old.card - removed, max_timestamp + 1, &next);
      ok = _hbase_change_commit (&zset->store, zset->row->data, zset->row->len, &old, &next,
                                 &change, &applied, cancellable, error);
      _hbase_change_clear (&change);
      if (!ok)
        return FALSE;
      if (applied)
        {
          *n_removed += removed;
          return TRUE;
        }
    }
}

/**
 * hbase_zset_remove:
 * @zset: a sorted set
 * @members: (element-type GBytes): the members to remove
 * @n_removed: (out) (optional): how many were members (ZREM's reply)
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * ZREM, atomic per group of up to 1000 members like hbase_zset_add().
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_zset_remove (HBaseZSet *zset, GPtrArray *members, guint64 *n_removed,
                   GCancellable *cancellable, GError **error)
{
  g_autoptr(GHashTable) seen = NULL;
  g_autoptr(GPtrArray) distinct = g_ptr_array_new ();
  guint64 total = 0;

  if (n_removed != NULL)
    *n_removed = 0;
  if (!_hbase_zset_check (zset, error) ||
      !_hbase_check_members (members, HBASE_ZSET_MAX_MEMBER_SIZE, error))
    return FALSE;
  seen = g_hash_table_new (g_bytes_hash, g_bytes_equal);
  for (guint i = 0; i <= members->len; i++)
    {
      if (i < members->len && g_hash_table_add (seen, g_ptr_array_index (members, i)))
        g_ptr_array_add (distinct, g_ptr_array_index (members, i));
      if (distinct->len > 0 && (distinct->len == CHUNK_MEMBERS || i == members->len))
        {
          gboolean ok = remove_chunk (zset, distinct, &total, cancellable, error);

          if (n_removed != NULL)
            *n_removed = total;
          if (!ok)
            return FALSE;
          g_ptr_array_set_size (distinct, 0);
        }
    }
  return TRUE;
}

/**
 * hbase_zset_clear:
 * @zset: a sorted set
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Removes every member (DEL), atomically, with one family delete however
 * large the set.  The meta cell stays, with cardinality 0.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_zset_clear (HBaseZSet *zset, GCancellable *cancellable, GError **error)
{
  g_autoptr(GPtrArray) none = g_ptr_array_new ();
  gint64 start = g_get_monotonic_time ();

  if (!_hbase_zset_check (zset, error))
    return FALSE;
  for (guint attempt = 0;; attempt++)
    {
      StructMeta old, next;
      StructChange change;
      gboolean applied = FALSE, ok;

      if (!_hbase_conflict_backoff (&zset->store, attempt, start, cancellable, error) ||
          !_hbase_zset_read_current (zset, none, &old, NULL, NULL, cancellable, error))
        return FALSE;
      if (!old.present || old.card == 0)
        return TRUE;
      _hbase_meta_next (&old, STRUCT_KIND_ZSET, 1, 0, 0, &next);
      _hbase_change_init (&change);
      change.delete_family = TRUE;
      ok = _hbase_change_commit (&zset->store, zset->row->data, zset->row->len, &old, &next,
                                 &change, &applied, cancellable, error);
      _hbase_change_clear (&change);
      if (!ok)
        return FALSE;
      if (applied)
        return TRUE;
    }
}

/* --- point reads --------------------------------------------------------------------------- */

/**
 * hbase_zset_scores: (skip)
 * @zset: a sorted set
 * @members: (element-type GBytes): the members
 * @found: (array) (out caller-allocates) (optional): @members->len flags
 * @scores: (array) (out caller-allocates): @members->len scores (NaN for
 *   a missing member)
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * ZMSCORE, in one get.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_zset_scores (HBaseZSet *zset, GPtrArray *members, gboolean *found, gdouble *scores,
                   GCancellable *cancellable, GError **error)
{
  g_autofree Current *current = NULL;
  StructMeta meta;

  if (!_hbase_zset_check (zset, error) ||
      !_hbase_check_members (members, HBASE_ZSET_MAX_MEMBER_SIZE, error))
    return FALSE;
  if (scores == NULL && members->len > 0)
    return _hbase_illegal (error, "hbase_zset_scores needs an array for the scores");
  current = g_new0 (Current, MAX (members->len, 1));
  if (members->len > 0 &&
      !_hbase_zset_read_current (zset, members, &meta, current, NULL, cancellable, error))
    return FALSE;
  for (guint i = 0; i < members->len; i++)
    {
      if (found != NULL)
        found[i] = current[i].present;
      scores[i] = current[i].present ? current[i].score : NAN;
    }
  return TRUE;
}

/**
 * hbase_zset_score:
 * @zset: a sorted set
 * @member: a member
 * @found: (out) (optional): whether it is in the set
 * @score: (out) (optional): its score, NaN when missing
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * ZSCORE: one get of one cell.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_zset_score (HBaseZSet *zset, GBytes *member, gboolean *found, gdouble *score,
                  GCancellable *cancellable, GError **error)
{
  g_autoptr(GPtrArray) members = g_ptr_array_new ();
  gboolean is_found = FALSE;
  gdouble value = NAN;

  if (found != NULL)
    *found = FALSE;
  if (score != NULL)
    *score = NAN;
  g_ptr_array_add (members, member);
  if (!hbase_zset_scores (zset, members, &is_found, &value, cancellable, error))
    return FALSE;
  if (found != NULL)
    *found = is_found;
  if (score != NULL)
    *score = value;
  return TRUE;
}

/**
 * hbase_zset_card:
 * @zset: a sorted set
 * @card: (out): the number of members
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * ZCARD: the exact count, from the meta cell (one cell read).
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_zset_card (HBaseZSet *zset, guint64 *card, GCancellable *cancellable, GError **error)
{
  g_autoptr(GPtrArray) none = g_ptr_array_new ();
  StructMeta meta;

  if (card != NULL)
    *card = 0;
  if (!_hbase_zset_check (zset, error) ||
      !_hbase_zset_read_current (zset, none, &meta, NULL, NULL, cancellable, error))
    return FALSE;
  if (card != NULL)
    *card = (guint64) meta.card;
  return TRUE;
}
