/* SPDX-License-Identifier: Apache-2.0 */
/* test-native-config.c: the native backend's settings in HBaseConfig: the
 * bootstrap servers (parsed, normalised to HOST:PORT with 16020 as the
 * default port, cleared by an empty value, refused when malformed), the
 * backend they choose, that a config never holds gateways and bootstrap
 * servers at once (in either order, through the setters, a key file or
 * the environment), copies, and that a client on the native backend
 * refuses a Thrift-only call with HBASE_ERROR_NOT_SUPPORTED before
 * anything is sent, as it refuses every call when a setting it cannot
 * honour (Kerberos, a proxy user, TLS) is set (no server is needed:
 * nothing may be contacted).
 */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-glib.h>

#define assert_message_has(error, text) \
  G_STMT_START { \
    if (strstr ((error)->message, (text)) == NULL) \
      { \
        g_autofree char *msg__ = g_strdup_printf ("error message '%s' does not mention '%s'", \
                                                  (error)->message, (text)); \
        g_assertion_message (G_LOG_DOMAIN, __FILE__, __LINE__, G_STRFUNC, msg__); \
      } \
  } G_STMT_END

static void
assert_servers (const HBaseConfig *config, const char *const *want)
{
  const char *const *got = hbase_config_get_bootstrap_servers (config);

  g_assert_nonnull (got);
  g_assert_cmpuint (g_strv_length ((char **) got), ==, g_strv_length ((char **) want));
  for (guint i = 0; want[i] != NULL; i++)
    g_assert_cmpstr (got[i], ==, want[i]);
}

static void
test_defaults (void)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();

  g_assert_null (hbase_config_get_bootstrap_servers (config));
  g_assert_cmpint (hbase_config_get_backend (config), ==, HBASE_BACKEND_THRIFT2);
}

static void
test_set_and_clear (void)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(HBaseConfig) copy = NULL;
  g_autoptr(GError) error = NULL;
  const char *want[] = { "rs1.example:16020", "master.example:16000", "127.0.0.1:16020", NULL };

  g_assert_true (hbase_config_set_bootstrap_servers (config, " rs1.example, master.example:16000\t127.0.0.1 ",
                                                     &error));
  g_assert_no_error (error);
  assert_servers (config, want);
  g_assert_cmpint (hbase_config_get_backend (config), ==, HBASE_BACKEND_NATIVE);

  /* a copy has its own list */
  copy = hbase_config_copy (config);
  g_assert_true (hbase_config_set_bootstrap_servers (config, "", &error));
  g_assert_no_error (error);
  g_assert_null (hbase_config_get_bootstrap_servers (config));
  g_assert_cmpint (hbase_config_get_backend (config), ==, HBASE_BACKEND_THRIFT2);
  assert_servers (copy, want);
  g_assert_cmpint (hbase_config_get_backend (copy), ==, HBASE_BACKEND_NATIVE);
  g_assert_true (hbase_config_set_bootstrap_servers (copy, NULL, &error));
  g_assert_null (hbase_config_get_bootstrap_servers (copy));
}

static void
test_invalid (void)
{
  static const struct { const char *value; const char *says; } cases[] = {
    { "host:0", "between 1 and 65535" },
    { "host:65536", "between 1 and 65535" },
    { "host:port", "between 1 and 65535" },
    { "host:", "between 1 and 65535" },
    { ":16020", "no host" },
    { "[::1]:16020", "IPv6" },
    { "::1", "IPv6" },
    { "a,host\x01:1", "control character" },
    { "\xff", "not UTF-8" },
  };
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(GError) error = NULL;
  const char *kept[] = { "kept:1", NULL };

  g_assert_true (hbase_config_set_bootstrap_servers (config, "kept:1", &error));
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_clear_error (&error);
      g_assert_false (hbase_config_set_bootstrap_servers (config, cases[i].value, &error));
      g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
      assert_message_has (error, "bootstrap-servers");
      assert_message_has (error, cases[i].says);
      /* left as it was */
      assert_servers (config, kept);
    }
}

static void
test_never_both (void)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(HBaseConfig) gateways = hbase_config_new ();
  g_autoptr(GError) error = NULL;
  const char *kept[] = { "rs:16020", NULL };

  /* servers first: gateways are refused, by either setter */
  g_assert_true (hbase_config_set_bootstrap_servers (config, "rs", &error));
  g_assert_false (hbase_config_set_gateways (config, "gw:9090", &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  assert_message_has (error, "not both");
  g_clear_error (&error);
  g_assert_false (hbase_config_add_gateway (config, "gw", 9090, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  assert_servers (config, kept);
  g_assert_cmpstr (hbase_config_get_gateway_host (config, 0), ==, "localhost");

  /* gateways first: servers are refused; the default gateway alone is not "given" */
  g_assert_true (hbase_config_set_gateways (gateways, "gw:9090", &error));
  g_assert_false (hbase_config_set_bootstrap_servers (gateways, "rs", &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  assert_message_has (error, "not both");
  g_clear_error (&error);
  g_assert_null (hbase_config_get_bootstrap_servers (gateways));
  g_assert_cmpint (hbase_config_get_backend (gateways), ==, HBASE_BACKEND_THRIFT2);
  /* clearing is always allowed */
  g_assert_true (hbase_config_set_bootstrap_servers (gateways, "", &error));
  g_assert_no_error (error);
}

static void
test_key_file (void)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(GKeyFile) key_file = g_key_file_new ();
  g_autoptr(GKeyFile) both = g_key_file_new ();
  g_autoptr(GError) error = NULL;
  const char *want[] = { "rs1:16020", "rs2:16001", NULL };

  g_assert_true (g_key_file_load_from_data (key_file, "[hbase]\nbootstrap-servers = rs1, rs2:16001\n",
                                            -1, 0, &error));
  g_assert_true (hbase_config_load_key_file (config, key_file, NULL, &error));
  g_assert_no_error (error);
  assert_servers (config, want);
  g_assert_cmpint (hbase_config_get_backend (config), ==, HBASE_BACKEND_NATIVE);

  /* both keys: refused whole, the config unchanged */
  g_assert_true (g_key_file_load_from_data (both, "[hbase]\ngateways = gw:9090\nbootstrap-servers = rs9\n",
                                            -1, 0, &error));
  g_assert_false (hbase_config_load_key_file (config, both, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  assert_message_has (error, "not both");
  assert_servers (config, want);
}

static void
test_environment (void)
{
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(GError) error = NULL;
  const char *want[] = { "127.0.0.1:16020", "127.0.0.1:16000", NULL };

  g_unsetenv ("HBASE_GLIB_CONFIG");
  g_unsetenv ("HBASE_GLIB_GATEWAYS");
  g_setenv ("HBASE_GLIB_BOOTSTRAP_SERVERS", "127.0.0.1:16020 127.0.0.1:16000", TRUE);
  config = hbase_config_new_from_environment (&error);
  g_assert_no_error (error);
  assert_servers (config, want);
  g_assert_cmpint (hbase_config_get_backend (config), ==, HBASE_BACKEND_NATIVE);
  g_clear_pointer (&config, hbase_config_free);

  g_setenv ("HBASE_GLIB_GATEWAYS", "gw:9090", TRUE);
  config = hbase_config_new_from_environment (&error);
  g_assert_null (config);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  assert_message_has (error, "HBASE_GLIB_BOOTSTRAP_SERVERS");
  g_unsetenv ("HBASE_GLIB_GATEWAYS");
  g_unsetenv ("HBASE_GLIB_BOOTSTRAP_SERVERS");
}

/* A native client sends nothing through the Thrift path: not to the
 * default gateway, not anywhere. */
static void
test_thrift_only_call_refused (void)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = NULL;

  /* a port nothing listens on: were anything sent, the error would be a
   * connection error, not NOT_SUPPORTED */
  g_assert_true (hbase_config_set_bootstrap_servers (config, "127.0.0.1:1", &error));
  client = hbase_client_new (config);
  g_assert_false (hbase_client_ping (client, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_SUPPORTED);
  assert_message_has (error, "Thrift2 gateway");
  g_clear_error (&error);
  names = hbase_client_list_namespaces (client, NULL, &error);
  g_assert_null (names);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_SUPPORTED);
}

/* Kerberos, a proxy user or TLS on a client of the native backend,
 * which speaks SIMPLE authentication over plain TCP: every call, to a
 * region server or to the master, fails naming the setting, before
 * anything is sent (were it sent, a closed port would make it a
 * connection error). */
static void
test_unsupported_settings_refused (void)
{
  static const char *const settings[] = {
    "kerberos", "proxy-user", "tls-ca-file", "tls-ca-path", "tls-client-cert", "tls-verify-hostname",
  };

  for (guint i = 0; i < G_N_ELEMENTS (settings); i++)
    {
      g_autoptr(HBaseConfig) config = hbase_config_new ();
      g_autoptr(HBaseClient) client = NULL;
      g_autoptr(HBaseTable) table = NULL;
      g_autoptr(HBaseRow) row = NULL;
      g_autoptr(GError) error = NULL;
      gboolean exists = TRUE;

      g_assert_true (hbase_config_set_bootstrap_servers (config, "127.0.0.1:1", &error));
      g_assert_true (hbase_config_set_max_attempts (config, 1, &error));
      g_assert_true (hbase_config_set_operation_timeout (config, 2000, &error));
      switch (i)
        {
        case 0: hbase_config_set_kerberos (config, TRUE); break;
        case 1: g_assert_true (hbase_config_set_proxy_user (config, "alice", &error)); break;
        case 2: g_assert_true (hbase_config_set_tls_ca_file (config, "/srv/ca.pem", &error)); break;
        case 3: g_assert_true (hbase_config_set_tls_ca_path (config, "/srv/cas", &error)); break;
        case 4:
          g_assert_true (hbase_config_set_tls_client_certificate (config, "/srv/c.pem", NULL, NULL,
                                                                  &error));
          break;
        default: hbase_config_set_tls_verify_hostname (config, FALSE); break;
        }
      g_assert_no_error (error);
      client = hbase_client_new (config);
      table = hbase_table_new (client, "t", &error);
      g_assert_no_error (error);
      row = hbase_table_get_string (table, "r", NULL, NULL, &error);
      g_assert_null (row);
      g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_SUPPORTED);
      assert_message_has (error, settings[i]);
      assert_message_has (error, "native backend");
      g_clear_error (&error);
      g_assert_false (hbase_client_table_exists (client, "t", &exists, NULL, &error));
      g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_SUPPORTED);
      assert_message_has (error, settings[i]);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/connection/native-config/defaults", test_defaults);
  g_test_add_func ("/connection/native-config/set-and-clear", test_set_and_clear);
  g_test_add_func ("/connection/native-config/invalid", test_invalid);
  g_test_add_func ("/connection/native-config/never-both", test_never_both);
  g_test_add_func ("/connection/native-config/key-file", test_key_file);
  g_test_add_func ("/connection/native-config/environment", test_environment);
  g_test_add_func ("/connection/native-config/thrift-only-call-refused", test_thrift_only_call_refused);
  g_test_add_func ("/connection/native-config/unsupported-settings-refused",
                   test_unsupported_settings_refused);
  return g_test_run ();
}
