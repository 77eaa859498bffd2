/* SPDX-License-Identifier: Apache-2.0 */
/* test-kerberos-http.c: Kerberos (SPNEGO) and doAs over HTTP and HTTPS
 * against the kerberized stack's real gateways (scripts/stack.sh
 * start-secure: 19093 HTTP, 19094 HTTPS, realm HBASE.GLIB.TEST, principals
 * client and alice with keytabs).  Round trips through a pool of several
 * connections (many requests on each kept-alive connection: the gateway
 * refuses a replayed token, so each request's token is fresh), a keytab
 * login, doAs allowed and refused, no ticket, an expired ticket and its
 * renewal, a gateway principal the KDC does not know, a plain client
 * against the SPNEGO gateway, a Kerberos client against the normal stack's
 * plain HTTP gateway; no error carries a token.
 *
 * The stack is found in $HBASE_GLIB_STATE_DIR/secure (default
 * $top_srcdir/.stack/secure); ports from HBASE_GLIB_SECURE_HTTP_PORT and
 * HBASE_GLIB_SECURE_HTTPS_PORT.  Each test gets its own credentials cache
 * (KRB5CCNAME, made with kinit from the stack's keytabs). */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <hbase-glib/hbase-glib.h>

#include "../support/test-env.h"
#include "../support/test-kerberos.h"
#include "../support/test-stack.h"

static char *secure_dir, *tls_dir, *realm, *table_name;
static char *http_url, *https_url, *plain_url;
static gboolean stack_ok;
static gint64 slack = 1;   /* test_time_slack () */

static char *
keytab (const char *user)
{
  g_autofree char *name = g_strconcat (user, ".keytab", NULL);

  return g_build_filename (secure_dir, "keytabs", name, NULL);
}

static char *
principal (const char *user)
{
  return g_strconcat (user, "@", realm, NULL);
}

/* A new credentials cache file, KRB5CCNAME points at it; with @user, a
 * ticket from its keytab (@lifetime: kinit -l, or NULL).  Returns the path
 * (remove it with drop_cache()). */
static char *
new_cache (const char *user, const char *lifetime)
{
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "hbase-glib-krb5cc-XXXXXX", NULL);
  g_autofree char *ccname = NULL;
  int fd = g_mkstemp (path);

  g_assert_cmpint (fd, >=, 0);
  close (fd);
  g_unlink (path);   /* an empty file is not a cache: kinit makes it */
  ccname = g_strconcat ("FILE:", path, NULL);
  g_setenv ("KRB5CCNAME", ccname, TRUE);
  if (user != NULL)
    {
      g_autofree char *kt = keytab (user), *who = principal (user);

      g_assert_true (test_kerberos_kinit (kt, who, lifetime != NULL ? lifetime : "1h", ccname));
    }
  return g_steal_pointer (&path);
}

static void
drop_cache (char *path)
{
  g_unlink (path);
  g_free (path);
}

/* No run of 40 or more base64 characters: no token (an SPNEGO token is
 * hundreds of them) in a message. */
static void
assert_no_token (const char *message)
{
  gsize run = 0;

  for (const char *p = message; *p != '\0'; p++)
    {
      run = g_ascii_isalnum (*p) || *p == '+' || *p == '/' || *p == '=' ? run + 1 : 0;
      g_assert_cmpuint (run, <, 40);
    }
  g_assert_null (strstr (message, "YII"));   /* how an SPNEGO token starts in base64 */
}

static HBaseConfig *
kerberos_config (const char *url, gboolean kerberos)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *ca = g_build_filename (tls_dir, "ca.pem", NULL);
  guint timeout_ms = 30000 * (guint) MIN (slack, 4);

  g_assert_true (hbase_config_set_gateways (config, url, &error));
  g_assert_true (hbase_config_set_operation_timeout (config, timeout_ms, &error));
  g_assert_true (hbase_config_set_connect_timeout (config, timeout_ms, &error));
  /* the CA only where it applies (an unused one is warned about); plain
   * http:// gateways are loopback here, so their tokens may go in clear */
  if (g_str_has_prefix (url, "https://"))
    g_assert_true (hbase_config_set_tls_ca_file (config, ca, &error));
  else
    hbase_config_set_allow_insecure_http (config, TRUE);
  g_assert_true (hbase_config_set_max_attempts (config, 2, &error));
  g_assert_no_error (error);
  hbase_config_set_kerberos (config, kerberos);
  return g_steal_pointer (&config);
}

/* A get on the test table with @config: NULL when it worked, else its error. */
static GError *
try_get (HBaseConfig *config, guint64 *retries)
{
  g_autoptr(HBaseClient) client = hbase_client_new (config);
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(HBaseRow) row = NULL;
  GError *error = NULL;

  table = hbase_table_new (client, table_name, &error);
  g_assert_no_error (error);
  row = hbase_table_get_string (table, "no-such-row", NULL, NULL, &error);
  if (retries != NULL)
    {
      HBaseClientStats stats;

      hbase_client_get_stats (client, &stats);
      *retries = stats.retries;
    }
  if (error != NULL)
    {
      g_test_message ("error: %s", error->message);
      assert_no_token (error->message);
    }
  return error;
}

/* A call that must fail with HBASE_ERROR_AUTHENTICATION, not retried,
 * whose message contains @text. */
static void
assert_refused (HBaseConfig *config, const char *text)
{
  guint64 retries = G_MAXUINT64;
  g_autoptr(GError) error = try_get (config, &retries);

  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_AUTHENTICATION);
  g_assert_nonnull (strstr (error->message, text));
  g_assert_cmpuint (retries, ==, 0);
}

static gboolean
need_stack (void)
{
  if (!stack_ok)
    test_stack_unavailable ("the secure stack's HTTP gateways are not there "
                            "(scripts/stack.sh start-secure)");
  return stack_ok;
}

/* --- round trips ----------------------------------------------------------------- */

typedef struct {
  HBaseTable *table;
  const char *prefix;
  guint gets;
} Worker;

static gpointer
get_many (gpointer data)
{
  Worker *worker = data;

  for (guint i = 0; i < worker->gets; i++)
    {
      g_autofree char *key = g_strdup_printf ("%sm%03u", worker->prefix, i % 20);
      g_autoptr(HBaseRow) row = NULL;
      g_autoptr(GError) error = NULL;

      row = hbase_table_get_string (worker->table, key, NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_nonnull (row);
    }
  return NULL;
}

static void
test_roundtrip (gconstpointer data)
{
  const char *url = *(const char *const *) data;
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(HBaseRow) row = NULL;
  g_autoptr(GPtrArray) mutations = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
  g_autoptr(HBaseScanner) scanner = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *prefix = NULL, *single = NULL, *scan_prefix = NULL;
  char *cache;
  HBaseClientStats stats;
  GThread *threads[4];
  Worker workers[4];
  GBytes *value;
  guint n = 0, gets = test_env_boolean ("HBASE_GLIB_TEST_QUICK") ? 10 : 50;

  if (!need_stack ())
    return;
  cache = new_cache ("client", NULL);
  config = kerberos_config (url, TRUE);
  g_assert_true (hbase_config_set_pool_size (config, 4, NULL));
  client = hbase_client_new (config);
  table = hbase_table_new (client, table_name, &error);
  g_assert_no_error (error);
  prefix = g_strdup_printf ("%s-%d-", g_str_has_prefix (url, "https") ? "https" : "http", getpid ());

  single = g_strconcat (prefix, "single", NULL);
  g_assert_true (hbase_table_put_string (table, single, "f:q", "kerberized", NULL, &error));
  g_assert_no_error (error);
  row = hbase_table_get_string (table, single, NULL, NULL, &error);
  g_assert_no_error (error);
  value = hbase_row_lookup (row, "f", "q");
  g_assert_nonnull (value);
  g_assert_cmpmem (g_bytes_get_data (value, NULL), g_bytes_get_size (value), "kerberized", 10);

  for (guint i = 0; i < 20; i++)
    {
      g_autofree char *key = g_strdup_printf ("%sm%03u", prefix, i);
      g_autofree char *text = g_strdup_printf ("value %u", i);
      HBaseMutation *mutation = hbase_mutation_new_put_string (key);

      hbase_mutation_put_string (mutation, "f:q", text);
      g_ptr_array_add (mutations, mutation);
    }
  g_assert_true (hbase_table_apply_multiple (table, mutations, NULL, &error));
  g_assert_no_error (error);
  scan_prefix = g_strconcat (prefix, "m", NULL);
  scanner = hbase_table_scan_prefix (table, scan_prefix, &error);
  g_assert_no_error (error);
  for (;;)
    {
      g_autoptr(HBaseRow) next = NULL;

      g_assert_true (hbase_scanner_next (scanner, &next, NULL, &error));
      g_assert_no_error (error);
      if (next == NULL)
        break;
      n++;
    }
  g_assert_cmpuint (n, ==, 20);

  /* four threads share the pool: each connection carries many requests,
   * every one with its own token */
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    {
      workers[i] = (Worker) { table, prefix, gets };
      threads[i] = g_thread_new ("get", get_many, &workers[i]);
    }
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    g_thread_join (threads[i]);
  hbase_client_get_stats (client, &stats);
  g_test_message ("%u gets on %" G_GUINT64_FORMAT " connections", 4 * gets,
                  (guint64) stats.connections_opened);
  g_assert_cmpuint (stats.connections_opened, >=, 1);
  g_assert_cmpuint (stats.connections_opened, <=, 4);
  g_assert_cmpuint (stats.retries, ==, 0);
  drop_cache (cache);
}

/* A keytab login: no credentials cache at all. */
static void
test_keytab_login (void)
{
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *kt = NULL, *who = NULL;
  char *cache;

  if (!need_stack ())
    return;
  cache = new_cache (NULL, NULL);
  kt = keytab ("client");
  who = principal ("client");
  config = kerberos_config (http_url, TRUE);
  g_assert_true (hbase_config_set_kerberos_keytab (config, who, kt, &error));
  g_assert_no_error (error);
  error = try_get (config, NULL);
  g_assert_no_error (error);
  g_assert_false (g_file_test (cache, G_FILE_TEST_EXISTS));   /* nothing written there */
  drop_cache (cache);
}

/* client may impersonate anyone: the calls run as alice, who has no
 * rights on client's table (hbase.security.authorization is on), so the
 * get is refused naming alice, while a call that needs no table rights works. */
static void
test_doas_allowed (gconstpointer data)
{
  const char *url = *(const char *const *) data;
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(GError) error = NULL;
  char *cache;
  gboolean exists = FALSE;

  if (!need_stack ())
    return;
  cache = new_cache ("client", NULL);
  config = kerberos_config (url, TRUE);
  g_assert_true (hbase_config_set_proxy_user (config, "alice", &error));
  client = hbase_client_new (config);
  g_assert_true (hbase_client_table_exists (client, "hbase:meta", &exists, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (exists);
  g_clear_object (&client);
  error = try_get (config, NULL);
  if (error != NULL)
    {
      /* the effect of doAs: HBase checked alice's rights, not client's */
      g_assert_nonnull (strstr (error->message, "alice"));
      g_assert_false (error->domain == HBASE_ERROR && error->code == HBASE_ERROR_AUTHENTICATION);
    }
  drop_cache (cache);
}

/* alice may not impersonate: the gateway answers HTTP 500 with Hadoop's
 * AuthorizationException. */
static void
test_doas_refused (void)
{
  g_autoptr(HBaseConfig) config = NULL;
  char *cache;

  if (!need_stack ())
    return;
  cache = new_cache ("alice", NULL);
  config = kerberos_config (http_url, TRUE);
  g_assert_true (hbase_config_set_proxy_user (config, "client", NULL));
  assert_refused (config, "User: alice is not allowed to impersonate client");
  drop_cache (cache);
}

static void
test_no_ticket (void)
{
  g_autoptr(HBaseConfig) config = NULL;
  char *cache;

  if (!need_stack ())
    return;
  cache = new_cache (NULL, NULL);
  config = kerberos_config (http_url, TRUE);
  assert_refused (config, "no Kerberos credentials");
  drop_cache (cache);
}

/* A ticket that expires while the client lives; a new one in the same
 * cache is picked up by the same client (its credentials are acquired
 * again). */
static void
test_expired_ticket (void)
{
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseRow) row = NULL;
  g_autofree char *ccname = NULL;
  char *cache;

  if (!need_stack ())
    return;
  cache = new_cache ("client", "4s");
  ccname = g_strconcat ("FILE:", cache, NULL);
  config = kerberos_config (http_url, TRUE);
  client = hbase_client_new (config);
  table = hbase_table_new (client, table_name, &error);
  row = hbase_table_get_string (table, "r", NULL, NULL, &error);
  g_assert_no_error (error);
  g_usleep (5 * G_USEC_PER_SEC);
  g_clear_pointer (&row, hbase_row_unref);
  row = hbase_table_get_string (table, "r", NULL, NULL, &error);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_AUTHENTICATION);
  g_test_message ("expired: %s", error->message);
  g_assert_nonnull (strstr (error->message, "expired"));
  assert_no_token (error->message);
  g_clear_error (&error);
  /* renewed: kinit into the same cache */
  drop_cache (new_cache ("client", NULL));
  g_setenv ("KRB5CCNAME", ccname, TRUE);
  {
    g_autofree char *kt = keytab ("client"), *who = principal ("client");
    g_autofree char *command = g_strdup_printf ("kinit -c %s -kt %s %s", ccname, kt, who);

    g_assert_true (g_spawn_command_line_sync (command, NULL, NULL, NULL, NULL));
  }
  row = hbase_table_get_string (table, "r", NULL, NULL, &error);
  g_assert_no_error (error);
  drop_cache (cache);
}

/* HTTP/nosuchhost: the KDC knows no such principal, the client's GSSAPI
 * fails before anything is sent. */
static void
test_unknown_http_principal (void)
{
  g_autoptr(HBaseConfig) config = NULL;
  char *cache;

  if (!need_stack ())
    return;
  cache = new_cache ("client", NULL);
  config = kerberos_config (http_url, TRUE);
  g_assert_true (hbase_config_set_kerberos_http_principal (config, "HTTP/nosuchhost", NULL));
  assert_refused (config, "HTTP/nosuchhost");
  drop_cache (cache);
}

/* A principal the KDC knows (HTTP/<hostname>) but the gateway does not
 * accept (it is HTTP/localhost): the gateway answers 401. */
static void
test_wrong_http_principal (void)
{
  g_autoptr(HBaseConfig) config = NULL;
  g_autofree char *other = NULL;
  char *host = g_malloc0 (256);
  char *cache;

  if (!need_stack ())
    {
      g_free (host);
      return;
    }
  if (gethostname (host, 255) != 0 || strcmp (host, "localhost") == 0)
    {
      g_free (host);
      g_test_skip ("the host name is localhost");
      return;
    }
  other = g_strconcat ("HTTP/", host, NULL);
  g_free (host);
  cache = new_cache ("client", NULL);
  config = kerberos_config (http_url, TRUE);
  g_assert_true (hbase_config_set_kerberos_http_principal (config, other, NULL));
  assert_refused (config, "refused the Kerberos token");
  drop_cache (cache);
}

/* Kerberos off against the SPNEGO gateway: its 401 says what to do. */
static void
test_plain_client (void)
{
  g_autoptr(HBaseConfig) config = NULL;

  if (!need_stack ())
    return;
  config = kerberos_config (http_url, FALSE);
  assert_refused (config, "requires Kerberos (SPNEGO)");
}

/* The normal stack's plain HTTP gateway ignores the Authorization
 * header: a Kerberos client simply works there.  doAs it does not ignore:
 * without hbase.thrift.support.proxyuser it answers HTTP 500 "Support for
 * proxyuser is not configured". */
static void
test_kerberos_on_plain_gateway (void)
{
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(GError) error = NULL;
  gboolean exists = FALSE;
  char *cache;

  if (!need_stack ())
    return;
  cache = new_cache ("client", NULL);
  config = kerberos_config (plain_url, TRUE);
  client = hbase_client_new (config);
  if (!hbase_client_table_exists (client, "hbase:meta", &exists, NULL, &error) &&
      g_error_matches (error, HBASE_ERROR, HBASE_ERROR_CONNECTION))
    {
      test_stack_unavailable ("the normal stack's http gateway (9097) is not there");
      drop_cache (cache);
      return;
    }
  g_assert_no_error (error);
  g_assert_true (exists);
  g_clear_object (&client);

  g_assert_true (hbase_config_set_proxy_user (config, "alice", NULL));
  client = hbase_client_new (config);
  g_assert_false (hbase_client_table_exists (client, "hbase:meta", &exists, NULL, &error));
  g_test_message ("doAs on the plain gateway: %s", error->message);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_AUTHENTICATION);
  g_assert_nonnull (strstr (error->message, "Support for proxyuser is not configured"));
  assert_no_token (error->message);
  drop_cache (cache);
}

/* --- the suite ----------------------------------------------------------------------- */

static gboolean
setup (void)
{
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *conf = g_build_filename (secure_dir, "krb5.conf", NULL);
  g_autofree char *kt = keytab ("client");
  g_autofree char *kinit = g_find_program_in_path ("kinit");
  HBaseFamilyOptions family = HBASE_FAMILY_OPTIONS_INIT;
  char *cache;

  if (!g_file_test (conf, G_FILE_TEST_EXISTS) || !g_file_test (kt, G_FILE_TEST_EXISTS) ||
      kinit == NULL)
    {
      g_printerr ("# no %s, %s or kinit: run scripts/stack.sh start-secure\n", conf, kt);
      return FALSE;
    }
  g_setenv ("KRB5_CONFIG", conf, TRUE);
  cache = new_cache ("client", NULL);
  config = kerberos_config (http_url, TRUE);
  client = hbase_client_new (config);
  family.name = "f";
  table_name = test_stack_unique_name ("hbase_glib_krb_http");
  if (!hbase_client_create_table (client, table_name, &family, 1, NULL, NULL, &error))
    {
      g_printerr ("# cannot create %s over %s: %s\n", table_name, http_url, error->message);
      drop_cache (cache);
      return FALSE;
    }
  drop_cache (cache);
  return TRUE;
}

static void
teardown (void)
{
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(GError) error = NULL;
  char *cache = new_cache ("client", NULL);

  config = kerberos_config (http_url, TRUE);
  client = hbase_client_new (config);
  if (!hbase_client_delete_table (client, table_name, NULL, &error))
    g_printerr ("# cannot drop %s: %s\n", table_name, error->message);
  drop_cache (cache);
}

static char *
env_or (const char *variable, const char *fallback)
{
  const char *value = g_getenv (variable);

  return g_strdup (value != NULL && *value != '\0' ? value : fallback);
}

int
main (int argc, char **argv)
{
  g_autofree char *state_dir = NULL;
  guint http_port, https_port;
  int status;

  g_test_init (&argc, &argv, NULL);
  slack = test_time_slack ();
  secure_dir = test_kerberos_secure_dir ();
  state_dir = g_path_get_dirname (secure_dir);
  tls_dir = g_build_filename (state_dir, "tls", NULL);
  realm = test_kerberos_realm ();
  http_port = test_kerberos_port ("HBASE_GLIB_SECURE_HTTP_PORT", 19093);
  https_port = test_kerberos_port ("HBASE_GLIB_SECURE_HTTPS_PORT", 19094);
  /* localhost: the gateway's principal is HTTP/localhost, and the name in
   * the https certificate */
  http_url = g_strdup_printf ("http://localhost:%u/", http_port);
  https_url = g_strdup_printf ("https://localhost:%u/", https_port);
  plain_url = env_or ("HBASE_GLIB_TEST_HTTP_GATEWAY", "http://127.0.0.1:9097/");
  stack_ok = setup ();

  g_test_add_data_func ("/integration/kerberos-http/roundtrip/http", &http_url, test_roundtrip);
  g_test_add_data_func ("/integration/kerberos-http/roundtrip/https", &https_url, test_roundtrip);
  g_test_add_func ("/integration/kerberos-http/keytab-login", test_keytab_login);
  g_test_add_data_func ("/integration/kerberos-http/doas/allowed/http", &http_url, test_doas_allowed);
  g_test_add_data_func ("/integration/kerberos-http/doas/allowed/https", &https_url, test_doas_allowed);
  g_test_add_func ("/integration/kerberos-http/doas/refused", test_doas_refused);
  g_test_add_func ("/integration/kerberos-http/no-ticket", test_no_ticket);
  g_test_add_func ("/integration/kerberos-http/expired-ticket", test_expired_ticket);
  g_test_add_func ("/integration/kerberos-http/unknown-http-principal", test_unknown_http_principal);
  g_test_add_func ("/integration/kerberos-http/wrong-http-principal", test_wrong_http_principal);
  g_test_add_func ("/integration/kerberos-http/plain-client", test_plain_client);
  g_test_add_func ("/integration/kerberos-http/kerberos-on-plain-gateway", test_kerberos_on_plain_gateway);
  status = g_test_run ();
  if (stack_ok)
    teardown ();
  g_free (table_name);
  g_free (http_url);
  g_free (https_url);
  g_free (plain_url);
  g_free (secure_dir);
  g_free (tls_dir);
  g_free (realm);
  return status;
}
