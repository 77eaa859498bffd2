/* SPDX-License-Identifier: Apache-2.0 */
/* test-tls-trust.c: tls-ca-file and tls-ca-path replace the system's trust
 * store, against the stack's https gateway (scripts/stack.sh: 9098, the
 * test CA of STATE/tls).
 *
 * The "system" store is made to trust the gateway's CA: the test enters a
 * mount namespace of its own (a user namespace when not privileged) and
 * mounts a directory over libcurl's built-in store, /etc/ssl/certs (the
 * CAPATH of Debian's libcurl; its CAINFO, ca-certificates.crt, lives there
 * too), holding the gateway's CA in both forms: hashed (`openssl rehash`
 * layout) and as the bundle file.  The first case checks that this store
 * is the one libcurl uses by default; the others that naming another CA
 * with tls-ca-file or tls-ca-path leaves the gateway untrusted.
 *
 * HBASE_GLIB_TEST_HTTPS_GATEWAY overrides the URL (its host must be
 * localhost or 127.0.0.1, which the certificate names);
 * HBASE_GLIB_TEST_TLS_DIR the certificates (default
 * $HBASE_GLIB_STATE_DIR/tls, else $top_srcdir/.stack/tls). */
#define _GNU_SOURCE
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <hbase-glib/hbase-glib.h>

#include "../support/test-stack.h"

#define SYSTEM_STORE "/etc/ssl/certs"

static char *https_url, *tls_dir, *store_dir, *other_dir;
static gboolean certificates;     /* the stack made its test CAs */
static const char *no_namespace;   /* why the store could not be replaced; NULL: it was */

static char *
tls_file (const char *name)
{
  return g_build_filename (tls_dir, name, NULL);
}

static gboolean
write_id_map (const char *file, const char *text)
{
  int fd = open (file, O_WRONLY);
  gboolean ok;

  if (fd < 0)
    return FALSE;
  ok = write (fd, text, strlen (text)) == (ssize_t) strlen (text);
  close (fd);
  return ok;
}

/* Enters a mount namespace (through a user namespace unless privileged);
 * must run before the process has a second thread. */
static gboolean
enter_mount_namespace (void)
{
  uid_t uid = getuid ();
  gid_t gid = getgid ();
  g_autofree char *uid_map = g_strdup_printf ("0 %u 1\n", (unsigned) uid);
  g_autofree char *gid_map = g_strdup_printf ("0 %u 1\n", (unsigned) gid);

  if (unshare (CLONE_NEWUSER | CLONE_NEWNS) == 0)
    {
      /* setgroups may be missing on old kernels: the gid map then needs it not */
      write_id_map ("/proc/self/setgroups", "deny");
      if (!write_id_map ("/proc/self/uid_map", uid_map) ||
          !write_id_map ("/proc/self/gid_map", gid_map))
        return FALSE;
    }
  else if (unshare (CLONE_NEWNS) != 0)
    return FALSE;
  /* nothing mounted here may reach the rest of the machine ("none": the
   * kernel ignores source and type of a propagation change or a bind, and
   * valgrind reads them as strings) */
  return mount ("none", "/", "none", MS_REC | MS_PRIVATE, NULL) == 0;
}

/* A directory holding @ca as a hashed certificate (HASH.0) and as the
 * bundle file, with `openssl rehash`. */
static char *
make_store (const char *ca)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("hbase-glib-store-XXXXXX", &error);
  g_autofree char *contents = NULL, *pem = NULL, *bundle = NULL;
  gsize len;
  int status;

  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (ca, &contents, &len, &error));
  pem = g_build_filename (dir, "test-ca.pem", NULL);
  bundle = g_build_filename (dir, "ca-certificates.crt", NULL);
  g_assert_true (g_file_set_contents (pem, contents, len, &error));
  g_assert_true (g_file_set_contents (bundle, contents, len, &error));
  g_assert_true (g_spawn_sync (NULL, (char *[]) { "openssl", "rehash", dir, NULL }, NULL,
                               G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                               NULL, NULL, &status, &error));
  g_assert_true (g_spawn_check_wait_status (status, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&dir);
}

static void
remove_store (char *dir)
{
  g_autoptr(GDir) handle = NULL;
  const char *name;

  if (dir == NULL)
    return;
  handle = g_dir_open (dir, 0, NULL);
  while (handle != NULL && (name = g_dir_read_name (handle)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (dir);
  g_free (dir);
}

static GError *
ping (const char *ca_file, const char *ca_path)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(HBaseClient) client = NULL;
  GError *error = NULL;

  g_assert_true (hbase_config_set_gateways (config, https_url, &error));
  g_assert_true (hbase_config_set_max_attempts (config, 1, &error));
  g_assert_true (hbase_config_set_connect_timeout (config, 30000, &error));
  g_assert_true (hbase_config_set_operation_timeout (config, 30000, &error));
  g_assert_true (hbase_config_set_tls_ca_file (config, ca_file, &error));
  g_assert_true (hbase_config_set_tls_ca_path (config, ca_path, &error));
  g_assert_no_error (error);
  client = hbase_client_new (config);
  if (!hbase_client_ping (client, NULL, &error))
    g_test_message ("error: %s", error->message);
  return error;
}

static gboolean
need_store (void)
{
  if (!certificates)
    {
      test_stack_unavailable ("the stack's test certificates are not there (scripts/stack.sh start)");
      return FALSE;
    }
  if (no_namespace != NULL)
    {
      /* not the stack's fault: a machine without namespaces for this user */
      g_test_skip (no_namespace);
      return FALSE;
    }
  return TRUE;
}

static void
assert_untrusted (GError *error)
{
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION);
  g_assert_nonnull (strstr (error->message, "not trusted"));
}

/* The control: with no CA configured the replaced store is what libcurl
 * reads, and it trusts the gateway. */
static void
test_system_store (void)
{
  g_autoptr(GError) error = NULL;

  if (!need_store ())
    return;
  error = ping (NULL, NULL);
  g_assert_no_error (error);
}

/* Another CA in tls-ca-file: the store's hashed directory (libcurl's
 * default CAPATH) must not be consulted. */
static void
test_ca_file_replaces_store (void)
{
  g_autofree char *other = tls_file ("other-ca.pem");
  g_autoptr(GError) error = NULL;

  if (!need_store ())
    return;
  error = ping (other, NULL);
  assert_untrusted (error);
}

/* Another CA in tls-ca-path: the store's bundle (libcurl's default
 * CAINFO) must not be consulted. */
static void
test_ca_path_replaces_store (void)
{
  g_autoptr(GError) error = NULL;

  if (!need_store ())
    return;
  error = ping (NULL, other_dir);
  assert_untrusted (error);
}

/* The gateway's own CA named either way is trusted. */
static void
test_configured_ca_trusted (void)
{
  g_autofree char *ca = tls_file ("ca.pem");
  g_autoptr(GError) by_file = NULL, by_path = NULL;

  if (!need_store ())
    return;
  by_file = ping (ca, NULL);
  g_assert_no_error (by_file);
  by_path = ping (NULL, store_dir);
  g_assert_no_error (by_path);
}

static char *
default_tls_dir (void)
{
  const char *state = g_getenv ("HBASE_GLIB_STATE_DIR");
  const char *top = g_getenv ("top_srcdir");

  if (state != NULL && *state != '\0')
    return g_build_filename (state, "tls", NULL);
  return g_build_filename (top != NULL ? top : ".", ".stack", "tls", NULL);
}

int
main (int argc, char **argv)
{
  const char *https = g_getenv ("HBASE_GLIB_TEST_HTTPS_GATEWAY");
  const char *dir = g_getenv ("HBASE_GLIB_TEST_TLS_DIR");
  g_autofree char *ca = NULL, *other = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  https_url = g_strdup (https != NULL && *https != '\0' ? https : "https://localhost:9098/");
  tls_dir = dir != NULL && *dir != '\0' ? g_strdup (dir) : default_tls_dir ();
  ca = tls_file ("ca.pem");
  other = tls_file ("other-ca.pem");
  certificates = g_file_test (ca, G_FILE_TEST_EXISTS) && g_file_test (other, G_FILE_TEST_EXISTS);

  /* first, while the process has one thread */
  if (certificates)
    {
      if (!enter_mount_namespace ())
        no_namespace = "no mount namespace for this user (unprivileged user namespaces off?): "
                       "the system's trust store cannot be replaced";
      else
        {
          store_dir = make_store (ca);
          other_dir = make_store (other);
          if (mount (store_dir, SYSTEM_STORE, "none", MS_BIND, NULL) != 0)
            no_namespace = "cannot mount over " SYSTEM_STORE;
        }
    }

  g_test_add_func ("/integration/tls-trust/system-store", test_system_store);
  g_test_add_func ("/integration/tls-trust/ca-file-replaces-store", test_ca_file_replaces_store);
  g_test_add_func ("/integration/tls-trust/ca-path-replaces-store", test_ca_path_replaces_store);
  g_test_add_func ("/integration/tls-trust/configured-ca-trusted", test_configured_ca_trusted);
  status = g_test_run ();
  remove_store (store_dir);
  remove_store (other_dir);
  g_free (https_url);
  g_free (tls_dir);
  return status;
}
