/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-version.c: the library's run-time version. */
#include "config.h"

#include <hbase-glib/hbase-version.h>

/**
 * hbase_version_string:
 *
 * The version of the hbase-glib library the program runs with, which may
 * be newer than the headers it was compiled against (HBASE_GLIB_*_VERSION).
 *
 * Returns: (transfer none): the version, e.g. "0.1.0".
 *
 * Since: 0.1
 */
const char *
hbase_version_string (void)
{
  return PACKAGE_VERSION;
}
