/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-set-async.c: the _async/_finish pairs of the set calls that read
 * or write HBase.  Each runs its synchronous call on the client's worker
 * pool (see hbase-structures-async.c), so a main loop never blocks. */
#include "config.h"

#include "hbase-structures-async-private.h"

static GPtrArray *
ref_members (GPtrArray *members)
{
  return members != NULL ? g_ptr_array_ref (members) : NULL;
}

static GBytes *
ref_bytes (GBytes *bytes)
{
  return bytes != NULL ? g_bytes_ref (bytes) : NULL;
}

static void
start (HBaseSet *set, StructureFunc func, StructureCall **call_out)
{
  *call_out = _hbase_structure_call_new (func, HBASE_IS_SET (set) ? g_object_ref (set) : NULL,
                                         g_object_unref);
}

static void
run (HBaseSet *set, StructureCall *call, gpointer tag, GCancellable *cancellable,
     GAsyncReadyCallback callback, gpointer user_data)
{
  _hbase_structure_call_start (call, _hbase_set_client (set), HBASE_IS_SET (set) ? set : NULL, tag,
                               cancellable, callback, user_data);
}

static StructureCall *
finish (HBaseSet *set, GAsyncResult *result, gpointer tag, GError **error)
{
  return _hbase_structure_call_finish (result, HBASE_IS_SET (set) ? set : NULL, tag, error);
}

/* --- SADD, SREM ---------------------------------------------------------------------- */

static gboolean
add_func (StructureCall *call, GCancellable *cancellable, GError **error)
{
  return hbase_set_add (call->self, call->members, &call->n, cancellable, error);
}

/**
 * hbase_set_add_async:
 * @set: a set
 * @members: (element-type GBytes): the members to add
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the members are added
 * @user_data: data for @callback
 *
 * Starts hbase_set_add() without blocking; finish with
 * hbase_set_add_finish().
 *
 * Since: 0.1
 */
void
hbase_set_add_async (HBaseSet *set, GPtrArray *members, GCancellable *cancellable,
                     GAsyncReadyCallback callback, gpointer user_data)
{
  StructureCall *call;

  start (set, add_func, &call);
  call->members = ref_members (members);
  run (set, call, hbase_set_add_async, cancellable, callback, user_data);
}

/**
 * hbase_set_add_finish:
 * @set: a set
 * @result: the result given to the callback
 * @n_added: (out) (optional): how many were not members before
 * @error: return location for an error
 *
 * Finishes hbase_set_add_async().
 *
 * Returns: %TRUE if the members were added
 *
 * Since: 0.1
 */
gboolean
hbase_set_add_finish (HBaseSet *set, GAsyncResult *result, guint64 *n_added, GError **error)
{
  StructureCall *call = finish (set, result, hbase_set_add_async, error);

  if (call != NULL && n_added != NULL)
    *n_added = call->n;
  return call != NULL;
}

static gboolean
add_one_func (StructureCall *call, GCancellable *cancellable, GError **error)
{
  return hbase_set_add_one (call->self, call->member, &call->flag, cancellable, error);
}

/**
 * hbase_set_add_one_async:
 * @set: a set
 * @member: the member to add
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the member is added
 * @user_data: data for @callback
 *
 * Starts hbase_set_add_one() without blocking; finish with
 * hbase_set_add_one_finish().
 *
 * Since: 0.1
 */
void
hbase_set_add_one_async (HBaseSet *set, GBytes *member, GCancellable *cancellable,
                         GAsyncReadyCallback callback, gpointer user_data)
{
  StructureCall *call;

  start (set, add_one_func, &call);
  call->member = ref_bytes (member);
  run (set, call, hbase_set_add_one_async, cancellable, callback, user_data);
}

/**
 * hbase_set_add_one_finish:
 * @set: a set
 * @result: the result given to the callback
 * @added: (out) (optional): whether it was not a member before
 * @error: return location for an error
 *
 * Finishes hbase_set_add_one_async().
 *
 * Returns: %TRUE if the member was added
 *
 * Since: 0.1
 */
gboolean
hbase_set_add_one_finish (HBaseSet *set, GAsyncResult *result, gboolean *added, GError **error)
{
  StructureCall *call = finish (set, result, hbase_set_add_one_async, error);

  if (call != NULL && added != NULL)
    *added = call->flag;
  return call != NULL;
}

static gboolean
remove_func (StructureCall *call, GCancellable *cancellable, GError **error)
{
  return hbase_set_remove (call->self, call->members, &call->n, cancellable, error);
}

/**
 * hbase_set_remove_async:
 * @set: a set
 * @members: (element-type GBytes): the members to remove
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the members are removed
 * @user_data: data for @callback
 *
 * Starts hbase_set_remove() without blocking; finish with
 * hbase_set_remove_finish().
 *
 * Since: 0.1
 */
void
hbase_set_remove_async (HBaseSet *set, GPtrArray *members, GCancellable *cancellable,
                        GAsyncReadyCallback callback, gpointer user_data)
{
  StructureCall *call;

  start (set, remove_func, &call);
  call->members = ref_members (members);
  run (set, call, hbase_set_remove_async, cancellable, callback, user_data);
}

/**
 * hbase_set_remove_finish:
 * @set: a set
 * @result: the result given to the callback
 * @n_removed: (out) (optional): how many were members
 * @error: return location for an error
 *
 * Finishes hbase_set_remove_async().
 *
 * Returns: %TRUE if the members were removed
 *
 * Since: 0.1
 */
gboolean
hbase_set_remove_finish (HBaseSet *set, GAsyncResult *result, guint64 *n_removed, GError **error)
{
  StructureCall *call = finish (set, result, hbase_set_remove_async, error);

  if (call != NULL && n_removed != NULL)
    *n_removed = call->n;
  return call != NULL;
}

static gboolean
remove_one_func (StructureCall *call, GCancellable *cancellable, GError **error)
{
  return hbase_set_remove_one (call->self, call->member, &call->flag, cancellable, error);
}

/**
 * hbase_set_remove_one_async:
 * @set: a set
 * @member: the member to remove
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the member is removed
 * @user_data: data for @callback
 *
 * Starts hbase_set_remove_one() without blocking; finish with
 * hbase_set_remove_one_finish().
 *
 * Since: 0.1
 */
void
hbase_set_remove_one_async (HBaseSet *set, GBytes *member, GCancellable *cancellable,
                            GAsyncReadyCallback callback, gpointer user_data)
{
  StructureCall *call;

  start (set, remove_one_func, &call);
  call->member = ref_bytes (member);
  run (set, call, hbase_set_remove_one_async, cancellable, callback, user_data);
}

/**
 * hbase_set_remove_one_finish:
 * @set: a set
 * @result: the result given to the callback
 * @removed: (out) (optional): whether it was a member
 * @error: return location for an error
 *
 * Finishes hbase_set_remove_one_async().
 *
 * Returns: %TRUE if the member was removed
 *
 * Since: 0.1
 */
gboolean
hbase_set_remove_one_finish (HBaseSet *set, GAsyncResult *result, gboolean *removed, GError **error)
{
  StructureCall *call = finish (set, result, hbase_set_remove_one_async, error);

  if (call != NULL && removed != NULL)
    *removed = call->flag;
  return call != NULL;
}

static gboolean
clear_func (StructureCall *call, GCancellable *cancellable, GError **error)
{
  return hbase_set_clear (call->self, cancellable, error);
}

/**
 * hbase_set_clear_async:
 * @set: a set
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the set is empty
 * @user_data: data for @callback
 *
 * Starts hbase_set_clear() without blocking; finish with
 * hbase_set_clear_finish().
 *
 * Since: 0.1
 */
void
hbase_set_clear_async (HBaseSet *set, GCancellable *cancellable, GAsyncReadyCallback callback,
                       gpointer user_data)
{
  StructureCall *call;

  start (set, clear_func, &call);
  run (set, call, hbase_set_clear_async, cancellable, callback, user_data);
}

/**
 * hbase_set_clear_finish:
 * @set: a set
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_set_clear_async().
 *
 * Returns: %TRUE if the set was cleared
 *
 * Since: 0.1
 */
gboolean
hbase_set_clear_finish (HBaseSet *set, GAsyncResult *result, GError **error)
{
  return finish (set, result, hbase_set_clear_async, error) != NULL;
}

/* --- SISMEMBER, SMISMEMBER, SCARD ------------------------------------------------------ */

static gboolean
contains_func (StructureCall *call, GCancellable *cancellable, GError **error)
{
  return hbase_set_contains (call->self, call->member, &call->flag, cancellable, error);
}

/**
 * hbase_set_contains_async:
 * @set: a set
 * @member: a member
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called with the answer
 * @user_data: data for @callback
 *
 * Starts hbase_set_contains() without blocking; finish with
 * hbase_set_contains_finish().
 *
 * Since: 0.1
 */
void
hbase_set_contains_async (HBaseSet *set, GBytes *member, GCancellable *cancellable,
                          GAsyncReadyCallback callback, gpointer user_data)
{
  StructureCall *call;

  start (set, contains_func, &call);
  call->member = ref_bytes (member);
  run (set, call, hbase_set_contains_async, cancellable, callback, user_data);
}

/**
 * hbase_set_contains_finish:
 * @set: a set
 * @result: the result given to the callback
 * @is_member: (out) (optional): whether @member is in the set
 * @error: return location for an error
 *
 * Finishes hbase_set_contains_async().
 *
 * Returns: %TRUE if the set could be read
 *
 * Since: 0.1
 */
gboolean
hbase_set_contains_finish (HBaseSet *set, GAsyncResult *result, gboolean *is_member, GError **error)
{
  StructureCall *call = finish (set, result, hbase_set_contains_async, error);

  if (call != NULL && is_member != NULL)
    *is_member = call->flag;
  return call != NULL;
}

static gboolean
contains_many_func (StructureCall *call, GCancellable *cancellable, GError **error)
{
  guint n = call->members != NULL ? call->members->len : 0;

  call->flags_out = g_array_sized_new (FALSE, TRUE, sizeof (gboolean), n);
  g_array_set_size (call->flags_out, n);
  return hbase_set_contains_many (call->self, call->members, (gboolean *) (gpointer) call->flags_out->data,
                                  cancellable, error);
}

/**
 * hbase_set_contains_many_async:
 * @set: a set
 * @members: (element-type GBytes): the members to look up
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called with the answers
 * @user_data: data for @callback
 *
 * Starts hbase_set_contains_many() without blocking; finish with
 * hbase_set_contains_many_finish().
 *
 * Since: 0.1
 */
void
hbase_set_contains_many_async (HBaseSet *set, GPtrArray *members, GCancellable *cancellable,
                               GAsyncReadyCallback callback, gpointer user_data)
{
  StructureCall *call;

  start (set, contains_many_func, &call);
  call->members = ref_members (members);
  run (set, call, hbase_set_contains_many_async, cancellable, callback, user_data);
}

/**
 * hbase_set_contains_many_finish:
 * @set: a set
 * @result: the result given to the callback
 * @are_members: (out) (transfer full) (element-type gboolean) (optional):
 *   for each member asked about, in order, whether it is in the set
 * @error: return location for an error
 *
 * Finishes hbase_set_contains_many_async().
 *
 * Returns: %TRUE if the set could be read
 *
 * Since: 0.1
 */
gboolean
hbase_set_contains_many_finish (HBaseSet *set, GAsyncResult *result, GArray **are_members,
                                GError **error)
{
  StructureCall *call = finish (set, result, hbase_set_contains_many_async, error);

  if (call != NULL && are_members != NULL)
    *are_members = g_steal_pointer (&call->flags_out);
  return call != NULL;
}

static gboolean
card_func (StructureCall *call, GCancellable *cancellable, GError **error)
{
  return hbase_set_card (call->self, &call->n, cancellable, error);
}

/**
 * hbase_set_card_async:
 * @set: a set
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called with the number of members
 * @user_data: data for @callback
 *
 * Starts hbase_set_card() without blocking; finish with
 * hbase_set_card_finish().
 *
 * Since: 0.1
 */
void
hbase_set_card_async (HBaseSet *set, GCancellable *cancellable, GAsyncReadyCallback callback,
                      gpointer user_data)
{
  StructureCall *call;

  start (set, card_func, &call);
  run (set, call, hbase_set_card_async, cancellable, callback, user_data);
}

/**
 * hbase_set_card_finish:
 * @set: a set
 * @result: the result given to the callback
 * @card: (out) (optional): the number of members
 * @error: return location for an error
 *
 * Finishes hbase_set_card_async().
 *
 * Returns: %TRUE if the set could be read
 *
 * Since: 0.1
 */
gboolean
hbase_set_card_finish (HBaseSet *set, GAsyncResult *result, guint64 *card, GError **error)
{
  StructureCall *call = finish (set, result, hbase_set_card_async, error);

  if (call != NULL && card != NULL)
    *card = call->n;
  return call != NULL;
}

/* --- SSCAN, SRANDMEMBER ----------------------------------------------------------------- */

static gboolean
scan_func (StructureCall *call, GCancellable *cancellable, GError **error)
{
  return hbase_set_scan (call->self, call->bytes, (guint) call->count, &call->out_bytes, &call->list,
                         cancellable, error);
}

/**
 * hbase_set_scan_async:
 * @set: a set
 * @cursor: (nullable): as for hbase_set_scan()
 * @count: as for hbase_set_scan()
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called with the page
 * @user_data: data for @callback
 *
 * Starts hbase_set_scan() without blocking; finish with
 * hbase_set_scan_finish().
 *
 * Since: 0.1
 */
void
hbase_set_scan_async (HBaseSet *set, GBytes *cursor, guint count, GCancellable *cancellable,
                      GAsyncReadyCallback callback, gpointer user_data)
{
  StructureCall *call;

  start (set, scan_func, &call);
  call->bytes = ref_bytes (cursor);
  call->count = count;
  run (set, call, hbase_set_scan_async, cancellable, callback, user_data);
}

/**
 * hbase_set_scan_finish:
 * @set: a set
 * @result: the result given to the callback
 * @next_cursor: (out) (transfer full) (nullable) (optional): the cursor of
 *   the next page, %NULL after the last one
 * @members: (out) (transfer container) (element-type GBytes) (optional):
 *   the members of this page
 * @error: return location for an error
 *
 * Finishes hbase_set_scan_async().
 *
 * Returns: %TRUE if the page was read
 *
 * Since: 0.1
 */
gboolean
hbase_set_scan_finish (HBaseSet *set, GAsyncResult *result, GBytes **next_cursor, GPtrArray **members,
                       GError **error)
{
  StructureCall *call = finish (set, result, hbase_set_scan_async, error);

  if (call == NULL)
    return FALSE;
  if (next_cursor != NULL)
    *next_cursor = g_steal_pointer (&call->out_bytes);
  if (members != NULL)
    *members = g_steal_pointer (&call->list);
  return TRUE;
}

static gboolean
random_members_func (StructureCall *call, GCancellable *cancellable, GError **error)
{
  return hbase_set_random_members (call->self, call->count, &call->list, cancellable, error);
}

/**
 * hbase_set_random_members_async:
 * @set: a set
 * @count: as for hbase_set_random_members()
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called with the members
 * @user_data: data for @callback
 *
 * Starts hbase_set_random_members() without blocking; finish with
 * hbase_set_random_members_finish().
 *
 * Since: 0.1
 */
void
hbase_set_random_members_async (HBaseSet *set, gint64 count, GCancellable *cancellable,
                                GAsyncReadyCallback callback, gpointer user_data)
{
  StructureCall *call;

  start (set, random_members_func, &call);
  call->count = count;
  run (set, call, hbase_set_random_members_async, cancellable, callback, user_data);
}

/**
 * hbase_set_random_members_finish:
 * @set: a set
 * @result: the result given to the callback
 * @members: (out) (transfer container) (element-type GBytes) (optional):
 *   the members chosen
 * @error: return location for an error
 *
 * Finishes hbase_set_random_members_async().
 *
 * Returns: %TRUE if the set could be read
 *
 * Since: 0.1
 */
gboolean
hbase_set_random_members_finish (HBaseSet *set, GAsyncResult *result, GPtrArray **members,
                                 GError **error)
{
  StructureCall *call = finish (set, result, hbase_set_random_members_async, error);

  if (call != NULL && members != NULL)
    *members = g_steal_pointer (&call->list);
  return call != NULL;
}

/* --- iterators ---------------------------------------------------------------------------- */

static gboolean
iter_next_func (StructureCall *call, GCancellable *cancellable, GError **error)
{
  return hbase_set_iter_next (call->self, &call->out_bytes, cancellable, error);
}

/**
 * hbase_set_iter_next_async:
 * @iter: an iterator
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called with the next member
 * @user_data: data for @callback
 *
 * Starts hbase_set_iter_next() without blocking; finish with
 * hbase_set_iter_next_finish().  One call at a time per iterator.
 *
 * Since: 0.1
 */
void
hbase_set_iter_next_async (HBaseSetIter *iter, GCancellable *cancellable, GAsyncReadyCallback callback,
                           gpointer user_data)
{
  StructureCall *call = _hbase_structure_call_new (iter_next_func, iter != NULL ? hbase_set_iter_ref (iter) : NULL,
                                                   (GDestroyNotify) hbase_set_iter_unref);

  _hbase_structure_call_start (call, _hbase_set_iter_get_client (iter), NULL, hbase_set_iter_next_async,
                               cancellable, callback, user_data);
}

/**
 * hbase_set_iter_next_finish:
 * @iter: an iterator
 * @result: the result given to the callback
 * @member: (out) (transfer full) (nullable) (optional): the next member,
 *   %NULL at the end
 * @error: return location for an error
 *
 * Finishes hbase_set_iter_next_async(), with the convention of
 * hbase_set_iter_next().
 *
 * Returns: %FALSE on error, %TRUE otherwise (also at the end)
 *
 * Since: 0.1
 */
gboolean
hbase_set_iter_next_finish (HBaseSetIter *iter, GAsyncResult *result, GBytes **member, GError **error)
{
  StructureCall *call = _hbase_structure_call_finish (result, NULL, hbase_set_iter_next_async, error);

  (void) iter;
  if (call != NULL && member != NULL)
    *member = g_steal_pointer (&call->out_bytes);
  return call != NULL;
}

static gboolean
iter_collect_func (StructureCall *call, GCancellable *cancellable, GError **error)
{
  call->list = hbase_set_iter_collect (call->self, cancellable, error);
  return call->list != NULL;
}

/**
 * hbase_set_iter_collect_async:
 * @iter: an iterator
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called with the rest of the members
 * @user_data: data for @callback
 *
 * Starts hbase_set_iter_collect() without blocking; finish with
 * hbase_set_iter_collect_finish().
 *
 * Since: 0.1
 */
void
hbase_set_iter_collect_async (HBaseSetIter *iter, GCancellable *cancellable, GAsyncReadyCallback callback,
                              gpointer user_data)
{
  StructureCall *call = _hbase_structure_call_new (iter_collect_func,
                                                   iter != NULL ? hbase_set_iter_ref (iter) : NULL,
                                                   (GDestroyNotify) hbase_set_iter_unref);

  _hbase_structure_call_start (call, _hbase_set_iter_get_client (iter), NULL, hbase_set_iter_collect_async,
                               cancellable, callback, user_data);
}

/**
 * hbase_set_iter_collect_finish:
 * @iter: an iterator
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_set_iter_collect_async().
 *
 * Returns: (transfer container) (element-type GBytes) (nullable): the
 *   rest of the members, or %NULL on error
 *
 * Since: 0.1
 */
GPtrArray *
hbase_set_iter_collect_finish (HBaseSetIter *iter, GAsyncResult *result, GError **error)
{
  StructureCall *call = _hbase_structure_call_finish (result, NULL, hbase_set_iter_collect_async, error);

  (void) iter;
  return call != NULL ? g_steal_pointer (&call->list) : NULL;
}

/* --- the plain layout ------------------------------------------------------------------------ */

static gboolean
import_plain_func (StructureCall *call, GCancellable *cancellable, GError **error)
{
  return hbase_set_import_plain (call->self, call->table, call->bytes, call->text, &call->n, cancellable,
                                 error);
}

/**
 * hbase_set_import_plain_async:
 * @set: a set
 * @source: the table holding the plain row
 * @row: its row key
 * @family: the family whose qualifiers are the members
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the members are imported
 * @user_data: data for @callback
 *
 * Starts hbase_set_import_plain() without blocking; finish with
 * hbase_set_import_plain_finish().
 *
 * Since: 0.1
 */
void
hbase_set_import_plain_async (HBaseSet *set, HBaseTable *source, GBytes *row, const char *family,
                              GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  StructureCall *call;

  start (set, import_plain_func, &call);
  call->table = HBASE_IS_TABLE (source) ? g_object_ref (source) : NULL;
  call->bytes = ref_bytes (row);
  call->text = g_strdup (family);
  run (set, call, hbase_set_import_plain_async, cancellable, callback, user_data);
}

/**
 * hbase_set_import_plain_finish:
 * @set: a set
 * @result: the result given to the callback
 * @n_added: (out) (optional): how many were not members before
 * @error: return location for an error
 *
 * Finishes hbase_set_import_plain_async().
 *
 * Returns: %TRUE if the row was imported
 *
 * Since: 0.1
 */
gboolean
hbase_set_import_plain_finish (HBaseSet *set, GAsyncResult *result, guint64 *n_added, GError **error)
{
  StructureCall *call = finish (set, result, hbase_set_import_plain_async, error);

  if (call != NULL && n_added != NULL)
    *n_added = call->n;
  return call != NULL;
}
