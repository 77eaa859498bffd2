/* SPDX-License-Identifier: Apache-2.0 */
/* A program outside the tree, built against the installed library with
 * pkg-config only (tests/install/test-pkg-config.sh). */
#include <stdio.h>
#include <string.h>

#include <hbase-glib/hbase-glib-thrift.h>

int
main (void)
{
  char expected[64];
  HbaseThriftTGet *get = g_object_new (HBASE_THRIFT_TYPE_T_GET, NULL);
  GError *error = NULL;
  HBaseProtocol protocol;

  snprintf (expected, sizeof expected, "%d.%d.%d", HBASE_GLIB_MAJOR_VERSION,
            HBASE_GLIB_MINOR_VERSION, HBASE_GLIB_MICRO_VERSION);
  if (strcmp (expected, hbase_version_string ()) != 0)
    return 1;
  if (hbase_protocol_from_string ("smoke-signals", &protocol, &error) ||
      !g_error_matches (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT))
    return 2;
  g_error_free (error);
  printf ("outside: hbase-glib %s, %s\n", hbase_version_string (), G_OBJECT_TYPE_NAME (get));
  g_object_unref (get);
  return 0;
}
