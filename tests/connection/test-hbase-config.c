/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for src/connection/hbase-config.c: defaults, every setter's
 * bounds, gateway list parsing, and loading from key files, files and the
 * environment, which must be all-or-nothing and name the bad setting.
 *
 * Long because: cases for every setting from every source (code, key file,
 * file, environment) share the same tables of good and bad values. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include <glib/gstdio.h>

#include <hbase-glib/hbase-glib.h>

/* Every variable hbase_config_load_environment() reads. */
static const char *const variables[] = {
  "HBASE_GLIB_CONFIG",
  "HBASE_GLIB_GATEWAYS",
  "HBASE_GLIB_PROTOCOL",
  "HBASE_GLIB_TRANSPORT",
  "HBASE_GLIB_CONNECT_TIMEOUT_MS",
  "HBASE_GLIB_OPERATION_TIMEOUT_MS",
  "HBASE_GLIB_MAX_ATTEMPTS",
  "HBASE_GLIB_RETRY_BACKOFF_MS",
  "HBASE_GLIB_RETRY_BACKOFF_MAX_MS",
  "HBASE_GLIB_POOL_SIZE",
  "HBASE_GLIB_POOL_WAIT_MS",
  "HBASE_GLIB_MAX_PENDING",
  "HBASE_GLIB_MAX_MESSAGE_SIZE",
  "HBASE_GLIB_COALESCE_GETS",
  "HBASE_GLIB_COALESCE_GETS_WINDOW_US",
};

static void
clear_environment (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (variables); i++)
    g_unsetenv (variables[i]);
}

/* An HBASE_ERROR_ILLEGAL_ARGUMENT whose message mentions @text. */
#define assert_illegal(error, text) \
  G_STMT_START { \
    g_assert_error ((error), HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT); \
    if (strstr ((error)->message, (text)) == NULL) \
      { \
        g_autofree char *msg__ = g_strdup_printf ("error message '%s' does not mention '%s'", \
                                                  (error)->message, (text)); \
        g_assertion_message (G_LOG_DOMAIN, __FILE__, __LINE__, G_STRFUNC, msg__); \
      } \
  } G_STMT_END

static void
assert_config_equal (const HBaseConfig *a, const HBaseConfig *b)
{
  g_assert_cmpuint (hbase_config_get_n_gateways (a), ==, hbase_config_get_n_gateways (b));
  for (guint i = 0; i < hbase_config_get_n_gateways (a); i++)
    {
      g_assert_cmpstr (hbase_config_get_gateway_host (a, i), ==, hbase_config_get_gateway_host (b, i));
      g_assert_cmpuint (hbase_config_get_gateway_port (a, i), ==, hbase_config_get_gateway_port (b, i));
    }
  g_assert_cmpint (hbase_config_get_protocol (a), ==, hbase_config_get_protocol (b));
  g_assert_cmpint (hbase_config_get_transport (a), ==, hbase_config_get_transport (b));
  g_assert_cmpuint (hbase_config_get_connect_timeout (a), ==, hbase_config_get_connect_timeout (b));
  g_assert_cmpuint (hbase_config_get_operation_timeout (a), ==, hbase_config_get_operation_timeout (b));
  g_assert_cmpuint (hbase_config_get_max_attempts (a), ==, hbase_config_get_max_attempts (b));
  g_assert_cmpuint (hbase_config_get_retry_backoff (a), ==, hbase_config_get_retry_backoff (b));
  g_assert_cmpuint (hbase_config_get_retry_backoff_max (a), ==, hbase_config_get_retry_backoff_max (b));
  g_assert_cmpuint (hbase_config_get_pool_size (a), ==, hbase_config_get_pool_size (b));
  g_assert_cmpuint (hbase_config_get_pool_wait (a), ==, hbase_config_get_pool_wait (b));
}

static void
assert_defaults (const HBaseConfig *config)
{
  g_assert_cmpuint (hbase_config_get_n_gateways (config), ==, 1);
  g_assert_cmpstr (hbase_config_get_gateway_host (config, 0), ==, "localhost");
  g_assert_cmpuint (hbase_config_get_gateway_port (config, 0), ==, 9090);
  g_assert_cmpint (hbase_config_get_protocol (config), ==, HBASE_PROTOCOL_BINARY);
  g_assert_cmpint (hbase_config_get_transport (config), ==, HBASE_TRANSPORT_BUFFERED);
  g_assert_cmpuint (hbase_config_get_connect_timeout (config), ==, 5000);
  g_assert_cmpuint (hbase_config_get_operation_timeout (config), ==, 60000);
  g_assert_cmpuint (hbase_config_get_max_attempts (config), ==, 16);
  g_assert_cmpuint (hbase_config_get_retry_backoff (config), ==, 100);
  g_assert_cmpuint (hbase_config_get_retry_backoff_max (config), ==, 2000);
  g_assert_cmpuint (hbase_config_get_max_message_size (config), ==, 256u * 1024 * 1024);
  g_assert_cmpuint (hbase_config_get_pool_size (config), ==, 8);
  g_assert_cmpuint (hbase_config_get_pool_wait (config), ==, 10000);
  g_assert_cmpuint (hbase_config_get_coalesce_gets (config), ==, 100);
  g_assert_cmpuint (hbase_config_get_coalesce_gets_window (config), ==, 0);
}

/* A temporary directory holding one config file. */
typedef struct {
  char *dir;
  char *path;
} TempFile;

static void
temp_file_write (TempFile *tmp, const char *contents)
{
  g_autoptr(GError) error = NULL;

  tmp->dir = g_dir_make_tmp ("test-hbase-config-XXXXXX", &error);
  g_assert_no_error (error);
  tmp->path = g_build_filename (tmp->dir, "hbase-glib.conf", NULL);
  g_file_set_contents (tmp->path, contents, -1, &error);
  g_assert_no_error (error);
}

static void
temp_file_clear (TempFile *tmp)
{
  g_assert_cmpint (g_remove (tmp->path), ==, 0);
  g_assert_cmpint (g_rmdir (tmp->dir), ==, 0);
  g_clear_pointer (&tmp->path, g_free);
  g_clear_pointer (&tmp->dir, g_free);
}

static void
test_defaults (void)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();

  assert_defaults (config);
  g_assert_cmpuint (HBASE_CONFIG_DEFAULT_PORT, ==, 9090);
}

static void
test_free_null (void)
{
  hbase_config_free (NULL);
}

static void
test_copy_is_independent (void)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(HBaseConfig) copy = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (hbase_config_set_gateways (config, "a:1 b:2", &error));
  g_assert_true (hbase_config_set_protocol (config, HBASE_PROTOCOL_COMPACT, &error));
  g_assert_true (hbase_config_set_pool_size (config, 3, &error));
  g_assert_true (hbase_config_set_retry_backoff (config, 7, 70, &error));
  g_assert_no_error (error);

  copy = hbase_config_copy (config);
  assert_config_equal (config, copy);
  g_assert_true (hbase_config_get_gateway_host (copy, 0) != hbase_config_get_gateway_host (config, 0));

  /* changing either leaves the other alone */
  g_assert_true (hbase_config_add_gateway (copy, "c", 3, &error));
  g_assert_true (hbase_config_set_pool_size (copy, 4, &error));
  g_assert_true (hbase_config_set_gateways (config, "z", &error));
  g_assert_no_error (error);

  g_assert_cmpuint (hbase_config_get_n_gateways (config), ==, 1);
  g_assert_cmpstr (hbase_config_get_gateway_host (config, 0), ==, "z");
  g_assert_cmpuint (hbase_config_get_pool_size (config), ==, 3);
  g_assert_cmpuint (hbase_config_get_n_gateways (copy), ==, 3);
  g_assert_cmpstr (hbase_config_get_gateway_host (copy, 0), ==, "a");
  g_assert_cmpuint (hbase_config_get_gateway_port (copy, 1), ==, 2);
  g_assert_cmpstr (hbase_config_get_gateway_host (copy, 2), ==, "c");
  g_assert_cmpuint (hbase_config_get_pool_size (copy), ==, 4);
  g_assert_cmpint (hbase_config_get_protocol (copy), ==, HBASE_PROTOCOL_COMPACT);
  g_assert_cmpuint (hbase_config_get_retry_backoff_max (copy), ==, 70);
}

typedef gboolean (*UintSetter) (HBaseConfig *config, guint value, GError **error);
typedef guint (*UintGetter) (const HBaseConfig *config);

static void
test_numeric_setters (void)
{
  const struct {
    const char *key;
    UintSetter set;
    UintGetter get;
    guint min;
    guint max;
    guint mid;   /* a valid value between; 42 when 0 */
  } cases[] = {
    { "connect-timeout-ms", hbase_config_set_connect_timeout, hbase_config_get_connect_timeout, 1, 600000, 42 },
    { "operation-timeout-ms", hbase_config_set_operation_timeout, hbase_config_get_operation_timeout, 1, 3600000, 42 },
    { "max-attempts", hbase_config_set_max_attempts, hbase_config_get_max_attempts, 1, 100, 42 },
    { "pool-size", hbase_config_set_pool_size, hbase_config_get_pool_size, 1, 1024, 42 },
    { "pool-wait-ms", hbase_config_set_pool_wait, hbase_config_get_pool_wait, 0, 3600000, 42 },
    { "max-message-size", hbase_config_set_max_message_size, hbase_config_get_max_message_size, 4096,
      G_MAXINT32, 65536 },
    { "coalesce-gets", hbase_config_set_coalesce_gets, hbase_config_get_coalesce_gets, 1, 10000, 42 },
    { "coalesce-gets-window-us", hbase_config_set_coalesce_gets_window,
      hbase_config_get_coalesce_gets_window, 0, 1000000, 42 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(HBaseConfig) config = hbase_config_new ();
      g_autoptr(GError) error = NULL;
      guint rejected[3] = { cases[i].max + 1, G_MAXUINT, cases[i].min - 1 };
      guint mid = cases[i].mid != 0 ? cases[i].mid : 42;

      g_test_message ("setting %s", cases[i].key);
      g_assert_true (cases[i].set (config, cases[i].min, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (cases[i].get (config), ==, cases[i].min);
      g_assert_true (cases[i].set (config, cases[i].max, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (cases[i].get (config), ==, cases[i].max);
      g_assert_true (cases[i].set (config, mid, &error));
      g_assert_cmpuint (cases[i].get (config), ==, mid);

      /* 0 is below every minimum but pool-wait-ms's (where min - 1 wraps
       * to G_MAXUINT, also out of range) */
      for (guint j = 0; j < G_N_ELEMENTS (rejected); j++)
        {
          g_assert_false (cases[i].set (config, rejected[j], &error));
          assert_illegal (error, cases[i].key);
          g_assert_cmpuint (cases[i].get (config), ==, mid);
          g_clear_error (&error);
        }
      /* NULL error location is fine too */
      g_assert_false (cases[i].set (config, cases[i].max + 1, NULL));
      g_assert_cmpuint (cases[i].get (config), ==, mid);
    }
}

static void
test_error_message_format (void)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(GError) error = NULL;

  g_assert_false (hbase_config_set_pool_size (config, 0, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "pool-size must be between 1 and 1024, got 0");
}

/* Bytes that are not UTF-8 are refused with a message that is. */
static void
test_gateways_not_utf8 (void)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(GError) error = NULL;

  g_assert_false (hbase_config_set_gateways (config, "h\xb1:1,[::1]:9090", &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_assert_true (g_utf8_validate (error->message, -1, NULL));
  g_assert_nonnull (strstr (error->message, "not UTF-8"));
  g_clear_error (&error);
  g_assert_false (hbase_config_add_gateway (config, "h\xb1", 9090, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_assert_true (g_utf8_validate (error->message, -1, NULL));
  g_assert_cmpuint (hbase_config_get_n_gateways (config), ==, 1);
}

static void
test_pool_wait_zero (void)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (hbase_config_set_pool_wait (config, 0, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (hbase_config_get_pool_wait (config), ==, 0);
}

static void
test_retry_backoff (void)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(GError) error = NULL;
  const struct {
    guint first;
    guint max;
    const char *wrong;
  } rejected[] = {
    { 0, 100, "retry-backoff-ms" },
    { 60001, 600000, "retry-backoff-ms" },
    { G_MAXUINT, G_MAXUINT, "retry-backoff-ms" },
    { 200, 199, "retry-backoff-max-ms" },
    { 1, 600001, "retry-backoff-max-ms" },
    { 1, 0, "retry-backoff-max-ms" },
  };

  g_assert_true (hbase_config_set_retry_backoff (config, 1, 1, &error));
  g_assert_cmpuint (hbase_config_get_retry_backoff (config), ==, 1);
  g_assert_cmpuint (hbase_config_get_retry_backoff_max (config), ==, 1);
  g_assert_true (hbase_config_set_retry_backoff (config, 60000, 600000, &error));
  g_assert_cmpuint (hbase_config_get_retry_backoff (config), ==, 60000);
  g_assert_cmpuint (hbase_config_get_retry_backoff_max (config), ==, 600000);
  g_assert_true (hbase_config_set_retry_backoff (config, 250, 250, &error));
  g_assert_no_error (error);

  for (guint i = 0; i < G_N_ELEMENTS (rejected); i++)
    {
      g_assert_false (hbase_config_set_retry_backoff (config, rejected[i].first, rejected[i].max, &error));
      assert_illegal (error, rejected[i].wrong);
      /* neither half changes */
      g_assert_cmpuint (hbase_config_get_retry_backoff (config), ==, 250);
      g_assert_cmpuint (hbase_config_get_retry_backoff_max (config), ==, 250);
      g_clear_error (&error);
    }
}

static void
test_protocol_transport (void)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (hbase_config_set_protocol (config, HBASE_PROTOCOL_COMPACT, &error));
  g_assert_true (hbase_config_set_transport (config, HBASE_TRANSPORT_FRAMED, &error));
  g_assert_no_error (error);
  g_assert_cmpint (hbase_config_get_protocol (config), ==, HBASE_PROTOCOL_COMPACT);
  g_assert_cmpint (hbase_config_get_transport (config), ==, HBASE_TRANSPORT_FRAMED);

  g_assert_false (hbase_config_set_protocol (config, (HBaseProtocol) 2, &error));
  assert_illegal (error, "protocol");
  g_clear_error (&error);
  g_assert_false (hbase_config_set_protocol (config, (HBaseProtocol) -1, &error));
  assert_illegal (error, "protocol");
  g_clear_error (&error);
  g_assert_false (hbase_config_set_transport (config, (HBaseTransport) 2, &error));
  assert_illegal (error, "transport");
  g_clear_error (&error);
  g_assert_false (hbase_config_set_transport (config, (HBaseTransport) -1, &error));
  assert_illegal (error, "transport");

  g_assert_cmpint (hbase_config_get_protocol (config), ==, HBASE_PROTOCOL_COMPACT);
  g_assert_cmpint (hbase_config_get_transport (config), ==, HBASE_TRANSPORT_FRAMED);

  g_assert_true (hbase_config_set_protocol (config, HBASE_PROTOCOL_BINARY, NULL));
  g_assert_true (hbase_config_set_transport (config, HBASE_TRANSPORT_BUFFERED, NULL));
  g_assert_cmpint (hbase_config_get_protocol (config), ==, HBASE_PROTOCOL_BINARY);
  g_assert_cmpint (hbase_config_get_transport (config), ==, HBASE_TRANSPORT_BUFFERED);
}

static void
test_gateways_valid (void)
{
  const struct {
    const char *text;
    const char *expected;   /* "host port;host port;..." */
  } cases[] = {
    { "localhost:9090", "localhost 9090" },
    { "10.0.0.1:1", "10.0.0.1 1" },
    { "gw.example.com", "gw.example.com 9090" },
    { "h1:9090,h2:9091", "h1 9090;h2 9091" },
    { "h1:9090,h2:9091 [::1]:9092 host", "h1 9090;h2 9091;::1 9092;host 9090" },
    { "  h1 , h2\t\th3\n", "h1 9090;h2 9090;h3 9090" },
    { "[::1]", "::1 9090" },
    { "[2001:db8::7]:65535", "2001:db8::7 65535" },
    { "[fe80::1%eth0]:9095", "fe80::1%eth0 9095" },
    { "[::ffff:10.1.2.3]:80", "::ffff:10.1.2.3 80" },
    { "same:1,same:1", "same 1;same 1" },
    { "h:09091", "h 9091" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(HBaseConfig) config = hbase_config_new ();
      g_autoptr(GError) error = NULL;
      g_autoptr(GString) got = g_string_new (NULL);

      g_autofree char *escaped = g_strescape (cases[i].text, NULL);

      g_test_message ("gateways '%s'", escaped);
      g_assert_true (hbase_config_set_gateways (config, cases[i].text, &error));
      g_assert_no_error (error);
      for (guint j = 0; j < hbase_config_get_n_gateways (config); j++)
        g_string_append_printf (got, "%s%s %u", j > 0 ? ";" : "",
                                hbase_config_get_gateway_host (config, j),
                                hbase_config_get_gateway_port (config, j));
      g_assert_cmpstr (got->str, ==, cases[i].expected);
    }
}

static void
test_gateways_invalid (void)
{
  const char *cases[] = {
    "",
    "   ",
    ",",
    "h1,,h2",
    "h1,",
    ",h1",
    "h1, ,h2",
    "h:0",
    "h:65536",
    "h:99999999999999999999",
    "h:",
    "h:-1",
    "h:+80",
    "h:80x",
    "h:0x50",
    ":9090",
    "::1",
    "::1:9090",
    "2001:db8::7",
    "fe80::1:9090",
    "[::1",
    "::1]",
    "[::1]9090",
    "[::1]:",
    "[::1]:0",
    "[]:9090",
    "[localhost]:9090",
    "[10.0.0.1]:9090",
    "[::1]:9090]",
    "h\001st:9090",
    "good:1 b\177d:2",
    "good:1 bad:x",
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(HBaseConfig) config = hbase_config_new ();
      g_autoptr(HBaseConfig) before = NULL;
      g_autoptr(GError) error = NULL;

      g_autofree char *escaped = g_strescape (cases[i], NULL);

      g_test_message ("gateways '%s'", escaped);
      g_assert_true (hbase_config_set_gateways (config, "keep:1,keep2:2", &error));
      before = hbase_config_copy (config);
      g_assert_false (hbase_config_set_gateways (config, cases[i], &error));
      assert_illegal (error, "gateways");
      assert_config_equal (config, before);
    }
}

static void
test_gateways_host_length (void)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *longest = g_strnfill (255, 'a');
  g_autofree char *too_long = g_strnfill (256, 'a');
  g_autofree char *longest_list = g_strconcat (longest, ":7", NULL);
  g_autofree char *too_long_list = g_strconcat (too_long, ":7", NULL);

  g_assert_true (hbase_config_set_gateways (config, longest_list, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (hbase_config_get_gateway_host (config, 0), ==, longest);
  g_assert_false (hbase_config_set_gateways (config, too_long_list, &error));
  assert_illegal (error, "gateways");
  g_clear_error (&error);
  g_assert_cmpstr (hbase_config_get_gateway_host (config, 0), ==, longest);

  g_assert_true (hbase_config_add_gateway (config, longest, 8, &error));
  g_assert_false (hbase_config_add_gateway (config, too_long, 8, &error));
  assert_illegal (error, "gateways");
  g_assert_cmpuint (hbase_config_get_n_gateways (config), ==, 2);
}

static void
test_gateways_replace (void)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (hbase_config_set_gateways (config, "a b c", &error));
  g_assert_cmpuint (hbase_config_get_n_gateways (config), ==, 3);
  g_assert_true (hbase_config_set_gateways (config, "d:4", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (hbase_config_get_n_gateways (config), ==, 1);
  g_assert_cmpstr (hbase_config_get_gateway_host (config, 0), ==, "d");
  g_assert_cmpuint (hbase_config_get_gateway_port (config, 0), ==, 4);

  /* a bad entry late in the list throws away the good ones before it */
  g_assert_false (hbase_config_set_gateways (config, "x:1 y:2 z:0", &error));
  assert_illegal (error, "gateways");
  g_assert_cmpuint (hbase_config_get_n_gateways (config), ==, 1);
  g_assert_cmpstr (hbase_config_get_gateway_host (config, 0), ==, "d");
}

static void
test_add_gateway (void)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(GError) error = NULL;
  const struct {
    const char *host;
    guint port;
  } rejected[] = {
    { NULL, 9090 },
    { "", 9090 },
    { "two words", 9090 },
    { "tab\there", 9090 },
    { "newline\n", 9090 },
    { "bell\a", 9090 },
    { "ok", 0 },
    { "ok", 65536 },
    { "ok", G_MAXUINT },
  };

  g_assert_true (hbase_config_add_gateway (config, "gw1", 1, &error));
  g_assert_true (hbase_config_add_gateway (config, "::1", 65535, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (hbase_config_get_n_gateways (config), ==, 3);
  g_assert_cmpstr (hbase_config_get_gateway_host (config, 0), ==, "localhost");
  g_assert_cmpstr (hbase_config_get_gateway_host (config, 1), ==, "gw1");
  g_assert_cmpuint (hbase_config_get_gateway_port (config, 1), ==, 1);
  g_assert_cmpstr (hbase_config_get_gateway_host (config, 2), ==, "::1");
  g_assert_cmpuint (hbase_config_get_gateway_port (config, 2), ==, 65535);

  for (guint i = 0; i < G_N_ELEMENTS (rejected); i++)
    {
      g_assert_false (hbase_config_add_gateway (config, rejected[i].host, rejected[i].port, &error));
      assert_illegal (error, "gateways");
      g_assert_cmpuint (hbase_config_get_n_gateways (config), ==, 3);
      g_clear_error (&error);
    }
}

static void
test_gateway_index_out_of_range (void)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();

  g_assert_null (hbase_config_get_gateway_host (config, 1));
  g_assert_cmpuint (hbase_config_get_gateway_port (config, 1), ==, 0);
  g_assert_null (hbase_config_get_gateway_host (config, G_MAXUINT));
  g_assert_cmpuint (hbase_config_get_gateway_port (config, G_MAXUINT), ==, 0);
}

static GKeyFile *
key_file_from (const char *text)
{
  g_autoptr(GKeyFile) key_file = g_key_file_new ();
  g_autoptr(GError) error = NULL;

  g_key_file_load_from_data (key_file, text, -1, G_KEY_FILE_NONE, &error);
  g_assert_no_error (error);
  return g_steal_pointer (&key_file);
}

static const char full_file[] =
  "# every setting\n"
  "[hbase]\n"
  "gateways = gw1:9191, [::1]:9192 gw3\n"
  "protocol = compact\n"
  "transport = FRAMED\n"
  "connect-timeout-ms = 1500\n"
  "operation-timeout-ms = 30000\n"
  "max-attempts = 3\n"
  "retry-backoff-ms = 200\n"
  "retry-backoff-max-ms = 8000\n"
  "pool-size = 16\n"
  "pool-wait-ms = 0\n"
  "max-message-size = 1048576\n"
  "[other]\n"
  "unrelated = yes\n";

static void
assert_full_file (const HBaseConfig *config)
{
  g_assert_cmpuint (hbase_config_get_n_gateways (config), ==, 3);
  g_assert_cmpstr (hbase_config_get_gateway_host (config, 0), ==, "gw1");
  g_assert_cmpuint (hbase_config_get_gateway_port (config, 0), ==, 9191);
  g_assert_cmpstr (hbase_config_get_gateway_host (config, 1), ==, "::1");
  g_assert_cmpuint (hbase_config_get_gateway_port (config, 1), ==, 9192);
  g_assert_cmpstr (hbase_config_get_gateway_host (config, 2), ==, "gw3");
  g_assert_cmpuint (hbase_config_get_gateway_port (config, 2), ==, 9090);
  g_assert_cmpint (hbase_config_get_protocol (config), ==, HBASE_PROTOCOL_COMPACT);
  g_assert_cmpint (hbase_config_get_transport (config), ==, HBASE_TRANSPORT_FRAMED);
  g_assert_cmpuint (hbase_config_get_connect_timeout (config), ==, 1500);
  g_assert_cmpuint (hbase_config_get_operation_timeout (config), ==, 30000);
  g_assert_cmpuint (hbase_config_get_max_attempts (config), ==, 3);
  g_assert_cmpuint (hbase_config_get_retry_backoff (config), ==, 200);
  g_assert_cmpuint (hbase_config_get_retry_backoff_max (config), ==, 8000);
  g_assert_cmpuint (hbase_config_get_pool_size (config), ==, 16);
  g_assert_cmpuint (hbase_config_get_pool_wait (config), ==, 0);
  g_assert_cmpuint (hbase_config_get_max_message_size (config), ==, 1048576);
}

static void
test_key_file_good (void)
{
  g_autoptr(GKeyFile) key_file = key_file_from (full_file);
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (hbase_config_load_key_file (config, key_file, NULL, &error));
  g_assert_no_error (error);
  assert_full_file (config);
}

static void
test_key_file_partial (void)
{
  /* keys not in the file keep their current values */
  g_autoptr(GKeyFile) key_file = key_file_from ("[hbase]\npool-size=2\n");
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(HBaseConfig) expected = hbase_config_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (hbase_config_set_max_attempts (config, 9, NULL));
  g_assert_true (hbase_config_set_max_attempts (expected, 9, NULL));
  g_assert_true (hbase_config_set_pool_size (expected, 2, NULL));
  g_assert_true (hbase_config_load_key_file (config, key_file, "hbase", &error));
  g_assert_no_error (error);
  assert_config_equal (config, expected);

  /* an empty group changes nothing and is no error */
  {
    g_autoptr(GKeyFile) empty = key_file_from ("[hbase]\n");

    g_assert_true (hbase_config_load_key_file (config, empty, NULL, &error));
    g_assert_no_error (error);
    assert_config_equal (config, expected);
  }
}

static void
test_key_file_custom_group (void)
{
  g_autoptr(GKeyFile) key_file =
    key_file_from ("[hbase]\npool-size=2\n[analytics]\npool-size=5\ngateways=an1 an2\n");
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (hbase_config_load_key_file (config, key_file, "analytics", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (hbase_config_get_pool_size (config), ==, 5);
  g_assert_cmpuint (hbase_config_get_n_gateways (config), ==, 2);
  g_assert_cmpstr (hbase_config_get_gateway_host (config, 1), ==, "an2");
}

static void
test_key_file_missing_group (void)
{
  g_autoptr(GKeyFile) key_file = key_file_from ("[other]\npool-size=2\n");
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(GError) error = NULL;

  g_assert_false (hbase_config_load_key_file (config, key_file, NULL, &error));
  assert_illegal (error, "[hbase]");
  g_clear_error (&error);
  g_assert_false (hbase_config_load_key_file (config, key_file, "nosuch", &error));
  assert_illegal (error, "[nosuch]");
  assert_defaults (config);
}

/* GLib returns a value with a bad escape and sets an error: the value is
 * refused (not applied, the error not leaked), and a second bad value does
 * not set the error again. */
static void
test_key_file_bad_escape (void)
{
  g_autoptr(GKeyFile) key_file = key_file_from ("[hbase]\ngateways=h1\\q\nprotocol=\\q\n");
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(GError) error = NULL;

  g_assert_false (hbase_config_load_key_file (config, key_file, NULL, &error));
  assert_illegal (error, "gateways");
  assert_defaults (config);
  g_clear_error (&error);

  /* a lone backslash at the end of a value */
  {
    g_autoptr(GKeyFile) trailing = key_file_from ("[hbase]\npool-size=2\\\n");

    g_assert_false (hbase_config_load_key_file (config, trailing, NULL, &error));
    assert_illegal (error, "pool-size");
    assert_defaults (config);
  }
}

static void
test_key_file_unknown_key (void)
{
  const char *cases[][2] = {
    { "[hbase]\npool-size=2\npool_size=3\n", "unknown setting 'pool_size' in group [hbase]" },
    { "[hbase]\nPool-Size=3\n", "unknown setting 'Pool-Size' in group [hbase]" },
    { "[hbase]\ngateway=h1\n", "unknown setting 'gateway' in group [hbase]" },
    /* a key that is not UTF-8 is quoted escaped */
    { "[hbase]\ngate\x9fway=h1\n", "unknown setting 'gate\\237way' in group [hbase]" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GKeyFile) key_file = key_file_from (cases[i][0]);
      g_autoptr(HBaseConfig) config = hbase_config_new ();
      g_autoptr(GError) error = NULL;

      g_assert_false (hbase_config_load_key_file (config, key_file, NULL, &error));
      assert_illegal (error, cases[i][1]);
      assert_defaults (config);
    }
}

static void
test_key_file_bad_values (void)
{
  /* Each file is valid up to its last line; the earlier lines must not
   * be applied either. */
  const char *cases[][2] = {
    { "pool-size = 0", "pool-size must be between 1 and 1024, got 0" },
    { "pool-size = 1025", "pool-size" },
    { "pool-size = -1", "pool-size" },
    { "pool-size = +4", "pool-size" },
    { "pool-size = 4x", "pool-size" },
    { "pool-size = 0x10", "pool-size" },
    { "pool-size = 4.0", "pool-size" },
    { "pool-size = 4 4", "pool-size" },
    { "pool-size =", "pool-size" },
    { "pool-size = 99999999999999999999999", "pool-size" },
    { "pool-size = 4294967296", "pool-size" },
    { "connect-timeout-ms = 600001", "connect-timeout-ms" },
    { "operation-timeout-ms = 0", "operation-timeout-ms" },
    { "max-attempts = 101", "max-attempts" },
    { "pool-wait-ms = 3600001", "pool-wait-ms" },
    { "retry-backoff-ms = 0", "retry-backoff-ms" },
    { "retry-backoff-ms = 6000", "retry-backoff-max-ms" },   /* over the current max of 5000 */
    { "retry-backoff-max-ms = 50", "retry-backoff-max-ms" },  /* under the current first of 100 */
    { "retry-backoff-max-ms = many", "retry-backoff-max-ms" },
    { "protocol = json", "protocol" },
    { "protocol = ", "protocol" },
    { "transport = http", "transport" },
    { "gateways = ", "gateways" },
    { "gateways = h1:0", "gateways" },
    { "gateways = ::1", "gateways" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = g_strdup_printf ("[hbase]\n"
                                               "gateways = first:1\n"
                                               "max-attempts = 2\n"
                                               "transport = framed\n"
                                               "%s\n", cases[i][0]);
      g_autoptr(GKeyFile) key_file = key_file_from (text);
      g_autoptr(HBaseConfig) config = hbase_config_new ();
      g_autoptr(GError) error = NULL;

      g_test_message ("line '%s'", cases[i][0]);
      g_assert_false (hbase_config_load_key_file (config, key_file, NULL, &error));
      assert_illegal (error, cases[i][1]);
      assert_illegal (error, "group [hbase]: ");
      assert_defaults (config);
    }
}

static void
test_key_file_retry_backoff_pair (void)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(GError) error = NULL;

  /* Both given: checked as a pair, whatever the order and however far
   * from the current values. */
  {
    g_autoptr(GKeyFile) key_file =
      key_file_from ("[hbase]\nretry-backoff-max-ms=60000\nretry-backoff-ms=20000\n");

    g_assert_true (hbase_config_load_key_file (config, key_file, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (hbase_config_get_retry_backoff (config), ==, 20000);
    g_assert_cmpuint (hbase_config_get_retry_backoff_max (config), ==, 60000);
  }
  /* One given: combined with the current other one. */
  {
    g_autoptr(GKeyFile) key_file = key_file_from ("[hbase]\nretry-backoff-max-ms=20000\n");

    g_assert_true (hbase_config_load_key_file (config, key_file, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (hbase_config_get_retry_backoff (config), ==, 20000);
    g_assert_cmpuint (hbase_config_get_retry_backoff_max (config), ==, 20000);
  }
  {
    g_autoptr(GKeyFile) key_file = key_file_from ("[hbase]\nretry-backoff-max-ms=19999\n");

    g_assert_false (hbase_config_load_key_file (config, key_file, NULL, &error));
    assert_illegal (error, "retry-backoff-max-ms");
    g_assert_cmpuint (hbase_config_get_retry_backoff (config), ==, 20000);
    g_assert_cmpuint (hbase_config_get_retry_backoff_max (config), ==, 20000);
  }
}

static void
test_load_file (void)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(GError) error = NULL;
  TempFile tmp = { NULL, NULL };

  temp_file_write (&tmp, full_file);
  g_assert_true (hbase_config_load_file (config, tmp.path, &error));
  g_assert_no_error (error);
  assert_full_file (config);
  temp_file_clear (&tmp);
}

static void
test_load_file_missing (void)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-hbase-config-XXXXXX", NULL);
  g_autofree char *path = NULL;

  g_assert_nonnull (dir);
  path = g_build_filename (dir, "no-such.conf", NULL);
  g_assert_false (hbase_config_load_file (config, path, &error));
  assert_illegal (error, path);
  /* GLib's reason is kept */
  assert_illegal (error, g_strerror (ENOENT));
  assert_defaults (config);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

static void
test_load_file_errors (void)
{
  const char *cases[][2] = {
    { "this is not a key file\n", "cannot load" },
    { "[other]\npool-size=2\n", "group [hbase] not found" },
    { "[hbase]\npool-size=2\nretries=4\n", "unknown setting 'retries' in group [hbase]" },
    { "[hbase]\npool-size=2\nmax-attempts=0\n", "max-attempts must be between 1 and 100, got 0" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(HBaseConfig) config = hbase_config_new ();
      g_autoptr(GError) error = NULL;
      TempFile tmp = { NULL, NULL };

      temp_file_write (&tmp, cases[i][0]);
      g_assert_false (hbase_config_load_file (config, tmp.path, &error));
      assert_illegal (error, tmp.path);
      assert_illegal (error, cases[i][1]);
      assert_defaults (config);
      temp_file_clear (&tmp);
    }
}

static void
test_environment_none (void)
{
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(GError) error = NULL;

  clear_environment ();
  config = hbase_config_new_from_environment (&error);
  g_assert_no_error (error);
  g_assert_nonnull (config);
  assert_defaults (config);

  /* empty variables count as unset */
  for (guint i = 0; i < G_N_ELEMENTS (variables); i++)
    g_setenv (variables[i], "", TRUE);
  g_assert_true (hbase_config_load_environment (config, &error));
  g_assert_no_error (error);
  assert_defaults (config);
  clear_environment ();
}

static void
test_environment_every_variable (void)
{
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(GError) error = NULL;

  clear_environment ();
  g_setenv ("HBASE_GLIB_GATEWAYS", "gw1:9191,[::1]:9192 gw3", TRUE);
  g_setenv ("HBASE_GLIB_PROTOCOL", "compact", TRUE);
  g_setenv ("HBASE_GLIB_TRANSPORT", "framed", TRUE);
  g_setenv ("HBASE_GLIB_CONNECT_TIMEOUT_MS", "1500", TRUE);
  g_setenv ("HBASE_GLIB_OPERATION_TIMEOUT_MS", "30000", TRUE);
  g_setenv ("HBASE_GLIB_MAX_ATTEMPTS", "3", TRUE);
  g_setenv ("HBASE_GLIB_RETRY_BACKOFF_MS", "200", TRUE);
  g_setenv ("HBASE_GLIB_RETRY_BACKOFF_MAX_MS", "8000", TRUE);
  g_setenv ("HBASE_GLIB_POOL_SIZE", "16", TRUE);
  g_setenv ("HBASE_GLIB_POOL_WAIT_MS", "0", TRUE);
  g_setenv ("HBASE_GLIB_MAX_MESSAGE_SIZE", "1048576", TRUE);

  config = hbase_config_new_from_environment (&error);
  g_assert_no_error (error);
  g_assert_nonnull (config);
  assert_full_file (config);
  clear_environment ();
}

/* The get coalescing settings from the environment and a key file. */
static void
test_environment_coalescing (void)
{
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(HBaseConfig) from_file = hbase_config_new ();
  g_autoptr(GKeyFile) key_file = g_key_file_new ();
  g_autoptr(GError) error = NULL;

  clear_environment ();
  g_setenv ("HBASE_GLIB_COALESCE_GETS", "1", TRUE);
  g_setenv ("HBASE_GLIB_COALESCE_GETS_WINDOW_US", "250", TRUE);
  config = hbase_config_new_from_environment (&error);
  g_assert_no_error (error);
  g_assert_cmpuint (hbase_config_get_coalesce_gets (config), ==, 1);
  g_assert_cmpuint (hbase_config_get_coalesce_gets_window (config), ==, 250);
  g_clear_pointer (&config, hbase_config_free);
  g_setenv ("HBASE_GLIB_COALESCE_GETS", "0", TRUE);
  g_assert_null (hbase_config_new_from_environment (&error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "coalesce-gets must be between 1 and 10000, got 0"));
  g_clear_error (&error);
  clear_environment ();

  g_assert_true (g_key_file_load_from_data (key_file, "[hbase]\ncoalesce-gets = 500\n"
                                            "coalesce-gets-window-us = 2000000\n", -1, 0, &error));
  g_assert_false (hbase_config_load_key_file (from_file, key_file, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "coalesce-gets-window-us"));
  /* all or nothing */
  g_assert_cmpuint (hbase_config_get_coalesce_gets (from_file), ==, 100);
}

static void
test_environment_file_then_variables (void)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(GError) error = NULL;
  TempFile tmp = { NULL, NULL };

  clear_environment ();
  temp_file_write (&tmp,
                   "[hbase]\n"
                   "gateways = from-file:1\n"
                   "pool-size = 5\n"
                   "max-attempts = 4\n"
                   "retry-backoff-ms = 1000\n"
                   "retry-backoff-max-ms = 20000\n");
  g_setenv ("HBASE_GLIB_CONFIG", tmp.path, TRUE);
  g_setenv ("HBASE_GLIB_POOL_SIZE", "7", TRUE);
  g_setenv ("HBASE_GLIB_GATEWAYS", "from-env", TRUE);
  /* valid only against the file's retry-backoff-ms, not the default */
  g_setenv ("HBASE_GLIB_RETRY_BACKOFF_MAX_MS", "1000", TRUE);

  g_assert_true (hbase_config_load_environment (config, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (hbase_config_get_n_gateways (config), ==, 1);
  g_assert_cmpstr (hbase_config_get_gateway_host (config, 0), ==, "from-env");
  g_assert_cmpuint (hbase_config_get_gateway_port (config, 0), ==, 9090);
  g_assert_cmpuint (hbase_config_get_pool_size (config), ==, 7);
  g_assert_cmpuint (hbase_config_get_max_attempts (config), ==, 4);
  g_assert_cmpuint (hbase_config_get_retry_backoff (config), ==, 1000);
  g_assert_cmpuint (hbase_config_get_retry_backoff_max (config), ==, 1000);
  g_assert_cmpuint (hbase_config_get_connect_timeout (config), ==, 5000);

  clear_environment ();
  temp_file_clear (&tmp);
}

static void
test_environment_invalid_variable (void)
{
  const char *cases[][3] = {
    { "HBASE_GLIB_POOL_SIZE", "0", "HBASE_GLIB_POOL_SIZE: pool-size must be between 1 and 1024, got 0" },
    { "HBASE_GLIB_POOL_SIZE", " 4", "HBASE_GLIB_POOL_SIZE: pool-size" },
    { "HBASE_GLIB_POOL_WAIT_MS", "-1", "HBASE_GLIB_POOL_WAIT_MS: pool-wait-ms" },
    { "HBASE_GLIB_CONNECT_TIMEOUT_MS", "5s", "HBASE_GLIB_CONNECT_TIMEOUT_MS: connect-timeout-ms" },
    { "HBASE_GLIB_OPERATION_TIMEOUT_MS", "3600001", "HBASE_GLIB_OPERATION_TIMEOUT_MS: operation-timeout-ms" },
    { "HBASE_GLIB_MAX_ATTEMPTS", "0", "HBASE_GLIB_MAX_ATTEMPTS: max-attempts" },
    { "HBASE_GLIB_RETRY_BACKOFF_MS", "60001", "HBASE_GLIB_RETRY_BACKOFF_MS: retry-backoff-ms" },
    /* fine alone, but over the default longest backoff of 5000 */
    { "HBASE_GLIB_RETRY_BACKOFF_MS", "6000", "HBASE_GLIB_RETRY_BACKOFF_MS: retry-backoff-max-ms" },
    { "HBASE_GLIB_RETRY_BACKOFF_MAX_MS", "99", "HBASE_GLIB_RETRY_BACKOFF_MAX_MS: retry-backoff-max-ms" },
    { "HBASE_GLIB_PROTOCOL", "thrift", "HBASE_GLIB_PROTOCOL: protocol" },
    { "HBASE_GLIB_TRANSPORT", "udp", "HBASE_GLIB_TRANSPORT: transport" },
    { "HBASE_GLIB_GATEWAYS", "a:1,,b:2", "HBASE_GLIB_GATEWAYS: gateways" },
    { "HBASE_GLIB_GATEWAYS", "fe80::1", "HBASE_GLIB_GATEWAYS: gateways" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(HBaseConfig) config = hbase_config_new ();
      g_autoptr(HBaseConfig) from_env = NULL;
      g_autoptr(GError) error = NULL;

      clear_environment ();
      /* valid variables alongside must not be applied either */
      g_setenv ("HBASE_GLIB_PROTOCOL", "compact", TRUE);
      g_setenv ("HBASE_GLIB_MAX_ATTEMPTS", "9", TRUE);
      g_setenv (cases[i][0], cases[i][1], TRUE);

      g_test_message ("%s=%s", cases[i][0], cases[i][1]);
      g_assert_false (hbase_config_load_environment (config, &error));
      assert_illegal (error, cases[i][2]);
      assert_defaults (config);
      g_clear_error (&error);

      from_env = hbase_config_new_from_environment (&error);
      g_assert_null (from_env);
      assert_illegal (error, cases[i][2]);
    }
  clear_environment ();
}

static void
test_environment_bad_file (void)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(GError) error = NULL;
  TempFile tmp = { NULL, NULL };

  clear_environment ();
  temp_file_write (&tmp, "[hbase]\npool-size=3\npool-wait-ms=never\n");
  g_setenv ("HBASE_GLIB_CONFIG", tmp.path, TRUE);
  g_assert_false (hbase_config_load_environment (config, &error));
  assert_illegal (error, "HBASE_GLIB_CONFIG: ");
  assert_illegal (error, tmp.path);
  assert_illegal (error, "pool-wait-ms");
  assert_defaults (config);
  g_clear_error (&error);

  /* the variables cannot mend a bad file: it is read first */
  g_setenv ("HBASE_GLIB_POOL_WAIT_MS", "10", TRUE);
  g_assert_false (hbase_config_load_environment (config, &error));
  assert_illegal (error, "HBASE_GLIB_CONFIG: ");
  assert_defaults (config);
  g_clear_error (&error);
  temp_file_clear (&tmp);

  /* a file that does not exist */
  g_setenv ("HBASE_GLIB_CONFIG", "/nonexistent/hbase-glib.conf", TRUE);
  g_assert_false (hbase_config_load_environment (config, &error));
  assert_illegal (error, "HBASE_GLIB_CONFIG: ");
  assert_illegal (error, "/nonexistent/hbase-glib.conf");
  assert_defaults (config);
  clear_environment ();
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  /* the developer's own settings must not leak into the tests */
  clear_environment ();

  g_test_add_func ("/connection/config/defaults", test_defaults);
  g_test_add_func ("/connection/config/free-null", test_free_null);
  g_test_add_func ("/connection/config/copy-is-independent", test_copy_is_independent);
  g_test_add_func ("/connection/config/numeric-setters", test_numeric_setters);
  g_test_add_func ("/connection/config/error-message-format", test_error_message_format);
  g_test_add_func ("/connection/config/gateways-not-utf8", test_gateways_not_utf8);
  g_test_add_func ("/connection/config/key-file-bad-escape", test_key_file_bad_escape);
  g_test_add_func ("/connection/config/pool-wait-zero", test_pool_wait_zero);
  g_test_add_func ("/connection/config/retry-backoff", test_retry_backoff);
  g_test_add_func ("/connection/config/protocol-transport", test_protocol_transport);
  g_test_add_func ("/connection/config/gateways/valid", test_gateways_valid);
  g_test_add_func ("/connection/config/gateways/invalid", test_gateways_invalid);
  g_test_add_func ("/connection/config/gateways/host-length", test_gateways_host_length);
  g_test_add_func ("/connection/config/gateways/replace", test_gateways_replace);
  g_test_add_func ("/connection/config/gateways/add", test_add_gateway);
  g_test_add_func ("/connection/config/gateways/index-out-of-range", test_gateway_index_out_of_range);
  g_test_add_func ("/connection/config/key-file/good", test_key_file_good);
  g_test_add_func ("/connection/config/key-file/partial", test_key_file_partial);
  g_test_add_func ("/connection/config/key-file/custom-group", test_key_file_custom_group);
  g_test_add_func ("/connection/config/key-file/missing-group", test_key_file_missing_group);
  g_test_add_func ("/connection/config/key-file/unknown-key", test_key_file_unknown_key);
  g_test_add_func ("/connection/config/key-file/bad-values", test_key_file_bad_values);
  g_test_add_func ("/connection/config/key-file/retry-backoff-pair", test_key_file_retry_backoff_pair);
  g_test_add_func ("/connection/config/file/good", test_load_file);
  g_test_add_func ("/connection/config/file/missing", test_load_file_missing);
  g_test_add_func ("/connection/config/file/errors", test_load_file_errors);
  g_test_add_func ("/connection/config/environment/none", test_environment_none);
  g_test_add_func ("/connection/config/environment/every-variable", test_environment_every_variable);
  g_test_add_func ("/connection/config/environment/coalescing", test_environment_coalescing);
  g_test_add_func ("/connection/config/environment/file-then-variables", test_environment_file_then_variables);
  g_test_add_func ("/connection/config/environment/invalid-variable", test_environment_invalid_variable);
  g_test_add_func ("/connection/config/environment/bad-file", test_environment_bad_file);
  return g_test_run ();
}
