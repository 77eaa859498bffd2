/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-structures-options.c: the heap constructors, deep copies and
 * setters of the set and sorted-set option structs (HBaseSetOptions,
 * HBaseZSetOptions) and the boxed type of HBaseScoreRange, for bindings
 * and for callers that keep options around.  A struct from _new() owns
 * what its setters stored; see docs/api-conventions.md. */
#include "config.h"

#include <hbase-glib/hbase-set.h>
#include <hbase-glib/hbase-zset.h>

/* --- HBaseSetOptions ------------------------------------------------------------------------ */

G_DEFINE_BOXED_TYPE (HBaseSetOptions, hbase_set_options, hbase_set_options_copy,
                     hbase_set_options_free)

/**
 * hbase_set_options_new:
 *
 * Makes options with every field at its default (a zeroed struct), on the
 * heap: for bindings, and for options kept beyond one scope.  Set pointer
 * fields with the setters (see docs/api-conventions.md).
 *
 * Returns: (transfer full): zeroed options: the defaults
 *
 * Since: 0.1
 */
HBaseSetOptions *
hbase_set_options_new (void)
{
  return g_new0 (HBaseSetOptions, 1);
}

/**
 * hbase_set_options_copy:
 * @options: options
 *
 * Copies it deeply: the copy owns its own copies or references of
 * everything the original points to (see docs/api-conventions.md).
 *
 * Returns: (transfer full): a deep copy of @options
 *
 * Since: 0.1
 */
HBaseSetOptions *
hbase_set_options_copy (const HBaseSetOptions *options)
{
  HBaseSetOptions *copy;

  g_return_val_if_fail (options != NULL, NULL);
  copy = g_memdup2 (options, sizeof *options);
  copy->family = g_strdup (options->family);
  return copy;
}

/**
 * hbase_set_options_free:
 * @options: (nullable) (transfer full): options from
 *   hbase_set_options_new() or hbase_set_options_copy()
 *
 * Frees @options and what its setters stored.
 *
 * Since: 0.1
 */
void
hbase_set_options_free (HBaseSetOptions *options)
{
  if (options == NULL)
    return;
  g_free ((char *) options->family);
  g_free (options);
}

/**
 * hbase_set_options_set_family:
 * @options: options from hbase_set_options_new()
 * @family: (nullable): the column family; %NULL for "s"
 *
 * Stores a copy of @family, freeing the previous one.
 *
 * Since: 0.1
 */
void
hbase_set_options_set_family (HBaseSetOptions *options, const char *family)
{
  char *old;

  g_return_if_fail (options != NULL);
  old = (char *) options->family;
  options->family = g_strdup (family);
  g_free (old);
}

/* --- HBaseZSetOptions ----------------------------------------------------------------------- */

G_DEFINE_BOXED_TYPE (HBaseZSetOptions, hbase_zset_options, hbase_zset_options_copy,
                     hbase_zset_options_free)

/**
 * hbase_zset_options_new:
 *
 * Makes options with every field at its default (a zeroed struct), on the
 * heap: for bindings, and for options kept beyond one scope.  Set pointer
 * fields with the setters (see docs/api-conventions.md).
 *
 * Returns: (transfer full): zeroed options: the defaults
 *
 * Since: 0.1
 */
HBaseZSetOptions *
hbase_zset_options_new (void)
{
  return g_new0 (HBaseZSetOptions, 1);
}

/**
 * hbase_zset_options_copy:
 * @options: options
 *
 * Copies it deeply: the copy owns its own copies or references of
 * everything the original points to (see docs/api-conventions.md).
 *
 * Returns: (transfer full): a deep copy of @options
 *
 * Since: 0.1
 */
HBaseZSetOptions *
hbase_zset_options_copy (const HBaseZSetOptions *options)
{
  HBaseZSetOptions *copy;

  g_return_val_if_fail (options != NULL, NULL);
  copy = g_memdup2 (options, sizeof *options);
  copy->family = g_strdup (options->family);
  return copy;
}

/**
 * hbase_zset_options_free:
 * @options: (nullable) (transfer full): options from
 *   hbase_zset_options_new() or hbase_zset_options_copy()
 *
 * Frees @options and what its setters stored.
 *
 * Since: 0.1
 */
void
hbase_zset_options_free (HBaseZSetOptions *options)
{
  if (options == NULL)
    return;
  g_free ((char *) options->family);
  g_free (options);
}

/**
 * hbase_zset_options_set_family:
 * @options: options from hbase_zset_options_new()
 * @family: (nullable): the column family; %NULL for "z"
 *
 * Stores a copy of @family, freeing the previous one.
 *
 * Since: 0.1
 */
void
hbase_zset_options_set_family (HBaseZSetOptions *options, const char *family)
{
  char *old;

  g_return_if_fail (options != NULL);
  old = (char *) options->family;
  options->family = g_strdup (family);
  g_free (old);
}

/* --- HBaseScoreRange ------------------------------------------------------------------------ */

G_DEFINE_BOXED_TYPE (HBaseScoreRange, hbase_score_range, hbase_score_range_copy,
                     hbase_score_range_free)

/**
 * hbase_score_range_new:
 * @min: the lowest score
 * @min_exclusive: whether @min itself is excluded
 * @max: the highest score
 * @max_exclusive: whether @max itself is excluded
 *
 * Makes options with every field at its default (a zeroed struct), on the
 * heap: for bindings, and for options kept beyond one scope.  Set pointer
 * fields with the setters (see docs/api-conventions.md).
 *
 * Returns: (transfer full): a new range
 *
 * Since: 0.1
 */
HBaseScoreRange *
hbase_score_range_new (gdouble min, gboolean min_exclusive, gdouble max, gboolean max_exclusive)
{
  HBaseScoreRange *range = g_new0 (HBaseScoreRange, 1);

  range->min = min;
  range->min_exclusive = min_exclusive;
  range->max = max;
  range->max_exclusive = max_exclusive;
  return range;
}

/**
 * hbase_score_range_copy:
 * @range: a range
 *
 * Copies it deeply: the copy owns its own copies or references of
 * everything the original points to (see docs/api-conventions.md).
 *
 * Returns: (transfer full): a copy of @range
 *
 * Since: 0.1
 */
HBaseScoreRange *
hbase_score_range_copy (const HBaseScoreRange *range)
{
  g_return_val_if_fail (range != NULL, NULL);
  return g_memdup2 (range, sizeof *range);
}

/**
 * hbase_score_range_free:
 * @range: (nullable) (transfer full): a range
 *
 * Frees it and what it owns.  Does nothing for %NULL.
 *
 * Since: 0.1
 */
void
hbase_score_range_free (HBaseScoreRange *range)
{
  g_free (range);
}
