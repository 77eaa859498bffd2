/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-set-iter.c: reading a set's members in order: the paged reads of
 * one row (RowStream), the iterators that merge the shard rows
 * (hbase_set_members()), SSCAN by cursor, the probing iterators of SINTER
 * and SDIFF, SUNION, and hbase_set_read_plain() over the plain one-row
 * layout. */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-set.h>

#include "hbase-structures-private.h"
#include "hbase-set-private.h"
#include "hbase-structures-async-private.h"

/* the most members one SSCAN step returns */
#define SCAN_MAX_COUNT 10000

/* --- reading a row's members: a page at a time ------------------------------------------ */

RowStream *
_hbase_row_stream_new (const StructStore *store, GByteArray *row, gboolean has_prefix, guint8 prefix,
                       guint page_size)
{
  RowStream *stream = g_new0 (RowStream, 1);

  _hbase_store_copy (&stream->store, store);
  stream->row = g_byte_array_ref (row);
  stream->has_prefix = has_prefix;
  stream->prefix = prefix;
  stream->page_size = page_size;
  stream->buffer = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  return stream;
}

void
_hbase_row_stream_free (gpointer data)
{
  RowStream *stream = data;

  _hbase_store_clear (&stream->store);
  g_byte_array_unref (stream->row);
  g_clear_pointer (&stream->after, g_byte_array_unref);
  g_ptr_array_unref (stream->buffer);
  g_free (stream);
}

static gboolean
row_stream_needs_fill (RowStream *stream)
{
  return stream->next >= stream->buffer->len && !stream->exhausted;
}

/* Starts after @member (exclusive). */
static void
row_stream_seek_after (RowStream *stream, GBytes *member)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (member, &len);

  g_clear_pointer (&stream->after, g_byte_array_unref);
  stream->after = g_byte_array_new ();
  if (stream->has_prefix)
    g_byte_array_append (stream->after, &stream->prefix, 1);
  if (len > 0)
    g_byte_array_append (stream->after, data, (guint) len);
}

HbaseThriftTGet *
_hbase_row_stream_get (RowStream *stream, guint offset, guint limit)
{
  HbaseThriftTGet *get = _hbase_sget_new (&stream->store, stream->row->data, stream->row->len);
  guint8 end = (guint8) (stream->prefix + 1);
  HbaseThriftTColumn *column = g_object_new (HBASE_THRIFT_TYPE_T_COLUMN, NULL);

  column->family = g_byte_array_ref (stream->store.family);
  g_ptr_array_add (get->columns, column);
  get->__isset_columns = TRUE;
  if (stream->after != NULL)
    _hbase_sget_set_range (get, stream->after->data, stream->after->len, FALSE,
                           stream->has_prefix ? &end : NULL, 1, FALSE, offset, limit);
  else if (stream->has_prefix)
    _hbase_sget_set_range (get, &stream->prefix, 1, TRUE, &end, 1, FALSE, offset, limit);
  else
    _hbase_sget_set_range (get, NULL, 0, FALSE, NULL, 0, FALSE, offset, limit);
  return get;
}

void
_hbase_row_stream_take (RowStream *stream, HbaseThriftTResult *result, guint limit)
{
  GPtrArray *values = result->columnValues;
  guint skip = stream->has_prefix ? 1 : 0;

  g_ptr_array_set_size (stream->buffer, 0);
  stream->next = 0;
  for (guint i = 0; values != NULL && i < values->len; i++)
    {
      HbaseThriftTColumnValue *cell = g_ptr_array_index (values, i);
      GByteArray *qualifier = cell->qualifier;

      if (i + 1 == values->len)
        {
          g_clear_pointer (&stream->after, g_byte_array_unref);
          stream->after = g_byte_array_ref (qualifier);
        }
      if (qualifier->len < skip || (stream->has_prefix && qualifier->data[0] != stream->prefix))
        continue;
      g_ptr_array_add (stream->buffer, g_bytes_new (qualifier->data + skip, qualifier->len - skip));
    }
  if (values == NULL || values->len < limit)
    stream->exhausted = TRUE;
}

/* Fills every stream of @streams whose page is used up, in one request. */
static gboolean
row_streams_fill (GPtrArray *streams, GCancellable *cancellable, GError **error)
{
  g_autoptr(GPtrArray) gets = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) filled = g_ptr_array_new ();
  g_autoptr(GPtrArray) results = NULL;
  RowStream *first = NULL;

  for (guint i = 0; i < streams->len; i++)
    {
      RowStream *stream = g_ptr_array_index (streams, i);

      if (!row_stream_needs_fill (stream))
        continue;
      g_ptr_array_add (gets, _hbase_row_stream_get (stream, 0, stream->page_size));
      g_ptr_array_add (filled, stream);
      first = first != NULL ? first : stream;
    }
  if (first == NULL)
    return TRUE;
  results = _hbase_sget_run (&first->store, gets, cancellable, error);
  if (results == NULL)
    return FALSE;
  for (guint i = 0; i < filled->len; i++)
    {
      RowStream *stream = g_ptr_array_index (filled, i);

      _hbase_row_stream_take (stream, g_ptr_array_index (results, i), stream->page_size);
    }
  return TRUE;
}

/* --- iterators ----------------------------------------------------------------------------- */

struct _HBaseSetIter {
  gatomicrefcount ref_count;
  gboolean (*next) (HBaseSetIter *iter, GBytes **member, GCancellable *cancellable,
                    GError **error);
  void (*finalize) (HBaseSetIter *iter);
  GError *failure;            /* an error found when it was made */
};

/* The union of sorted row streams: the smallest head each time, equal
 * heads once. */
typedef struct {
  HBaseSetIter parent;
  GPtrArray *streams;         /* RowStream */
} MergeIter;

static gboolean
merge_next (HBaseSetIter *iter, GBytes **member, GCancellable *cancellable, GError **error)
{
  MergeIter *merge = (MergeIter *) iter;
  GBytes *smallest = NULL;

  if (!row_streams_fill (merge->streams, cancellable, error))
    return FALSE;
  for (guint i = 0; i < merge->streams->len; i++)
    {
      RowStream *stream = g_ptr_array_index (merge->streams, i);
      GBytes *head = stream->next < stream->buffer->len ? g_ptr_array_index (stream->buffer,
                                                                             stream->next) : NULL;

      if (head != NULL && (smallest == NULL || _hbase_gbytes_compare (head, smallest) < 0))
        smallest = head;
    }
  if (smallest == NULL)
    {
      *member = NULL;
      return TRUE;
    }
  *member = g_bytes_ref (smallest);
  for (guint i = 0; i < merge->streams->len; i++)
    {
      RowStream *stream = g_ptr_array_index (merge->streams, i);

      if (stream->next < stream->buffer->len &&
          g_bytes_equal (g_ptr_array_index (stream->buffer, stream->next), *member))
        stream->next++;
    }
  return TRUE;
}

static void
merge_finalize (HBaseSetIter *iter)
{
  g_ptr_array_unref (((MergeIter *) iter)->streams);
}

static MergeIter *
merge_iter_new (void)
{
  MergeIter *merge = g_new0 (MergeIter, 1);

  g_atomic_ref_count_init (&merge->parent.ref_count);
  merge->parent.next = merge_next;
  merge->parent.finalize = merge_finalize;
  merge->streams = g_ptr_array_new_with_free_func (_hbase_row_stream_free);
  return merge;
}

static void
merge_iter_add_set (MergeIter *merge, HBaseSet *set)
{
  for (guint i = 0; i < set->shards; i++)
    g_ptr_array_add (merge->streams, _hbase_row_stream_new (&set->store, _hbase_set_row_of (set, i), TRUE,
                                                            STRUCT_MEMBER_PREFIX, set->page_size));
}

static HBaseSetIter *
failed_iter_new (GError *error)
{
  MergeIter *merge = merge_iter_new ();

  merge->parent.failure = error;
  return &merge->parent;
}

/**
 * hbase_set_iter_next:
 * @iter: an iterator
 * @member: (out) (transfer full) (nullable): the next member, %NULL at the
 *   end
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * The next member, in ascending byte order, reading the next page when the
 * current one is used up.  The stream reads a set as it is at each page:
 * members added or removed while it runs may or may not show, but a member
 * present throughout shows exactly once (like SSCAN's guarantee).
 *
 * Returns: %TRUE with @member set (%NULL at the end), or %FALSE with
 *   @error set
 *
 * Since: 0.1
 */
gboolean
hbase_set_iter_next (HBaseSetIter *iter, GBytes **member, GCancellable *cancellable,
                     GError **error)
{
  if (member != NULL)
    *member = NULL;
  if (iter == NULL || member == NULL)
    return _hbase_illegal (error, "hbase_set_iter_next needs an iterator and a place for the "
                           "member");
  if (iter->failure != NULL)
    {
      g_propagate_error (error, g_error_copy (iter->failure));
      return FALSE;
    }
  return iter->next (iter, member, cancellable, error);
}

/**
 * hbase_set_iter_collect:
 * @iter: an iterator
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Reads the rest of @iter into an array (SMEMBERS-like: for sets that
 * fit in memory).
 *
 * Returns: (transfer container) (element-type GBytes) (nullable): the
 *   members in ascending byte order, or %NULL with @error set
 *
 * Since: 0.1
 */
GPtrArray *
hbase_set_iter_collect (HBaseSetIter *iter, GCancellable *cancellable, GError **error)
{
  g_autoptr(GPtrArray) members = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

  for (;;)
    {
      GBytes *member = NULL;

      if (!hbase_set_iter_next (iter, &member, cancellable, error))
        return NULL;
      if (member == NULL)
        return g_steal_pointer (&members);
      g_ptr_array_add (members, member);
    }
}

G_DEFINE_BOXED_TYPE (HBaseSetIter, hbase_set_iter, hbase_set_iter_ref, hbase_set_iter_unref)

/**
 * hbase_set_iter_ref:
 * @iter: an iterator
 *
 * Takes a reference.
 *
 * Returns: (transfer full): @iter, with one more reference
 *
 * Since: 0.1
 */
HBaseSetIter *
hbase_set_iter_ref (HBaseSetIter *iter)
{
  g_return_val_if_fail (iter != NULL, NULL);
  g_atomic_ref_count_inc (&iter->ref_count);
  return iter;
}

/**
 * hbase_set_iter_unref:
 * @iter: (nullable) (transfer full): an iterator
 *
 * Drops a reference; the last one frees the iterator.
 *
 * Since: 0.1
 */
void
hbase_set_iter_unref (HBaseSetIter *iter)
{
  if (iter == NULL || !g_atomic_ref_count_dec (&iter->ref_count))
    return;
  iter->finalize (iter);
  g_clear_error (&iter->failure);
  g_free (iter);
}

/**
 * hbase_set_members:
 * @set: a set
 *
 * Streams the members (SMEMBERS), @page_size of them per request (one
 * request per shard row), merged into ascending byte order.  Nothing is
 * read until hbase_set_iter_next().
 *
 * Returns: (transfer full): an iterator
 *
 * Since: 0.1
 */
HBaseSetIter *
hbase_set_members (HBaseSet *set)
{
  MergeIter *merge;
  GError *error = NULL;

  if (!_hbase_set_check (set, &error))
    return failed_iter_new (error);
  merge = merge_iter_new ();
  merge_iter_add_set (merge, set);
  return &merge->parent;
}

/* --- SSCAN ------------------------------------------------------------------------------- */

/**
 * hbase_set_scan:
 * @set: a set
 * @cursor: (nullable): %NULL to start, else the @next_cursor of the
 *   previous call
 * @count: how many members to return at most (a hint in Redis; here the
 *   exact page size except at the end of a shard row); 0 for 10, at most
 *   10000
 * @next_cursor: (out) (transfer full) (nullable): where to go on, %NULL
 *   when the scan is complete
 * @members: (out) (transfer container) (element-type GBytes): the members
 *   of this step
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * SSCAN: a stateless step through the set: shard by shard, in byte order
 * within a shard.  The cursor is opaque bytes (the shard and the last
 * member returned); a full iteration returns every member present
 * throughout exactly once.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_set_scan (HBaseSet *set, GBytes *cursor, guint count, GBytes **next_cursor,
                GPtrArray **members, GCancellable *cancellable, GError **error)
{
  g_autoptr(GPtrArray) found = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GBytes) last = NULL;
  guint shard = 0;

  if (next_cursor != NULL)
    *next_cursor = NULL;
  if (members != NULL)
    *members = NULL;
  if (!_hbase_set_check (set, error))
    return FALSE;
  if (next_cursor == NULL || members == NULL)
    return _hbase_illegal (error, "hbase_set_scan needs places for the cursor and the members");
  if (count == 0)
    count = 10;
  count = MIN (count, SCAN_MAX_COUNT);
  if (cursor != NULL)
    {
      gsize len;
      const guint8 *data = g_bytes_get_data (cursor, &len);

      /* shard (2 bytes), 0 (from the shard's start) or 1 (after a member), the member */
      if (len < 3 || data[2] > 1 || (data[2] == 0 && len > 3) ||
          (guint) ((data[0] << 8) | data[1]) >= set->shards)
        return _hbase_illegal (error, "the cursor was not returned by hbase_set_scan on this set");
      shard = (guint) ((data[0] << 8) | data[1]);
      if (data[2] == 1)
        last = g_bytes_new (data + 3, len - 3);
    }
  while (shard < set->shards && found->len < count)
    {
      RowStream *stream = _hbase_row_stream_new (&set->store, _hbase_set_row_of (set, shard), TRUE,
                                                 STRUCT_MEMBER_PREFIX, count - found->len);
      g_autoptr(GPtrArray) streams = g_ptr_array_new_with_free_func (_hbase_row_stream_free);

      g_ptr_array_add (streams, stream);
      if (last != NULL)
        row_stream_seek_after (stream, last);
      if (!row_streams_fill (streams, cancellable, error))
        return FALSE;
      for (guint i = 0; i < stream->buffer->len; i++)
        g_ptr_array_add (found, g_bytes_ref (g_ptr_array_index (stream->buffer, i)));
      if (!stream->exhausted)
        {
          /* the page was full: go on after its last member */
          GBytes *member = g_ptr_array_index (stream->buffer, stream->buffer->len - 1);
          gsize len;
          const guint8 *data = g_bytes_get_data (member, &len);
          GByteArray *next = g_byte_array_sized_new ((guint) len + 3);
          guint8 prefix[3] = { (guint8) (shard >> 8), (guint8) shard, 1 };

          g_byte_array_append (next, prefix, 3);
          if (len > 0)
            g_byte_array_append (next, data, (guint) len);
          *next_cursor = g_byte_array_free_to_bytes (next);
          break;
        }
      g_clear_pointer (&last, g_bytes_unref);
      shard++;
    }
  if (*next_cursor == NULL && shard < set->shards)
    {
      /* the step ended exactly at the end of a shard: go on with the next */
      guint8 prefix[3] = { (guint8) (shard >> 8), (guint8) shard, 0 };

      *next_cursor = g_bytes_new (prefix, 3);
    }
  *members = g_steal_pointer (&found);
  return TRUE;
}

/* --- SINTER, SDIFF: the first (or smallest) set, filtered by probes ---------------------- */

typedef struct {
  HBaseSetIter parent;
  gboolean intersect;
  GPtrArray *sets;            /* HBaseSet, referenced */
  HBaseSetIter *driver;
  GPtrArray *others;          /* HBaseSet, not referenced (in sets) */
  GPtrArray *ready;           /* GBytes */
  guint next;
  gboolean done;
} ProbeIter;

static gboolean
probe_start (ProbeIter *probe, GCancellable *cancellable, GError **error)
{
  guint driver = 0;

  probe->others = g_ptr_array_new ();
  if (probe->intersect && probe->sets->len > 1)
    {
      guint64 smallest = G_MAXUINT64;

      /* Redis's order: walk the smallest set, probe the others */
      for (guint i = 0; i < probe->sets->len; i++)
        {
          guint64 card = 0;

          if (!hbase_set_card (g_ptr_array_index (probe->sets, i), &card, cancellable, error))
            return FALSE;
          if (card < smallest)
            {
              smallest = card;
              driver = i;
            }
        }
      if (smallest == 0)
        {
          probe->done = TRUE;
          return TRUE;
        }
    }
  for (guint i = 0; i < probe->sets->len; i++)
    if (i != driver)
      g_ptr_array_add (probe->others, g_ptr_array_index (probe->sets, i));
  probe->driver = hbase_set_members (g_ptr_array_index (probe->sets, driver));
  return TRUE;
}

static gboolean
probe_next (HBaseSetIter *iter, GBytes **member, GCancellable *cancellable, GError **error)
{
  ProbeIter *probe = (ProbeIter *) iter;

  if (probe->driver == NULL && !probe->done && !probe_start (probe, cancellable, error))
    return FALSE;
  while (probe->next >= probe->ready->len && !probe->done)
    {
      HBaseSet *first = g_ptr_array_index (probe->sets, 0);
      g_autoptr(GPtrArray) batch = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

      g_ptr_array_set_size (probe->ready, 0);
      probe->next = 0;
      while (batch->len < first->page_size)
        {
          GBytes *next = NULL;

          if (!hbase_set_iter_next (probe->driver, &next, cancellable, error))
            return FALSE;
          if (next == NULL)
            {
              probe->done = TRUE;
              break;
            }
          g_ptr_array_add (batch, next);
        }
      /* keep the candidates every other set agrees on, probing only those */
      for (guint s = 0; s < probe->others->len && batch->len > 0; s++)
        {
          g_autofree gboolean *present = g_new0 (gboolean, batch->len);
          g_autoptr(GPtrArray) kept = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

          if (!hbase_set_contains_many (g_ptr_array_index (probe->others, s), batch, present,
                                        cancellable, error))
            return FALSE;
          for (guint i = 0; i < batch->len; i++)
            if (present[i] == probe->intersect)
              g_ptr_array_add (kept, g_bytes_ref (g_ptr_array_index (batch, i)));
          g_ptr_array_unref (batch);
          batch = g_steal_pointer (&kept);
        }
      for (guint i = 0; i < batch->len; i++)
        g_ptr_array_add (probe->ready, g_bytes_ref (g_ptr_array_index (batch, i)));
    }
  *member = probe->next < probe->ready->len ? g_bytes_ref (g_ptr_array_index (probe->ready,
                                                                              probe->next++))
                                            : NULL;
  return TRUE;
}

static void
probe_finalize (HBaseSetIter *iter)
{
  ProbeIter *probe = (ProbeIter *) iter;

  g_ptr_array_unref (probe->sets);
  g_clear_pointer (&probe->others, g_ptr_array_unref);
  g_clear_pointer (&probe->driver, hbase_set_iter_unref);
  g_ptr_array_unref (probe->ready);
}

static gboolean
check_sets (GPtrArray *sets, const char *what, GError **error)
{
  if (sets == NULL || sets->len == 0)
    return _hbase_illegal (error, "%s needs at least one set", what);
  for (guint i = 0; i < sets->len; i++)
    if (g_ptr_array_index (sets, i) == NULL)
      return _hbase_illegal (error, "%s: set %u is NULL", what, i);
  return TRUE;
}

static HBaseSetIter *
probe_iter_new (GPtrArray *sets, gboolean intersect, GError **error)
{
  ProbeIter *probe;

  if (!check_sets (sets, intersect ? "intersect" : "diff", error))
    return NULL;
  probe = g_new0 (ProbeIter, 1);
  g_atomic_ref_count_init (&probe->parent.ref_count);
  probe->parent.next = probe_next;
  probe->parent.finalize = probe_finalize;
  probe->intersect = intersect;
  probe->sets = g_ptr_array_new_with_free_func ((GDestroyNotify) _hbase_set_unref);
  for (guint i = 0; i < sets->len; i++)
    g_ptr_array_add (probe->sets, _hbase_set_ref (g_ptr_array_index (sets, i)));
  probe->ready = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  return &probe->parent;
}

/**
 * hbase_set_intersect:
 * @sets: (element-type HBaseSet): one or more sets (a missing set is
 *   empty)
 * @error: return location for an error (a bad list; read errors are
 *   reported by hbase_set_iter_next())
 *
 * SINTER, streamed in ascending byte order: the smallest set (by
 * cardinality, read on the first hbase_set_iter_next()) is read a page at
 * a time and each page is checked against the other sets with one
 * request each (hbase_set_contains_many()), so the cost follows the
 * smallest set.
 *
 * Returns: (transfer full) (nullable): an iterator, or %NULL with
 *   %HBASE_ERROR_ILLEGAL_ARGUMENT when @sets is %NULL, empty or holds %NULL
 *
 * Since: 0.1
 */
HBaseSetIter *
hbase_set_intersect (GPtrArray *sets, GError **error)
{
  return probe_iter_new (sets, TRUE, error);
}

/**
 * hbase_set_diff:
 * @sets: (element-type HBaseSet): one or more sets
 * @error: return location for an error (a bad list; read errors are
 *   reported by hbase_set_iter_next())
 *
 * SDIFF: the members of the first set in none of the others, streamed in
 * ascending byte order (the first set is read a page at a time, each page
 * checked against the others).
 *
 * Returns: (transfer full) (nullable): an iterator, or %NULL with
 *   %HBASE_ERROR_ILLEGAL_ARGUMENT when @sets is %NULL, empty or holds %NULL
 *
 * Since: 0.1
 */
HBaseSetIter *
hbase_set_diff (GPtrArray *sets, GError **error)
{
  return probe_iter_new (sets, FALSE, error);
}

/**
 * hbase_set_union:
 * @sets: (element-type HBaseSet): one or more sets
 * @error: return location for an error (a bad list; read errors are
 *   reported by hbase_set_iter_next())
 *
 * SUNION, streamed in ascending byte order by merging the sorted member
 * qualifiers of every (shard) row, a page of each at a time.
 *
 * Returns: (transfer full) (nullable): an iterator, or %NULL with
 *   %HBASE_ERROR_ILLEGAL_ARGUMENT when @sets is %NULL, empty or holds %NULL
 *
 * Since: 0.1
 */
HBaseSetIter *
hbase_set_union (GPtrArray *sets, GError **error)
{
  MergeIter *merge;

  if (!check_sets (sets, "union", error))
    return NULL;
  merge = merge_iter_new ();
  for (guint i = 0; i < sets->len; i++)
    merge_iter_add_set (merge, g_ptr_array_index (sets, i));
  return &merge->parent;
}

/* --- the plain one-row layout -------------------------------------------------------------- */

/**
 * hbase_set_read_plain:
 * @table: the table
 * @row: the row holding the set
 * @family: the family whose qualifiers are the members
 * @error: return location for an error
 *
 * Reads a set stored in one row (every qualifier of @family
 * in @row is a member, the values are ignored), a page of 1000 qualifiers
 * at a time, in byte order.
 *
 * Returns: (transfer full) (nullable): an iterator, or %NULL with
 *   %HBASE_ERROR_ILLEGAL_ARGUMENT
 *
 * Since: 0.1
 */
HBaseSetIter *
hbase_set_read_plain (HBaseTable *table, GBytes *row, const char *family, GError **error)
{
  StructStore store;
  MergeIter *merge;
  g_autoptr(GByteArray) row_array = NULL;

  if (!_hbase_check_row (row, "row", error))
    return NULL;
  if (family == NULL)
    {
      _hbase_illegal (error, "the family is NULL");
      return NULL;
    }
  if (!_hbase_store_init (&store, table, family, NULL, error))
    return NULL;
  row_array = _hbase_byte_array_from_bytes (row);
  merge = merge_iter_new ();
  g_ptr_array_add (merge->streams, _hbase_row_stream_new (&store, row_array, FALSE, 0,
                                                          DEFAULT_PAGE_SIZE));
  _hbase_store_clear (&store);
  return &merge->parent;
}

HBaseClient *
_hbase_set_iter_get_client (HBaseSetIter *iter)
{
  if (iter == NULL || iter->failure != NULL)
    return NULL;
  if (iter->next == merge_next)
    {
      GPtrArray *streams = ((MergeIter *) iter)->streams;

      return streams->len > 0 ? hbase_table_get_client (((RowStream *) g_ptr_array_index (streams, 0))->store.table)
                              : NULL;
    }
  return _hbase_set_client (g_ptr_array_index (((ProbeIter *) iter)->sets, 0));
}
