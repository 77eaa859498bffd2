/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of the pool's fast path (src/connection/hbase-client.c):
 * a connection that had a reply less than a second ago is reused for an
 * idempotent call without a liveness check, and when the gateway had
 * closed it anyway the call is sent again on a new connection, without
 * counting as a retry; non-idempotent calls, and connections with bytes
 * left in their buffers, are always checked.  (The
 * transport side, one recv() per reply after a poll, is in
 * test-hbase-transport.c.)
 *
 * The gateway is a scripted fake on loopback answering
 * getThriftServerType (binary protocol, buffered transport), so no HBase
 * is needed. */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <hbase-glib/hbase-glib-thrift.h>

/* getThriftServerType, binary protocol: the request the client sends and
 * the reply "TWO" */
#define METHOD "getThriftServerType"
#define REQUEST_LEN (4 + 4 + (sizeof METHOD - 1) + 4 + 1)

typedef struct {
  int listen_fd;
  guint port;
  GThread *thread;
  gboolean close_after_reply;   /* close each connection after one reply */
  gboolean stray_byte;          /* send a byte nobody asked for after each reply */
  gint connections;             /* accepted so far */
  gint replies;                 /* replies sent so far */
  gint closed;                  /* connections closed so far */
} FakeGateway;

static gboolean
read_exactly (int fd, guint8 *buf, gsize len)
{
  gsize got = 0;

  while (got < len)
    {
      ssize_t n = recv (fd, buf + got, len - got, 0);

      if (n <= 0)
        return FALSE;
      got += (gsize) n;
    }
  return TRUE;
}

static void
put32 (GByteArray *out, guint32 value)
{
  guint32 be = GUINT32_TO_BE (value);

  g_byte_array_append (out, (const guint8 *) &be, 4);
}

static GByteArray *
server_type_reply (void)
{
  GByteArray *out = g_byte_array_new ();
  const guint8 field_header[] = { 8 /* T_I32 */, 0, 0 /* id 0: success */ };
  const guint8 stop = 0;

  put32 (out, 0x80010002);   /* version 1, T_REPLY */
  put32 (out, sizeof METHOD - 1);
  g_byte_array_append (out, (const guint8 *) METHOD, sizeof METHOD - 1);
  put32 (out, 0);            /* seqid */
  g_byte_array_append (out, field_header, sizeof field_header);
  put32 (out, 2);            /* TThriftServerType.TWO */
  g_byte_array_append (out, &stop, 1);
  return out;
}

/* Serves connections one after the other until the listening socket is
 * shut down. */
static gpointer
fake_gateway_thread (gpointer data)
{
  FakeGateway *gateway = data;
  g_autoptr(GByteArray) reply = server_type_reply ();

  if (gateway->stray_byte)
    g_byte_array_append (reply, (const guint8 *) "!", 1);   /* in the same send() */

  for (;;)
    {
      int fd = accept (gateway->listen_fd, NULL, NULL);
      guint8 request[REQUEST_LEN];

      if (fd < 0)
        return NULL;
      g_atomic_int_inc (&gateway->connections);
      while (read_exactly (fd, request, sizeof request))
        {
          g_assert_cmpmem (request + 8, sizeof METHOD - 1, METHOD, sizeof METHOD - 1);
          /* counted first: the client may go on as soon as it is sent */
          g_atomic_int_inc (&gateway->replies);
          g_assert_cmpint (send (fd, reply->data, reply->len, MSG_NOSIGNAL), ==, (gssize) reply->len);
          if (gateway->close_after_reply)
            break;
        }
      close (fd);
      g_atomic_int_inc (&gateway->closed);
    }
}

/* Until the gateway has closed @n connections: on loopback its FIN is then
 * in the client's socket already. */
static void
fake_gateway_wait_closed (FakeGateway *gateway, gint n)
{
  gint64 give_up = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  while (g_atomic_int_get (&gateway->closed) < n)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, give_up);
      g_usleep (G_TIME_SPAN_MILLISECOND);
    }
}

static FakeGateway *
fake_gateway_start_full (gboolean close_after_reply, gboolean stray_byte)
{
  FakeGateway *gateway = g_new0 (FakeGateway, 1);
  struct sockaddr_in sin = { .sin_family = AF_INET, .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  socklen_t len = sizeof sin;

  gateway->close_after_reply = close_after_reply;
  gateway->stray_byte = stray_byte;
  gateway->listen_fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  g_assert_cmpint (gateway->listen_fd, >=, 0);
  g_assert_cmpint (bind (gateway->listen_fd, (struct sockaddr *) &sin, sizeof sin), ==, 0);
  g_assert_cmpint (listen (gateway->listen_fd, 8), ==, 0);
  g_assert_cmpint (getsockname (gateway->listen_fd, (struct sockaddr *) &sin, &len), ==, 0);
  gateway->port = ntohs (sin.sin_port);
  gateway->thread = g_thread_new ("fake-gateway", fake_gateway_thread, gateway);
  return gateway;
}

static FakeGateway *
fake_gateway_start (gboolean close_after_reply)
{
  return fake_gateway_start_full (close_after_reply, FALSE);
}

static void
fake_gateway_stop (FakeGateway *gateway)
{
  shutdown (gateway->listen_fd, SHUT_RDWR);   /* wakes accept() */
  g_thread_join (gateway->thread);
  close (gateway->listen_fd);
  g_free (gateway);
}

static HBaseClient *
client_for (FakeGateway *gateway)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *gateways = g_strdup_printf ("127.0.0.1:%u", gateway->port);
  HBaseClient *client;

  hbase_config_set_gateways (config, gateways, &error);
  g_assert_no_error (error);
  client = hbase_client_new (config);
  g_assert_no_error (error);
  return client;
}

static gboolean
ping_once (HbaseThriftTHBaseServiceIf *service, gpointer user_data, GError **error)
{
  HbaseThriftTThriftServerType type = 0;
  GError *call_error = NULL;

  if (!hbase_thrift_t_h_base_service_if_get_thrift_server_type (service, &type, &call_error))
    {
      hbase_error_take_call_error (error, call_error, NULL, NULL);
      return FALSE;
    }
  g_assert_cmpint (type, ==, HBASE_THRIFT_T_THRIFT_SERVER_TYPE_TWO);
  return TRUE;
}

static void
call (HBaseClient *client, HBaseCallFlags flags)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (hbase_client_call (client, flags, ping_once, NULL, NULL, &error));
  g_assert_no_error (error);
}

/* The gateway closes the socket right after its reply; the next
 * idempotent call, within the second, is not checked first, fails without
 * a byte of reply, and goes out again on a new connection: no retry. */
static void
test_recent_closed_idempotent (void)
{
  FakeGateway *gateway = fake_gateway_start (TRUE);
  g_autoptr(HBaseClient) client = client_for (gateway);
  HBaseClientStats stats;

  call (client, HBASE_CALL_IDEMPOTENT);
  fake_gateway_wait_closed (gateway, 1);   /* the FIN arrives */
  call (client, HBASE_CALL_IDEMPOTENT);
  hbase_client_get_stats (client, &stats);
  g_assert_cmpint (g_atomic_int_get (&gateway->replies), ==, 2);
  g_assert_cmpuint (stats.retries, ==, 0);
  g_assert_cmpuint (stats.connections_opened, ==, 2);
  g_assert_cmpuint (stats.connections_reopened, ==, 1);
  g_assert_cmpuint (stats.connections_discarded, ==, 0);
  g_assert_cmpuint (stats.open, ==, 1);
  g_assert_cmpuint (stats.idle, ==, 1);
  g_clear_object (&client);
  fake_gateway_stop (gateway);
}

/* The same for a call that must not be sent twice: the pool checks the
 * socket first and replaces it before sending anything. */
static void
test_recent_closed_not_idempotent (void)
{
  FakeGateway *gateway = fake_gateway_start (TRUE);
  g_autoptr(HBaseClient) client = client_for (gateway);
  HBaseClientStats stats;

  call (client, HBASE_CALL_DEFAULT);
  fake_gateway_wait_closed (gateway, 1);
  call (client, HBASE_CALL_DEFAULT);
  hbase_client_get_stats (client, &stats);
  g_assert_cmpint (g_atomic_int_get (&gateway->replies), ==, 2);
  g_assert_cmpint (g_atomic_int_get (&gateway->connections), ==, 2);
  g_assert_cmpuint (stats.retries, ==, 0);
  g_assert_cmpuint (stats.connections_reopened, ==, 1);
  g_assert_cmpuint (stats.connections_discarded, ==, 0);
  g_clear_object (&client);
  fake_gateway_stop (gateway);
}

/* A gateway that keeps the connection: one connection serves every call,
 * checked or not. */
static void
test_recent_open_reused (void)
{
  FakeGateway *gateway = fake_gateway_start (FALSE);
  g_autoptr(HBaseClient) client = client_for (gateway);
  HBaseClientStats stats;

  for (guint i = 0; i < 20; i++)
    call (client, i % 2 == 0 ? HBASE_CALL_IDEMPOTENT : HBASE_CALL_DEFAULT);
  hbase_client_get_stats (client, &stats);
  g_assert_cmpint (g_atomic_int_get (&gateway->replies), ==, 20);
  g_assert_cmpint (g_atomic_int_get (&gateway->connections), ==, 1);
  g_assert_cmpuint (stats.connections_opened, ==, 1);
  g_assert_cmpuint (stats.connections_reopened, ==, 0);
  g_assert_cmpuint (stats.retries, ==, 0);
  g_clear_object (&client);
  fake_gateway_stop (gateway);
}

/* A byte nobody asked for came with the reply and was read ahead: the
 * stream is out of step, so even a recently used connection is checked
 * (and replaced, sending nothing) instead of decoding that byte as the
 * start of the next reply. */
static void
test_recent_stray_byte_checked (void)
{
  FakeGateway *gateway = fake_gateway_start_full (FALSE, TRUE);
  g_autoptr(HBaseClient) client = client_for (gateway);
  HBaseClientStats stats;

  call (client, HBASE_CALL_IDEMPOTENT);
  call (client, HBASE_CALL_IDEMPOTENT);
  hbase_client_get_stats (client, &stats);
  g_assert_cmpint (g_atomic_int_get (&gateway->replies), ==, 2);
  g_assert_cmpint (g_atomic_int_get (&gateway->connections), ==, 2);
  g_assert_cmpuint (stats.retries, ==, 0);
  g_assert_cmpuint (stats.connections_reopened, ==, 1);
  g_clear_object (&client);
  fake_gateway_stop (gateway);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/connection/pool/recent-closed-idempotent", test_recent_closed_idempotent);
  g_test_add_func ("/connection/pool/recent-closed-not-idempotent",
                   test_recent_closed_not_idempotent);
  g_test_add_func ("/connection/pool/recent-open-reused", test_recent_open_reused);
  g_test_add_func ("/connection/pool/recent-stray-byte-checked", test_recent_stray_byte_checked);
  return g_test_run ();
}
