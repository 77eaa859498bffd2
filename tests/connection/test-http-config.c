/* SPDX-License-Identifier: Apache-2.0 */
/* test-http-config.c: the http:// and https:// gateway forms of HBaseConfig
 * and its TLS settings, in code, key files and the environment; no gateway
 * needed. */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <hbase-glib/hbase-glib.h>

static void
test_url_forms (void)
{
  static const struct {
    const char *entry, *host, *url;
    guint port;
  } cases[] = {
    { "http://gw:9097", "gw", "http://gw:9097/", 9097 },
    { "http://gw:9097/", "gw", "http://gw:9097/", 9097 },
    { "https://gw.example:9098/thrift", "gw.example", "https://gw.example:9098/thrift", 9098 },
    { "HTTPS://gw", "gw", "https://gw:443/", 443 },
    { "http://gw", "gw", "http://gw:80/", 80 },
    { "http://[::1]:9097/x/y", "::1", "http://[::1]:9097/x/y", 9097 },
    { "https://10.0.0.7:8443/a%20b", "10.0.0.7", "https://10.0.0.7:8443/a%20b", 8443 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(HBaseConfig) config = hbase_config_new ();
      g_autoptr(GError) error = NULL;

      g_assert_true (hbase_config_set_gateways (config, cases[i].entry, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (hbase_config_get_n_gateways (config), ==, 1);
      g_assert_cmpstr (hbase_config_get_gateway_host (config, 0), ==, cases[i].host);
      g_assert_cmpuint (hbase_config_get_gateway_port (config, 0), ==, cases[i].port);
      g_assert_cmpstr (hbase_config_get_gateway_url (config, 0), ==, cases[i].url);
    }
}

static void
test_mixed_list (void)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(HBaseConfig) copy = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (hbase_config_set_gateways (config, "a:9090, http://b:9097 https://c:9098/p", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (hbase_config_get_n_gateways (config), ==, 3);
  /* plain HOST:PORT keeps meaning the socket */
  g_assert_null (hbase_config_get_gateway_url (config, 0));
  g_assert_cmpstr (hbase_config_get_gateway_url (config, 1), ==, "http://b:9097/");
  copy = hbase_config_copy (config);
  g_assert_cmpstr (hbase_config_get_gateway_url (copy, 2), ==, "https://c:9098/p");
  g_assert_null (hbase_config_get_gateway_url (copy, 3));
  g_assert_true (hbase_config_add_gateway (copy, "d", 1, &error));
  g_assert_null (hbase_config_get_gateway_url (copy, 3));
}

static void
test_url_invalid (void)
{
  const char *cases[] = {
    "ftp://gw:21",
    "http://",
    "http://:9097",
    "http://gw:0",
    "http://gw:65536/",
    "http://gw:x/",
    "http://gw:/",
    "http://user@gw:9097/",
    "http://gw?q=1",
    "http://::1:9097/",
    "http://[::1/",
    "http://[gw]:9097/",
    "https://gw:9098/a\x01b",
    "https://gw:9098/caf\xc3\xa9",
    "https://gw:9098/#frag",
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(HBaseConfig) config = hbase_config_new ();
      g_autoptr(GError) error = NULL;

      g_test_message ("entry: %s", cases[i]);
      g_assert_false (hbase_config_set_gateways (config, cases[i], &error));
      g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
      g_assert_true (g_str_has_prefix (error->message, "gateways: "));
      /* the list is left as it was */
      g_assert_cmpstr (hbase_config_get_gateway_host (config, 0), ==, "localhost");
      g_assert_null (hbase_config_get_gateway_url (config, 0));
    }
}

static void
test_tls_setters (void)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(HBaseConfig) copy = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_null (hbase_config_get_tls_ca_file (config));
  g_assert_null (hbase_config_get_tls_ca_path (config));
  g_assert_true (hbase_config_get_tls_verify_hostname (config));
  g_assert_null (hbase_config_get_tls_client_cert (config));

  g_assert_true (hbase_config_set_tls_ca_file (config, "/etc/ca.pem", &error));
  g_assert_true (hbase_config_set_tls_ca_path (config, "/etc/cas", &error));
  hbase_config_set_tls_verify_hostname (config, FALSE);
  g_assert_true (hbase_config_set_tls_client_certificate (config, "c.pem", "k.pem", "pw", &error));
  g_assert_no_error (error);

  copy = hbase_config_copy (config);
  g_assert_cmpstr (hbase_config_get_tls_ca_file (copy), ==, "/etc/ca.pem");
  g_assert_cmpstr (hbase_config_get_tls_ca_path (copy), ==, "/etc/cas");
  g_assert_false (hbase_config_get_tls_verify_hostname (copy));
  g_assert_cmpstr (hbase_config_get_tls_client_cert (copy), ==, "c.pem");
  g_assert_cmpstr (hbase_config_get_tls_client_key (copy), ==, "k.pem");

  /* "" unsets */
  g_assert_true (hbase_config_set_tls_ca_file (config, "", &error));
  g_assert_null (hbase_config_get_tls_ca_file (config));
  g_assert_cmpstr (hbase_config_get_tls_ca_file (copy), ==, "/etc/ca.pem");

  /* a key without a certificate */
  g_assert_false (hbase_config_set_tls_client_certificate (config, NULL, "k.pem", NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_assert_cmpstr (hbase_config_get_tls_client_cert (config), ==, "c.pem");   /* unchanged */
  g_clear_error (&error);
  g_assert_false (hbase_config_set_tls_client_certificate (config, NULL, NULL, "secret-pw", &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_assert_null (strstr (error->message, "secret-pw"));
  g_clear_error (&error);
  g_assert_true (hbase_config_set_tls_client_certificate (config, NULL, NULL, NULL, &error));
  g_assert_null (hbase_config_get_tls_client_cert (config));
  g_assert_null (hbase_config_get_tls_client_key (config));
}

static void
test_tls_key_file (void)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(GKeyFile) key_file = g_key_file_new ();
  g_autoptr(GError) error = NULL;
  static const char text[] =
    "[hbase]\n"
    "gateways = https://gw:9098/\n"
    "tls-ca-file = /srv/ca.pem\n"
    "tls-ca-path = /srv/cas\n"
    "tls-verify-hostname = false\n"
    "tls-client-cert = /srv/c.pem\n"
    "tls-client-key = /srv/k.pem\n"
    "tls-client-key-password = hunter2\n";

  g_assert_true (g_key_file_load_from_data (key_file, text, -1, G_KEY_FILE_NONE, &error));
  g_assert_true (hbase_config_load_key_file (config, key_file, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (hbase_config_get_gateway_url (config, 0), ==, "https://gw:9098/");
  g_assert_cmpstr (hbase_config_get_tls_ca_file (config), ==, "/srv/ca.pem");
  g_assert_cmpstr (hbase_config_get_tls_ca_path (config), ==, "/srv/cas");
  g_assert_false (hbase_config_get_tls_verify_hostname (config));
  g_assert_cmpstr (hbase_config_get_tls_client_cert (config), ==, "/srv/c.pem");
  g_assert_cmpstr (hbase_config_get_tls_client_key (config), ==, "/srv/k.pem");

  /* a bad boolean names the key; the config is unchanged */
  g_key_file_set_string (key_file, "hbase", "tls-verify-hostname", "maybe");
  g_assert_false (hbase_config_load_key_file (config, key_file, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "tls-verify-hostname"));
  g_assert_false (hbase_config_get_tls_verify_hostname (config));
  g_clear_error (&error);

  /* a key without a certificate */
  g_key_file_remove_key (key_file, "hbase", "tls-client-cert", NULL);
  g_key_file_set_string (key_file, "hbase", "tls-verify-hostname", "true");
  {
    g_autoptr(HBaseConfig) fresh = hbase_config_new ();

    g_assert_false (hbase_config_load_key_file (fresh, key_file, NULL, &error));
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
    g_assert_null (strstr (error->message, "hunter2"));
  }
}

static void
count_message (const char *domain, GLogLevelFlags level, const char *message, gpointer counter)
{
  (*(guint *) counter)++;
}

/* A key file holding the key's password, readable by others, is reported
 * (a g_message naming the file and its mode, never the password); the
 * same file readable by its owner only is not. */
static void
test_readable_secret_warned (void)
{
  g_autofree char *dir = g_dir_make_tmp ("hbase-glib-secret-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "client.conf", NULL);
  const char *text =
    "[hbase]\n"
    "gateways = https://gw:9098\n"
    "tls-client-cert = /srv/c.pem\n"
    "tls-client-key = /srv/k.pem\n"
    "tls-client-key-password = Pw-never-logged-0917\n";
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (path, text, -1, &error));
  g_assert_cmpint (g_chmod (path, 0644), ==, 0);
  {
    g_autoptr(HBaseConfig) config = hbase_config_new ();

    g_test_expect_message ("hbase-glib", G_LOG_LEVEL_MESSAGE, "*client.conf*readable by others (mode 644)*");
    g_assert_true (hbase_config_load_file (config, path, &error));
    g_test_assert_expected_messages ();
    g_assert_no_error (error);
  }
  g_assert_cmpint (g_chmod (path, 0600), ==, 0);
  {
    g_autoptr(HBaseConfig) config = hbase_config_new ();
    guint messages = 0;
    guint handler = g_log_set_handler ("hbase-glib", G_LOG_LEVEL_MESSAGE, count_message, &messages);

    g_assert_true (hbase_config_load_file (config, path, &error));
    g_log_remove_handler ("hbase-glib", handler);
    g_assert_no_error (error);
    g_assert_cmpuint (messages, ==, 0);
  }
  g_remove (path);
  g_rmdir (dir);
}

static void
test_tls_environment (void)
{
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(GError) error = NULL;

  g_setenv ("HBASE_GLIB_GATEWAYS", "http://gw:9097,https://gw:9098", TRUE);
  g_setenv ("HBASE_GLIB_TLS_CA_FILE", "/env/ca.pem", TRUE);
  g_setenv ("HBASE_GLIB_TLS_VERIFY_HOSTNAME", "0", TRUE);
  g_setenv ("HBASE_GLIB_TLS_CLIENT_CERT", "/env/c.pem", TRUE);
  g_setenv ("HBASE_GLIB_TLS_CLIENT_KEY_PASSWORD", "pw", TRUE);
  config = hbase_config_new_from_environment (&error);
  g_assert_no_error (error);
  g_assert_cmpuint (hbase_config_get_n_gateways (config), ==, 2);
  g_assert_cmpstr (hbase_config_get_gateway_url (config, 1), ==, "https://gw:9098/");
  g_assert_cmpstr (hbase_config_get_tls_ca_file (config), ==, "/env/ca.pem");
  g_assert_false (hbase_config_get_tls_verify_hostname (config));
  g_assert_cmpstr (hbase_config_get_tls_client_cert (config), ==, "/env/c.pem");
  g_assert_null (hbase_config_get_tls_client_key (config));
  g_clear_pointer (&config, hbase_config_free);

  g_setenv ("HBASE_GLIB_TLS_VERIFY_HOSTNAME", "nope", TRUE);
  config = hbase_config_new_from_environment (&error);
  g_assert_null (config);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_assert_true (g_str_has_prefix (error->message, "HBASE_GLIB_TLS_VERIFY_HOSTNAME: "));
  for (const char *const *v = (const char *const[]) { "HBASE_GLIB_GATEWAYS", "HBASE_GLIB_TLS_CA_FILE",
                                                      "HBASE_GLIB_TLS_VERIFY_HOSTNAME",
                                                      "HBASE_GLIB_TLS_CLIENT_CERT",
                                                      "HBASE_GLIB_TLS_CLIENT_KEY_PASSWORD", NULL };
       *v != NULL; v++)
    g_unsetenv (*v);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/connection/http-config/url-forms", test_url_forms);
  g_test_add_func ("/connection/http-config/mixed-list", test_mixed_list);
  g_test_add_func ("/connection/http-config/url-invalid", test_url_invalid);
  g_test_add_func ("/connection/http-config/tls-setters", test_tls_setters);
  g_test_add_func ("/connection/http-config/tls-key-file", test_tls_key_file);
  g_test_add_func ("/connection/http-config/tls-environment", test_tls_environment);
  g_test_add_func ("/connection/http-config/readable-secret-warned", test_readable_secret_warned);
  return g_test_run ();
}
