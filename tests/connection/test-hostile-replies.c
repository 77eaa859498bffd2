/* SPDX-License-Identifier: Apache-2.0 */
/* Replies no honest gateway sends, from a scripted server the test runs on
 * loopback: announced lengths far beyond what follows (strings, binaries,
 * method names, lists, frames), lengths that overflow 32-bit arithmetic,
 * nesting without end, headers of no protocol, replies cut short.  Each
 * must end the call with an HBASE_ERROR within its deadline, without
 * allocating what the reply announced, and the connection must be
 * discarded rather than reused.  Both protocols, both transports, through
 * the public client API (get, exists, scan). */
#include "config.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <hbase-glib/hbase-glib.h>

/* --- a server that answers every request with given bytes ------------------ */

typedef struct {
  int listen_fd;
  guint port;
  GBytes *reply;       /* sent after the first bytes of the request arrive */
  gboolean close_after;   /* close after the reply, else hold until the client goes */
  GThread *thread;
  gint stop;
  gint requests;       /* connections on which a request arrived */
} Server;

static gpointer
server_run (gpointer data)
{
  Server *server = data;

  while (!g_atomic_int_get (&server->stop))
    {
      struct pollfd pfd = { .fd = server->listen_fd, .events = POLLIN };
      char buf[4096];
      int fd;

      if (poll (&pfd, 1, 50) <= 0)
        continue;
      fd = accept (server->listen_fd, NULL, NULL);
      if (fd < 0)
        continue;
      if (recv (fd, buf, sizeof buf, 0) > 0)
        {
          gsize len;

          g_atomic_int_inc (&server->requests);
          const guint8 *bytes = g_bytes_get_data (server->reply, &len);

          if (send (fd, bytes, len, MSG_NOSIGNAL) < 0)
            g_debug ("send: %s", g_strerror (errno));
          /* hold the connection open until the client closes it (or the
           * test ends), unless the script closes it */
          while (!server->close_after && !g_atomic_int_get (&server->stop))
            {
              struct pollfd cfd = { .fd = fd, .events = POLLIN };

              if (poll (&cfd, 1, 50) > 0 && recv (fd, buf, sizeof buf, 0) <= 0)
                break;
            }
        }
      close (fd);
    }
  return NULL;
}

static Server *
server_start (GBytes *reply, gboolean close_after)
{
  Server *server = g_new0 (Server, 1);
  struct sockaddr_in addr = { .sin_family = AF_INET, .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  socklen_t len = sizeof addr;

  server->listen_fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  g_assert_cmpint (server->listen_fd, >=, 0);
  g_assert_cmpint (bind (server->listen_fd, (struct sockaddr *) &addr, sizeof addr), ==, 0);
  g_assert_cmpint (listen (server->listen_fd, 8), ==, 0);
  g_assert_cmpint (getsockname (server->listen_fd, (struct sockaddr *) &addr, &len), ==, 0);
  server->port = ntohs (addr.sin_port);
  server->reply = g_bytes_ref (reply);
  server->close_after = close_after;
  server->thread = g_thread_new ("hostile-server", server_run, server);
  return server;
}

static void
server_stop (Server *server)
{
  g_atomic_int_set (&server->stop, 1);
  g_thread_join (server->thread);
  close (server->listen_fd);
  g_bytes_unref (server->reply);
  g_free (server);
}

/* --- replies ---------------------------------------------------------------- */

typedef enum { CALL_GET, CALL_EXISTS, CALL_SCAN } Call;

typedef struct {
  const char *name;
  HBaseProtocol protocol;
  gboolean framed;         /* TRUE: the bytes are wrapped in a frame of their length */
  const char *hex;         /* the reply, in hex, spaces ignored */
  gsize pad;               /* this many 'A' bytes follow */
  guint repeat_hex;        /* the last hex group "|..." repeated this many times */
  gboolean close_after;
  HBaseError code;     /* expected */
  Call call;
} Case;

static GByteArray *
hex_bytes (const char *hex)
{
  GByteArray *out = g_byte_array_new ();

  for (const char *p = hex; *p != '\0';)
    {
      if (*p == ' ')
        {
          p++;
          continue;
        }
      g_assert_true (g_ascii_isxdigit (p[0]) && g_ascii_isxdigit (p[1]));
      guint8 byte = (guint8) (g_ascii_xdigit_value (p[0]) * 16 + g_ascii_xdigit_value (p[1]));
      g_byte_array_append (out, &byte, 1);
      p += 2;
    }
  return out;
}

static GBytes *
case_reply (const Case *c)
{
  g_auto(GStrv) parts = g_strsplit (c->hex, "|", 3);
  g_autoptr(GByteArray) body = hex_bytes (parts[0]);
  GByteArray *out = g_byte_array_new ();

  if (parts[1] != NULL)
    {
      g_autoptr(GByteArray) unit = hex_bytes (parts[1]);

      for (guint i = 0; i < c->repeat_hex; i++)
        g_byte_array_append (body, unit->data, unit->len);
      if (parts[2] != NULL)
        {
          g_autoptr(GByteArray) tail = hex_bytes (parts[2]);

          g_byte_array_append (body, tail->data, tail->len);
        }
    }
  for (gsize i = 0; i < c->pad; i++)
    g_byte_array_append (body, (const guint8 *) "A", 1);
  if (c->framed)
    {
      guint32 size = GUINT32_TO_BE (body->len);

      g_byte_array_append (out, (const guint8 *) &size, 4);
    }
  g_byte_array_append (out, body->data, body->len);
  return g_byte_array_free_to_bytes (out);
}

/* Binary protocol: a reply header for "get" (version 1, type REPLY, seqid 0). */
#define BIN_GET "80010002 00000003 676574 00000000"
/* Compact protocol: the same (id 0x82, version 1 | REPLY << 5, seqid 0, "get"). */
#define CMP_GET "82 41 00 03 676574"

static const Case cases[] = {
  /* the method name */
  { "compact/name-0x7fffffff", HBASE_PROTOCOL_COMPACT, FALSE, "82 41 00 ffffffff07", 64, 0, FALSE,
    HBASE_ERROR_PROTOCOL, CALL_GET },
  { "compact-framed/name-0x7fffffff", HBASE_PROTOCOL_COMPACT, TRUE, "82 41 00 ffffffff07", 64, 0, FALSE,
    HBASE_ERROR_PROTOCOL, CALL_GET },
  { "binary/name-0x7fffffff", HBASE_PROTOCOL_BINARY, FALSE, "80010002 7fffffff", 64, 0, FALSE,
    HBASE_ERROR_PROTOCOL, CALL_GET },
  { "binary-framed/name-0x7fffffff", HBASE_PROTOCOL_BINARY, TRUE, "80010002 7fffffff", 64, 0, FALSE,
    HBASE_ERROR_PROTOCOL, CALL_GET },
  { "binary/name-negative", HBASE_PROTOCOL_BINARY, FALSE, "80010002 ffffff00", 64, 0, FALSE,
    HBASE_ERROR_PROTOCOL, CALL_GET },
  { "binary/name-1000", HBASE_PROTOCOL_BINARY, FALSE, "80010002 000003e8", 1000, 0, FALSE,
    HBASE_ERROR_PROTOCOL, CALL_GET },
  /* headers of no protocol, unknown message types */
  { "binary/unversioned", HBASE_PROTOCOL_BINARY, FALSE, "00000003 676574 02 00000000", 16, 0, FALSE,
    HBASE_ERROR_PROTOCOL, CALL_GET },
  { "binary/message-type-7", HBASE_PROTOCOL_BINARY, FALSE, "80010007 00000003 676574 00000000 00", 0, 0,
    FALSE, HBASE_ERROR_PROTOCOL, CALL_GET },
  { "compact/bad-protocol-id", HBASE_PROTOCOL_COMPACT, FALSE, "81 41 00 03 676574 00", 0, 0, FALSE,
    HBASE_ERROR_PROTOCOL, CALL_GET },
  { "compact/message-type-7", HBASE_PROTOCOL_COMPACT, FALSE, "82 e1 00 03 676574 00", 0, 0, FALSE,
    HBASE_ERROR_PROTOCOL, CALL_GET },
  /* binaries: TResult.row (field 1) announcing 2 GiB - 16 */
  { "binary/row-0x7ffffff0", HBASE_PROTOCOL_BINARY, FALSE, BIN_GET " 0c0000 0b0001 7ffffff0", 64, 0, FALSE,
    HBASE_ERROR_PROTOCOL, CALL_GET },
  { "compact/row-0x7ffffff0", HBASE_PROTOCOL_COMPACT, FALSE, CMP_GET " 0c00 18 f0ffffff07", 64, 0, FALSE,
    HBASE_ERROR_PROTOCOL, CALL_GET },
  { "compact-framed/row-0x7ffffff0", HBASE_PROTOCOL_COMPACT, TRUE, CMP_GET " 0c00 18 f0ffffff07", 64, 0,
    FALSE, HBASE_ERROR_PROTOCOL, CALL_GET },
  /* 1 MiB announced, 64 bytes sent, then the server closes: cut short */
  { "binary/row-cut-short", HBASE_PROTOCOL_BINARY, FALSE, BIN_GET " 0c0000 0b0001 00100000", 64, 0, TRUE,
    HBASE_ERROR_CONNECTION, CALL_GET },
  /* lists: TResult.columnValues (field 2) of 2^31 - 1 structs */
  { "binary/list-0x7fffffff", HBASE_PROTOCOL_BINARY, FALSE, BIN_GET " 0c0000 0f0002 0c 7fffffff", 64, 0,
    FALSE, HBASE_ERROR_PROTOCOL, CALL_GET },
  { "binary-framed/list-0x7fffffff", HBASE_PROTOCOL_BINARY, TRUE, BIN_GET " 0c0000 0f0002 0c 7fffffff", 64,
    0, FALSE, HBASE_ERROR_PROTOCOL, CALL_GET },
  { "compact/list-0x0fffffff", HBASE_PROTOCOL_COMPACT, FALSE, CMP_GET " 0c00 29 fc ffffff7f", 64, 0, FALSE,
    HBASE_ERROR_PROTOCOL, CALL_GET },
  /* an unknown field: a list of 2^29 doubles, 2^32 bytes: 0 in 32-bit arithmetic */
  { "binary/list-size-overflow", HBASE_PROTOCOL_BINARY, FALSE, BIN_GET " 0c0000 0f0063 04 20000000", 64, 0,
    FALSE, HBASE_ERROR_PROTOCOL, CALL_GET },
  { "binary/map-size-overflow", HBASE_PROTOCOL_BINARY, FALSE, BIN_GET " 0c0000 0d0063 0404 10000000", 64, 0,
    FALSE, HBASE_ERROR_PROTOCOL, CALL_GET },
  /* unknown fields nesting structs 100 deep */
  { "binary/nesting-100", HBASE_PROTOCOL_BINARY, FALSE, BIN_GET " 0c0000|0c0063|", 0, 100, FALSE,
    HBASE_ERROR_PROTOCOL, CALL_GET },
  { "compact/nesting-100", HBASE_PROTOCOL_COMPACT, FALSE, CMP_GET " 0c00|1c|", 0, 100, FALSE,
    HBASE_ERROR_PROTOCOL, CALL_GET },
  { "binary/list-nesting-100", HBASE_PROTOCOL_BINARY, FALSE, BIN_GET " 0c0000 0f0063|0f00000001|", 0, 100,
    FALSE, HBASE_ERROR_PROTOCOL, CALL_GET },
  /* frames */
  { "binary-framed/frame-0x7fffffff", HBASE_PROTOCOL_BINARY, FALSE, "7fffffff 80010002", 64, 0, FALSE,
    HBASE_ERROR_PROTOCOL, CALL_GET },
  { "binary-framed/frame-0", HBASE_PROTOCOL_BINARY, FALSE, "00000000 80010002", 64, 0, FALSE,
    HBASE_ERROR_PROTOCOL, CALL_GET },
  { "compact-framed/frame-cut-short", HBASE_PROTOCOL_COMPACT, FALSE, "00001000 82410003676574", 64, 0,
    TRUE, HBASE_ERROR_CONNECTION, CALL_GET },
  /* an exception reply whose message announces 2 GiB */
  { "binary/exception-message-0x7fffffff", HBASE_PROTOCOL_BINARY, FALSE,
    "80010003 00000003 676574 00000000 0b0001 7fffffff", 64, 0, FALSE, HBASE_ERROR_PROTOCOL, CALL_GET },
  /* other replies: exists (a bool) and a scan (the hand-written decoder) */
  { "binary/exists-name-0x7fffffff", HBASE_PROTOCOL_BINARY, FALSE, "80010002 7fffffff", 64, 0, FALSE,
    HBASE_ERROR_PROTOCOL, CALL_EXISTS },
  { "compact/scan-name-0x7fffffff", HBASE_PROTOCOL_COMPACT, FALSE, "82 41 00 ffffffff07", 64, 0, FALSE,
    HBASE_ERROR_PROTOCOL, CALL_SCAN },
};

static gboolean
case_is_framed (const Case *c)
{
  return c->framed || strstr (c->name, "-framed/") != NULL;
}

/* The settings of a case's client, but its gateway. */
static HBaseConfig *
case_config (const Case *c)
{
  HBaseConfig *config = hbase_config_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (hbase_config_set_protocol (config, c->protocol, &error));
  g_assert_true (hbase_config_set_transport (config, case_is_framed (c) ? HBASE_TRANSPORT_FRAMED
                                                                         : HBASE_TRANSPORT_BUFFERED,
                                             &error));
  g_assert_true (hbase_config_set_operation_timeout (config, 3000, &error));
  return config;
}

/* A scripted server, and a table handle of a client of it alone. */
typedef struct {
  Server *server;
  HBaseClient *client;
  HBaseTable *table;
} Scripted;

/* @config: the client's settings but its gateway (transfer full) */
static void
scripted_start (Scripted *scripted, GBytes *reply, gboolean close_after, HBaseConfig *config)
{
  g_autoptr(HBaseConfig) owned = config;
  g_autofree char *gateway = NULL;
  g_autoptr(GError) error = NULL;

  scripted->server = server_start (reply, close_after);
  gateway = g_strdup_printf ("127.0.0.1:%u", scripted->server->port);
  g_assert_true (hbase_config_set_gateways (owned, gateway, &error));
  scripted->client = hbase_client_new (owned);
  g_assert_no_error (error);
  scripted->table = hbase_table_new (scripted->client, "t", &error);
  g_assert_no_error (error);
  /* the scripted server answers the call under test only: no look at the
   * table's index mark before a write */
  hbase_table_set_allow_unindexed_writes (scripted->table, TRUE);
}

static void
scripted_stop (Scripted *scripted)
{
  g_clear_object (&scripted->table);
  g_clear_object (&scripted->client);
  server_stop (scripted->server);
}

static long
max_rss_kb (void)
{
  struct rusage usage;

  g_assert_cmpint (getrusage (RUSAGE_SELF, &usage), ==, 0);
  return usage.ru_maxrss;
}

static void
run_call (HBaseTable *table, Call call, GError **error)
{
  g_autoptr(GBytes) row = g_bytes_new_static ("k", 1);

  switch (call)
    {
    case CALL_GET:
      {
        g_autoptr(HBaseRow) result = hbase_table_get (table, row, NULL, NULL, error);

        g_assert_null (result);
        break;
      }
    case CALL_EXISTS:
      {
        gboolean exists = TRUE;

        g_assert_false (hbase_table_exists (table, row, NULL, &exists, NULL, error));
        break;
      }
    case CALL_SCAN:
      {
        g_autoptr(HBaseScanner) scanner = hbase_table_scan (table, NULL, error);

        if (scanner != NULL)
          {
            g_autoptr(HBaseRow) first = NULL;

            hbase_scanner_next (scanner, &first, NULL, error);

            g_assert_null (first);
          }
        break;
      }
    }
}

static void
test_hostile_reply (gconstpointer data)
{
  const Case *c = data;
  g_autoptr(GBytes) reply = case_reply (c);
  g_autoptr(GError) error = NULL;
  Scripted scripted;
  HBaseClientStats stats;
  long rss_before;
  gint64 start;

  scripted_start (&scripted, reply, c->close_after, case_config (c));
  rss_before = max_rss_kb ();
  start = g_get_monotonic_time ();
  run_call (scripted.table, c->call, &error);
  g_test_message ("%s: %s", c->name, error != NULL ? error->message : "(no error)");
  g_assert_error (error, HBASE_ERROR, (gint) c->code);
  /* a refused reply is refused at once, not after the deadline */
  if (c->code == HBASE_ERROR_PROTOCOL)
    g_assert_cmpint (g_get_monotonic_time () - start, <, 2 * G_USEC_PER_SEC);
  /* nothing near what the reply announced was allocated */
  g_assert_cmpint (max_rss_kb () - rss_before, <, 64 * 1024);
  hbase_client_get_stats (scripted.client, &stats);
  g_assert_cmpuint (stats.idle, ==, 0);
  g_assert_cmpuint (stats.connections_discarded, >=, 1);
  scripted_stop (&scripted);
}

/* A reply larger than the configured max-message-size is refused with a
 * message naming the limit, before its bytes are buffered. */
static void
test_max_message_size (void)
{
  const Case c = { "binary/value-above-limit", HBASE_PROTOCOL_BINARY, FALSE,
                   BIN_GET " 0c0000 0b0001 00002000", 8192, 0, FALSE, HBASE_ERROR_PROTOCOL, CALL_GET };
  g_autoptr(GBytes) reply = case_reply (&c);
  HBaseConfig *config = hbase_config_new ();
  g_autoptr(GError) error = NULL;
  Scripted scripted;

  g_assert_false (hbase_config_set_max_message_size (config, 100, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  g_assert_true (hbase_config_set_max_message_size (config, 4096, &error));
  g_assert_cmpuint (hbase_config_get_max_message_size (config), ==, 4096);
  scripted_start (&scripted, reply, FALSE, config);
  run_call (scripted.table, CALL_GET, &error);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "4096"));
  scripted_stop (&scripted);
}

/* A length under the limit but far beyond what arrives: memory follows
 * the bytes received, and the call ends at its deadline. */
static void
test_announced_not_sent (void)
{
  const Case c = { "binary/row-200MiB-held", HBASE_PROTOCOL_BINARY, FALSE,
                   BIN_GET " 0c0000 0b0001 0c800000", 64, 0, FALSE, HBASE_ERROR_TIMEOUT, CALL_GET };
  g_autoptr(GBytes) reply = case_reply (&c);
  g_autoptr(GError) error = NULL;
  Scripted scripted;
  long rss_before;
  gint64 start;

  scripted_start (&scripted, reply, FALSE, case_config (&c));
  rss_before = max_rss_kb ();
  start = g_get_monotonic_time ();
  run_call (scripted.table, CALL_GET, &error);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_TIMEOUT);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);
  g_assert_cmpint (max_rss_kb () - rss_before, <, 64 * 1024);
  scripted_stop (&scripted);
}

/* --- writes in doubt ------------------------------------------------------------ */

/* Settings with @attempts attempts and short pauses, but the gateway. */
static HBaseConfig *
doubt_config (guint attempts)
{
  HBaseConfig *config = hbase_config_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (hbase_config_set_operation_timeout (config, 3000, &error));
  g_assert_true (hbase_config_set_max_attempts (config, attempts, &error));
  g_assert_true (hbase_config_set_retry_backoff (config, 10, 20, &error));
  return config;
}

static HBaseMutation *
a_put (void)
{
  g_autoptr(GBytes) row = g_bytes_new_static ("k", 1);
  g_autoptr(GBytes) value = g_bytes_new_static ("v", 1);
  HBaseMutation *put = hbase_mutation_new_put (row);

  hbase_mutation_put (put, "f", "q", value);
  return put;
}

/* The gateway read the put and closed without answering: it may have
 * applied it.  The put is retried (a put may be repeated) and every
 * attempt meets the same fate; the error says so and is in doubt. */
static void
test_doubt_put_unanswered (void)
{
  g_autoptr(GBytes) nothing = g_bytes_new_static ("", 0);
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseMutation) put = a_put ();
  Scripted scripted;

  scripted_start (&scripted, nothing, TRUE, doubt_config (3));
  g_assert_false (hbase_table_apply (scripted.table, put, NULL, &error));
  g_test_message ("%s", error->message);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION);
  g_assert_true (hbase_error_is_in_doubt (error));
  g_assert_nonnull (strstr (error->message, "may have been applied"));
  g_assert_cmpint (g_atomic_int_get (&scripted.server->requests), ==, 3);
  scripted_stop (&scripted);
}

/* An increment is never sent again once a request of it may have
 * arrived: one request, an error in doubt. */
static void
test_doubt_increment_not_resent (void)
{
  g_autoptr(GBytes) nothing = g_bytes_new_static ("", 0);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) row = g_bytes_new_static ("k", 1);
  g_autoptr(HBaseMutation) increment = hbase_mutation_new_increment (row);
  g_autoptr(HBaseRow) result = NULL;
  Scripted scripted;

  scripted_start (&scripted, nothing, TRUE, doubt_config (5));
  hbase_mutation_increment (increment, "f", "n", 1);
  result = hbase_table_increment (scripted.table, increment, NULL, &error);
  g_assert_null (result);
  g_test_message ("%s", error->message);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION);
  g_assert_true (hbase_error_is_in_doubt (error));
  g_assert_cmpint (g_atomic_int_get (&scripted.server->requests), ==, 1);
  scripted_stop (&scripted);
}

/* Nothing listens: nothing was sent, the put certainly did not happen. */
static void
test_doubt_refused (void)
{
  struct sockaddr_in addr = { .sin_family = AF_INET, .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  socklen_t len = sizeof addr;
  int fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  g_autofree char *gateway = NULL;
  g_autoptr(HBaseConfig) config = doubt_config (2);
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(HBaseMutation) put = a_put ();
  g_autoptr(GError) error = NULL;

  /* a port that was free a moment ago, and nothing listens on it */
  g_assert_cmpint (bind (fd, (struct sockaddr *) &addr, sizeof addr), ==, 0);
  g_assert_cmpint (getsockname (fd, (struct sockaddr *) &addr, &len), ==, 0);
  gateway = g_strdup_printf ("127.0.0.1:%u", ntohs (addr.sin_port));
  close (fd);
  g_assert_true (hbase_config_set_gateways (config, gateway, &error));
  client = hbase_client_new (config);
  g_assert_no_error (error);
  table = hbase_table_new (client, "t", &error);
  g_assert_no_error (error);
  g_assert_false (hbase_table_apply (table, put, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION);
  g_assert_false (hbase_error_is_in_doubt (error));
  g_assert_null (strstr (error->message, "may have been applied"));
}

/* A read that failed after sending changed nothing: never in doubt. */
static void
test_doubt_not_for_reads (void)
{
  g_autoptr(GBytes) nothing = g_bytes_new_static ("", 0);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) row = g_bytes_new_static ("k", 1);
  g_autoptr(HBaseRow) result = NULL;
  Scripted scripted;

  scripted_start (&scripted, nothing, TRUE, doubt_config (2));
  result = hbase_table_get (scripted.table, row, NULL, NULL, &error);
  g_assert_null (result);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION);
  g_assert_false (hbase_error_is_in_doubt (error));
  scripted_stop (&scripted);
}

/* HBase's own answers: a refusal naming a do-not-retry exception is not
 * in doubt; a retryable I/O error (the gateway's client gave up) is. */
static void
test_doubt_server_answers (void)
{
  /* put's reply: field 1 (io) TIOError { 1: message, 2: canRetry } */
  static const struct {
    const char *hex;
    HBaseError code;
    gboolean in_doubt;
  } answers[] = {
    /* "NoSuchColumnFamilyException": a missing family is NOT_FOUND */
    { "80010002 00000003 707574 00000000 0c0001 0b0001 0000001b"
      "4e6f53756368436f6c756d6e46616d696c79457863657074696f6e" "020002 00 00 00",
      HBASE_ERROR_NOT_FOUND, FALSE },
    { "80010002 00000003 707574 00000000 0c0001 0b0001 00000007 74696d656f7574 020002 01 00 00",
      HBASE_ERROR_IO, TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (answers); i++)
    {
      g_autoptr(GByteArray) bytes = hex_bytes (answers[i].hex);
      g_autoptr(GBytes) reply = g_bytes_new (bytes->data, bytes->len);
      g_autoptr(GError) error = NULL;
      g_autoptr(HBaseMutation) put = a_put ();
      Scripted scripted;

      scripted_start (&scripted, reply, FALSE, doubt_config (1));
      g_assert_false (hbase_table_apply (scripted.table, put, NULL, &error));
      g_test_message ("%s", error->message);
      g_assert_error (error, HBASE_ERROR, (gint) answers[i].code);
      g_assert_cmpint (hbase_error_is_in_doubt (error), ==, answers[i].in_doubt);
      scripted_stop (&scripted);
    }
}

/* A host name that does not resolve is not retried: it will not resolve
 * within the call's seconds (a DNS server that does not answer is). */
static void
test_unknown_host_not_retried (void)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseClient) client = NULL;
  HBaseClientStats stats;

  g_assert_true (hbase_config_set_gateways (config, "no-such-host.invalid:9090", &error));
  client = hbase_client_new (config);
  g_assert_no_error (error);
  g_assert_false (hbase_client_ping (client, NULL, &error));
  g_test_message ("%s", error->message);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION);
  g_assert_nonnull (strstr (error->message, "no-such-host.invalid"));
  g_assert_null (strstr (error->message, "attempts"));
  hbase_client_get_stats (client, &stats);
  g_assert_cmpuint (stats.retries, ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/hostile-replies/%s", cases[i].name);

      g_test_add_data_func (path, &cases[i], test_hostile_reply);
    }
  g_test_add_func ("/hostile-replies/max-message-size", test_max_message_size);
  g_test_add_func ("/hostile-replies/announced-not-sent", test_announced_not_sent);
  g_test_add_func ("/in-doubt/put-unanswered", test_doubt_put_unanswered);
  g_test_add_func ("/in-doubt/increment-not-resent", test_doubt_increment_not_resent);
  g_test_add_func ("/in-doubt/refused", test_doubt_refused);
  g_test_add_func ("/in-doubt/not-for-reads", test_doubt_not_for_reads);
  g_test_add_func ("/in-doubt/server-answers", test_doubt_server_answers);
  g_test_add_func ("/client/unknown-host-not-retried", test_unknown_host_not_retried);
  return g_test_run ();
}
