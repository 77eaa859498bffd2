/* SPDX-License-Identifier: Apache-2.0 */
/* A program outside the tree that uses the Redis index library, built with
 * `pkg-config hbase-glib-index-1.0` only (tests/install/test-pkg-config.sh). */
#include <stdio.h>
#include <string.h>

#include <hbase-glib/hbase-glib-index.h>

int
main (void)
{
  g_autoptr(HBaseIndexSpec) spec = hbase_index_spec_new ();
  g_autoptr(HBaseIndexSpec) back = NULL;
  g_autofree char *data = NULL;
  GError *error = NULL;

  if (!hbase_index_spec_add (spec, "by_city", "d", "city", HBASE_INDEX_VALUE_STRING,
                             HBASE_INDEX_EXACT, &error))
    {
      fprintf (stderr, "outside-index: %s\n", error->message);
      g_error_free (error);
      return 1;
    }
  data = hbase_index_spec_to_data (spec);
  back = hbase_index_spec_new_from_data (data, &error);
  if (back == NULL || hbase_index_spec_get_n_indexes (back) != 1 ||
      strcmp (hbase_index_spec_get_name (back, 0), "by_city") != 0)
    return 2;
  printf ("outside-index: %s, %s\n", g_type_name (HBASE_TYPE_INDEX_SPEC),
          g_type_name (HBASE_TYPE_INDEX_VALUE_TYPE));
  return 0;
}
