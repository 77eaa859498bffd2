/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-zset-combine.c: ZUNION, ZINTER, ZDIFF and their STORE forms, with
 * WEIGHTS and AGGREGATE, computed as Redis computes them: the sets are
 * read whole (a page at a time), weighted scores that are not a number
 * (0 times infinity) count as 0, a sum of +inf and -inf is 0, and union
 * and intersection visit the sets from the smallest to the largest.
 *
 * A STORE replaces the destination with one compare-and-set of its meta
 * cell, read before the sources: when the destination is also a source,
 * a change to it between the reads makes the check fail and everything is
 * read again. */
#include "config.h"

#include <math.h>
#include <string.h>

#include <hbase-glib/hbase-zset.h>

#include "hbase-structures-private.h"
#include "hbase-zset-private.h"

typedef enum {
  COMBINE_UNION,
  COMBINE_INTER,
  COMBINE_DIFF,
} CombineOp;

/* --- options ------------------------------------------------------------------------------- */

G_DEFINE_BOXED_TYPE (HBaseZCombineOptions, hbase_zcombine_options, hbase_zcombine_options_copy,
                     hbase_zcombine_options_free)

/**
 * hbase_zcombine_options_new:
 *
 * Options with the defaults: every weight 1, AGGREGATE SUM.
 *
 * Returns: (transfer full): new options; free with
 *   hbase_zcombine_options_free()
 *
 * Since: 0.1
 */
HBaseZCombineOptions *
hbase_zcombine_options_new (void)
{
  return g_new0 (HBaseZCombineOptions, 1);
}

/**
 * hbase_zcombine_options_copy:
 * @options: options
 *
 * A deep copy of @options.
 *
 * Returns: (transfer full): the copy
 *
 * Since: 0.1
 */
HBaseZCombineOptions *
hbase_zcombine_options_copy (const HBaseZCombineOptions *options)
{
  HBaseZCombineOptions *copy;

  g_return_val_if_fail (options != NULL, NULL);
  copy = hbase_zcombine_options_new ();
  copy->aggregate = options->aggregate;
  if (options->weights != NULL)
    hbase_zcombine_options_set_weights (copy, (const gdouble *) (gconstpointer) options->weights->data,
                                        options->weights->len);
  return copy;
}

/**
 * hbase_zcombine_options_free:
 * @options: (nullable) (transfer full): options from
 *   hbase_zcombine_options_new() or hbase_zcombine_options_copy()
 *
 * Frees @options and what its setters stored.  Does nothing for %NULL.
 *
 * Since: 0.1
 */
void
hbase_zcombine_options_free (HBaseZCombineOptions *options)
{
  if (options == NULL)
    return;
  g_clear_pointer (&options->weights, g_array_unref);
  g_free (options);
}

/**
 * hbase_zcombine_options_set_weights:
 * @options: options from hbase_zcombine_options_new()
 * @weights: (array length=n_weights) (nullable): one weight per input set
 * @n_weights: how many; 0 for the default (1 each)
 *
 * Sets WEIGHTS (copied).
 *
 * Since: 0.1
 */
void
hbase_zcombine_options_set_weights (HBaseZCombineOptions *options, const gdouble *weights,
                                    guint n_weights)
{
  g_return_if_fail (options != NULL);
  g_clear_pointer (&options->weights, g_array_unref);
  if (n_weights == 0 || weights == NULL)
    return;
  options->weights = g_array_sized_new (FALSE, FALSE, sizeof (gdouble), n_weights);
  g_array_append_vals (options->weights, weights, n_weights);
}

/* --- computing ----------------------------------------------------------------------------- */

typedef struct {
  GPtrArray *entries;    /* HBaseZSetEntry, ascending */
  gdouble weight;
} Source;

static void
source_clear (gpointer data)
{
  Source *source = data;

  g_clear_pointer (&source->entries, g_ptr_array_unref);
}

static gint
by_cardinality (gconstpointer a, gconstpointer b)
{
  const Source *x = a, *y = b;

  return x->entries->len < y->entries->len ? -1 : x->entries->len > y->entries->len;
}

static gdouble
weighted (gdouble score, gdouble weight)
{
  gdouble value = score * weight;

  return isnan (value) ? 0.0 : value;
}

static void
aggregate (gdouble *target, gdouble value, HBaseZAggregate how)
{
  switch (how)
    {
    case HBASE_ZAGGREGATE_MIN:
      *target = value < *target ? value : *target;
      break;
    case HBASE_ZAGGREGATE_MAX:
      *target = value > *target ? value : *target;
      break;
    case HBASE_ZAGGREGATE_SUM:
    default:
      *target += value;
      if (isnan (*target))
        *target = 0.0;
      break;
    }
}

static gint
entry_order (gconstpointer a, gconstpointer b)
{
  const HBaseZSetEntry *x = *(HBaseZSetEntry *const *) a, *y = *(HBaseZSetEntry *const *) b;

  if (x->score != y->score)
    return x->score < y->score ? -1 : 1;
  return _hbase_gbytes_compare (x->member, y->member);
}

static GHashTable *
member_table (GPtrArray *entries)
{
  GHashTable *table = g_hash_table_new (g_bytes_hash, g_bytes_equal);

  for (guint i = 0; i < entries->len; i++)
    {
      HBaseZSetEntry *entry = g_ptr_array_index (entries, i);

      g_hash_table_insert (table, entry->member, entry);
    }
  return table;
}

static gboolean
check_inputs (HBaseZSet *first, GPtrArray *others, CombineOp op, const HBaseZCombineOptions *options,
              GError **error)
{
  guint n = 1 + (others != NULL ? others->len : 0);

  if (!_hbase_zset_check (first, error))
    return FALSE;
  for (guint i = 0; others != NULL && i < others->len; i++)
    if (!HBASE_IS_ZSET (g_ptr_array_index (others, i)))
      return _hbase_illegal (error, "input set %u is not a sorted set", i + 1);
  if (options == NULL || op == COMBINE_DIFF)
    return TRUE;
  if ((guint) options->aggregate > HBASE_ZAGGREGATE_MAX)
    return _hbase_illegal (error, "unknown aggregate %d", (int) options->aggregate);
  if (options->weights != NULL && options->weights->len > 0)
    {
      if (options->weights->len != n)
        return _hbase_illegal (error, "%u weights for %u input sets", options->weights->len, n);
      for (guint i = 0; i < n; i++)
        if (isnan (g_array_index (options->weights, gdouble, i)))
          return _hbase_illegal (error, "weight value is not a float");
    }
  return TRUE;
}

/* The result of @op over @first and @others, sorted as a sorted set. */
static GPtrArray *
combine (HBaseZSet *first, GPtrArray *others, CombineOp op, const HBaseZCombineOptions *options,
         GCancellable *cancellable, GError **error)
{
  g_autoptr(GArray) sources = g_array_new (FALSE, TRUE, sizeof (Source));
  g_autoptr(GPtrArray) result = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_zset_entry_free);
  HBaseZAggregate how = options != NULL ? options->aggregate : HBASE_ZAGGREGATE_SUM;
  guint n = 1 + (others != NULL ? others->len : 0);

  g_array_set_clear_func (sources, source_clear);
  for (guint i = 0; i < n; i++)
    {
      HBaseZSet *zset = i == 0 ? first : g_ptr_array_index (others, i - 1);
      Source source = { NULL, 1.0 };

      if (op != COMBINE_DIFF && options != NULL && options->weights != NULL &&
          options->weights->len == n)
        source.weight = g_array_index (options->weights, gdouble, i);
      source.entries = _hbase_zset_read_all (zset, cancellable, error);
      if (source.entries == NULL)
        return NULL;
      g_array_append_val (sources, source);
    }
  if (op != COMBINE_DIFF)
    g_array_sort (sources, by_cardinality);   /* stable: equal sizes keep their order */

  if (op == COMBINE_UNION)
    {
      g_autoptr(GHashTable) seen = g_hash_table_new (g_bytes_hash, g_bytes_equal);

      for (guint i = 0; i < sources->len; i++)
        {
          Source *source = &g_array_index (sources, Source, i);

          for (guint j = 0; j < source->entries->len; j++)
            {
              HBaseZSetEntry *entry = g_ptr_array_index (source->entries, j);
              gdouble value = weighted (entry->score, source->weight);
              HBaseZSetEntry *mine = g_hash_table_lookup (seen, entry->member);

              if (mine == NULL)
                {
                  mine = hbase_zset_entry_new (entry->member, value);
                  g_ptr_array_add (result, mine);
                  g_hash_table_insert (seen, mine->member, mine);
                }
              else
                aggregate (&mine->score, value, how);
            }
        }
    }
  else
    {
      Source *base = &g_array_index (sources, Source, 0);
      g_autoptr(GPtrArray) tables = g_ptr_array_new_with_free_func ((GDestroyNotify) g_hash_table_unref);

      for (guint i = 1; i < sources->len; i++)
        g_ptr_array_add (tables, member_table (g_array_index (sources, Source, i).entries));
      for (guint j = 0; j < base->entries->len; j++)
        {
          HBaseZSetEntry *entry = g_ptr_array_index (base->entries, j);
          gdouble value = op == COMBINE_DIFF ? entry->score : weighted (entry->score, base->weight);
          gboolean keep = TRUE;

          for (guint i = 1; keep && i < sources->len; i++)
            {
              HBaseZSetEntry *other = g_hash_table_lookup (g_ptr_array_index (tables, i - 1), entry->member);

              if (op == COMBINE_DIFF)
                keep = other == NULL;
              else if (other == NULL)
                keep = FALSE;
              else
                /* as Redis: only the first set's weighted score is taken as 0 when NaN */
                aggregate (&value, other->score * g_array_index (sources, Source, i).weight, how);
            }
          if (keep)
            g_ptr_array_add (result, hbase_zset_entry_new (entry->member, value));
        }
    }
  g_ptr_array_sort (result, entry_order);
  return g_steal_pointer (&result);
}

/* Replaces @destination with the result, atomically. */
static gboolean
combine_store (HBaseZSet *destination, GPtrArray *sources, CombineOp op,
               const HBaseZCombineOptions *options, guint64 *card, GCancellable *cancellable,
               GError **error)
{
  g_autoptr(GPtrArray) none = g_ptr_array_new ();
  g_autoptr(GPtrArray) others = g_ptr_array_new ();
  gint64 start = g_get_monotonic_time ();

  if (card != NULL)
    *card = 0;
  if (!_hbase_zset_check (destination, error))
    return FALSE;
  if (sources == NULL || sources->len == 0)
    return _hbase_illegal (error, "at least 1 input key is needed");
  for (guint i = 1; i < sources->len; i++)
    g_ptr_array_add (others, g_ptr_array_index (sources, i));
  if (!HBASE_IS_ZSET (g_ptr_array_index (sources, 0)))
    return _hbase_illegal (error, "input set 0 is not a sorted set");
  if (!check_inputs (g_ptr_array_index (sources, 0), others, op, options, error))
    return FALSE;
  for (guint attempt = 0;; attempt++)
    {
      g_autoptr(GPtrArray) result = NULL;
      StructMeta old, next;
      StructChange change;
      gboolean applied = FALSE, ok;

      if (!_hbase_conflict_backoff (&destination->store, attempt, start, cancellable, error) ||
          !_hbase_zset_read_current (destination, none, &old, NULL, NULL, cancellable, error))
        return FALSE;
      result = combine (g_ptr_array_index (sources, 0), others, op, options, cancellable, error);
      if (result == NULL)
        return FALSE;
      if (result->len == 0 && (!old.present || old.card == 0))
        return TRUE;
      _hbase_change_init (&change);
      change.delete_family = TRUE;
      for (guint i = 0; i < result->len; i++)
        {
          HBaseZSetEntry *entry = g_ptr_array_index (result, i);
          Current absent = { FALSE, 0 }, present = { TRUE, entry->score };

          _hbase_zset_change_member (&change, &destination->store, entry->member, &absent, &present);
        }
      _hbase_meta_next (&old, STRUCT_KIND_ZSET, 1, result->len, 0, &next);
      ok = _hbase_change_commit (&destination->store, destination->row->data, destination->row->len,
                                 &old, &next, &change, &applied, cancellable, error);
      _hbase_change_clear (&change);
      if (!ok)
        return FALSE;
      if (applied)
        {
          if (card != NULL)
            *card = result->len;
          return TRUE;
        }
    }
}

/* --- the API ------------------------------------------------------------------------------- */

/**
 * hbase_zset_union:
 * @zset: the first input set
 * @others: (element-type HBaseZSet) (nullable): the other input sets
 * @options: (nullable): WEIGHTS (one per input set, @zset first) and
 *   AGGREGATE; %NULL for weights of 1 and SUM
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * ZUNION ... WITHSCORES: every member of any input set, with its weighted
 * scores aggregated.  The sets are read whole, one after the other (not a
 * snapshot of all of them at once: HBase has no transactions across
 * rows).  A missing set is empty.
 *
 * Returns: (transfer container) (element-type HBaseZSetEntry) (nullable):
 *   the entries in sorted-set order, or %NULL with @error set
 *
 * Since: 0.1
 */
GPtrArray *
hbase_zset_union (HBaseZSet *zset, GPtrArray *others, const HBaseZCombineOptions *options,
                  GCancellable *cancellable, GError **error)
{
  if (!check_inputs (zset, others, COMBINE_UNION, options, error))
    return NULL;
  return combine (zset, others, COMBINE_UNION, options, cancellable, error);
}

/**
 * hbase_zset_inter:
 * @zset: the first input set
 * @others: (element-type HBaseZSet) (nullable): the other input sets
 * @options: (nullable): WEIGHTS and AGGREGATE, as for hbase_zset_union()
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * ZINTER ... WITHSCORES: the members in every input set, with their
 * weighted scores aggregated.
 *
 * Returns: (transfer container) (element-type HBaseZSetEntry) (nullable):
 *   the entries in sorted-set order, or %NULL with @error set
 *
 * Since: 0.1
 */
GPtrArray *
hbase_zset_inter (HBaseZSet *zset, GPtrArray *others, const HBaseZCombineOptions *options,
                  GCancellable *cancellable, GError **error)
{
  if (!check_inputs (zset, others, COMBINE_INTER, options, error))
    return NULL;
  return combine (zset, others, COMBINE_INTER, options, cancellable, error);
}

/**
 * hbase_zset_diff:
 * @zset: the set to subtract from
 * @others: (element-type HBaseZSet) (nullable): the sets whose members are
 *   left out
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * ZDIFF ... WITHSCORES: the members of @zset in none of @others, with
 * their scores in @zset.
 *
 * Returns: (transfer container) (element-type HBaseZSetEntry) (nullable):
 *   the entries in sorted-set order, or %NULL with @error set
 *
 * Since: 0.1
 */
GPtrArray *
hbase_zset_diff (HBaseZSet *zset, GPtrArray *others, GCancellable *cancellable, GError **error)
{
  if (!check_inputs (zset, others, COMBINE_DIFF, NULL, error))
    return NULL;
  return combine (zset, others, COMBINE_DIFF, NULL, cancellable, error);
}

/**
 * hbase_zset_union_store:
 * @destination: the set to replace
 * @sources: (element-type HBaseZSet): the input sets (at least one; may
 *   include @destination)
 * @options: (nullable): WEIGHTS (one per source) and AGGREGATE
 * @card: (out) (optional): the cardinality of the result
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * ZUNIONSTORE: @destination becomes the union of @sources (emptied when
 * it is empty), with one compare-and-set of its row.  That check covers
 * @destination being one of the sources: if it changes while the sources
 * are read, everything is read again.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_zset_union_store (HBaseZSet *destination, GPtrArray *sources,
                        const HBaseZCombineOptions *options, guint64 *card,
                        GCancellable *cancellable, GError **error)
{
  return combine_store (destination, sources, COMBINE_UNION, options, card, cancellable, error);
}

/**
 * hbase_zset_inter_store:
 * @destination: the set to replace
 * @sources: (element-type HBaseZSet): the input sets (at least one; may
 *   include @destination)
 * @options: (nullable): WEIGHTS (one per source) and AGGREGATE
 * @card: (out) (optional): the cardinality of the result
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * ZINTERSTORE, atomic on @destination as hbase_zset_union_store() is.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_zset_inter_store (HBaseZSet *destination, GPtrArray *sources,
                        const HBaseZCombineOptions *options, guint64 *card,
                        GCancellable *cancellable, GError **error)
{
  return combine_store (destination, sources, COMBINE_INTER, options, card, cancellable, error);
}

/**
 * hbase_zset_diff_store:
 * @destination: the set to replace
 * @sources: (element-type HBaseZSet): the first set, then the sets whose
 *   members are left out (may include @destination)
 * @card: (out) (optional): the cardinality of the result
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * ZDIFFSTORE, atomic on @destination as hbase_zset_union_store() is.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_zset_diff_store (HBaseZSet *destination, GPtrArray *sources, guint64 *card,
                       GCancellable *cancellable, GError **error)
{
  return combine_store (destination, sources, COMBINE_DIFF, NULL, card, cancellable, error);
}
