/* SPDX-License-Identifier: Apache-2.0 */
/* test-kerberos-sasl.c: Kerberos (SASL GSSAPI) on the socket path against
 * the kerberized local stack (scripts/stack.sh start-secure, see
 * docs/secure-stack.md): puts, gets, multi-puts and scans at each QOP
 * (19090 authentication, 19091 integrity, 19092 privacy), a scan batch of
 * over 1 MB and a request of over 64 KiB sealed; every authentication
 * failure (no ticket, an expired one, an unknown or wrong service
 * principal, no common QOP); a plain client on a SASL gateway and a
 * Kerberos client on the plain one (9090); keytab login without any
 * credentials cache and re-login after the ticket expired (a principal
 * whose tickets live 5 s, made here with kadmin.local); the deadline and
 * cancellation during the handshake.
 *
 * The secure stack is found at $HBASE_GLIB_STATE_DIR/secure (default
 * $top_srcdir/.stack/secure); KRB5_CONFIG, HBASE_GLIB_SECURE_KEYTABS and
 * HBASE_GLIB_SECURE_{AUTH,INT,PRIV}_PORT (`stack.sh secure-env`) override
 * its files and ports, HBASE_GLIB_TEST_PLAIN_PORT the plain gateway (9090).
 * Each test uses its own credentials cache (KRB5CCNAME, a file in a
 * temporary directory).  The frames tests pair the library with an
 * acceptor of their own (the stack's hbase/localhost keytab) to feed
 * frames replayed, dropped or swapped, which no real gateway sends.
 *
 * Long because: every case needs the kerberized stack's set-up (realm,
 * keytabs, a table, a short-lived principal) and its helpers (caches,
 * silent and canned peers, the acceptor); split, each file would repeat
 * them. */
#include "config.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <gssapi/gssapi_ext.h>
#include <hbase-glib/hbase-glib.h>

#include "../../src/connection/hbase-config-private.h"
#include "../../src/connection/hbase-connection-private.h"
#include "../../src/connection/hbase-sasl.h"
#include "../../src/connection/hbase-transport.h"
#include "../support/test-env.h"
#include "../support/test-kerberos.h"
#include "../support/test-stack.h"

/* a principal of this test, whose tickets live SHORT_LIFE seconds */
#define SHORT_PRINCIPAL "hbase-glib-test-short"
#define SHORT_LIFE 5

static char *secure_dir, *keytabs, *realm, *table_name, *tmp_dir, *short_keytab;
static guint port_auth = 19090, port_int = 19091, port_priv = 19092, port_plain = 9090;
static gboolean stack_ok, short_ok;
static gint64 slack = 1;   /* test_time_slack () */
static guint cache_counter;

/* the error first: its message says more than "should be TRUE" */
#define ASSERT_OK(call) G_STMT_START { gboolean ok_ = (call); g_assert_no_error (error); \
                                       g_assert_true (ok_); } G_STMT_END

/* A fresh credentials cache file for the current test (none exists yet). */
static char *
new_cache (void)
{
  g_autofree char *path = g_strdup_printf ("%s/cc-%u", tmp_dir, ++cache_counter);
  char *name = g_strconcat ("FILE:", path, NULL);

  g_setenv ("KRB5CCNAME", name, TRUE);
  return name;
}

/* kinit from @keytab as @principal into the current KRB5CCNAME. */
static gboolean
kinit (const char *keytab, const char *principal)
{
  return test_kerberos_kinit (keytab, principal, NULL, g_getenv ("KRB5CCNAME"));
}

static gboolean
kinit_client (void)
{
  g_autofree char *keytab = g_build_filename (keytabs, "client.keytab", NULL);

  return kinit (keytab, "client");
}

static HBaseConfig *
sasl_config (guint port, HBaseKerberosQop qop, guint timeout_ms)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *gateways = g_strdup_printf ("localhost:%u", port);

  g_assert_true (hbase_config_set_gateways (config, gateways, &error));
  g_assert_true (hbase_config_set_operation_timeout (config, timeout_ms, &error));
  /* the handshake counts as connecting: under valgrind it takes seconds */
  g_assert_true (hbase_config_set_connect_timeout (config, MIN (timeout_ms, 5000 * slack),
                                                   &error));
  hbase_config_set_kerberos (config, TRUE);
  g_assert_true (hbase_config_set_kerberos_qop (config, qop, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&config);
}

/* One get that must fail: its error, how long it took, the retries. */
static GError *
failed_get (HBaseConfig *config, GCancellable *cancellable, gint64 *elapsed_us, guint64 *retries)
{
  g_autoptr(HBaseClient) client = hbase_client_new (config);
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(HBaseRow) row = NULL;
  GError *error = NULL;
  gint64 start = g_get_monotonic_time ();
  HBaseClientStats stats;

  table = hbase_table_new (client, table_name != NULL ? table_name : "t", &error);
  g_assert_no_error (error);
  row = hbase_table_get_string (table, "r", NULL, cancellable, &error);
  if (elapsed_us != NULL)
    *elapsed_us = g_get_monotonic_time () - start;
  g_assert_null (row);
  g_assert_nonnull (error);
  g_test_message ("error after %" G_GINT64_FORMAT " ms: %s",
                  (g_get_monotonic_time () - start) / 1000, error->message);
  hbase_client_get_stats (client, &stats);
  if (retries != NULL)
    *retries = stats.retries;
  return error;
}

static void
assert_contains (const GError *error, const char *text)
{
  if (strstr (error->message, text) == NULL)
    g_error ("'%s' not in: %s", text, error->message);
}

/* An authentication failure: named, not retried, quick. */
static void
assert_auth_failure (HBaseConfig *config, guint port, const char *text)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *gateway = g_strdup_printf ("localhost:%u (binary/buffered)", port);
  guint64 retries = 1;
  gint64 elapsed = 0;

  error = failed_get (config, NULL, &elapsed, &retries);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_AUTHENTICATION);
  assert_contains (error, gateway);
  assert_contains (error, text);
  g_assert_cmpuint (retries, ==, 0);
  g_assert_cmpint (elapsed, <, 10 * G_USEC_PER_SEC * slack);
}

static gboolean
need_stack (void)
{
  if (!stack_ok)
    test_stack_unavailable ("the kerberized stack is not there (scripts/stack.sh start-secure)");
  return stack_ok;
}

/* --- round trips at each QOP ------------------------------------------------------ */

static GBytes *
filler (gsize size, guint seed)
{
  guint8 *data = g_malloc (size);

  for (gsize i = 0; i < size; i++)
    data[i] = (guint8) ('a' + (i * 7 + seed) % 26);
  return g_bytes_new_take (data, size);
}

static void
roundtrip (guint port, HBaseKerberosQop qop, const char *label, gboolean big)
{
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(HBaseRow) row = NULL;
  g_autoptr(GPtrArray) mutations = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
  g_autoptr(HBaseScanner) scanner = NULL;
  g_autoptr(HBaseScanOptions) options = hbase_scan_options_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *prefix = NULL, *single = NULL, *scan_prefix = NULL;
  g_autofree char *cache = new_cache ();
  HBaseClientStats stats;
  GBytes *value;
  /* big: 12 rows of 100 KB, so one scan batch is over 1 MB and the
   * multi-put request is far over the gateway's 64 KiB buffer */
  guint rows = big ? 12 : 50;
  gsize size = big ? 100 * 1000 : 16;
  guint n = 0;
  gint64 start;

  if (!need_stack ())
    return;
  g_assert_true (kinit_client ());
  config = sasl_config (port, qop, 30000 * slack);
  client = hbase_client_new (config);
  table = hbase_table_new (client, table_name, &error);
  g_assert_no_error (error);
  prefix = g_strdup_printf ("%s-%d-%s-", label, getpid (), big ? "big" : "small");

  start = g_get_monotonic_time ();
  single = g_strconcat (prefix, "single", NULL);
  ASSERT_OK (hbase_table_put_string (table, single, "f:q", label, NULL, &error));
  g_test_message ("first put (connect + handshake) on %u: %" G_GINT64_FORMAT " ms", port,
                  (g_get_monotonic_time () - start) / 1000);
  row = hbase_table_get_string (table, single, NULL, NULL, &error);
  g_assert_no_error (error);
  value = hbase_row_lookup (row, "f", "q");
  g_assert_nonnull (value);
  g_assert_cmpmem (g_bytes_get_data (value, NULL), g_bytes_get_size (value), label, strlen (label));

  for (guint i = 0; i < rows; i++)
    {
      g_autofree char *key = g_strdup_printf ("%sm%03u", prefix, i);
      g_autoptr(GBytes) data = filler (size, i);
      HBaseMutation *mutation = hbase_mutation_new_put_string (key);

      hbase_mutation_put (mutation, "f", "q", data);
      g_ptr_array_add (mutations, mutation);
    }
  ASSERT_OK (hbase_table_apply_multiple (table, mutations, NULL, &error));

  scan_prefix = g_strconcat (prefix, "m", NULL);
  hbase_scan_options_set_prefix_string (options, scan_prefix);
  options->caching = rows;   /* all in one reply */
  scanner = hbase_table_scan (table, options, &error);
  g_assert_no_error (error);
  for (;;)
    {
      g_autoptr(HBaseRow) next = NULL;
      g_autofree char *expected = g_strdup_printf ("%sm%03u", prefix, n);
      g_autoptr(GBytes) data = filler (size, n);
      GBytes *key;

      g_assert_true (hbase_scanner_next (scanner, &next, NULL, &error));
      g_assert_no_error (error);
      if (next == NULL)
        break;
      key = hbase_row_get_key (next);
      g_assert_cmpmem (g_bytes_get_data (key, NULL), g_bytes_get_size (key), expected, strlen (expected));
      value = hbase_row_lookup (next, "f", "q");
      g_assert_nonnull (value);
      g_assert_true (g_bytes_equal (value, data));
      n++;
    }
  g_assert_cmpuint (n, ==, rows);

  /* every call over the one pooled, authenticated connection */
  hbase_client_get_stats (client, &stats);
  g_assert_cmpuint (stats.connections_opened, ==, 1);
  g_assert_cmpuint (stats.retries, ==, 0);
}

static void
test_roundtrip_auth (void)
{
  roundtrip (port_auth, HBASE_KERBEROS_QOP_ANY, "auth", FALSE);
}

static void
test_roundtrip_int (void)
{
  roundtrip (port_int, HBASE_KERBEROS_QOP_ANY, "int", FALSE);
}

static void
test_roundtrip_priv (void)
{
  roundtrip (port_priv, HBASE_KERBEROS_QOP_PRIVACY, "priv", FALSE);
}

static void
test_big_priv (void)
{
  roundtrip (port_priv, HBASE_KERBEROS_QOP_ANY, "priv", TRUE);
}

static void
test_big_int (void)
{
  roundtrip (port_int, HBASE_KERBEROS_QOP_INTEGRITY, "int", TRUE);
}

/* Each gateway's own level is the one negotiated, whatever the client
 * accepts: read off the transport of a connection to it. */
static void
test_negotiated_qop (void)
{
  static const struct {
    guint *port;
    HBaseKerberosQop qop;
  } cases[] = {
    { &port_auth, HBASE_KERBEROS_QOP_AUTHENTICATION },
    { &port_int, HBASE_KERBEROS_QOP_INTEGRITY },
    { &port_priv, HBASE_KERBEROS_QOP_PRIVACY },
  };
  g_autofree char *cache = NULL;

  if (!need_stack ())
    return;
  cache = new_cache ();
  g_assert_true (kinit_client ());
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(HBaseConfig) config = sasl_config (*cases[i].port, HBASE_KERBEROS_QOP_ANY,
                                                   30000 * slack);
      g_autoptr(HBaseConnection) connection = NULL;
      g_autoptr(GError) error = NULL;

      hbase_config_set_kerberos (config, TRUE);
      connection = _hbase_connection_open_full ("localhost", *cases[i].port, NULL, NULL,
                                                _hbase_config_get_kerberos_settings (config),
                                                HBASE_PROTOCOL_BINARY, HBASE_TRANSPORT_BUFFERED,
                                                30000 * slack, 1u << 20, 0, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (_hbase_socket_transport_get_qop (_hbase_connection_get_transport (connection)),
                        ==, cases[i].qop);
    }
}

/* The client says which level its connections got (0 before any). */
static void
test_client_negotiated_qop (void)
{
  static const struct {
    guint *port;
    HBaseKerberosQop qop;
  } cases[] = {
    { &port_auth, HBASE_KERBEROS_QOP_AUTHENTICATION },
    { &port_priv, HBASE_KERBEROS_QOP_PRIVACY },
  };
  g_autofree char *cache = NULL;

  if (!need_stack ())
    return;
  cache = new_cache ();
  g_assert_true (kinit_client ());
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(HBaseConfig) config = sasl_config (*cases[i].port, HBASE_KERBEROS_QOP_ANY,
                                                   30000 * slack);
      g_autoptr(HBaseClient) client = hbase_client_new (config);
      g_autoptr(HBaseTable) table = NULL;
      g_autoptr(HBaseRow) row = NULL;
      g_autoptr(GError) error = NULL;

      g_assert_cmpuint (hbase_client_get_negotiated_qop (client), ==, 0);
      table = hbase_table_new (client, table_name, &error);
      g_assert_no_error (error);
      row = hbase_table_get_string (table, "no-such-row", NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (hbase_client_get_negotiated_qop (client), ==, cases[i].qop);
    }
}

/* --- authentication failures --------------------------------------------------- */

static void
test_no_ticket (void)
{
  g_autoptr(HBaseConfig) config = NULL;
  g_autofree char *cache = NULL;

  if (!need_stack ())
    return;
  cache = new_cache ();   /* never made */
  config = sasl_config (port_priv, HBASE_KERBEROS_QOP_ANY, 10000);
  assert_auth_failure (config, port_priv, "no Kerberos credentials");
}

/* A short-lived principal's ticket, left to expire. */
static void
test_expired_ticket (void)
{
  g_autoptr(HBaseConfig) config = NULL;
  g_autofree char *cache = NULL;
  g_autofree char *principal = NULL;

  if (!need_stack ())
    return;
  if (!short_ok)
    {
      test_stack_unavailable ("kadmin.local could not make the short-lived principal");
      return;
    }
  cache = new_cache ();
  g_assert_true (kinit (short_keytab, SHORT_PRINCIPAL));
  g_usleep ((SHORT_LIFE + 1) * G_USEC_PER_SEC);
  config = sasl_config (port_auth, HBASE_KERBEROS_QOP_ANY, 10000);
  assert_auth_failure (config, port_auth, "expired");
}

static void
test_unknown_service (void)
{
  const char *principals[] = { "nosuch/_HOST", "hbase/nosuchhost" };

  if (!need_stack ())
    return;
  for (guint i = 0; i < G_N_ELEMENTS (principals); i++)
    {
      g_autoptr(HBaseConfig) config = sasl_config (port_auth, HBASE_KERBEROS_QOP_ANY, 10000);
      g_autofree char *cache = new_cache ();

      g_assert_true (kinit_client ());
      g_assert_true (hbase_config_set_kerberos_service_principal (config, principals[i], NULL));
      assert_auth_failure (config, port_auth, "does not know the gateway's principal");
    }
}

/* The gateway's own refusal: a ticket for a principal the KDC knows but
 * the gateway does not hold (HTTP/localhost belongs to the HTTP gateway),
 * or holds but does not use (hbase/<hostname>, docs/secure-stack.md
 * finding 3, where the host name is not localhost). */
static void
test_refused_token (void)
{
  char host[256] = "";
  g_autofree char *own_host = NULL;
  const char *principals[2] = { "HTTP/localhost", NULL };

  if (!need_stack ())
    return;
  g_assert_cmpint (gethostname (host, sizeof host - 1), ==, 0);
  if (g_ascii_strcasecmp (host, "localhost") != 0)
    principals[1] = own_host = g_strdup_printf ("hbase/%s", host);
  for (guint i = 0; i < G_N_ELEMENTS (principals) && principals[i] != NULL; i++)
    {
      g_autoptr(HBaseConfig) config = sasl_config (port_auth, HBASE_KERBEROS_QOP_ANY, 10000);
      g_autoptr(GError) error = NULL;
      g_autofree char *cache = new_cache ();

      g_assert_true (kinit_client ());
      g_assert_true (hbase_config_set_kerberos_service_principal (config, principals[i], NULL));
      assert_auth_failure (config, port_auth, "refused the Kerberos authentication");
      error = failed_get (config, NULL, NULL, NULL);
      assert_contains (error, "GSS initiate failed");   /* the gateway's text */
      assert_contains (error, principals[i]);
    }
}

static void
test_qop_mismatch (void)
{
  struct { guint port; HBaseKerberosQop qop; const char *offered, *accepted; } cases[] = {
    { port_auth, HBASE_KERBEROS_QOP_PRIVACY, "offers authentication", "accepts privacy" },
    { port_priv, HBASE_KERBEROS_QOP_AUTHENTICATION, "offers privacy", "accepts authentication" },
    { port_int, HBASE_KERBEROS_QOP_AUTHENTICATION | HBASE_KERBEROS_QOP_PRIVACY,
      "offers integrity", "accepts authentication or privacy" },
  };

  if (!need_stack ())
    return;
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(HBaseConfig) config = sasl_config (cases[i].port, cases[i].qop, 10000);
      g_autofree char *cache = new_cache ();

      g_assert_true (kinit_client ());
      assert_auth_failure (config, cases[i].port, cases[i].offered);
      assert_auth_failure (config, cases[i].port, cases[i].accepted);
    }
}

/* A plain client on a SASL gateway gets no reply at all: its own
 * deadline ends the call, and the message says why it may be. */
static void
test_plain_client_on_sasl (void)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *gateways = g_strdup_printf ("localhost:%u", port_auth);
  gint64 elapsed = 0;
  guint timeout = 1500;

  if (!need_stack ())
    return;
  g_assert_true (hbase_config_set_gateways (config, gateways, NULL));
  g_assert_true (hbase_config_set_operation_timeout (config, timeout, NULL));
  error = failed_get (config, NULL, &elapsed, NULL);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_TIMEOUT);
  assert_contains (error, "may require Kerberos (SASL)");
  g_assert_cmpint (elapsed, >=, (gint64) timeout * 1000 - 5000);
  g_assert_cmpint (elapsed, <, ((gint64) timeout + 500 * slack) * 1000);
}

/* The plain gateway reads SASL's START as the length of a method name
 * (16 MiB) and waits for it in silence: the handshake ends at the connect
 * deadline, and the error says the gateway does not seem to speak SASL. */
static void
test_sasl_client_on_plain (void)
{
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *cache = NULL, *gateways = NULL;
  gint64 elapsed = 0;

  if (!need_stack ())
    return;
  cache = new_cache ();
  g_assert_true (kinit_client ());
  config = sasl_config (port_plain, HBASE_KERBEROS_QOP_ANY, 2000);
  g_assert_true (hbase_config_set_connect_timeout (config, 1000, NULL));
  gateways = g_strdup_printf ("localhost:%u", port_plain);
  g_assert_true (hbase_config_set_gateways (config, gateways, NULL));
  g_assert_true (hbase_config_set_operation_timeout (config, 20000, NULL));
  error = failed_get (config, NULL, &elapsed, NULL);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION);
  assert_contains (error, "does not seem to speak SASL");
  /* one handshake (1 s), not retried until the operation's deadline */
  g_assert_cmpint (elapsed, >=, 900 * 1000);
  g_assert_cmpint (elapsed, <, (1000 + 1000 * slack) * 1000);
}

/* No doAs over SASL: refused before anything is sent. */
static void
test_proxy_user_refused (void)
{
  g_autoptr(HBaseConfig) config = sasl_config (port_auth, HBASE_KERBEROS_QOP_ANY, 10000);
  g_autoptr(GError) error = NULL;

  g_assert_true (hbase_config_set_proxy_user (config, "alice", NULL));
  error = failed_get (config, NULL, NULL, NULL);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  assert_contains (error, "alice");
  assert_contains (error, "HTTP gateway");
}

/* --- credentials: keytab login, re-login ------------------------------------------- */

static void
test_keytab_login (void)
{
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *keytab = g_build_filename (keytabs, "client.keytab", NULL);
  g_autofree char *principal = g_strdup_printf ("client@%s", realm);
  g_autofree char *cache = NULL;

  if (!need_stack ())
    return;
  cache = new_cache ();   /* never made: the login must not need it */
  config = sasl_config (port_int, HBASE_KERBEROS_QOP_ANY, 30000 * slack);
  g_assert_true (hbase_config_set_kerberos_keytab (config, principal, keytab, &error));
  client = hbase_client_new (config);
  table = hbase_table_new (client, table_name, &error);
  ASSERT_OK (hbase_table_put_string (table, "keytab", "f:q", "v", NULL, &error));
  g_assert_false (g_file_test (cache + strlen ("FILE:"), G_FILE_TEST_EXISTS));
}

/* A keytab that others may read works, and is reported once (a
 * g_message naming it and its mode). */
static void
test_keytab_readable_warned (void)
{
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *keytab = g_build_filename (keytabs, "client.keytab", NULL);
  g_autofree char *copy = g_build_filename (tmp_dir, "readable.keytab", NULL);
  g_autofree char *principal = g_strdup_printf ("client@%s", realm);
  g_autofree char *contents = NULL;
  g_autofree char *cache = NULL;
  gsize length = 0;

  if (!need_stack ())
    return;
  cache = new_cache ();
  g_assert_true (g_file_get_contents (keytab, &contents, &length, &error));
  g_assert_true (g_file_set_contents (copy, contents, (gssize) length, &error));
  g_assert_cmpint (g_chmod (copy, 0644), ==, 0);
  config = sasl_config (port_auth, HBASE_KERBEROS_QOP_ANY, 30000 * slack);
  g_assert_true (hbase_config_set_kerberos_keytab (config, principal, copy, &error));
  client = hbase_client_new (config);
  table = hbase_table_new (client, table_name, &error);
  g_test_expect_message ("hbase-glib", G_LOG_LEVEL_MESSAGE, "*readable.keytab is readable by others (mode 644)*");
  ASSERT_OK (hbase_table_put_string (table, "readable", "f:q", "v", NULL, &error));
  g_test_assert_expected_messages ();
  g_remove (copy);
}

/* A principal whose tickets live 5 s, logged in from its keytab: a new
 * connection after the first ticket expired logs in again by itself, and
 * the connection authenticated before goes on working. */
static void
test_relogin (void)
{
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(HBaseClient) client = NULL, second = NULL;
  g_autoptr(HBaseTable) table = NULL, table2 = NULL;
  g_autoptr(HBaseRow) row = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *cache = NULL;
  HBaseClientStats stats;

  if (!need_stack ())
    return;
  if (!short_ok)
    {
      test_stack_unavailable ("kadmin.local could not make the short-lived principal");
      return;
    }
  cache = new_cache ();
  config = sasl_config (port_priv, HBASE_KERBEROS_QOP_ANY, 30000 * slack);
  ASSERT_OK (hbase_config_set_kerberos_keytab (config, SHORT_PRINCIPAL, short_keytab, &error));
  client = hbase_client_new (config);
  table = hbase_table_new (client, table_name, &error);
  ASSERT_OK (hbase_table_put_string (table, "relogin", "f:q", "1", NULL, &error));

  g_usleep ((SHORT_LIFE + 1) * G_USEC_PER_SEC);
  /* the pooled connection: authenticated once, it stays so */
  ASSERT_OK (hbase_table_put_string (table, "relogin", "f:q", "2", NULL, &error));
  /* new connections, in a new client: a fresh ticket from the keytab */
  for (guint i = 0; i < 2; i++)
    {
      g_clear_object (&table2);
      g_clear_object (&second);
      second = hbase_client_new (config);
      table2 = hbase_table_new (second, table_name, &error);
      g_clear_pointer (&row, hbase_row_unref);
      row = hbase_table_get_string (table2, "relogin", NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_nonnull (row);
      hbase_client_get_stats (second, &stats);
      g_assert_cmpuint (stats.connections_opened, ==, 1);
      if (i == 0)
        g_usleep ((SHORT_LIFE + 1) * G_USEC_PER_SEC);
    }
}

/* --- the handshake's deadline and cancellation ----------------------------------------- */

/* Bound and listening, never accepting: the kernel takes the connection
 * and the SASL start, nobody replies. */
static int
silent_listener (guint *port)
{
  struct sockaddr_in addr = { .sin_family = AF_INET, .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  socklen_t len = sizeof addr;
  int fd = socket (AF_INET, SOCK_STREAM, 0);

  g_assert_cmpint (bind (fd, (struct sockaddr *) &addr, sizeof addr), ==, 0);
  g_assert_cmpint (listen (fd, 8), ==, 0);
  g_assert_cmpint (getsockname (fd, (struct sockaddr *) &addr, &len), ==, 0);
  *port = ntohs (addr.sin_port);
  return fd;
}

static HBaseConfig *
silent_config (guint port, guint timeout_ms)
{
  g_autoptr(HBaseConfig) config = sasl_config (port, HBASE_KERBEROS_QOP_ANY, timeout_ms);
  g_autofree char *gateways = g_strdup_printf ("127.0.0.1:%u", port);

  g_assert_true (hbase_config_set_gateways (config, gateways, NULL));
  /* the service principal is the stack's, so the first token is made */
  g_assert_true (hbase_config_set_kerberos_service_principal (config, "hbase/localhost", NULL));
  g_assert_true (hbase_config_set_connect_timeout (config, timeout_ms, NULL));
  return g_steal_pointer (&config);
}

static void
test_handshake_deadline (void)
{
  guint port;
  int fd;
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *cache = NULL, *gateway = NULL;
  gint64 elapsed;

  if (!need_stack ())
    return;
  fd = silent_listener (&port);
  cache = new_cache ();
  g_assert_true (kinit_client ());
  config = silent_config (port, 600);
  error = failed_get (config, NULL, &elapsed, NULL);
  g_assert_true (g_error_matches (error, HBASE_ERROR, HBASE_ERROR_CONNECTION) ||
                 g_error_matches (error, HBASE_ERROR, HBASE_ERROR_TIMEOUT));
  gateway = g_strdup_printf ("127.0.0.1:%u", port);
  assert_contains (error, gateway);
  assert_contains (error, "SASL");
  g_assert_cmpint (elapsed, >=, 600 * 1000);
  g_assert_cmpint (elapsed, <, (600 + 400 * slack) * 1000);
  close (fd);
}

/* A KDC that takes the ticket request and never answers: the handshake
 * still ends at the connect deadline (MIT's own wait for a KDC is
 * seconds), with a message that names the KDC, not the gateway. */
static void
test_kdc_deadline (void)
{
  guint port, kdc_port;
  int fd, kdc_fd;
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *cache = NULL, *stack_conf = NULL, *text = NULL, *silent = NULL;
  g_autofree char *silent_conf = g_build_filename (tmp_dir, "silent-kdc.conf", NULL);
  g_autoptr(GRegex) kdc_line = g_regex_new ("kdc = [^\n]*", 0, 0, NULL);
  gint64 elapsed;

  if (!need_stack ())
    return;
  fd = silent_listener (&port);
  kdc_fd = silent_listener (&kdc_port);
  cache = new_cache ();
  g_assert_true (kinit_client ());
  /* the stack's krb5.conf, its KDC silent: the ticket for the gateway
   * (none in the cache yet) is asked of it */
  stack_conf = g_strdup (g_getenv ("KRB5_CONFIG"));
  silent = g_strdup_printf ("kdc = 127.0.0.1:%u", kdc_port);
  g_assert_true (g_file_get_contents (stack_conf, &text, NULL, NULL));
  {
    g_autofree char *replaced = g_regex_replace_literal (kdc_line, text, -1, 0, silent, 0, NULL);

    g_assert_nonnull (strstr (replaced, silent));
    g_assert_true (g_file_set_contents (silent_conf, replaced, -1, NULL));
  }
  g_setenv ("KRB5_CONFIG", silent_conf, TRUE);
  config = silent_config (port, 600);
  g_assert_true (hbase_config_set_max_attempts (config, 1, NULL));
  error = failed_get (config, NULL, &elapsed, NULL);
  g_setenv ("KRB5_CONFIG", stack_conf, TRUE);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_TIMEOUT);
  assert_contains (error, "KDC");
  assert_contains (error, "127.0.0.1");
  g_assert_cmpint (elapsed, >=, 600 * 1000);
  g_assert_cmpint (elapsed, <, (600 + 400 * slack) * 1000);
  /* the worker left behind gets a reset from the KDC, and ends */
  close (kdc_fd);
  close (fd);
}

static gpointer
cancel_later (gpointer data)
{
  g_usleep (300 * 1000);
  g_cancellable_cancel (data);
  return NULL;
}

static void
test_handshake_cancel (void)
{
  guint port;
  int fd;
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *cache = NULL;
  GThread *thread;
  gint64 start, elapsed;

  if (!need_stack ())
    return;
  fd = silent_listener (&port);
  cache = new_cache ();
  g_assert_true (kinit_client ());
  config = silent_config (port, 20000);
  /* Timed from before the canceller starts its 300 ms, not from inside
   * failed_get(), so the client's own set-up cannot make the get look early. */
  start = g_get_monotonic_time ();
  thread = g_thread_new ("cancel", cancel_later, cancellable);
  error = failed_get (config, cancellable, NULL, NULL);
  elapsed = g_get_monotonic_time () - start;
  g_thread_join (thread);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (elapsed, >=, 300 * 1000);
  g_assert_cmpint (elapsed, <, 300 * 1000 + 200 * 1000 * slack);
  close (fd);
}

/* --- a peer that answers the handshake wrongly ---------------------------------------- */

typedef struct {
  int fd;
  const char *response;   /* sent after the client's first bytes; NULL: close at once */
  gsize length;
} CannedPeer;

static gpointer
serve_canned (gpointer data)
{
  CannedPeer *peer = data;
  int client = accept (peer->fd, NULL, NULL);
  char buffer[4096];

  g_assert_cmpint (client, >=, 0);
  if (peer->response != NULL)
    {
      /* START "GSSAPI" and the first token come in one send */
      g_assert_cmpint (recv (client, buffer, sizeof buffer, 0), >, 11);
      g_assert_cmpmem (buffer, 11, "\x01\0\0\0\x06GSSAPI", 11);
      g_assert_cmpint (send (client, peer->response, peer->length, MSG_NOSIGNAL), ==,
                       (gssize) peer->length);
    }
  g_usleep (100 * 1000);
  close (client);
  return NULL;
}

/* The error of a get from a client whose handshake meets @response. */
static GError *
canned_error (const char *response, gsize length)
{
  CannedPeer peer = { .response = response, .length = length };
  g_autoptr(HBaseConfig) config = NULL;
  g_autofree char *cache = new_cache ();
  GError *error;
  guint port;
  GThread *thread;

  peer.fd = silent_listener (&port);
  g_assert_true (kinit_client ());
  config = silent_config (port, 5000);
  g_assert_true (hbase_config_set_max_attempts (config, 1, NULL));
  thread = g_thread_new ("canned", serve_canned, &peer);
  error = failed_get (config, NULL, NULL, NULL);
  g_thread_join (thread);
  close (peer.fd);
  return error;
}

static void
test_canned_replies (void)
{
  static const struct { const char *response; gsize length; const char *text; gint code; } cases[] = {
    /* libthrift's answer to an unknown mechanism: BAD with its reason */
    { "\x03\0\0\0\x21Unsupported mechanism type GSSAPI", 38,
      "refused the Kerberos authentication as hbase/localhost: Unsupported mechanism type GSSAPI",
      HBASE_ERROR_AUTHENTICATION },
    /* a plain Thrift reply (binary protocol, version 1) */
    { "\x80\x01\0\x03\0\0\0\x05error", 13, "that are no SASL message", HBASE_ERROR_AUTHENTICATION },
    /* closed without a word */
    { NULL, 0, "closed the connection during the Kerberos (SASL) handshake without a word",
      HBASE_ERROR_CONNECTION },
  };

  if (!need_stack ())
    return;
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = canned_error (cases[i].response, cases[i].length);

      g_assert_error (error, HBASE_ERROR, cases[i].code);
      assert_contains (error, cases[i].text);
    }
}

/* The gateway's refusal reason is its own free text: any bytes, up to the
 * 1 MiB of a negotiation message.  The message keeps a short, printable
 * part of it. */
static void
test_refusal_sanitised (void)
{
  g_autoptr(GByteArray) response = g_byte_array_new ();
  g_autoptr(GString) reason = g_string_new ("GSS initiate failed\x1b[2J\r\n\t\x7f\xff\xfe");
  g_autoptr(GError) error = NULL;
  guint32 size;

  for (guint i = 0; i < 2000; i++)
    g_string_append_c (reason, i % 2 ? 'x' : '\x01');
  g_string_append_c (reason, '\0');
  g_string_append (reason, "after a NUL");
  size = GUINT32_TO_BE ((guint32) reason->len);
  g_byte_array_append (response, (const guint8 *) "\x03", 1);
  g_byte_array_append (response, (const guint8 *) &size, 4);
  g_byte_array_append (response, (const guint8 *) reason->str, reason->len);
  if (!need_stack ())
    return;
  error = canned_error ((const char *) response->data, response->len);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_AUTHENTICATION);
  assert_contains (error, "refused the Kerberos authentication as hbase/localhost: GSS initiate failed");
  /* the hint that follows a known reason is still given */
  assert_contains (error, "the gateway could not accept the client's ticket");
  for (const char *p = error->message; *p != '\0'; p++)
    if ((guchar) *p < 0x20 || (guchar) *p >= 0x7f)
      g_error ("byte 0x%02x at %d in: %s", (guchar) *p, (int) (p - error->message), error->message);
  g_assert_null (strstr (error->message, "after a NUL"));
  /* 300 bytes of the reason, and the library's own words around it */
  g_assert_cmpuint (strlen (error->message), <, 300 + 400);
}

/* --- frames replayed, dropped or reordered ------------------------------------------ */

/* A real Kerberos context pair: the client's through _hbase_sasl_negotiate()
 * and an acceptor of this test with the stack's hbase/localhost key (its
 * keytab), speaking the gateway's side of the handshake over a socket
 * pair.  Afterwards the acceptor wraps frames as a gateway would; the test
 * hands them to the client's unwrap in any order it likes, which no real
 * gateway can be made to do. */
typedef struct {
  int fd;
  guint offer;               /* the layers offered */
  gboolean gap_before_offer; /* wrap one token that is never sent before the offer */
  guint n_frames;
  GPtrArray *frames;         /* out: GBytes, the wrapped "frame N" */
  char *failure;             /* out: what went wrong on the acceptor's side */
} Acceptor;

static gboolean
io_all (int fd, guint8 *data, gsize length, gboolean writing)
{
  while (length > 0)
    {
      gssize n = writing ? send (fd, data, length, MSG_NOSIGNAL) : recv (fd, data, length, 0);

      if (n <= 0)
        return FALSE;
      data += n;
      length -= (gsize) n;
    }
  return TRUE;
}

static gboolean
pair_send (gpointer io, const guint8 *data, gsize length, GError **error)
{
  if (io_all (GPOINTER_TO_INT (io), (guint8 *) data, length, TRUE))
    return TRUE;
  g_set_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION, "acceptor gone (send)");
  return FALSE;
}

static gboolean
pair_recv (gpointer io, guint8 *data, gsize length, GError **error)
{
  if (io_all (GPOINTER_TO_INT (io), data, length, FALSE))
    return TRUE;
  g_set_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION, "acceptor gone (recv)");
  return FALSE;
}

static gboolean
acceptor_recv (int fd, guint8 *status, gss_buffer_desc *payload)
{
  guint8 header[5];
  guint32 size;

  if (!io_all (fd, header, 5, FALSE))
    return FALSE;
  *status = header[0];
  memcpy (&size, header + 1, 4);
  payload->length = GUINT32_FROM_BE (size);
  payload->value = g_malloc (MAX (payload->length, 1));
  return io_all (fd, payload->value, payload->length, FALSE);
}

static gboolean
acceptor_send (int fd, guint8 status, const void *payload, gsize length)
{
  guint32 size = GUINT32_TO_BE ((guint32) length);

  return io_all (fd, &status, 1, TRUE) && io_all (fd, (guint8 *) &size, 4, TRUE) &&
         io_all (fd, (guint8 *) payload, length, TRUE);
}

static gpointer
serve_sasl (gpointer data)
{
  Acceptor *a = data;
  g_autofree char *keytab = g_build_filename (keytabs, "hbase.keytab", NULL);
  gss_key_value_element_desc element = { "keytab", keytab };
  gss_key_value_set_desc store = { 1, &element };
  gss_cred_id_t credentials = GSS_C_NO_CREDENTIAL;
  gss_ctx_id_t context = GSS_C_NO_CONTEXT;
  gss_buffer_desc in = GSS_C_EMPTY_BUFFER, out = GSS_C_EMPTY_BUFFER;
  OM_uint32 major, minor;
  guint8 status, offer[4] = { (guint8) a->offer, 0x01, 0x00, 0x00 };
  gboolean ok = FALSE;

#define STEP(what, cond) G_STMT_START { if (!(cond)) { a->failure = g_strdup (what); goto out; } } G_STMT_END
  major = gss_acquire_cred_from (&minor, GSS_C_NO_NAME, GSS_C_INDEFINITE, GSS_C_NO_OID_SET,
                                 GSS_C_ACCEPT, &store, &credentials, NULL, NULL);
  STEP ("acquire the acceptor's credentials", !GSS_ERROR (major));
  /* START "GSSAPI", then OK with the first token */
  STEP ("read START", acceptor_recv (a->fd, &status, &in) && status == 1);
  g_free (in.value);
  STEP ("read the first token", acceptor_recv (a->fd, &status, &in) && status == 2);
  major = gss_accept_sec_context (&minor, &context, credentials, &in, GSS_C_NO_CHANNEL_BINDINGS,
                                  NULL, NULL, &out, NULL, NULL, NULL);
  g_free (in.value);
  STEP ("accept the first token", major == GSS_S_COMPLETE);
  STEP ("send the AP-REP", acceptor_send (a->fd, 2, out.value, out.length));
  gss_release_buffer (&minor, &out);
  STEP ("read the empty answer", acceptor_recv (a->fd, &status, &in) && status == 2);
  g_free (in.value);
  if (a->gap_before_offer)
    {
      in.value = offer;
      in.length = 4;
      major = gss_wrap (&minor, context, 0, GSS_C_QOP_DEFAULT, &in, NULL, &out);
      STEP ("wrap the lost token", !GSS_ERROR (major));
      gss_release_buffer (&minor, &out);
    }
  in.value = offer;
  in.length = 4;
  major = gss_wrap (&minor, context, 0, GSS_C_QOP_DEFAULT, &in, NULL, &out);
  STEP ("wrap the offer", !GSS_ERROR (major));
  STEP ("send the offer", acceptor_send (a->fd, 2, out.value, out.length));
  gss_release_buffer (&minor, &out);
  if (!acceptor_recv (a->fd, &status, &in))
    {
      /* the client refused the offer: nothing more to do */
      ok = TRUE;
      goto out;
    }
  major = gss_unwrap (&minor, context, &in, &out, NULL, NULL);
  g_free (in.value);
  STEP ("unwrap the chosen layer", status == 5 && major == GSS_S_COMPLETE && out.length == 4);
  gss_release_buffer (&minor, &out);
  STEP ("send COMPLETE", acceptor_send (a->fd, 5, NULL, 0));
  for (guint i = 0; i < a->n_frames; i++)
    {
      g_autofree char *text = g_strdup_printf ("frame %u", i);

      in.value = text;
      in.length = strlen (text);
      major = gss_wrap (&minor, context, (a->offer & HBASE_KERBEROS_QOP_PRIVACY) != 0,
                        GSS_C_QOP_DEFAULT, &in, NULL, &out);
      STEP ("wrap a frame", !GSS_ERROR (major));
      g_ptr_array_add (a->frames, g_bytes_new (out.value, out.length));
      gss_release_buffer (&minor, &out);
    }
  ok = TRUE;
#undef STEP
out:
  if (!ok)
    g_test_message ("acceptor: cannot %s (GSSAPI 0x%x/%u)", a->failure, major, minor);
  if (context != GSS_C_NO_CONTEXT)
    gss_delete_sec_context (&minor, &context, GSS_C_NO_BUFFER);
  if (credentials != GSS_C_NO_CREDENTIAL)
    gss_release_cred (&minor, &credentials);
  close (a->fd);
  return NULL;
}

/* Negotiates with the acceptor at the one level @qop; its wrapped
 * frames in *@frames. */
static HBaseSasl *
sasl_pair (HBaseKerberosQop qop, gboolean gap_before_offer, guint n_frames, GPtrArray **frames,
           GError **error)
{
  HBaseKerberosSettings settings = { .enabled = TRUE, .qop = qop,
                                     .service_principal = (char *) "hbase/localhost" };
  Acceptor acceptor = { .offer = qop, .gap_before_offer = gap_before_offer,
                        .n_frames = n_frames,
                        .frames = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref) };
  int fds[2];
  GThread *thread;
  HBaseSasl *sasl;

  g_assert_cmpint (socketpair (AF_UNIX, SOCK_STREAM, 0, fds), ==, 0);
  acceptor.fd = fds[1];
  thread = g_thread_new ("acceptor", serve_sasl, &acceptor);
  sasl = _hbase_sasl_negotiate (&settings, "localhost", "acceptor", 1 << 20, 0, NULL, pair_send,
                                pair_recv, GINT_TO_POINTER (fds[0]), error);
  close (fds[0]);
  g_thread_join (thread);
  g_assert_null (acceptor.failure);
  *frames = acceptor.frames;
  return sasl;
}

/* Unwraps a copy of frame @i; checks its text when it is accepted. */
static gboolean
unwrap_frame (HBaseSasl *sasl, GPtrArray *frames, guint i, GError **error)
{
  gsize length = 0, plain = 0;
  const guint8 *token = g_bytes_get_data (frames->pdata[i], &length);
  g_autofree guint8 *data = g_memdup2 (token, length);
  g_autofree char *expected = g_strdup_printf ("frame %u", i);

  if (!_hbase_sasl_unwrap_in_place (sasl, data, length, &plain, error))
    return FALSE;
  g_assert_cmpmem (data, plain, expected, strlen (expected));
  return TRUE;
}

static void
test_frame_sequence (void)
{
  /* the order the frames are fed in: the first @accepted of them are
   * taken, the next one must be refused (in order: none is) */
  static const struct { const char *name; guint order[4]; guint accepted; gboolean refused; } cases[] = {
    { "in order", { 0, 1, 2, 3 }, 4, FALSE },
    { "replayed", { 0, 1, 1 }, 2, TRUE },
    { "replayed later", { 0, 1, 2, 0 }, 3, TRUE },
    { "dropped", { 0, 2 }, 1, TRUE },
    { "swapped", { 1, 0 }, 0, TRUE },
    { "swapped later", { 0, 2, 1 }, 1, TRUE },
  };
  static const HBaseKerberosQop levels[] = { HBASE_KERBEROS_QOP_INTEGRITY,
                                             HBASE_KERBEROS_QOP_PRIVACY };
  g_autofree char *cache = NULL;

  if (!need_stack ())
    return;
  cache = new_cache ();
  g_assert_true (kinit_client ());
  for (guint l = 0; l < G_N_ELEMENTS (levels); l++)
    for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
      {
        g_autoptr(GPtrArray) frames = NULL;
        g_autoptr(GError) error = NULL;
        g_autoptr(HBaseSasl) sasl = sasl_pair (levels[l], FALSE, 4, &frames, &error);
        g_autofree char *level = _hbase_sasl_describe_qop (levels[l]);
        guint i;

        g_assert_no_error (error);
        g_assert_cmpuint (_hbase_sasl_get_qop (sasl), ==, levels[l]);
        g_test_message ("%s, %s", level, cases[c].name);
        for (i = 0; i < cases[c].accepted; i++)
          ASSERT_OK (unwrap_frame (sasl, frames, cases[c].order[i], &error));
        if (!cases[c].refused)
          continue;
        g_assert_false (unwrap_frame (sasl, frames, cases[c].order[i], &error));
        g_assert_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL);
        assert_contains (error, "out of sequence");
      }
}

/* The security-layer offer itself is checked: one that comes after a gap
 * (a token of the gateway's lost on the way) is refused. */
static void
test_offer_sequence (void)
{
  g_autoptr(GPtrArray) frames = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseSasl) sasl = NULL;
  g_autofree char *cache = NULL;

  if (!need_stack ())
    return;
  cache = new_cache ();
  g_assert_true (kinit_client ());
  sasl = sasl_pair (HBASE_KERBEROS_QOP_INTEGRITY, TRUE, 0, &frames, &error);
  g_assert_null (sasl);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL);
  assert_contains (error, "out of sequence");
}

/* --- setup ---------------------------------------------------------------------- */

static gboolean
setup (void)
{
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *krb5_conf = NULL, *cache = NULL;
  HBaseFamilyOptions family = HBASE_FAMILY_OPTIONS_INIT;
  const char *value;

  secure_dir = test_kerberos_secure_dir ();
  value = g_getenv ("HBASE_GLIB_SECURE_KEYTABS");
  keytabs = value != NULL && *value != '\0' ? g_strdup (value)
                                            : g_build_filename (secure_dir, "keytabs", NULL);
  realm = test_kerberos_realm ();
  port_auth = test_kerberos_port ("HBASE_GLIB_SECURE_AUTH_PORT", port_auth);
  port_int = test_kerberos_port ("HBASE_GLIB_SECURE_INT_PORT", port_int);
  port_priv = test_kerberos_port ("HBASE_GLIB_SECURE_PRIV_PORT", port_priv);
  port_plain = test_kerberos_port ("HBASE_GLIB_TEST_PLAIN_PORT", port_plain);
  tmp_dir = g_dir_make_tmp ("hbase-glib-sasl-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);

  value = g_getenv ("KRB5_CONFIG");
  krb5_conf = value != NULL && *value != '\0' ? g_strdup (value)
                                              : g_build_filename (secure_dir, "krb5.conf", NULL);
  if (!g_file_test (krb5_conf, G_FILE_TEST_EXISTS))
    {
      g_printerr ("# no %s: run scripts/stack.sh start-secure\n", krb5_conf);
      return FALSE;
    }
  g_setenv ("KRB5_CONFIG", krb5_conf, TRUE);

  cache = new_cache ();
  if (!kinit_client ())
    {
      g_printerr ("# kinit as client failed: is the secure stack's KDC running?\n");
      return FALSE;
    }
  config = sasl_config (port_auth, HBASE_KERBEROS_QOP_ANY, 60000 * slack);
  g_assert_true (hbase_config_set_max_attempts (config, 2, NULL));
  client = hbase_client_new (config);
  family.name = "f";
  table_name = test_stack_unique_name ("hbase_glib_sasl");
  if (!hbase_client_create_table (client, table_name, &family, 1, NULL, NULL, &error))
    {
      g_printerr ("# cannot create %s over localhost:%u: %s\n", table_name, port_auth,
                  error->message);
      return FALSE;
    }
  /* a principal whose tickets live SHORT_LIFE seconds, in a keytab of
   * this run */
  short_keytab = g_build_filename (tmp_dir, "short.keytab", NULL);
  short_ok = test_kerberos_make_principal (secure_dir, realm, SHORT_PRINCIPAL, SHORT_LIFE,
                                           short_keytab);
  return TRUE;
}

static void
teardown (void)
{
  g_autoptr(HBaseConfig) config = sasl_config (port_auth, HBASE_KERBEROS_QOP_ANY, 60000);
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *cache = new_cache ();

  if (!kinit_client ())
    return;
  client = hbase_client_new (config);
  if (!hbase_client_delete_table (client, table_name, NULL, &error))
    g_printerr ("# cannot drop %s: %s\n", table_name, error->message);
}

static void
remove_tmp_dir (void)
{
  g_autoptr(GDir) dir = g_dir_open (tmp_dir, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (tmp_dir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (tmp_dir);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  slack = test_time_slack ();
  stack_ok = setup ();

  g_test_add_func ("/integration/kerberos-sasl/roundtrip/authentication", test_roundtrip_auth);
  g_test_add_func ("/integration/kerberos-sasl/roundtrip/integrity", test_roundtrip_int);
  g_test_add_func ("/integration/kerberos-sasl/roundtrip/privacy", test_roundtrip_priv);
  g_test_add_func ("/integration/kerberos-sasl/big/privacy", test_big_priv);
  g_test_add_func ("/integration/kerberos-sasl/big/integrity", test_big_int);
  g_test_add_func ("/integration/kerberos-sasl/errors/no-ticket", test_no_ticket);
  g_test_add_func ("/integration/kerberos-sasl/errors/expired-ticket", test_expired_ticket);
  g_test_add_func ("/integration/kerberos-sasl/errors/unknown-service", test_unknown_service);
  g_test_add_func ("/integration/kerberos-sasl/errors/refused-token", test_refused_token);
  g_test_add_func ("/integration/kerberos-sasl/errors/qop-mismatch", test_qop_mismatch);
  g_test_add_func ("/integration/kerberos-sasl/errors/plain-client-on-sasl", test_plain_client_on_sasl);
  g_test_add_func ("/integration/kerberos-sasl/errors/sasl-client-on-plain", test_sasl_client_on_plain);
  g_test_add_func ("/integration/kerberos-sasl/errors/proxy-user-refused", test_proxy_user_refused);
  g_test_add_func ("/integration/kerberos-sasl/keytab-login", test_keytab_login);
  g_test_add_func ("/integration/kerberos-sasl/relogin", test_relogin);
  g_test_add_func ("/integration/kerberos-sasl/negotiated-qop", test_negotiated_qop);
  g_test_add_func ("/integration/kerberos-sasl/negotiated-qop/client", test_client_negotiated_qop);
  g_test_add_func ("/integration/kerberos-sasl/keytab-readable-warned", test_keytab_readable_warned);
  g_test_add_func ("/integration/kerberos-sasl/handshake/deadline", test_handshake_deadline);
  g_test_add_func ("/integration/kerberos-sasl/handshake/cancel", test_handshake_cancel);
  g_test_add_func ("/integration/kerberos-sasl/handshake/kdc-deadline", test_kdc_deadline);
  g_test_add_func ("/integration/kerberos-sasl/handshake/canned-replies", test_canned_replies);
  g_test_add_func ("/integration/kerberos-sasl/handshake/refusal-sanitised", test_refusal_sanitised);
  g_test_add_func ("/integration/kerberos-sasl/frames/sequence", test_frame_sequence);
  g_test_add_func ("/integration/kerberos-sasl/frames/offer-sequence", test_offer_sequence);
  status = g_test_run ();
  if (stack_ok)
    teardown ();
  remove_tmp_dir ();
  g_free (table_name);
  g_free (secure_dir);
  g_free (keytabs);
  g_free (realm);
  g_free (short_keytab);
  g_free (tmp_dir);
  return status;
}
