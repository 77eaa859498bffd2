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
 * cell, retried on conflict, so it is atomic and the cardinality exact. */
#include "config.h"

#include <math.h>
#include <string.h>

#include <hbase-glib/hbase-zset.h>

#include "hbase-structures-private.h"

#define DEFAULT_FAMILY "z"
#define DEFAULT_PAGE_SIZE 1000
#define CHUNK_MEMBERS 1000
#define CHUNK_BYTES (256 * 1024)
/* counting: a page is read, then ever larger server-side skips */
#define COUNT_PAGE 1024
#define COUNT_MAX_STEP (1u << 20)
/* ZRANGE near the end of the set reads the other index up to this many */
#define RANK_FROM_END_MAX 10000

struct _HBaseZSet {
  gatomicrefcount ref_count;
  StructStore store;
  GBytes *key;
  GByteArray *row;
  guint page_size;
};

static const guint8 meta_qualifier[1] = { STRUCT_META_QUALIFIER };

/* --- entries ------------------------------------------------------------------------------ */

G_DEFINE_BOXED_TYPE (HBaseZSetEntry, hbase_zset_entry, hbase_zset_entry_copy,
                     hbase_zset_entry_free)

/**
 * hbase_zset_entry_new:
 * @member: the member
 * @score: its score
 *
 * Returns: (transfer full): a new entry
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
 * Returns: (transfer full): a copy
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
 * Returns: the score
 */
gdouble
hbase_zset_decode_score (const guint8 *encoded)
{
  g_return_val_if_fail (encoded != NULL, NAN);
  return _hbase_score_decode (encoded);
}

/* --- the handle --------------------------------------------------------------------------- */

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
  zset = g_new0 (HBaseZSet, 1);
  g_atomic_ref_count_init (&zset->ref_count);
  if (!_hbase_store_init (&zset->store, table, options->family, DEFAULT_FAMILY, error))
    {
      g_free (zset);
      return NULL;
    }
  zset->key = g_bytes_ref (key);
  zset->row = _hbase_byte_array_from_bytes (key);
  zset->page_size = options->page_size > 0 ? options->page_size : DEFAULT_PAGE_SIZE;
  return zset;
}

/**
 * hbase_zset_free:
 * @zset: (nullable) (transfer full): a sorted-set handle
 *
 * Frees the handle (iterators made from it stay valid); the data is
 * untouched.
 */
void
hbase_zset_free (HBaseZSet *zset)
{
  if (zset == NULL || !g_atomic_ref_count_dec (&zset->ref_count))
    return;
  _hbase_store_clear (&zset->store);
  g_bytes_unref (zset->key);
  g_byte_array_unref (zset->row);
  g_free (zset);
}

/**
 * hbase_zset_get_key:
 * @zset: a sorted set
 *
 * Returns: (transfer none): its row key
 */
GBytes *
hbase_zset_get_key (HBaseZSet *zset)
{
  g_return_val_if_fail (zset != NULL, NULL);
  return zset->key;
}

static gboolean
check_zset (HBaseZSet *zset, GError **error)
{
  return zset != NULL || _hbase_illegal (error, "the sorted set is NULL");
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

static GByteArray *
score_qualifier (gdouble score, GBytes *member)
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
static GByteArray *
reverse_qualifier (gdouble score, GBytes *member)
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

typedef struct {
  gboolean present;
  gdouble score;
} Current;

/* The meta cell and the scores of @members (distinct), in one get. */
static gboolean
read_current (HBaseZSet *zset, GPtrArray *members, StructMeta *meta, Current *current,
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
static void
change_member (StructChange *change, const StructStore *store, GBytes *member,
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
      g_autoptr(GByteArray) s = score_qualifier (before->score, member);
      g_autoptr(GByteArray) r = reverse_qualifier (before->score, member);

      _hbase_change_delete (change, store, s->data, s->len);
      _hbase_change_delete (change, store, r->data, r->len);
    }
  if (after->present)
    {
      g_autoptr(GByteArray) m = member_qualifier (member);
      g_autoptr(GByteArray) s = score_qualifier (after->score, member);
      g_autoptr(GByteArray) r = reverse_qualifier (after->score, member);

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
          !read_current (zset, distinct, &old, before, &max_timestamp, cancellable, error))
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
          change_member (&change, &zset->store, g_ptr_array_index (distinct, i), &before[i],
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
 * hbase_zset_add:
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
 */
gboolean
hbase_zset_add (HBaseZSet *zset, HBaseZAddFlags flags, GPtrArray *members, const gdouble *scores,
                guint64 *n_result, GCancellable *cancellable, GError **error)
{
  guint64 total = 0;
  guint i = 0;

  if (n_result != NULL)
    *n_result = 0;
  if (!check_zset (zset, error) || !check_flags (flags, error) ||
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
  if (!check_zset (zset, error) || !check_flags (flags, error) ||
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
          !read_current (zset, distinct, &old, before, &max_timestamp, cancellable, error))
        return FALSE;
      _hbase_change_init (&change);
      for (guint i = 0; i < distinct->len; i++)
        {
          Current gone = { FALSE, 0 };

          if (!before[i].present)
            continue;
          change_member (&change, &zset->store, g_ptr_array_index (distinct, i), &before[i], &gone);
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
  if (!check_zset (zset, error) ||
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
 */
gboolean
hbase_zset_clear (HBaseZSet *zset, GCancellable *cancellable, GError **error)
{
  g_autoptr(GPtrArray) none = g_ptr_array_new ();
  gint64 start = g_get_monotonic_time ();

  if (!check_zset (zset, error))
    return FALSE;
  for (guint attempt = 0;; attempt++)
    {
      StructMeta old, next;
      StructChange change;
      gboolean applied = FALSE, ok;

      if (!_hbase_conflict_backoff (&zset->store, attempt, start, cancellable, error) ||
          !read_current (zset, none, &old, NULL, NULL, cancellable, error))
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
 * hbase_zset_scores:
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
 */
gboolean
hbase_zset_scores (HBaseZSet *zset, GPtrArray *members, gboolean *found, gdouble *scores,
                   GCancellable *cancellable, GError **error)
{
  g_autofree Current *current = NULL;
  StructMeta meta;

  if (!check_zset (zset, error) ||
      !_hbase_check_members (members, HBASE_ZSET_MAX_MEMBER_SIZE, error))
    return FALSE;
  if (scores == NULL && members->len > 0)
    return _hbase_illegal (error, "hbase_zset_scores needs an array for the scores");
  current = g_new0 (Current, MAX (members->len, 1));
  if (members->len > 0 &&
      !read_current (zset, members, &meta, current, NULL, cancellable, error))
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
 */
gboolean
hbase_zset_card (HBaseZSet *zset, guint64 *card, GCancellable *cancellable, GError **error)
{
  g_autoptr(GPtrArray) none = g_ptr_array_new ();
  StructMeta meta;

  if (card != NULL)
    *card = 0;
  if (!check_zset (zset, error) ||
      !read_current (zset, none, &meta, NULL, NULL, cancellable, error))
    return FALSE;
  if (card != NULL)
    *card = (guint64) meta.card;
  return TRUE;
}

/* --- score ranges as qualifier ranges ------------------------------------------------------ */

typedef struct {
  GByteArray *lo;
  gboolean lo_inclusive;
  GByteArray *hi;
  gboolean hi_inclusive;
} Bounds;

static void
bounds_clear (Bounds *bounds)
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

static gboolean
check_range (const HBaseScoreRange *range, GError **error)
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
static gboolean
range_bounds (const HBaseScoreRange *range, gboolean reverse, Bounds *bounds)
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

static void
block_bounds (gboolean reverse, Bounds *bounds)
{
  guint8 prefix = reverse ? STRUCT_REVERSE_PREFIX : STRUCT_SCORE_PREFIX;

  bounds->lo = prefix_only (prefix);
  bounds->lo_inclusive = TRUE;
  bounds->hi = prefix_only ((guint8) (prefix + 1));
  bounds->hi_inclusive = FALSE;
}

/* One get of the qualifier range, skipping @offset, at most @limit. */
static HbaseThriftTResult *
read_range (HBaseZSet *zset, const GByteArray *lo, gboolean lo_inclusive, const Bounds *bounds,
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
static gboolean
count_range (HBaseZSet *zset, const Bounds *bounds, guint64 *count, GCancellable *cancellable,
             GError **error)
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
          result = read_range (zset, lo, lo_inclusive, bounds, 0, COUNT_PAGE, cancellable, error);
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
      result = read_range (zset, lo, lo_inclusive, bounds, step - 1, 1, cancellable, error);
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
 */
gboolean
hbase_zset_count (HBaseZSet *zset, const HBaseScoreRange *range, guint64 *count,
                  GCancellable *cancellable, GError **error)
{
  Bounds bounds;
  gboolean ok;

  if (count != NULL)
    *count = 0;
  if (!check_zset (zset, error) || !check_range (range, error))
    return FALSE;
  if (count == NULL)
    return _hbase_illegal (error, "hbase_zset_count needs a place for the count");
  if (!range_bounds (range, FALSE, &bounds))
    return TRUE;
  ok = count_range (zset, &bounds, count, cancellable, error);
  bounds_clear (&bounds);
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
  block_bounds (reverse, &bounds);
  g_byte_array_unref (bounds.hi);
  bounds.hi = reverse ? reverse_qualifier (value, member) : score_qualifier (value, member);
  ok = count_range (zset, &bounds, &before, cancellable, error);
  bounds_clear (&bounds);
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

/* --- iterators ----------------------------------------------------------------------------- */

typedef enum {
  CELLS_ASCENDING,     /* 's' cells */
  CELLS_DESCENDING,    /* 'r' cells */
  CELLS_PLAIN,         /* plain: qualifier = member, value = score text */
} CellKind;

struct _HBaseZSetIter {
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

  if (zset != NULL)
    {
      g_atomic_ref_count_inc (&zset->ref_count);
      iter->zset = zset;
      iter->page = zset->page_size;
    }
  iter->kind = kind;
  iter->remaining = -1;
  iter->buffer = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_zset_entry_free);
  return iter;
}

/**
 * hbase_zset_iter_free:
 * @iter: (nullable) (transfer full): an iterator
 */
void
hbase_zset_iter_free (HBaseZSetIter *iter)
{
  if (iter == NULL)
    return;
  hbase_zset_free (iter->zset);
  bounds_clear (&iter->bounds);
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
      block_bounds (iter->kind == CELLS_DESCENDING, &other);
      result = read_range (iter->zset, other.lo, TRUE, &other, (guint) ((gint64) card - 1 - stop),
                           (guint) n, cancellable, error);
      bounds_clear (&other);
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
  result = read_range (iter->zset, iter->bounds.lo, iter->bounds.lo_inclusive, &iter->bounds,
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
 */
HBaseZSetIter *
hbase_zset_range_by_score (HBaseZSet *zset, const HBaseScoreRange *range, gboolean reverse,
                           gint64 offset, gint64 count)
{
  HBaseZSetIter *iter;
  GError *error = NULL;

  if (!check_zset (zset, &error) || !check_range (range, &error))
    return failed_iter (error);
  iter = iter_new (zset, reverse ? CELLS_DESCENDING : CELLS_ASCENDING);
  if (offset < 0 || count == 0 || !range_bounds (range, reverse, &iter->bounds))
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
 */
HBaseZSetIter *
hbase_zset_range_by_rank (HBaseZSet *zset, gint64 start, gint64 stop, gboolean reverse)
{
  HBaseZSetIter *iter;
  GError *error = NULL;

  if (!check_zset (zset, &error))
    return failed_iter (error);
  iter = iter_new (zset, reverse ? CELLS_DESCENDING : CELLS_ASCENDING);
  block_bounds (reverse, &iter->bounds);
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
          !read_current (zset, none, &old, NULL, NULL, cancellable, error))
        return FALSE;
      if (!old.present || old.card == 0)
        return TRUE;
      iter = iter_new (zset, max ? CELLS_DESCENDING : CELLS_ASCENDING);
      block_bounds (max, &iter->bounds);
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

          change_member (&change, &zset->store, entry->member, &before, &gone);
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
 */
gboolean
hbase_zset_pop (HBaseZSet *zset, gboolean max, guint64 count, GPtrArray **entries,
                GCancellable *cancellable, GError **error)
{
  g_autoptr(GPtrArray) popped = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_zset_entry_free);

  if (entries != NULL)
    *entries = NULL;
  if (!check_zset (zset, error))
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

/**
 * hbase_zset_import_plain:
 * @zset: the sorted set to add to
 * @source: the table holding the plain sorted set
 * @row: its row
 * @family: its family
 * @n_added: (out) (optional): how many members were new to @zset
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Converts a sorted set in the plain one-row layout (see
 * hbase_zset_read_plain()) by adding its entries to @zset (ZADD), 1000 at
 * a time.  The source is left as it is; it must not be @zset's own row
 * and family.
 *
 * Returns: %TRUE on success
 */
gboolean
hbase_zset_import_plain (HBaseZSet *zset, HBaseTable *source, GBytes *row, const char *family,
                         guint64 *n_added, GCancellable *cancellable, GError **error)
{
  g_autoptr(HBaseZSetIter) iter = NULL;
  g_autoptr(GPtrArray) members = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GArray) scores = g_array_new (FALSE, FALSE, sizeof (gdouble));
  guint64 total = 0;
  gboolean done = FALSE;

  if (n_added != NULL)
    *n_added = 0;
  if (!check_zset (zset, error))
    return FALSE;
  iter = hbase_zset_read_plain (source, row, family, error);
  if (iter == NULL)
    return FALSE;
  if (source == zset->store.table && g_strcmp0 (family, zset->store.family_name) == 0 &&
      g_bytes_equal (row, zset->key))
    return _hbase_illegal (error, "cannot import a plain sorted set into its own row and family");
  while (!done)
    {
      guint64 added = 0;

      g_ptr_array_set_size (members, 0);
      g_array_set_size (scores, 0);
      while (members->len < DEFAULT_PAGE_SIZE)
        {
          GBytes *member = NULL;
          gdouble score;

          if (!hbase_zset_iter_next (iter, &member, &score, cancellable, error))
            return FALSE;
          if (member == NULL)
            {
              done = TRUE;
              break;
            }
          g_ptr_array_add (members, member);
          g_array_append_val (scores, score);
        }
      if (!hbase_zset_add (zset, HBASE_ZADD_NONE, members, (const gdouble *) scores->data, &added,
                           cancellable, error))
        return FALSE;
      total += added;
      if (n_added != NULL)
        *n_added = total;
    }
  return TRUE;
}
