/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for src/core/hbase-version.c and hbase-version.h. */
#include "config.h"

#include <hbase-glib/hbase-glib.h>

static void
test_string_matches_headers (void)
{
  g_autofree char *expected = g_strdup_printf ("%d.%d.%d", HBASE_GLIB_MAJOR_VERSION,
                                               HBASE_GLIB_MINOR_VERSION, HBASE_GLIB_MICRO_VERSION);

  g_assert_cmpstr (hbase_version_string (), ==, expected);
}

static void
test_check_version (void)
{
  g_assert_true (HBASE_GLIB_CHECK_VERSION (0, 0, 0));
  g_assert_true (HBASE_GLIB_CHECK_VERSION (HBASE_GLIB_MAJOR_VERSION, HBASE_GLIB_MINOR_VERSION,
                                           HBASE_GLIB_MICRO_VERSION));
  g_assert_false (HBASE_GLIB_CHECK_VERSION (HBASE_GLIB_MAJOR_VERSION, HBASE_GLIB_MINOR_VERSION,
                                            HBASE_GLIB_MICRO_VERSION + 1));
  g_assert_false (HBASE_GLIB_CHECK_VERSION (HBASE_GLIB_MAJOR_VERSION + 1, 0, 0));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/version/string-matches-headers", test_string_matches_headers);
  g_test_add_func ("/core/version/check-version", test_check_version);
  return g_test_run ();
}
