/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-config.c: the configuration loaders (src/connection/hbase-config.c)
 * on any text: a key file's [hbase] group, the HBASE_GLIB_* environment
 * variables, and a gateway list.
 *
 * Input: byte 0 chooses: 0 the rest is a key file; 1 the rest is split at
 * NUL bytes into the values of the environment variables, in the order of
 * the settings; 2 the rest is a gateway list.
 *
 * Checked: every load fails with an error or succeeds without one; a
 * loaded configuration is valid (at least one gateway, each with a host
 * and a port in 1-65535) and its copy equals it. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz-support.h"

static const char *const variables[] = {
  "HBASE_GLIB_GATEWAYS", "HBASE_GLIB_PROTOCOL", "HBASE_GLIB_TRANSPORT",
  "HBASE_GLIB_CONNECT_TIMEOUT_MS", "HBASE_GLIB_OPERATION_TIMEOUT_MS", "HBASE_GLIB_MAX_ATTEMPTS",
  "HBASE_GLIB_RETRY_BACKOFF_MS", "HBASE_GLIB_RETRY_BACKOFF_MAX_MS", "HBASE_GLIB_POOL_SIZE",
  "HBASE_GLIB_POOL_WAIT_MS", "HBASE_GLIB_KERBEROS", "HBASE_GLIB_KERBEROS_QOP",
  "HBASE_GLIB_KERBEROS_PRINCIPAL", "HBASE_GLIB_KERBEROS_KEYTAB", "HBASE_GLIB_PROXY_USER",
  "HBASE_GLIB_MAX_PENDING", "HBASE_GLIB_ALLOW_INSECURE_HTTP",
};

static void
check_config (const HBaseConfig *config)
{
  g_autoptr(HBaseConfig) copy = hbase_config_copy (config);
  guint n = hbase_config_get_n_gateways (config);

  fuzz_assert (n > 0, "a configuration without a gateway");
  fuzz_assert (hbase_config_get_n_gateways (copy) == n, "a copy has other gateways");
  for (guint i = 0; i < n; i++)
    {
      const char *host = hbase_config_get_gateway_host (config, i);
      guint port = hbase_config_get_gateway_port (config, i);

      fuzz_assert (host != NULL && host[0] != '\0', "gateway %u has no host", i);
      fuzz_assert (g_utf8_validate (host, -1, NULL), "gateway %u: the host is not UTF-8", i);
      fuzz_assert (port >= 1 && port <= 65535, "gateway %u has port %u", i, port);
      fuzz_assert (strcmp (host, hbase_config_get_gateway_host (copy, i)) == 0 &&
                   port == hbase_config_get_gateway_port (copy, i), "a copy has another gateway %u", i);
      fuzz_assert (g_strcmp0 (hbase_config_get_gateway_url (config, i),
                              hbase_config_get_gateway_url (copy, i)) == 0,
                   "a copy has another URL for gateway %u", i);
      fuzz_assert (hbase_config_get_gateway_url (config, i) == NULL ||
                   g_str_has_prefix (hbase_config_get_gateway_url (config, i), "http://") ||
                   g_str_has_prefix (hbase_config_get_gateway_url (config, i), "https://"),
                   "gateway %u has a URL that is neither http nor https", i);
    }
  fuzz_assert (g_strcmp0 (hbase_config_get_tls_ca_file (copy), hbase_config_get_tls_ca_file (config)) == 0 &&
               g_strcmp0 (hbase_config_get_tls_client_key (copy), hbase_config_get_tls_client_key (config)) == 0 &&
               hbase_config_get_tls_verify_hostname (copy) == hbase_config_get_tls_verify_hostname (config),
               "a copy has other TLS settings");
  fuzz_assert (hbase_config_get_tls_client_key (config) == NULL ||
               hbase_config_get_tls_client_cert (config) != NULL, "a client key without a certificate");
  fuzz_assert (hbase_config_get_kerberos (copy) == hbase_config_get_kerberos (config) &&
               hbase_config_get_kerberos_qop (copy) == hbase_config_get_kerberos_qop (config) &&
               g_strcmp0 (hbase_config_get_kerberos_principal (copy),
                          hbase_config_get_kerberos_principal (config)) == 0 &&
               g_strcmp0 (hbase_config_get_kerberos_keytab (copy),
                          hbase_config_get_kerberos_keytab (config)) == 0 &&
               g_strcmp0 (hbase_config_get_kerberos_service_principal (copy),
                          hbase_config_get_kerberos_service_principal (config)) == 0 &&
               g_strcmp0 (hbase_config_get_proxy_user (copy), hbase_config_get_proxy_user (config)) == 0,
               "a copy has other Kerberos settings");
  fuzz_assert (hbase_config_get_kerberos_keytab (config) == NULL ||
               hbase_config_get_kerberos_principal (config) != NULL, "a keytab without a principal");
  fuzz_assert (hbase_config_get_kerberos_qop (config) != 0 &&
               (hbase_config_get_kerberos_qop (config) & ~HBASE_KERBEROS_QOP_ANY) == 0,
               "QOP levels out of range");
  /* the proxy user goes into an HTTP header as it is */
  fuzz_assert (hbase_config_get_proxy_user (config) == NULL ||
               strpbrk (hbase_config_get_proxy_user (config), "\r\n ") == NULL,
               "a proxy user that would break its header");
  fuzz_assert (hbase_config_get_protocol (copy) == hbase_config_get_protocol (config) &&
               hbase_config_get_transport (copy) == hbase_config_get_transport (config) &&
               hbase_config_get_max_attempts (copy) == hbase_config_get_max_attempts (config) &&
               hbase_config_get_pool_size (copy) == hbase_config_get_pool_size (config) &&
               hbase_config_get_retry_backoff (copy) == hbase_config_get_retry_backoff (config) &&
               hbase_config_get_retry_backoff_max (copy) == hbase_config_get_retry_backoff_max (config),
               "a copy has other settings");
  fuzz_assert (hbase_config_get_retry_backoff (config) <= hbase_config_get_retry_backoff_max (config),
               "the retry backoff exceeds its maximum");
}

static void
check_key_file (FuzzInput *in)
{
  g_autoptr(GKeyFile) key_file = g_key_file_new ();
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  GError *error = NULL;
  gboolean ok;

  if (!g_key_file_load_from_data (key_file, (const char *) in->data, in->size, G_KEY_FILE_NONE, NULL))
    return;
  fuzz_require_utf8_errors = TRUE;
  ok = hbase_config_load_key_file (config, key_file, NULL, &error);
  fuzz_check_outcome ("hbase_config_load_key_file", ok, &error);
  check_config (config);
}

static void
check_environment (FuzzInput *in)
{
  g_autoptr(HBaseConfig) config = NULL;
  const char *value = (const char *) in->data;
  const char *end = value + in->size;
  GError *error = NULL;

  /* the input split at its NUL bytes: one value per variable */
  for (guint i = 0; i < G_N_ELEMENTS (variables); i++)
    {
      if (value < end)
        {
          g_autofree char *one = g_strndup (value, (gsize) (end - value));

          if (one[0] != '\0')
            g_setenv (variables[i], one, TRUE);
          value += strlen (one) + 1;
        }
    }
  config = hbase_config_new_from_environment (&error);
  fuzz_check_outcome ("hbase_config_new_from_environment", config != NULL, &error);
  if (config != NULL)
    check_config (config);
  for (guint i = 0; i < G_N_ELEMENTS (variables); i++)
    g_unsetenv (variables[i]);
}

static void
check_gateways (FuzzInput *in)
{
  g_autofree char *text = g_strndup ((const char *) in->data, in->size);
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  GError *error = NULL;
  gboolean ok;

  fuzz_require_utf8_errors = TRUE;
  ok = hbase_config_set_gateways (config, text, &error);
  fuzz_check_outcome ("hbase_config_set_gateways", ok, &error);
  check_config (config);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  FuzzInput in = { data, size };

  fuzz_init ();
  for (guint i = 0; i < G_N_ELEMENTS (variables); i++)
    g_unsetenv (variables[i]);
  /* messages about environment variables quote their bytes as given;
   * key files are UTF-8, and gateway lists are checked */
  fuzz_require_utf8_errors = FALSE;
  switch (fuzz_take_u8 (&in) % 3)
    {
    case 0: check_key_file (&in); break;
    case 1: check_environment (&in); break;
    default: check_gateways (&in); break;
    }
  return 0;
}
