/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-set.c: HBaseSet, a set of byte strings in the qualifiers of one
 * row (or of N shard rows), with Redis's semantics.
 *
 * A row holds, in one family: the meta cell '#' (cardinality, a clock and
 * a nonce: see hbase-structures-private.h) and one cell 'm' member with an
 * empty value per member.  Every change of a row is a checkAndMutate on
 * the meta cell, so changes of one row are serialised, the cardinality is
 * exact under any number of writers, and a change never half-applies.
 * Reads of many members page on the server (ColumnRangeFilter plus
 * storeLimit), so a huge row never comes back in one response.  The
 * layout is documented in docs/structures-layout.md.
 *
 * This file: the handle, membership, changes (SADD, SREM, clear) and
 * SRANDMEMBER.  Reading members in order (iterators, SSCAN, SINTER, SDIFF,
 * SUNION, the plain layout) is in hbase-set-iter.c. */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-set.h>

#include "hbase-structures-private.h"
#include "hbase-set-private.h"

#define DEFAULT_FAMILY "s"
/* one compare-and-set writes at most this many members, this many bytes */
#define CHUNK_MEMBERS 1000
#define CHUNK_BYTES (512 * 1024)

static const guint8 meta_qualifier[1] = { STRUCT_META_QUALIFIER };

/* --- the handle -------------------------------------------------------------------------- */

G_DEFINE_FINAL_TYPE (HBaseSet, hbase_set, G_TYPE_OBJECT)

/* The handle is released; the set's data is untouched. */
static void
hbase_set_finalize (GObject *object)
{
  HBaseSet *set = HBASE_SET (object);

  _hbase_store_clear (&set->store);
  g_clear_pointer (&set->key, g_bytes_unref);
  g_clear_pointer (&set->rows, g_ptr_array_unref);
  G_OBJECT_CLASS (hbase_set_parent_class)->finalize (object);
}

static void
hbase_set_class_init (HBaseSetClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = hbase_set_finalize;
}

static void
hbase_set_init (HBaseSet *set)
{
  (void) set;
}

HBaseSet *
_hbase_set_ref (HBaseSet *set)
{
  return g_object_ref (set);
}

void
_hbase_set_unref (HBaseSet *set)
{
  if (set != NULL)
    g_object_unref (set);
}

/**
 * hbase_set_new:
 * @table: the table holding the set
 * @key: the set's key: its row key, or the prefix of its shard rows
 * @options: (nullable): family, shards and page size; %NULL for the
 *   defaults
 * @error: return location for an error
 *
 * A handle on a set.  Nothing is read or written: a set that does not
 * exist is empty.  The table must have the family (by default "s").
 *
 * Returns: (transfer full) (nullable): the handle, or %NULL with
 *   %HBASE_ERROR_ILLEGAL_ARGUMENT
 *
 * Since: 0.1
 */
HBaseSet *
hbase_set_new (HBaseTable *table, GBytes *key, const HBaseSetOptions *options, GError **error)
{
  HBaseSetOptions defaults = HBASE_SET_OPTIONS_INIT;
  HBaseSet *set;

  if (options == NULL)
    options = &defaults;
  if (!_hbase_check_row (key, "set key", error))
    return NULL;
  if (options->shards > HBASE_SET_MAX_SHARDS)
    {
      _hbase_illegal (error, "a set has at most %d shards, not %u", HBASE_SET_MAX_SHARDS,
                      options->shards);
      return NULL;
    }
  set = g_object_new (HBASE_TYPE_SET, NULL);
  if (!_hbase_store_init (&set->store, table, options->family, DEFAULT_FAMILY, error))
    {
      g_object_unref (set);
      return NULL;
    }
  set->key = g_bytes_ref (key);
  set->shards = (guint16) MAX (options->shards, 1u);
  set->page_size = options->page_size > 0 ? options->page_size : DEFAULT_PAGE_SIZE;
  set->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_byte_array_unref);
  if (set->shards == 1)
    g_ptr_array_add (set->rows, _hbase_byte_array_from_bytes (key));
  else
    for (guint i = 0; i < set->shards; i++)
      {
        GByteArray *row = _hbase_byte_array_from_bytes (key);
        guint8 suffix[3] = { 0, (guint8) (i >> 8), (guint8) i };

        g_byte_array_append (row, suffix, 3);
        g_ptr_array_add (set->rows, row);
      }
  return set;
}

/**
 * hbase_set_get_key:
 * @set: a set
 *
 * Gets the key of @set.
 *
 * Returns: (transfer none): the key given to hbase_set_new()
 *
 * Since: 0.1
 */
GBytes *
hbase_set_get_key (HBaseSet *set)
{
  g_return_val_if_fail (set != NULL, NULL);
  return set->key;
}

/**
 * hbase_set_get_shards:
 * @set: a set
 *
 * Gets how many rows the members of @set are spread over.
 *
 * Returns: the number of rows the set is spread over (1 when not sharded)
 *
 * Since: 0.1
 */
guint
hbase_set_get_shards (HBaseSet *set)
{
  g_return_val_if_fail (set != NULL, 0);
  return set->shards;
}

static guint
shard_of (HBaseSet *set, GBytes *member)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (member, &len);

  return set->shards == 1 ? 0 : _hbase_member_hash (data, len) % set->shards;
}

GByteArray *
_hbase_set_row_of (HBaseSet *set, guint shard)
{
  return g_ptr_array_index (set->rows, shard);
}

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

gboolean
_hbase_set_check (HBaseSet *set, GError **error)
{
  if (!HBASE_IS_SET (set))
    return _hbase_illegal (error, "not a set");
  if (set->rows == NULL)   /* made by g_object_new() alone */
    return _hbase_illegal (error, "this HBaseSet was not made by hbase_set_new(), the only way "
                                  "to make one that names a set");
  return TRUE;
}

/* --- membership ---------------------------------------------------------------------------- */

/* Reads the meta cell and the cells of @members from every shard row
 * concerned, in one request (one get per row); fills @present and checks
 * each row's meta cell. */
static gboolean
read_membership (HBaseSet *set, GPtrArray *members, gboolean *present, GCancellable *cancellable,
                 GError **error)
{
  g_autoptr(GPtrArray) gets = g_ptr_array_new_with_free_func (g_object_unref);
  g_autofree int *get_of_shard = g_new (int, set->shards);
  g_autoptr(GPtrArray) results = NULL;

  for (guint i = 0; i < set->shards; i++)
    get_of_shard[i] = -1;
  for (guint i = 0; i < members->len; i++)
    {
      GBytes *member = g_ptr_array_index (members, i);
      guint shard = shard_of (set, member);
      g_autoptr(GByteArray) qualifier = member_qualifier (member);

      if (get_of_shard[shard] < 0)
        {
          GByteArray *row = _hbase_set_row_of (set, shard);
          HbaseThriftTGet *get = _hbase_sget_new (&set->store, row->data, row->len);

          _hbase_sget_add_column (get, &set->store, meta_qualifier, 1);
          get_of_shard[shard] = (int) gets->len;
          g_ptr_array_add (gets, get);
        }
      _hbase_sget_add_column (g_ptr_array_index (gets, get_of_shard[shard]), &set->store,
                              qualifier->data, qualifier->len);
    }
  results = _hbase_sget_run (&set->store, gets, cancellable, error);
  if (results == NULL)
    return FALSE;
  for (guint i = 0; i < results->len; i++)
    {
      StructMeta meta;

      if (!_hbase_result_meta (g_ptr_array_index (results, i), STRUCT_KIND_SET, set->shards, &meta,
                               error))
        return FALSE;
    }
  for (guint i = 0; i < members->len; i++)
    {
      GBytes *member = g_ptr_array_index (members, i);
      g_autoptr(GByteArray) qualifier = member_qualifier (member);
      HbaseThriftTResult *result = g_ptr_array_index (results,
                                                      get_of_shard[shard_of (set, member)]);

      present[i] = _hbase_result_find (result, qualifier->data, qualifier->len) != NULL;
    }
  return TRUE;
}

/**
 * hbase_set_contains_many: (skip)
 * @set: a set
 * @members: (element-type GBytes): the members to test
 * @are_members: (array) (out caller-allocates): @members->len flags
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * SMISMEMBER: whether each member is in the set, in one request (one get
 * per shard row concerned).  Bindings call
 * hbase_set_contains_many_array() (under this name).
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_set_contains_many (HBaseSet *set, GPtrArray *members, gboolean *are_members,
                         GCancellable *cancellable, GError **error)
{
  if (!_hbase_set_check (set, error) || !_hbase_check_members (members, HBASE_SET_MAX_MEMBER_SIZE, error))
    return FALSE;
  if (are_members == NULL && members->len > 0)
    return _hbase_illegal (error, "contains_many needs an array for the answers");
  return members->len == 0 || read_membership (set, members, are_members, cancellable, error);
}

/**
 * hbase_set_contains:
 * @set: a set
 * @member: a member
 * @is_member: (out): whether @member is in the set
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * SISMEMBER: one get of one cell.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_set_contains (HBaseSet *set, GBytes *member, gboolean *is_member, GCancellable *cancellable,
                    GError **error)
{
  g_autoptr(GPtrArray) members = g_ptr_array_new ();
  gboolean present = FALSE;

  if (is_member != NULL)
    *is_member = FALSE;
  g_ptr_array_add (members, member);
  if (!hbase_set_contains_many (set, members, &present, cancellable, error))
    return FALSE;
  if (is_member != NULL)
    *is_member = present;
  return TRUE;
}

/* The meta cells of every shard, in one request. */
static gboolean
read_metas (HBaseSet *set, StructMeta *metas, GCancellable *cancellable, GError **error)
{
  g_autoptr(GPtrArray) gets = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) results = NULL;

  for (guint i = 0; i < set->shards; i++)
    {
      GByteArray *row = _hbase_set_row_of (set, i);
      HbaseThriftTGet *get = _hbase_sget_new (&set->store, row->data, row->len);

      _hbase_sget_add_column (get, &set->store, meta_qualifier, 1);
      g_ptr_array_add (gets, get);
    }
  results = _hbase_sget_run (&set->store, gets, cancellable, error);
  if (results == NULL)
    return FALSE;
  for (guint i = 0; i < set->shards; i++)
    if (!_hbase_result_meta (g_ptr_array_index (results, i), STRUCT_KIND_SET, set->shards,
                             &metas[i], error))
      return FALSE;
  return TRUE;
}

/**
 * hbase_set_card:
 * @set: a set
 * @card: (out): the number of members
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * SCARD: the exact number of members, from the meta cell every change
 * updates atomically with the members (one cell per shard row).
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_set_card (HBaseSet *set, guint64 *card, GCancellable *cancellable, GError **error)
{
  g_autofree StructMeta *metas = NULL;
  guint64 total = 0;

  if (card != NULL)
    *card = 0;
  if (!_hbase_set_check (set, error))
    return FALSE;
  metas = g_new0 (StructMeta, set->shards);
  if (!read_metas (set, metas, cancellable, error))
    return FALSE;
  for (guint i = 0; i < set->shards; i++)
    total += (guint64) metas[i].card;
  if (card != NULL)
    *card = total;
  return TRUE;
}

/* --- changes ------------------------------------------------------------------------------- */

/* Adds (or removes) @members, all of shard @shard, distinct, in one
 * compare-and-set, retried until the meta cell did not change under it. */
static gboolean
change_row (HBaseSet *set, guint shard, GPtrArray *members, gboolean add, guint64 *n_changed,
            GCancellable *cancellable, GError **error)
{
  GByteArray *row = _hbase_set_row_of (set, shard);
  gint64 start = g_get_monotonic_time ();

  for (guint attempt = 0;; attempt++)
    {
      g_autoptr(GPtrArray) gets = g_ptr_array_new_with_free_func (g_object_unref);
      g_autoptr(GPtrArray) results = NULL;
      HbaseThriftTGet *get;
      HbaseThriftTResult *result;
      StructMeta old, next;
      StructChange change;
      guint changed = 0;
      gboolean applied = FALSE, ok;

      if (!_hbase_conflict_backoff (&set->store, attempt, start, cancellable, error))
        return FALSE;
      get = _hbase_sget_new (&set->store, row->data, row->len);
      _hbase_sget_add_column (get, &set->store, meta_qualifier, 1);
      for (guint i = 0; i < members->len; i++)
        {
          g_autoptr(GByteArray) qualifier = member_qualifier (g_ptr_array_index (members, i));

          _hbase_sget_add_column (get, &set->store, qualifier->data, qualifier->len);
        }
      g_ptr_array_add (gets, get);
      results = _hbase_sget_run (&set->store, gets, cancellable, error);
      if (results == NULL)
        return FALSE;
      result = g_ptr_array_index (results, 0);
      if (!_hbase_result_meta (result, STRUCT_KIND_SET, set->shards, &old, error))
        return FALSE;

      _hbase_change_init (&change);
      for (guint i = 0; i < members->len; i++)
        {
          g_autoptr(GByteArray) qualifier = member_qualifier (g_ptr_array_index (members, i));
          gboolean present = _hbase_result_find (result, qualifier->data, qualifier->len) != NULL;

          if (add && !present)
            _hbase_change_put (&change, &set->store, qualifier->data, qualifier->len, NULL, 0);
          else if (!add && present)
            _hbase_change_delete (&change, &set->store, qualifier->data, qualifier->len);
          else
            continue;
          changed++;
        }
      if (changed == 0)
        {
          /* the read is a snapshot of the row: nothing to do, atomically */
          _hbase_change_clear (&change);
          return TRUE;
        }
      _hbase_meta_next (&old, STRUCT_KIND_SET, set->shards,
                        old.card + (add ? (gint64) changed : -(gint64) changed),
                        _hbase_result_max_timestamp (result) + 1, &next);
      ok = _hbase_change_commit (&set->store, row->data, row->len, &old, &next, &change, &applied,
                                 cancellable, error);
      _hbase_change_clear (&change);
      if (!ok)
        return FALSE;
      if (applied)
        {
          *n_changed += changed;
          return TRUE;
        }
    }
}

/* Groups distinct @members by shard and changes each shard in chunks. */
static gboolean
change_members (HBaseSet *set, GPtrArray *members, gboolean add, guint64 *n_changed,
                GCancellable *cancellable, GError **error)
{
  g_autoptr(GHashTable) seen = NULL;
  g_autoptr(GPtrArray) by_shard = NULL;
  guint64 total = 0;

  if (n_changed != NULL)
    *n_changed = 0;
  if (!_hbase_set_check (set, error) || !_hbase_check_members (members, HBASE_SET_MAX_MEMBER_SIZE, error))
    return FALSE;
  seen = g_hash_table_new (g_bytes_hash, g_bytes_equal);
  by_shard = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  for (guint i = 0; i < set->shards; i++)
    g_ptr_array_add (by_shard, g_ptr_array_new ());
  for (guint i = 0; i < members->len; i++)
    {
      GBytes *member = g_ptr_array_index (members, i);

      if (g_hash_table_add (seen, member))
        g_ptr_array_add (g_ptr_array_index (by_shard, shard_of (set, member)), member);
    }
  for (guint shard = 0; shard < set->shards; shard++)
    {
      GPtrArray *all = g_ptr_array_index (by_shard, shard);
      guint i = 0;

      while (i < all->len)
        {
          g_autoptr(GPtrArray) chunk = g_ptr_array_new ();
          gsize bytes = 0;

          for (; i < all->len && chunk->len < CHUNK_MEMBERS && bytes < CHUNK_BYTES; i++)
            {
              g_ptr_array_add (chunk, g_ptr_array_index (all, i));
              bytes += g_bytes_get_size (g_ptr_array_index (all, i)) + 1;
            }
          if (!change_row (set, shard, chunk, add, &total, cancellable, error))
            {
              if (n_changed != NULL)
                *n_changed = total;
              return FALSE;
            }
        }
    }
  if (n_changed != NULL)
    *n_changed = total;
  return TRUE;
}

/**
 * hbase_set_add:
 * @set: a set
 * @members: (element-type GBytes): members to add (any bytes, up to
 *   %HBASE_SET_MAX_MEMBER_SIZE; duplicates count once)
 * @n_added: (out) (optional): how many were not members yet (SADD's reply)
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * SADD.  Members of one row are added with one read and one
 * checkAndMutate on the row's meta cell (retried when another writer
 * changed the row in between), so each such group, and each single
 * member, is added atomically and the cardinality stays exact.  Members of
 * different shard rows, and groups of more than 1000 members or 512 KiB,
 * are added one group after the other: on an error, @n_added counts the
 * groups already added.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_set_add (HBaseSet *set, GPtrArray *members, guint64 *n_added, GCancellable *cancellable,
               GError **error)
{
  return change_members (set, members, TRUE, n_added, cancellable, error);
}

/**
 * hbase_set_remove:
 * @set: a set
 * @members: (element-type GBytes): members to remove
 * @n_removed: (out) (optional): how many were members (SREM's reply)
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * SREM, atomic in the same way as hbase_set_add().
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_set_remove (HBaseSet *set, GPtrArray *members, guint64 *n_removed,
                  GCancellable *cancellable, GError **error)
{
  return change_members (set, members, FALSE, n_removed, cancellable, error);
}

static gboolean
change_one (HBaseSet *set, GBytes *member, gboolean add, gboolean *changed,
            GCancellable *cancellable, GError **error)
{
  g_autoptr(GPtrArray) members = g_ptr_array_new ();
  guint64 n = 0;

  if (changed != NULL)
    *changed = FALSE;
  g_ptr_array_add (members, member);
  if (!change_members (set, members, add, &n, cancellable, error))
    return FALSE;
  if (changed != NULL)
    *changed = n > 0;
  return TRUE;
}

/**
 * hbase_set_add_one:
 * @set: a set
 * @member: the member to add
 * @added: (out) (optional): whether it was not a member yet
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * SADD of one member, atomically.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_set_add_one (HBaseSet *set, GBytes *member, gboolean *added, GCancellable *cancellable,
                   GError **error)
{
  return change_one (set, member, TRUE, added, cancellable, error);
}

/**
 * hbase_set_remove_one:
 * @set: a set
 * @member: the member to remove
 * @removed: (out) (optional): whether it was a member
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * SREM of one member, atomically.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_set_remove_one (HBaseSet *set, GBytes *member, gboolean *removed,
                      GCancellable *cancellable, GError **error)
{
  return change_one (set, member, FALSE, removed, cancellable, error);
}

/**
 * hbase_set_clear:
 * @set: a set
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Removes every member (DEL), each shard row atomically, with one family
 * delete per row however large the set.  The meta cell stays, with
 * cardinality 0 (it keeps the row's clock, see docs/structures-layout.md).
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_set_clear (HBaseSet *set, GCancellable *cancellable, GError **error)
{
  if (!_hbase_set_check (set, error))
    return FALSE;
  for (guint shard = 0; shard < set->shards; shard++)
    {
      GByteArray *row = _hbase_set_row_of (set, shard);
      gint64 start = g_get_monotonic_time ();

      for (guint attempt = 0;; attempt++)
        {
          g_autoptr(GPtrArray) gets = g_ptr_array_new_with_free_func (g_object_unref);
          g_autoptr(GPtrArray) results = NULL;
          HbaseThriftTGet *get;
          StructMeta old, next;
          StructChange change;
          gboolean applied = FALSE, ok;

          if (!_hbase_conflict_backoff (&set->store, attempt, start, cancellable, error))
            return FALSE;
          get = _hbase_sget_new (&set->store, row->data, row->len);
          _hbase_sget_add_column (get, &set->store, meta_qualifier, 1);
          g_ptr_array_add (gets, get);
          results = _hbase_sget_run (&set->store, gets, cancellable, error);
          if (results == NULL ||
              !_hbase_result_meta (g_ptr_array_index (results, 0), STRUCT_KIND_SET, set->shards,
                                   &old, error))
            return FALSE;
          if (!old.present || old.card == 0)
            break;
          _hbase_meta_next (&old, STRUCT_KIND_SET, set->shards, 0, 0, &next);
          _hbase_change_init (&change);
          change.delete_family = TRUE;
          ok = _hbase_change_commit (&set->store, row->data, row->len, &old, &next, &change,
                                     &applied, cancellable, error);
          _hbase_change_clear (&change);
          if (!ok)
            return FALSE;
          if (applied)
            break;
        }
    }
  return TRUE;
}

/* --- SRANDMEMBER ------------------------------------------------------------------------- */

static int
compare_positions (gconstpointer a, gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : x > y ? 1 : 0;
}

/* The members at sorted, distinct positions @positions of shard @shard's
 * member block, walking forward: each request skips the gap to the next
 * wanted position on the server (storeOffset) and reads one page. */
static gboolean
members_at (HBaseSet *set, guint shard, GArray *positions, GHashTable *by_position,
            GCancellable *cancellable, GError **error)
{
  g_autoptr(GPtrArray) streams = g_ptr_array_new_with_free_func (_hbase_row_stream_free);
  RowStream *stream = _hbase_row_stream_new (&set->store, _hbase_set_row_of (set, shard), TRUE,
                                             STRUCT_MEMBER_PREFIX, 256);
  guint64 at = 0;          /* position of the first member after the stream's 'after' */
  guint i = 0;

  g_ptr_array_add (streams, stream);
  while (i < positions->len)
    {
      guint64 wanted = g_array_index (positions, guint64, i);
      g_autoptr(GPtrArray) gets = g_ptr_array_new_with_free_func (g_object_unref);
      g_autoptr(GPtrArray) results = NULL;
      guint64 first;

      guint limit = 1;

      /* one page covers the wanted positions close behind this one */
      for (guint k = i + 1; k < positions->len; k++)
        {
          guint64 position = g_array_index (positions, guint64, k);

          if (position - wanted >= 256)
            break;
          limit = (guint) (position - wanted) + 1;
        }
      g_ptr_array_add (gets, _hbase_row_stream_get (stream, (guint) MIN (wanted - at, (guint64) G_MAXINT32),
                                                    limit));
      results = _hbase_sget_run (&set->store, gets, cancellable, error);
      if (results == NULL)
        return FALSE;
      _hbase_row_stream_take (stream, g_ptr_array_index (results, 0), limit);
      first = wanted;
      for (; i < positions->len; i++)
        {
          guint64 position = g_array_index (positions, guint64, i);

          if (position - first >= stream->buffer->len)
            break;
          g_hash_table_insert (by_position, g_memdup2 (&position, sizeof position),
                               g_bytes_ref (g_ptr_array_index (stream->buffer, position - first)));
        }
      at = first + stream->buffer->len;
      if (stream->exhausted)
        break;   /* the set shrank meanwhile: the rest are gone */
    }
  return TRUE;
}

/**
 * hbase_set_random_members:
 * @set: a set
 * @count: SRANDMEMBER's count: n > 0 for up to n distinct members, n < 0
 *   for exactly -n members that may repeat, 0 for none
 * @members: (out) (transfer container) (element-type GBytes): the members,
 *   in random order; empty when the set is
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * SRANDMEMBER with a count.  Positions are drawn uniformly among the
 * members (weighted by shard cardinality) and read with server-side skips,
 * so nothing but the chosen members is transferred; the skips cost server
 * time proportional to the set's size.  A member removed concurrently may
 * make the answer shorter.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_set_random_members (HBaseSet *set, gint64 count, GPtrArray **members,
                          GCancellable *cancellable, GError **error)
{
  g_autofree StructMeta *metas = NULL;
  g_autoptr(GPtrArray) result = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GArray) draws = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr(GHashTable) by_position = NULL;
  guint64 total = 0, wanted;
  gboolean distinct = count > 0;

  if (members != NULL)
    *members = NULL;
  if (!_hbase_set_check (set, error))
    return FALSE;
  if (members == NULL)
    return _hbase_illegal (error, "hbase_set_random_members needs a place for the members");
  if (count == G_MININT64)
    return _hbase_illegal (error, "the count is out of range");
  metas = g_new0 (StructMeta, set->shards);
  if (count != 0 && !read_metas (set, metas, cancellable, error))
    return FALSE;
  for (guint i = 0; i < set->shards; i++)
    total += (guint64) metas[i].card;
  if (count == 0 || total == 0)
    {
      *members = g_steal_pointer (&result);
      return TRUE;
    }
  wanted = (guint64) (count > 0 ? count : -count);
  if (distinct && wanted >= total)
    {
      g_autoptr(HBaseSetIter) iter = hbase_set_members (set);
      g_autoptr(GPtrArray) all = hbase_set_iter_collect (iter, cancellable, error);

      if (all == NULL)
        return FALSE;
      for (guint i = all->len; i > 1; i--)
        {
          guint j = (guint) g_random_int_range (0, (gint32) i);
          gpointer tmp = all->pdata[i - 1];

          all->pdata[i - 1] = all->pdata[j];
          all->pdata[j] = tmp;
        }
      *members = g_steal_pointer (&all);
      return TRUE;
    }
  if (wanted > G_MAXINT32)
    return _hbase_illegal (error, "the count %" G_GINT64_FORMAT " is too large", count);

  /* draw global positions: distinct (Floyd's sampling) or independent */
  {
    g_autoptr(GHashTable) chosen = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);

    for (guint64 j = total - wanted; draws->len < wanted; j++)
      {
        guint64 position = (guint64) (g_random_double () * (gdouble) (distinct ? j + 1 : total));

        position = MIN (position, (distinct ? j : total - 1));
        if (distinct)
          {
            if (g_hash_table_contains (chosen, &position))
              position = j;
            g_hash_table_add (chosen, g_memdup2 (&position, sizeof position));
          }
        g_array_append_val (draws, position);
      }
  }

  /* read each shard's wanted positions in order */
  by_position = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                       (GDestroyNotify) g_bytes_unref);
  {
    g_autoptr(GArray) sorted = g_array_copy (draws);
    guint64 base = 0;
    guint next = 0;

    g_array_sort (sorted, compare_positions);
    for (guint shard = 0; shard < set->shards; shard++)
      {
        g_autoptr(GArray) local = g_array_new (FALSE, FALSE, sizeof (guint64));
        guint64 end = base + (guint64) metas[shard].card;

        for (; next < sorted->len && g_array_index (sorted, guint64, next) < end; next++)
          {
            guint64 position = g_array_index (sorted, guint64, next) - base;

            if (local->len == 0 || g_array_index (local, guint64, local->len - 1) != position)
              g_array_append_val (local, position);
          }
        if (local->len > 0)
          {
            g_autoptr(GHashTable) found = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                                                 (GDestroyNotify) g_bytes_unref);
            GHashTableIter iter;
            gpointer key, value;

            if (!members_at (set, shard, local, found, cancellable, error))
              return FALSE;
            g_hash_table_iter_init (&iter, found);
            while (g_hash_table_iter_next (&iter, &key, &value))
              {
                guint64 global = *(guint64 *) key + base;

                g_hash_table_insert (by_position, g_memdup2 (&global, sizeof global),
                                     g_bytes_ref (value));
              }
          }
        base = end;
      }
  }
  /* in the order drawn, then shuffled for the distinct case */
  for (guint i = 0; i < draws->len; i++)
    {
      GBytes *member = g_hash_table_lookup (by_position, &g_array_index (draws, guint64, i));

      if (member != NULL)
        g_ptr_array_add (result, g_bytes_ref (member));
    }
  for (guint i = result->len; i > 1; i--)
    {
      guint j = (guint) g_random_int_range (0, (gint32) i);
      gpointer tmp = result->pdata[i - 1];

      result->pdata[i - 1] = result->pdata[j];
      result->pdata[j] = tmp;
    }
  *members = g_steal_pointer (&result);
  return TRUE;
}
