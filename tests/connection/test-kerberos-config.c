/* SPDX-License-Identifier: Apache-2.0 */
/* test-kerberos-config.c: the Kerberos settings of HBaseConfig (on/off,
 * protection levels, principals, keytab, credentials cache, proxy user)
 * in code, key files and the environment; no gateway or KDC needed. */
#include "config.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>

#include <hbase-glib/hbase-glib.h>

#include "../../src/connection/hbase-gss.h"

static void
test_defaults (void)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();

  g_assert_false (hbase_config_get_kerberos (config));
  g_assert_cmpint (hbase_config_get_kerberos_qop (config), ==, HBASE_KERBEROS_QOP_ANY);
  g_assert_cmpstr (hbase_config_get_kerberos_service_principal (config), ==, "hbase/_HOST");
  g_assert_cmpstr (hbase_config_get_kerberos_http_principal (config), ==, "HTTP/_HOST");
  g_assert_null (hbase_config_get_kerberos_principal (config));
  g_assert_null (hbase_config_get_kerberos_keytab (config));
  g_assert_null (hbase_config_get_kerberos_ccache (config));
  g_assert_true (hbase_config_get_kerberos_canonicalize_host (config));
  g_assert_null (hbase_config_get_proxy_user (config));
}

static void
test_qop_strings (void)
{
  static const struct {
    const char *text;
    HBaseKerberosQop qop;
  } good[] = {
    { "authentication", HBASE_KERBEROS_QOP_AUTHENTICATION },
    { "auth-conf", HBASE_KERBEROS_QOP_PRIVACY },
    { "Integrity", HBASE_KERBEROS_QOP_INTEGRITY },
    { "integrity, privacy", HBASE_KERBEROS_QOP_INTEGRITY | HBASE_KERBEROS_QOP_PRIVACY },
    { "auth,auth-int,auth-conf", HBASE_KERBEROS_QOP_ANY },
    { "any", HBASE_KERBEROS_QOP_ANY },
  };
  static const char *const bad[] = { "", " , ", "secret", "privacy,bogus", "auth-none" };

  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      g_autoptr(GError) error = NULL;
      HBaseKerberosQop qop = 0;

      g_assert_true (hbase_kerberos_qop_from_string (good[i].text, &qop, &error));
      g_assert_no_error (error);
      g_assert_cmpint (qop, ==, good[i].qop);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      HBaseKerberosQop qop = HBASE_KERBEROS_QOP_PRIVACY;

      g_assert_false (hbase_kerberos_qop_from_string (bad[i], &qop, &error));
      g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
      g_assert_cmpint (qop, ==, HBASE_KERBEROS_QOP_PRIVACY);
    }
}

static void
test_setters (void)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(HBaseConfig) copy = NULL;
  g_autoptr(GError) error = NULL;

  hbase_config_set_kerberos (config, TRUE);
  g_assert_true (hbase_config_set_kerberos_qop (config, HBASE_KERBEROS_QOP_PRIVACY, &error));
  g_assert_true (hbase_config_set_kerberos_service_principal (config, "hbase/_HOST@EXAMPLE.COM", &error));
  g_assert_true (hbase_config_set_kerberos_http_principal (config, "HTTP/gw.example.com", &error));
  g_assert_true (hbase_config_set_kerberos_keytab (config, "etl@EXAMPLE.COM", "/etc/etl.keytab", &error));
  g_assert_true (hbase_config_set_kerberos_ccache (config, "FILE:/tmp/etl-cc", &error));
  g_assert_true (hbase_config_set_proxy_user (config, "alice", &error));
  g_assert_no_error (error);

  copy = hbase_config_copy (config);
  hbase_config_free (g_steal_pointer (&config));
  g_assert_true (hbase_config_get_kerberos (copy));
  g_assert_cmpint (hbase_config_get_kerberos_qop (copy), ==, HBASE_KERBEROS_QOP_PRIVACY);
  g_assert_cmpstr (hbase_config_get_kerberos_service_principal (copy), ==, "hbase/_HOST@EXAMPLE.COM");
  g_assert_cmpstr (hbase_config_get_kerberos_http_principal (copy), ==, "HTTP/gw.example.com");
  g_assert_cmpstr (hbase_config_get_kerberos_principal (copy), ==, "etl@EXAMPLE.COM");
  g_assert_cmpstr (hbase_config_get_kerberos_keytab (copy), ==, "/etc/etl.keytab");
  g_assert_cmpstr (hbase_config_get_kerberos_ccache (copy), ==, "FILE:/tmp/etl-cc");
  g_assert_cmpstr (hbase_config_get_proxy_user (copy), ==, "alice");

  /* NULL and "" go back to the defaults */
  g_assert_true (hbase_config_set_kerberos_service_principal (copy, "", &error));
  g_assert_true (hbase_config_set_kerberos_http_principal (copy, NULL, &error));
  g_assert_true (hbase_config_set_kerberos_keytab (copy, NULL, NULL, &error));
  g_assert_true (hbase_config_set_kerberos_ccache (copy, NULL, &error));
  g_assert_true (hbase_config_set_proxy_user (copy, "", &error));
  g_assert_no_error (error);
  g_assert_cmpstr (hbase_config_get_kerberos_service_principal (copy), ==, "hbase/_HOST");
  g_assert_cmpstr (hbase_config_get_kerberos_http_principal (copy), ==, "HTTP/_HOST");
  g_assert_null (hbase_config_get_kerberos_principal (copy));
  g_assert_null (hbase_config_get_kerberos_keytab (copy));
  g_assert_null (hbase_config_get_kerberos_ccache (copy));
  g_assert_null (hbase_config_get_proxy_user (copy));
}

/* Every refused value leaves the setting as it was. */
static void
test_invalid (void)
{
  static const char *const bad_principals[] = {
    "hbase", "/host", "hbase/", "hbase/@R", "hbase/h@", "hbase@R/h", "hbase/h ost", "hbase/h\nx",
  };
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *long_name = g_strnfill (2000, 'u');

  for (guint i = 0; i < G_N_ELEMENTS (bad_principals); i++)
    {
      g_assert_false (hbase_config_set_kerberos_service_principal (config, bad_principals[i], &error));
      g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
      g_assert_nonnull (strstr (error->message, "kerberos-service-principal"));
      g_clear_error (&error);
      g_assert_false (hbase_config_set_kerberos_http_principal (config, bad_principals[i], &error));
      g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
      g_clear_error (&error);
    }
  g_assert_cmpstr (hbase_config_get_kerberos_service_principal (config), ==, "hbase/_HOST");

  /* a keytab needs a principal to log in as */
  g_assert_false (hbase_config_set_kerberos_keytab (config, NULL, "/etc/x.keytab", &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "kerberos-principal"));
  g_clear_error (&error);
  g_assert_null (hbase_config_get_kerberos_keytab (config));

  /* doAs goes in an HTTP header: no control characters, no blanks */
  g_assert_false (hbase_config_set_proxy_user (config, "alice\r\ndoAs: root", &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (hbase_config_set_proxy_user (config, "al ice", &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (hbase_config_set_proxy_user (config, "\xff\xfe", &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (hbase_config_set_proxy_user (config, long_name, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (hbase_config_get_proxy_user (config));

  g_assert_false (hbase_config_set_kerberos_qop (config, 0, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (hbase_config_set_kerberos_qop (config, (HBaseKerberosQop) 8, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  g_assert_cmpint (hbase_config_get_kerberos_qop (config), ==, HBASE_KERBEROS_QOP_ANY);
}

static void
test_key_file (void)
{
  g_autoptr(GKeyFile) key_file = g_key_file_new ();
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(GError) error = NULL;
  const char *text =
    "[hbase]\n"
    "gateways = gw1:9090, https://gw2:9443\n"
    "kerberos = true\n"
    "kerberos-qop = integrity,privacy\n"
    "kerberos-service-principal = hbase/_HOST@EXAMPLE.COM\n"
    "kerberos-http-principal = HTTP/_HOST@EXAMPLE.COM\n"
    "kerberos-keytab = /etc/security/etl.keytab\n"
    "kerberos-principal = etl@EXAMPLE.COM\n"
    "proxy-user = alice\n"
    "kerberos-canonicalize-host = false\n";

  g_assert_true (g_key_file_load_from_data (key_file, text, -1, G_KEY_FILE_NONE, &error));
  g_assert_true (hbase_config_load_key_file (config, key_file, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (hbase_config_get_kerberos (config));
  g_assert_cmpint (hbase_config_get_kerberos_qop (config), ==,
                   HBASE_KERBEROS_QOP_INTEGRITY | HBASE_KERBEROS_QOP_PRIVACY);
  g_assert_cmpstr (hbase_config_get_kerberos_service_principal (config), ==, "hbase/_HOST@EXAMPLE.COM");
  g_assert_cmpstr (hbase_config_get_kerberos_http_principal (config), ==, "HTTP/_HOST@EXAMPLE.COM");
  /* the keytab comes before its principal in the file: both are kept */
  g_assert_cmpstr (hbase_config_get_kerberos_keytab (config), ==, "/etc/security/etl.keytab");
  g_assert_cmpstr (hbase_config_get_kerberos_principal (config), ==, "etl@EXAMPLE.COM");
  g_assert_cmpstr (hbase_config_get_proxy_user (config), ==, "alice");
  g_assert_false (hbase_config_get_kerberos_canonicalize_host (config));

  /* a bad value names its key */
  g_key_file_set_string (key_file, "hbase", "kerberos-qop", "maximum");
  g_assert_false (hbase_config_load_key_file (config, key_file, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "kerberos-qop"));
  g_clear_error (&error);
  g_key_file_set_string (key_file, "hbase", "kerberos-qop", "any");
  g_key_file_set_string (key_file, "hbase", "kerberos", "perhaps");
  g_assert_false (hbase_config_load_key_file (config, key_file, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "kerberos"));
}

static void
test_environment (void)
{
  static const char *const names[] = {
    "HBASE_GLIB_KERBEROS", "HBASE_GLIB_KERBEROS_QOP", "HBASE_GLIB_KERBEROS_PRINCIPAL",
    "HBASE_GLIB_KERBEROS_KEYTAB", "HBASE_GLIB_KERBEROS_CCACHE", "HBASE_GLIB_PROXY_USER",
    "HBASE_GLIB_KERBEROS_SERVICE_PRINCIPAL", "HBASE_GLIB_KERBEROS_HTTP_PRINCIPAL",
    "HBASE_GLIB_KERBEROS_CANONICALIZE_HOST",
  };
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(GError) error = NULL;

  g_setenv ("HBASE_GLIB_KERBEROS", "yes", TRUE);
  g_setenv ("HBASE_GLIB_KERBEROS_QOP", "auth-conf", TRUE);
  g_setenv ("HBASE_GLIB_KERBEROS_PRINCIPAL", "svc/batch@EXAMPLE.COM", TRUE);
  g_setenv ("HBASE_GLIB_KERBEROS_KEYTAB", "/env/svc.keytab", TRUE);
  g_setenv ("HBASE_GLIB_KERBEROS_CCACHE", "MEMORY:x", TRUE);
  g_setenv ("HBASE_GLIB_KERBEROS_SERVICE_PRINCIPAL", "thrift/_HOST", TRUE);
  g_setenv ("HBASE_GLIB_PROXY_USER", "bob", TRUE);
  g_setenv ("HBASE_GLIB_KERBEROS_CANONICALIZE_HOST", "no", TRUE);
  config = hbase_config_new_from_environment (&error);
  g_assert_no_error (error);
  g_assert_true (hbase_config_get_kerberos (config));
  g_assert_cmpint (hbase_config_get_kerberos_qop (config), ==, HBASE_KERBEROS_QOP_PRIVACY);
  g_assert_cmpstr (hbase_config_get_kerberos_principal (config), ==, "svc/batch@EXAMPLE.COM");
  g_assert_cmpstr (hbase_config_get_kerberos_keytab (config), ==, "/env/svc.keytab");
  g_assert_cmpstr (hbase_config_get_kerberos_ccache (config), ==, "MEMORY:x");
  g_assert_cmpstr (hbase_config_get_kerberos_service_principal (config), ==, "thrift/_HOST");
  g_assert_cmpstr (hbase_config_get_proxy_user (config), ==, "bob");
  g_assert_false (hbase_config_get_kerberos_canonicalize_host (config));
  g_clear_pointer (&config, hbase_config_free);
  g_setenv ("HBASE_GLIB_KERBEROS_CANONICALIZE_HOST", "perhaps", TRUE);
  config = hbase_config_new_from_environment (&error);
  g_assert_null (config);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_assert_true (g_str_has_prefix (error->message, "HBASE_GLIB_KERBEROS_CANONICALIZE_HOST"));
  g_clear_error (&error);
  g_unsetenv ("HBASE_GLIB_KERBEROS_CANONICALIZE_HOST");

  g_setenv ("HBASE_GLIB_KERBEROS_SERVICE_PRINCIPAL", "thrift", TRUE);
  config = hbase_config_new_from_environment (&error);
  g_assert_null (config);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_assert_true (g_str_has_prefix (error->message, "HBASE_GLIB_KERBEROS_SERVICE_PRINCIPAL: "));
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_unsetenv (names[i]);
}

/* Kerberos on socket gateways needs the unframed transport (SASL frames
 * itself): refused when the client opens a connection, before any byte. */
static void
test_framed_refused (void)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = NULL;

  g_assert_true (hbase_config_set_gateways (config, "127.0.0.1:1", &error));
  g_assert_true (hbase_config_set_transport (config, HBASE_TRANSPORT_FRAMED, &error));
  hbase_config_set_kerberos (config, TRUE);
  client = hbase_client_new (config);
  names = hbase_client_list_tables (client, NULL, NULL, &error);
  g_assert_null (names);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "buffered"));
}

/* The gateway principal _HOST stands for.  A reverse lookup's answer is
 * kept only when it resolves back to the address (127.0.0.1 is localhost
 * in every /etc/hosts); turned off, the host stays as given. */
static char *
principal_for (const char *configured, const char *host, gboolean canonicalize)
{
  gss_name_t name = GSS_C_NO_NAME;
  g_autoptr(GError) error = NULL;
  char *display = NULL;

  g_assert_true (_hbase_gss_import_service_name (configured, "hbase", host, canonicalize, &name,
                                                 &display, &error));
  g_assert_no_error (error);
  _hbase_gss_release_name (&name);
  return display;
}

static void
test_host_name (void)
{
  struct sockaddr_in loopback = { .sin_family = AF_INET }, other = { .sin_family = AF_INET };
  g_autofree char *canonical = principal_for (NULL, "127.0.0.1", TRUE);
  g_autofree char *as_given = principal_for (NULL, "127.0.0.1", FALSE);
  g_autofree char *named = principal_for ("thrift/_HOST@EXAMPLE.COM", "GW1.Example.COM", FALSE);
  g_autofree char *fixed = principal_for ("thrift/gw2.example.com", "127.0.0.1", TRUE);

  g_assert_cmpstr (canonical, ==, "hbase/localhost");
  g_assert_cmpstr (as_given, ==, "hbase/127.0.0.1");
  g_assert_cmpstr (named, ==, "thrift/gw1.example.com@EXAMPLE.COM");
  g_assert_cmpstr (fixed, ==, "thrift/gw2.example.com");

  /* the forward confirmation itself */
  g_assert_cmpint (inet_pton (AF_INET, "127.0.0.1", &loopback.sin_addr), ==, 1);
  g_assert_cmpint (inet_pton (AF_INET, "192.0.2.7", &other.sin_addr), ==, 1);
  g_assert_true (_hbase_gss_forward_confirmed ("localhost", (struct sockaddr *) &loopback,
                                               sizeof loopback));
  g_assert_false (_hbase_gss_forward_confirmed ("localhost", (struct sockaddr *) &other,
                                                sizeof other));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/connection/kerberos-config/defaults", test_defaults);
  g_test_add_func ("/connection/kerberos-config/qop-strings", test_qop_strings);
  g_test_add_func ("/connection/kerberos-config/setters", test_setters);
  g_test_add_func ("/connection/kerberos-config/invalid", test_invalid);
  g_test_add_func ("/connection/kerberos-config/key-file", test_key_file);
  g_test_add_func ("/connection/kerberos-config/environment", test_environment);
  g_test_add_func ("/connection/kerberos-config/framed-refused", test_framed_refused);
  g_test_add_func ("/connection/kerberos-config/host-name", test_host_name);
  return g_test_run ();
}
