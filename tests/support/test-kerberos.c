/* SPDX-License-Identifier: Apache-2.0 */
/* test-kerberos.c: the kerberized local stack for the Kerberos tests (see
 * test-kerberos.h). */
#include "config.h"

#include <string.h>

#include "test-kerberos.h"

char *
test_kerberos_secure_dir (void)
{
  const char *state = g_getenv ("HBASE_GLIB_STATE_DIR");
  const char *top = g_getenv ("top_srcdir");

  return state != NULL && *state != '\0'
    ? g_build_filename (state, "secure", NULL)
    : g_build_filename (top != NULL ? top : ".", ".stack", "secure", NULL);
}

char *
test_kerberos_realm (void)
{
  const char *value = g_getenv ("HBASE_GLIB_SECURE_REALM");

  return g_strdup (value != NULL && *value != '\0' ? value : "HBASE.GLIB.TEST");
}

guint
test_kerberos_port (const char *variable, guint fallback)
{
  const char *text = g_getenv (variable);

  return text != NULL && *text != '\0' ? (guint) g_ascii_strtoull (text, NULL, 10) : fallback;
}

gboolean
test_kerberos_kinit (const char *keytab, const char *principal, const char *lifetime,
                     const char *ccache)
{
  const char *argv[] = { "kinit", "-c", ccache, "-kt", keytab, principal,
                         lifetime != NULL ? "-l" : NULL, lifetime, NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  int status = -1;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL,
                     NULL, NULL, NULL, &err, &status, &error) ||
      !g_spawn_check_wait_status (status, NULL))
    {
      g_test_message ("kinit %s failed: %s", principal, error != NULL ? error->message : err);
      return FALSE;
    }
  return TRUE;
}

/* kadmin.local exits 0 even when a request fails: its messages are only
 * printed, and what was made is checked afterwards. */
static void
kadmin (const char *secure_dir, const char *realm, const char *query)
{
  g_autofree char *kdc_profile = g_build_filename (secure_dir, "kdc", "kdc.conf", NULL);
  const char *argv[] = { "kadmin.local", "-r", realm, "-q", query, NULL };
  g_auto(GStrv) env = g_environ_setenv (g_get_environ (), "KRB5_KDC_PROFILE", kdc_profile, TRUE);
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(GError) error = NULL;

  if (!g_spawn_sync (NULL, (char **) argv, env, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err,
                     NULL, &error))
    g_printerr ("# kadmin.local: %s\n", error->message);
  else if (err != NULL && *err != '\0' && strstr (err, "already exists") == NULL)
    g_printerr ("# kadmin.local '%s': %s", query, err);
}

gboolean
test_kerberos_make_principal (const char *secure_dir, const char *realm, const char *name,
                              guint max_life_s, const char *keytab)
{
  g_autofree char *add = g_strdup_printf ("addprinc -randkey %s", name);
  g_autofree char *ktadd = g_strdup_printf ("ktadd -norandkey -k %s %s", keytab, name);

  kadmin (secure_dir, realm, add);
  if (max_life_s > 0)
    {
      g_autofree char *mod = g_strdup_printf ("modprinc -maxlife \"%u seconds\" %s", max_life_s, name);

      kadmin (secure_dir, realm, mod);
    }
  kadmin (secure_dir, realm, ktadd);
  return g_file_test (keytab, G_FILE_TEST_EXISTS);
}
