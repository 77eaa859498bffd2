/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-structures-import.c: converting a set or a sorted set stored in the
 * plain one-row layout (every qualifier of a family is a member; for a
 * sorted set its value is the score as text) into an HBaseSet or HBaseZSet:
 * one import loop, used by hbase_set_import_plain() and
 * hbase_zset_import_plain(), that reads the plain layout through
 * hbase_set_read_plain() or hbase_zset_read_plain() and adds what it read a
 * batch at a time. */
#include "config.h"

#include <hbase-glib/hbase-set.h>
#include <hbase-glib/hbase-zset.h>

#include "hbase-structures-private.h"
#include "hbase-set-private.h"
#include "hbase-zset-private.h"

/* members (and scores) added per call of the target's add */
#define PLAIN_IMPORT_BATCH 1000

/* The next member of the plain source (NULL at its end) and, for a sorted
 * set, its score. */
typedef gboolean (*PlainNext) (gpointer       iter,
                               GBytes       **member,
                               gdouble       *score,
                               GCancellable  *cancellable,
                               GError       **error);
/* Adds a batch of members (and their scores) to the target. */
typedef gboolean (*PlainAdd)  (gpointer       target,
                               GPtrArray     *members,
                               GArray        *scores,
                               guint64       *n_added,
                               GCancellable  *cancellable,
                               GError       **error);

/* Reads @iter to its end, adding what it yields to @target a batch at a
 * time; *@n_added (when set) counts the new members so far, also after a
 * failure. */
static gboolean
import_plain (gpointer target, PlainAdd add, gpointer iter, PlainNext next, guint64 *n_added,
              GCancellable *cancellable, GError **error)
{
  g_autoptr(GPtrArray) members = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GArray) scores = g_array_new (FALSE, FALSE, sizeof (gdouble));
  guint64 total = 0;
  gboolean done = FALSE;

  while (!done)
    {
      guint64 added = 0;

      g_ptr_array_set_size (members, 0);
      g_array_set_size (scores, 0);
      while (members->len < PLAIN_IMPORT_BATCH)
        {
          GBytes *member = NULL;
          gdouble score = 0;

          if (!next (iter, &member, &score, cancellable, error))
            return FALSE;
          if (member == NULL)
            {
              done = TRUE;
              break;
            }
          g_ptr_array_add (members, member);
          g_array_append_val (scores, score);
        }
      if (!add (target, members, scores, &added, cancellable, error))
        return FALSE;
      total += added;
      if (n_added != NULL)
        *n_added = total;
    }
  return TRUE;
}

/* Whether the plain source is the target's own row and family. */
static gboolean
is_own_row (const StructStore *store, GBytes *key, HBaseTable *source, GBytes *row,
            const char *family)
{
  return source == store->table && g_strcmp0 (family, store->family_name) == 0 &&
         g_bytes_equal (row, key);
}

/* --- sets ---------------------------------------------------------------------------------- */

static gboolean
set_next (gpointer iter, GBytes **member, gdouble *score, GCancellable *cancellable,
          GError **error)
{
  return hbase_set_iter_next (iter, member, cancellable, error);
}

static gboolean
set_add (gpointer target, GPtrArray *members, GArray *scores, guint64 *n_added,
         GCancellable *cancellable, GError **error)
{
  return hbase_set_add (target, members, n_added, cancellable, error);
}

/**
 * hbase_set_import_plain:
 * @set: the set to add to
 * @source: the table holding the plain set
 * @row: its row
 * @family: its family
 * @n_added: (out) (optional): how many members were new to @set
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Converts a set stored in the plain one-row layout (see
 * hbase_set_read_plain()) by adding its members to @set, 1000 at a time.
 * The source is left as it is.  @set must not be the same row and family
 * as the source.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_set_import_plain (HBaseSet *set, HBaseTable *source, GBytes *row, const char *family,
                        guint64 *n_added, GCancellable *cancellable, GError **error)
{
  g_autoptr(HBaseSetIter) iter = NULL;

  if (n_added != NULL)
    *n_added = 0;
  if (!_hbase_set_check (set, error))
    return FALSE;
  iter = hbase_set_read_plain (source, row, family, error);
  if (iter == NULL)
    return FALSE;
  if (is_own_row (&set->store, set->key, source, row, family))
    return _hbase_illegal (error, "cannot import a plain set into its own row and family");
  return import_plain (set, set_add, iter, set_next, n_added, cancellable, error);
}

/* --- sorted sets --------------------------------------------------------------------------- */

static gboolean
zset_next (gpointer iter, GBytes **member, gdouble *score, GCancellable *cancellable,
           GError **error)
{
  return hbase_zset_iter_next (iter, member, score, cancellable, error);
}

static gboolean
zset_add (gpointer target, GPtrArray *members, GArray *scores, guint64 *n_added,
          GCancellable *cancellable, GError **error)
{
  return hbase_zset_add (target, HBASE_ZADD_NONE, members, (const gdouble *) scores->data,
                         n_added, cancellable, error);
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
 *
 * Since: 0.1
 */
gboolean
hbase_zset_import_plain (HBaseZSet *zset, HBaseTable *source, GBytes *row, const char *family,
                         guint64 *n_added, GCancellable *cancellable, GError **error)
{
  g_autoptr(HBaseZSetIter) iter = NULL;

  if (n_added != NULL)
    *n_added = 0;
  if (!_hbase_zset_check (zset, error))
    return FALSE;
  iter = hbase_zset_read_plain (source, row, family, error);
  if (iter == NULL)
    return FALSE;
  if (is_own_row (&zset->store, zset->key, source, row, family))
    return _hbase_illegal (error, "cannot import a plain sorted set into its own row and family");
  return import_plain (zset, zset_add, iter, zset_next, n_added, cancellable, error);
}
