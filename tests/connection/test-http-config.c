/* SPDX-License-Identifier: Apache-2.0 */
/* test-http-config.c: the http:// and https:// gateway forms of HBaseConfig
 * and its TLS settings, in code, key files and the environment; Kerberos
 * refused on http:// gateways unless allow-insecure-http, and TLS settings
 * with no https:// gateway warned about; no gateway needed (a closed port
 * stands for one). */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <hbase-glib/hbase-glib.h>

#include "../support/test-stack.h"

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

/* A key file's value that is not UTF-8 is named by its key, never quoted:
 * it may be a password. */
static void
test_key_file_secret_not_utf8 (void)
{
  static const char secret[] = "Pw\xff\xfe-never-quoted-5521";
  g_autofree char *dir = g_dir_make_tmp ("hbase-glib-secret-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "client.conf", NULL);
  g_autofree char *text = g_strconcat ("[hbase]\n"
                                       "gateways = https://gw:9098\n"
                                       "tls-client-cert = /srv/c.pem\n"
                                       "tls-client-key-password = ", secret, "\n", NULL);
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (path, text, -1, &error));
  g_assert_cmpint (g_chmod (path, 0600), ==, 0);
  g_assert_false (hbase_config_load_file (config, path, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_test_message ("error: %s", error->message);
  g_assert_nonnull (strstr (error->message, "tls-client-key-password"));
  g_assert_nonnull (strstr (error->message, "UTF-8"));
  g_assert_null (strstr (error->message, "never-quoted"));
  g_assert_null (strstr (error->message, "\xff"));
  g_assert_null (strstr (error->message, "\\377"));
  g_assert_null (strstr (error->message, "Pw"));
  g_clear_error (&error);

  /* a password line without its '=' is not quoted either */
  g_clear_pointer (&text, g_free);
  text = g_strdup ("[hbase]\ntls-client-key-password Pw-never-quoted-5521\n");
  g_assert_true (g_file_set_contents (path, text, -1, &error));
  g_assert_false (hbase_config_load_file (config, path, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_test_message ("error: %s", error->message);
  g_assert_nonnull (strstr (error->message, "client.conf"));
  g_assert_null (strstr (error->message, "never-quoted"));
  g_remove (path);
  g_rmdir (dir);
}

static void
test_allow_insecure_http_setting (void)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(HBaseConfig) copy = NULL;
  g_autoptr(GKeyFile) key_file = g_key_file_new ();
  g_autoptr(GError) error = NULL;

  g_assert_false (hbase_config_get_allow_insecure_http (config));
  hbase_config_set_allow_insecure_http (config, TRUE);
  copy = hbase_config_copy (config);
  g_assert_true (hbase_config_get_allow_insecure_http (copy));
  hbase_config_set_allow_insecure_http (config, FALSE);
  g_assert_false (hbase_config_get_allow_insecure_http (config));
  g_assert_true (hbase_config_get_allow_insecure_http (copy));

  g_assert_true (g_key_file_load_from_data (key_file, "[hbase]\nallow-insecure-http = yes\n", -1,
                                            G_KEY_FILE_NONE, &error));
  g_assert_true (hbase_config_load_key_file (config, key_file, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (hbase_config_get_allow_insecure_http (config));
  g_key_file_set_string (key_file, "hbase", "allow-insecure-http", "perhaps");
  g_assert_false (hbase_config_load_key_file (config, key_file, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "allow-insecure-http"));
  g_clear_error (&error);

  g_clear_pointer (&copy, hbase_config_free);
  g_setenv ("HBASE_GLIB_ALLOW_INSECURE_HTTP", "true", TRUE);
  copy = hbase_config_new_from_environment (&error);
  g_unsetenv ("HBASE_GLIB_ALLOW_INSECURE_HTTP");
  g_assert_no_error (error);
  g_assert_true (hbase_config_get_allow_insecure_http (copy));
}

/* A ping through @url with Kerberos (and @proxy_user): its error. */
static GError *
kerberos_ping (const char *url, const char *proxy_user, gboolean allow)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(HBaseClient) client = NULL;
  GError *error = NULL;

  g_assert_true (hbase_config_set_gateways (config, url, &error));
  g_assert_true (hbase_config_set_proxy_user (config, proxy_user, &error));
  g_assert_true (hbase_config_set_max_attempts (config, 1, &error));
  g_assert_no_error (error);
  hbase_config_set_kerberos (config, TRUE);
  hbase_config_set_allow_insecure_http (config, allow);
  client = hbase_client_new (config);
  g_assert_false (hbase_client_ping (client, NULL, &error));
  g_test_message ("error: %s", error->message);
  return error;
}

/* Kerberos (and doAs) over a plain http:// gateway is refused before
 * anything is sent, unless allowed; https:// and an allowed http:// go
 * on (to fetch credentials, or to a closed port). */
static void
test_kerberos_http_refused (void)
{
  guint port = test_closed_port ();
  g_autofree char *http = g_strdup_printf ("http://127.0.0.1:%u/", port);
  g_autofree char *https = g_strdup_printf ("https://127.0.0.1:%u/", port);
  g_autoptr(GError) plain = kerberos_ping (http, NULL, FALSE);
  g_autoptr(GError) doas = kerberos_ping (http, "alice", FALSE);
  g_autoptr(GError) allowed = kerberos_ping (http, "alice", TRUE);
  g_autoptr(GError) tls = kerberos_ping (https, "alice", FALSE);

  g_assert_error (plain, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_assert_nonnull (strstr (plain->message, http));
  g_assert_nonnull (strstr (plain->message, "allow-insecure-http"));
  g_assert_error (doas, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_assert_nonnull (strstr (doas->message, "proxy user"));
  /* allowed, or https: past the check (to the credentials, or the port) */
  for (const GError *const *e = (const GError *const[]) { allowed, tls, NULL }; *e != NULL; e++)
    {
      g_assert_true ((*e)->domain == HBASE_ERROR);
      g_assert_cmpint ((*e)->code, !=, HBASE_ERROR_ILLEGAL_ARGUMENT);
      g_assert_null (strstr ((*e)->message, "allow-insecure-http"));
    }
}

static HBaseClient *
tls_client (const char *gateways)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (hbase_config_set_gateways (config, gateways, &error));
  g_assert_true (hbase_config_set_tls_ca_file (config, "/srv/ca.pem", &error));
  g_assert_no_error (error);
  return hbase_client_new (config);
}

static void
count_warning (const char *domain, GLogLevelFlags level, const char *message, gpointer counter)
{
  (*(guint *) counter)++;
}

/* TLS settings with only http:// (or socket) gateways are warned about,
 * in the library's log domain; with an https:// gateway they are not. */
static void
test_tls_without_https_warned (void)
{
  guint warnings = 0;
  guint handler;

  g_test_expect_message ("hbase-glib", G_LOG_LEVEL_WARNING, "*tls-*no gateway is an https://*");
  g_object_unref (tls_client ("http://gw1:9097, http://gw2:9097"));
  g_test_assert_expected_messages ();

  handler = g_log_set_handler ("hbase-glib", G_LOG_LEVEL_WARNING, count_warning, &warnings);
  g_object_unref (tls_client ("http://gw1:9097, https://gw2:9098"));
  g_log_remove_handler ("hbase-glib", handler);
  g_assert_cmpuint (warnings, ==, 0);
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
  g_test_add_func ("/connection/http-config/key-file-secret-not-utf8", test_key_file_secret_not_utf8);
  g_test_add_func ("/connection/http-config/allow-insecure-http", test_allow_insecure_http_setting);
  g_test_add_func ("/connection/http-config/kerberos-http-refused", test_kerberos_http_refused);
  g_test_add_func ("/connection/http-config/tls-without-https-warned", test_tls_without_https_warned);
  return g_test_run ();
}
