/* SPDX-License-Identifier: Apache-2.0 */
/* test-quick.c: see test-quick.h. */
#include "config.h"

#include "test-quick.h"

#define QUICK_VARIABLE "HBASE_GLIB_TEST_QUICK"

static gboolean
parse_quick (const char *value)
{
  static const char *const yes[] = { "1", "true", "yes", "on" };
  static const char *const no[] = { "", "0", "false", "no", "off" };

  if (value == NULL)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (yes); i++)
    if (g_ascii_strcasecmp (value, yes[i]) == 0)
      return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (no); i++)
    if (g_ascii_strcasecmp (value, no[i]) == 0)
      return FALSE;
  g_error ("%s='%s' is not a boolean: use 1, true, yes or on to run the quick tests, "
           "0, false, no or off (or leave it unset) for the full ones", QUICK_VARIABLE, value);
  return FALSE;
}

gboolean
test_quick (void)
{
  static gsize once;
  static gboolean quick;

  if (g_once_init_enter (&once))
    {
      quick = parse_quick (g_getenv (QUICK_VARIABLE));
      g_once_init_leave (&once, 1);
    }
  return quick;
}
