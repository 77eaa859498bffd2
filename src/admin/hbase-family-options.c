/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-family-options.c: HBaseFamilyOptions on the heap, for bindings and
 * for code that keeps them: boxed type, constructor, deep copy, the setter
 * of the name.  A struct made here owns its name
 * (docs/api-conventions.md); one on the stack borrows it and never comes
 * here. */
#include "config.h"

#include <hbase-glib/hbase-admin.h>

G_DEFINE_BOXED_TYPE (HBaseFamilyOptions, hbase_family_options, hbase_family_options_copy,
                     hbase_family_options_free)

/**
 * hbase_family_options_new:
 *
 * Family options on the heap, with the defaults of
 * %HBASE_FAMILY_OPTIONS_INIT and no name yet.
 *
 * Returns: (transfer full): the options, to free with
 *   hbase_family_options_free()
 *
 * Since: 0.1
 */
HBaseFamilyOptions *
hbase_family_options_new (void)
{
  return g_new0 (HBaseFamilyOptions, 1);
}

/**
 * hbase_family_options_copy:
 * @options: family options, owning or borrowing their name
 *
 * A deep copy: the name is copied.
 *
 * Returns: (transfer full): the copy, to free with
 *   hbase_family_options_free()
 *
 * Since: 0.1
 */
HBaseFamilyOptions *
hbase_family_options_copy (const HBaseFamilyOptions *options)
{
  HBaseFamilyOptions *copy;

  g_return_val_if_fail (options != NULL, NULL);
  copy = g_memdup2 (options, sizeof *options);
  copy->name = g_strdup (options->name);
  return copy;
}

/**
 * hbase_family_options_free:
 * @options: (nullable) (transfer full): options from
 *   hbase_family_options_new() or hbase_family_options_copy()
 *
 * Frees @options and their name.
 *
 * Since: 0.1
 */
void
hbase_family_options_free (HBaseFamilyOptions *options)
{
  if (options == NULL)
    return;
  g_free ((char *) options->name);
  g_free (options);
}

/**
 * hbase_family_options_set_name:
 * @options: options from hbase_family_options_new() or
 *   hbase_family_options_copy()
 * @name: (nullable): the family's name, copied
 *
 * Sets the name, freeing the previous one.
 *
 * Since: 0.1
 */
void
hbase_family_options_set_name (HBaseFamilyOptions *options, const char *name)
{
  char *copy;

  g_return_if_fail (options != NULL);
  copy = g_strdup (name);
  g_free ((char *) options->name);
  options->name = copy;
}
