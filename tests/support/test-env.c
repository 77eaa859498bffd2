/* SPDX-License-Identifier: Apache-2.0 */
/* test-env.c: the switches tests read from the environment, each parsed
 * one way everywhere (see test-env.h). */
#include "config.h"

#include "test-env.h"

gboolean
test_env_boolean (const char *variable)
{
  static const char *const yes[] = { "1", "true", "yes", "on" };
  static const char *const no[] = { "", "0", "false", "no", "off" };
  const char *value = g_getenv (variable);

  if (value == NULL)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (yes); i++)
    if (g_ascii_strcasecmp (value, yes[i]) == 0)
      return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (no); i++)
    if (g_ascii_strcasecmp (value, no[i]) == 0)
      return FALSE;
  g_error ("%s='%s' is not a boolean: use 1, true, yes or on to turn it on, "
           "0, false, no or off (or leave it unset) to turn it off", variable, value);
  return FALSE;
}

gboolean
test_quick (void)
{
  return test_env_boolean ("HBASE_GLIB_TEST_QUICK");
}

gint64
test_time_slack (void)
{
  if (test_env_boolean ("HBASE_GLIB_TEST_UNDER_VALGRIND"))
    return 20;
  return test_quick () ? 3 : 1;
}
