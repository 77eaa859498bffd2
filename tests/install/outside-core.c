/* SPDX-License-Identifier: Apache-2.0 */
/* A program outside the tree that uses the core library only, built with
 * `pkg-config hbase-glib-1.0` where no hiredis is to be found
 * (tests/install/test-pkg-config.sh). */
#include <stdio.h>

#include <hbase-glib/hbase-glib.h>

#ifdef HBASE_TYPE_INDEX_SPEC
#error "<hbase-glib/hbase-glib.h> must not pull in the Redis index"
#endif

int
main (void)
{
  HBaseConfig *config = hbase_config_new ();
  GError *error = NULL;

  if (!hbase_config_set_gateways (config, "127.0.0.1:9090", &error))
    {
      fprintf (stderr, "outside-core: %s\n", error->message);
      g_error_free (error);
      return 1;
    }
  printf ("outside-core: hbase-glib %s, %s\n", hbase_version_string (),
          g_type_name (HBASE_TYPE_ERROR));
  hbase_config_free (config);
  return 0;
}
