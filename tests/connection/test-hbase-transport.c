/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of hbase-glib's own Thrift transport (src/connection/hbase-transport.c)
 * against a scripted TCP peer the test runs itself on loopback: framing,
 * read-ahead, end of stream, SIGPIPE, deadlines, cancellation, connecting.
 * No HBase involved.
 *
 * Long because: every case talks to the same scripted peer the file
 * defines; split, each file would repeat it. */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <hbase-glib/hbase-glib.h>

#include "../../src/connection/hbase-transport.h"
#include "../support/test-stack.h"

#define MB (1024 * 1024)

/* --- a scripted peer ------------------------------------------------------------ */

typedef struct _Peer Peer;
typedef void (*PeerScript) (Peer *peer, int fd);

struct _Peer {
  int listen_fd;
  guint port;
  PeerScript script;
  GThread *thread;
  GByteArray *received;  /* what the script read, for the test to check */
  gsize size;            /* a parameter of the script */
  gint accepted;         /* set (atomically) once the connection is accepted */
};

/* Listens on @address (IPv4 or IPv6 literal) on a free port; NULL (with
 * errno set) when the address cannot be bound. */
static Peer *
peer_listen_on (const char *address, int backlog)
{
  struct sockaddr_storage storage = { 0 };
  socklen_t len;
  int family = strchr (address, ':') != NULL ? AF_INET6 : AF_INET;
  int fd = socket (family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  int one = 1;
  Peer *peer;

  if (fd < 0)
    return NULL;
  setsockopt (fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (family == AF_INET6)
    {
      struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *) &storage;

      sin6->sin6_family = AF_INET6;
      g_assert_cmpint (inet_pton (AF_INET6, address, &sin6->sin6_addr), ==, 1);
      len = sizeof *sin6;
    }
  else
    {
      struct sockaddr_in *sin = (struct sockaddr_in *) &storage;

      sin->sin_family = AF_INET;
      g_assert_cmpint (inet_pton (AF_INET, address, &sin->sin_addr), ==, 1);
      len = sizeof *sin;
    }
  if (bind (fd, (struct sockaddr *) &storage, len) < 0 || listen (fd, backlog) < 0)
    {
      int saved = errno;

      close (fd);
      errno = saved;
      return NULL;
    }
  len = sizeof storage;
  g_assert_cmpint (getsockname (fd, (struct sockaddr *) &storage, &len), ==, 0);

  peer = g_new0 (Peer, 1);
  peer->listen_fd = fd;
  peer->port = family == AF_INET6 ? ntohs (((struct sockaddr_in6 *) &storage)->sin6_port)
                                  : ntohs (((struct sockaddr_in *) &storage)->sin_port);
  peer->received = g_byte_array_new ();
  return peer;
}

static gpointer
peer_thread (gpointer data)
{
  Peer *peer = data;
  struct pollfd pfd = { .fd = peer->listen_fd, .events = POLLIN };
  int fd;

  /* bounded, so a test that fails before connecting cannot hang the join */
  if (poll (&pfd, 1, 10000) != 1)
    return NULL;
  fd = accept (peer->listen_fd, NULL, NULL);
  if (fd < 0)
    return NULL;
  g_atomic_int_set (&peer->accepted, 1);
  peer->script (peer, fd);
  close (fd);
  return NULL;
}

/* A peer on 127.0.0.1 that accepts one connection and runs @script on it. */
static Peer *
peer_start (PeerScript script, gsize size)
{
  Peer *peer = peer_listen_on ("127.0.0.1", 4);

  g_assert_nonnull (peer);
  peer->script = script;
  peer->size = size;
  peer->thread = g_thread_new ("peer", peer_thread, peer);
  return peer;
}

/* Waits for the script to end (the client must have closed by then if the
 * script reads until end of stream). */
static void
peer_join (Peer *peer)
{
  if (peer->thread != NULL)
    g_thread_join (g_steal_pointer (&peer->thread));
}

static void
peer_free (Peer *peer)
{
  peer_join (peer);
  if (peer->listen_fd >= 0)
    close (peer->listen_fd);
  g_byte_array_unref (peer->received);
  g_free (peer);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Peer, peer_free)

/* Waits until the peer thread has accepted the connection. */
static void
peer_wait_accepted (Peer *peer)
{
  for (int i = 0; i < 500 && !g_atomic_int_get (&peer->accepted); i++)
    g_usleep (10 * 1000);
  g_assert_true (g_atomic_int_get (&peer->accepted));
}

static gboolean
peer_send (int fd, const void *data, gsize len)
{
  const guint8 *p = data;

  while (len > 0)
    {
      ssize_t n = send (fd, p, len, MSG_NOSIGNAL);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      p += n;
      len -= (gsize) n;
    }
  return TRUE;
}

static gboolean
peer_send_frame_header (int fd, guint32 size)
{
  guint32 be = GUINT32_TO_BE (size);

  return peer_send (fd, &be, 4);
}

/* Reads exactly @len bytes into peer->received. */
static gboolean
peer_receive (Peer *peer, int fd, gsize len)
{
  guint8 buf[4096];

  while (len > 0)
    {
      ssize_t n = recv (fd, buf, MIN (len, sizeof buf), 0);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      g_byte_array_append (peer->received, buf, (guint) n);
      len -= (gsize) n;
    }
  return TRUE;
}

/* Reads into peer->received until the client closes. */
static void
peer_receive_until_eof (Peer *peer, int fd)
{
  guint8 buf[65536];

  for (;;)
    {
      ssize_t n = recv (fd, buf, sizeof buf, 0);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return;
      g_byte_array_append (peer->received, buf, (guint) n);
    }
}

/* Deterministic, non-periodic test data. */
static guint8 *
pattern (gsize len, guint seed)
{
  guint8 *data = g_malloc (len);
  guint32 x = 2463534242u ^ seed;

  for (gsize i = 0; i < len; i++)
    {
      x ^= x << 13;
      x ^= x >> 17;
      x ^= x << 5;
      data[i] = (guint8) x;
    }
  return data;
}

/* --- client helpers ------------------------------------------------------------------ */

static HBaseSocketTransport *
transport_connected (const char *host, guint port, gboolean framed)
{
  g_autoptr(GError) error = NULL;
  HBaseSocketTransport *transport = _hbase_socket_transport_new (host, port, framed, 2000);

  g_assert_true (_hbase_socket_transport_connect (transport, 0, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (thrift_transport_is_open (THRIFT_TRANSPORT (transport)));
  return transport;
}

static HBaseSocketTransport *
transport_to_peer (Peer *peer, gboolean framed)
{
  return transport_connected ("127.0.0.1", peer->port, framed);
}

static void
send_request (HBaseSocketTransport *transport, const char *text)
{
  g_autoptr(GError) error = NULL;
  ThriftTransport *t = THRIFT_TRANSPORT (transport);

  g_assert_true (thrift_transport_write (t, (gpointer) text, (guint32) strlen (text), &error));
  g_assert_true (thrift_transport_write_end (t, &error));
  g_assert_true (thrift_transport_flush (t, &error));
  g_assert_no_error (error);
}

static gint64
elapsed_ms (gint64 since)
{
  return (g_get_monotonic_time () - since) / 1000;
}

/* A guard against hangs: cancels a cancellable if the test has not
 * finished the guarded step within a time limit. */
typedef struct {
  GMutex lock;
  GCond cond;
  gboolean done;
  guint limit_ms;
  GCancellable *cancellable;
  GThread *thread;
} Watchdog;

static gpointer
watchdog_thread (gpointer data)
{
  Watchdog *dog = data;
  gint64 until = g_get_monotonic_time () + (gint64) dog->limit_ms * 1000;

  g_mutex_lock (&dog->lock);
  while (!dog->done)
    if (!g_cond_wait_until (&dog->cond, &dog->lock, until))
      {
        g_cancellable_cancel (dog->cancellable);
        break;
      }
  g_mutex_unlock (&dog->lock);
  return NULL;
}

static Watchdog *
watchdog_start (GCancellable *cancellable, guint limit_ms)
{
  Watchdog *dog = g_new0 (Watchdog, 1);

  g_mutex_init (&dog->lock);
  g_cond_init (&dog->cond);
  dog->limit_ms = limit_ms;
  dog->cancellable = g_object_ref (cancellable);
  dog->thread = g_thread_new ("watchdog", watchdog_thread, dog);
  return dog;
}

static void
watchdog_stop (Watchdog *dog)
{
  g_mutex_lock (&dog->lock);
  dog->done = TRUE;
  g_cond_signal (&dog->cond);
  g_mutex_unlock (&dog->lock);
  g_thread_join (dog->thread);
  g_object_unref (dog->cancellable);
  g_mutex_clear (&dog->lock);
  g_cond_clear (&dog->cond);
  g_free (dog);
}

typedef struct {
  GCancellable *cancellable;
  guint delay_ms;
} CancelLater;

static gpointer
cancel_later_thread (gpointer data)
{
  CancelLater *later = data;

  g_usleep (later->delay_ms * 1000);
  g_cancellable_cancel (later->cancellable);
  g_object_unref (later->cancellable);
  g_free (later);
  return NULL;
}

/* Cancels @cancellable from another thread after @delay_ms. */
static GThread *
cancel_later (GCancellable *cancellable, guint delay_ms)
{
  CancelLater *later = g_new0 (CancelLater, 1);

  later->cancellable = g_object_ref (cancellable);
  later->delay_ms = delay_ms;
  return g_thread_new ("canceller", cancel_later_thread, later);
}

/* --- buffered: read-ahead -------------------------------------------------------------- */

/* 1 MB in 1000-byte writes.  TCP_CORK only makes the kernel pack them into
 * full segments; each send() stays small. */
static void
script_send_1mb_small_writes (Peer *peer, int fd)
{
  g_autofree guint8 *data = pattern (peer->size, 1);
  int on = 1, off = 0;

  setsockopt (fd, IPPROTO_TCP, TCP_CORK, &on, sizeof on);
  for (gsize off_bytes = 0; off_bytes < peer->size; off_bytes += 1000)
    if (!peer_send (fd, data + off_bytes, MIN (1000, peer->size - off_bytes)))
      return;
  setsockopt (fd, IPPROTO_TCP, TCP_CORK, &off, sizeof off);
  peer_receive_until_eof (peer, fd);
}

static void
test_buffered_read_ahead (void)
{
  const gsize size = 1 * MB;
  g_autoptr(Peer) peer = peer_start (script_send_1mb_small_writes, size);
  g_autoptr(HBaseSocketTransport) transport = transport_to_peer (peer, FALSE);
  ThriftTransport *t = THRIFT_TRANSPORT (transport);
  g_autofree guint8 *expected = pattern (size, 1);
  g_autofree guint8 *got = g_malloc (size);
  g_autoptr(GError) error = NULL;
  guint64 recv_calls;

  g_assert_cmpuint (_hbase_socket_transport_get_recv_calls (transport), ==, 0);
  for (gsize i = 0; i < size; i += 4)
    {
      gint32 n = thrift_transport_read_all (t, got + i, 4, &error);

      g_assert_no_error (error);
      g_assert_cmpint (n, ==, 4);
    }
  g_assert_true (thrift_transport_read_end (t, &error));
  g_assert_true (memcmp (got, expected, size) == 0);

  /* 262144 reads of 4 bytes, served by a few large recv() calls */
  recv_calls = _hbase_socket_transport_get_recv_calls (transport);
  g_test_message ("1 MB in 4-byte reads took %" G_GUINT64_FORMAT " recv calls", recv_calls);
  g_assert_cmpuint (recv_calls, >, 0);
  g_assert_cmpuint (recv_calls, <, 200);
  /* everything was consumed: the connection is reusable */
  g_assert_true (_hbase_socket_transport_is_alive (transport));

  thrift_transport_close (t, NULL);
}

/* --- framed ------------------------------------------------------------------------------ */

static void
test_framed_request_is_one_frame (void)
{
  g_autoptr(Peer) peer = peer_start (peer_receive_until_eof, 0);
  g_autoptr(HBaseSocketTransport) transport = transport_to_peer (peer, TRUE);
  ThriftTransport *t = THRIFT_TRANSPORT (transport);
  g_autofree guint8 *big = pattern (5000, 2);
  g_autoptr(GError) error = NULL;
  g_autoptr(GByteArray) expected = g_byte_array_new ();
  guint32 be;

  /* one request in three pieces: nothing leaves before the flush */
  g_assert_true (thrift_transport_write (t, "0123456789", 10, &error));
  g_assert_true (thrift_transport_write (t, "x", 1, &error));
  g_assert_true (thrift_transport_write (t, big, 5000, &error));
  g_assert_true (thrift_transport_write_end (t, &error));
  g_assert_cmpuint (_hbase_socket_transport_get_bytes_sent (transport), ==, 0);
  g_assert_false (_hbase_socket_transport_is_alive (transport));  /* a request is pending */
  g_assert_true (thrift_transport_flush (t, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (_hbase_socket_transport_get_bytes_sent (transport), ==, 4 + 5011);
  g_assert_cmpuint (_hbase_socket_transport_get_send_calls (transport), ==, 1);

  /* a second request is a second frame */
  send_request (transport, "second");
  g_assert_cmpuint (_hbase_socket_transport_get_bytes_sent (transport), ==, 4 + 5011 + 4 + 6);
  g_assert_true (_hbase_socket_transport_is_alive (transport));

  thrift_transport_close (t, NULL);
  peer_join (peer);

  be = GUINT32_TO_BE (5011);
  g_byte_array_append (expected, (guint8 *) &be, 4);
  g_byte_array_append (expected, (guint8 *) "0123456789x", 11);
  g_byte_array_append (expected, big, 5000);
  be = GUINT32_TO_BE (6);
  g_byte_array_append (expected, (guint8 *) &be, 4);
  g_byte_array_append (expected, (guint8 *) "second", 6);
  g_assert_cmpuint (peer->received->len, ==, expected->len);
  g_assert_true (memcmp (peer->received->data, expected->data, expected->len) == 0);
  /* the prefix is big-endian on the wire */
  g_assert_cmpuint (peer->received->data[0], ==, 0);
  g_assert_cmpuint (peer->received->data[1], ==, 0);
  g_assert_cmpuint (peer->received->data[2], ==, 0x13);
  g_assert_cmpuint (peer->received->data[3], ==, 0x93);
}

/* A 2 MB frame then an 8 MB frame, each in 64 KB writes. */
static void
script_send_2mb_8mb_frames (Peer *peer, int fd)
{
  const gsize sizes[] = { 2 * MB, 8 * MB };

  for (guint f = 0; f < G_N_ELEMENTS (sizes); f++)
    {
      g_autofree guint8 *data = pattern (sizes[f], 10 + f);

      if (!peer_send_frame_header (fd, (guint32) sizes[f]))
        return;
      for (gsize off = 0; off < sizes[f]; off += 65536)
        if (!peer_send (fd, data + off, MIN (65536, sizes[f] - off)))
          return;
    }
  peer_receive_until_eof (peer, fd);
}

/* Reads a @size-byte frame in 16-byte pieces; returns the time it took in µs. */
static gint64
read_frame_in_pieces (ThriftTransport *t, gsize size, guint seed)
{
  g_autofree guint8 *expected = pattern (size, seed);
  g_autofree guint8 *got = g_malloc (size);
  g_autoptr(GError) error = NULL;
  gint64 start = g_get_monotonic_time (), took;

  for (gsize i = 0; i < size; i += 16)
    {
      if (thrift_transport_read_all (t, got + i, 16, &error) != 16)
        g_error ("read at offset %" G_GSIZE_FORMAT " failed: %s", i, error ? error->message : "?");
      /* a quadratic transport would take hours: fail instead of hanging */
      if (i % 65536 == 0 && g_get_monotonic_time () - start > 20 * G_USEC_PER_SEC)
        g_error ("reading %" G_GSIZE_FORMAT " bytes of a frame took over 20 s", i);
    }
  g_assert_true (thrift_transport_read_end (t, &error));
  took = g_get_monotonic_time () - start;
  g_assert_true (memcmp (got, expected, size) == 0);
  return took;
}

static void
test_framed_large_reply_linear (void)
{
  g_autoptr(Peer) peer = peer_start (script_send_2mb_8mb_frames, 0);
  g_autoptr(HBaseSocketTransport) transport = transport_to_peer (peer, TRUE);
  ThriftTransport *t = THRIFT_TRANSPORT (transport);
  gint64 t2, t8;
  guint64 recv_calls;

  t2 = read_frame_in_pieces (t, 2 * MB, 10);
  t8 = read_frame_in_pieces (t, 8 * MB, 11);
  recv_calls = _hbase_socket_transport_get_recv_calls (transport);
  g_test_message ("2 MB frame: %" G_GINT64_FORMAT " us, 8 MB frame: %" G_GINT64_FORMAT
                  " us, %" G_GUINT64_FORMAT " recv calls in all", t2, t8, recv_calls);

  /* Linear: 4x the bytes cost about 4x the time.  A transport that moves
   * the rest of the frame on every read (c_glib 0.17's) needs hours for
   * this; the bound leaves room for a loaded machine. */
  g_assert_cmpint (t8, <, 8 * t2 + 500 * 1000);
  g_assert_cmpint (t8, <, 10 * G_USEC_PER_SEC);
  /* 655360 reads served by at most a few recv() calls per 64 KB write */
  g_assert_cmpuint (recv_calls, <, 10 * MB / 4096);
  g_assert_true (_hbase_socket_transport_is_alive (transport));
  thrift_transport_close (t, NULL);
}

/* Frames: 1000 bytes, "hello world", 200 KB, "tail", then an 8-byte frame. */
static void
script_send_frames_to_skip (Peer *peer, int fd)
{
  g_autofree guint8 *first = pattern (1000, 20);
  g_autofree guint8 *large = pattern (200 * 1024, 21);

  if (peer_send_frame_header (fd, 1000) && peer_send (fd, first, 1000) &&
      peer_send_frame_header (fd, 11) && peer_send (fd, "hello world", 11) &&
      peer_send_frame_header (fd, 200 * 1024) && peer_send (fd, large, 200 * 1024) &&
      peer_send_frame_header (fd, 4) && peer_send (fd, "tail", 4) &&
      peer_send_frame_header (fd, 8) && peer_send (fd, "12345678", 8))
    peer_receive_until_eof (peer, fd);
}

static void
test_framed_read_end_skips_rest (void)
{
  g_autoptr(Peer) peer = peer_start (script_send_frames_to_skip, 0);
  g_autoptr(HBaseSocketTransport) transport = transport_to_peer (peer, TRUE);
  ThriftTransport *t = THRIFT_TRANSPORT (transport);
  g_autofree guint8 *first = pattern (1000, 20);
  g_autofree guint8 *large = pattern (200 * 1024, 21);
  g_autoptr(GError) error = NULL;
  guint8 buf[64];

  /* 10 of 1000 bytes, then the rest is dropped with the frame */
  g_assert_cmpint (thrift_transport_read_all (t, buf, 10, &error), ==, 10);
  g_assert_true (memcmp (buf, first, 10) == 0);
  g_assert_true (thrift_transport_read_end (t, &error));

  g_assert_cmpint (thrift_transport_read_all (t, buf, 11, &error), ==, 11);
  g_assert_no_error (error);
  g_assert_true (memcmp (buf, "hello world", 11) == 0);
  g_assert_true (thrift_transport_read_end (t, &error));

  g_assert_cmpint (thrift_transport_read_all (t, buf, 64, &error), ==, 64);
  g_assert_true (memcmp (buf, large, 64) == 0);
  g_assert_true (thrift_transport_read_end (t, &error));

  g_assert_cmpint (thrift_transport_read_all (t, buf, 4, &error), ==, 4);
  g_assert_no_error (error);
  g_assert_true (memcmp (buf, "tail", 4) == 0);
  g_assert_true (thrift_transport_read_end (t, &error));

  /* reading past the end of a frame is a protocol error */
  g_assert_cmpint (thrift_transport_read_all (t, buf, 4, &error), ==, 4);
  g_assert_cmpint (thrift_transport_read_all (t, buf, 16, &error), ==, -1);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL);
  g_test_message ("past the frame: %s", error->message);

  thrift_transport_close (t, NULL);
}

static void
script_send_bad_frame_header (Peer *peer, int fd)
{
  if (peer_send_frame_header (fd, (guint32) peer->size) && peer_send (fd, "garbage!", 8))
    peer_receive_until_eof (peer, fd);
}

static void
test_framed_bad_frame_size (void)
{
  const gsize sizes[] = { 0, (gsize) HBASE_TRANSPORT_DEFAULT_MAX_MESSAGE + 1, G_MAXUINT32 };

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      g_autoptr(Peer) peer = peer_start (script_send_bad_frame_header, sizes[i]);
      g_autoptr(HBaseSocketTransport) transport = transport_to_peer (peer, TRUE);
      g_autoptr(GError) error = NULL;
      guint8 buf[4];

      _hbase_socket_transport_set_deadline (transport, g_get_monotonic_time () + 5 * G_USEC_PER_SEC);
      g_assert_cmpint (thrift_transport_read_all (THRIFT_TRANSPORT (transport), buf, 4, &error), ==, -1);
      g_assert_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL);
      g_assert_nonnull (strstr (error->message, "framed"));
      g_test_message ("frame of %" G_GSIZE_FORMAT " bytes: %s", sizes[i], error->message);
      thrift_transport_close (THRIFT_TRANSPORT (transport), NULL);
    }
}

/* --- end of stream and liveness ------------------------------------------------------------ */

/* Reads the 5-byte (buffered) or 9-byte (framed) request "hello", then closes. */
static void
script_close_before_reply (Peer *peer, int fd)
{
  peer_receive (peer, fd, peer->size);
}

static void
test_eof_before_reply (void)
{
  for (int framed = 0; framed <= 1; framed++)
    {
      g_autoptr(Peer) peer = peer_start (script_close_before_reply, framed ? 9 : 5);
      g_autoptr(HBaseSocketTransport) transport = transport_to_peer (peer, framed);
      g_autoptr(GError) error = NULL;
      guint8 buf[4];

      _hbase_socket_transport_set_description (transport, "test peer");
      _hbase_socket_transport_set_deadline (transport, g_get_monotonic_time () + 5 * G_USEC_PER_SEC);
      send_request (transport, "hello");
      g_assert_cmpint (thrift_transport_read_all (THRIFT_TRANSPORT (transport), buf, 4, &error), ==, -1);
      g_assert_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION);
      g_test_message ("%s: %s", framed ? "framed" : "buffered", error->message);
      /* nothing ever came back: the likely cause is a protocol/transport mismatch */
      g_assert_nonnull (strstr (error->message, "test peer"));
      g_assert_nonnull (strstr (error->message, "without replying"));
      g_assert_nonnull (strstr (error->message, "protocol and transport"));
      peer_join (peer);
      g_assert_cmpuint (peer->received->len, ==, framed ? 9 : 5);
    }
}

/* Replies "pong", then closes. */
static void
script_reply_once_then_close (Peer *peer, int fd)
{
  if (peer_receive (peer, fd, 4))
    peer_send (fd, "pong", 4);
}

static void
test_eof_after_reply (void)
{
  g_autoptr(Peer) peer = peer_start (script_reply_once_then_close, 0);
  g_autoptr(HBaseSocketTransport) transport = transport_to_peer (peer, FALSE);
  ThriftTransport *t = THRIFT_TRANSPORT (transport);
  g_autoptr(GError) error = NULL;
  guint8 buf[4];

  _hbase_socket_transport_set_deadline (transport, g_get_monotonic_time () + 5 * G_USEC_PER_SEC);
  send_request (transport, "ping");
  g_assert_cmpint (thrift_transport_read_all (t, buf, 4, &error), ==, 4);
  g_assert_true (memcmp (buf, "pong", 4) == 0);
  g_assert_true (thrift_transport_read_end (t, &error));
  peer_join (peer);

  /* the gateway answered before: no hint at a protocol mismatch */
  g_assert_cmpint (thrift_transport_read_all (t, buf, 4, &error), ==, -1);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION);
  g_assert_nonnull (strstr (error->message, "closed the connection"));
  g_assert_null (strstr (error->message, "without replying"));
}

static void
script_close_at_once (Peer *peer, int fd)
{
}

static void
script_send_stray_byte (Peer *peer, int fd)
{
  if (peer_send (fd, "!", 1))
    peer_receive_until_eof (peer, fd);
}

/* Polls for up to 2 s until is_alive() gives @expected. */
static gboolean
wait_alive (HBaseSocketTransport *transport, gboolean expected)
{
  for (int i = 0; i < 200; i++)
    {
      if (_hbase_socket_transport_is_alive (transport) == expected)
        return TRUE;
      g_usleep (10 * 1000);
    }
  return FALSE;
}

static void
test_is_alive (void)
{
  /* a healthy idle connection */
  {
    g_autoptr(Peer) peer = peer_start (peer_receive_until_eof, 0);
    g_autoptr(HBaseSocketTransport) transport = transport_to_peer (peer, FALSE);

    g_assert_true (_hbase_socket_transport_is_alive (transport));
    g_usleep (50 * 1000);
    g_assert_true (_hbase_socket_transport_is_alive (transport));
    thrift_transport_close (THRIFT_TRANSPORT (transport), NULL);
    g_assert_false (_hbase_socket_transport_is_alive (transport));  /* closed here */
  }
  /* the peer closed the idle connection */
  {
    g_autoptr(Peer) peer = peer_start (script_close_at_once, 0);
    g_autoptr(HBaseSocketTransport) transport = transport_to_peer (peer, FALSE);

    peer_join (peer);
    g_assert_true (wait_alive (transport, FALSE));
    g_assert_false (_hbase_socket_transport_is_alive (transport));
  }
  /* bytes nobody asked for: the stream is out of step */
  {
    g_autoptr(Peer) peer = peer_start (script_send_stray_byte, 0);
    g_autoptr(HBaseSocketTransport) transport = transport_to_peer (peer, FALSE);

    g_assert_true (wait_alive (transport, FALSE));
    thrift_transport_close (THRIFT_TRANSPORT (transport), NULL);
  }
  /* never connected */
  {
    g_autoptr(HBaseSocketTransport) transport =
      _hbase_socket_transport_new ("127.0.0.1", test_closed_port (), FALSE, 1000);

    g_assert_false (_hbase_socket_transport_is_alive (transport));
  }
}

/* --- SIGPIPE -------------------------------------------------------------------------------------- */

static void
test_no_sigpipe (void)
{
  /* SIGPIPE keeps its default action (terminate): if the transport sent
   * without MSG_NOSIGNAL, this test program would die here. */
  for (int framed = 0; framed <= 1; framed++)
    {
      g_autoptr(Peer) peer = peer_start (script_close_at_once, 0);
      g_autoptr(HBaseSocketTransport) transport = transport_to_peer (peer, framed);
      ThriftTransport *t = THRIFT_TRANSPORT (transport);
      const gsize size = 8 * MB;
      g_autofree guint8 *data = g_malloc0 (size);
      g_autoptr(GError) error = NULL;
      gboolean flushed = TRUE;
      int attempts = 0;

      peer_join (peer);
      g_assert_true (wait_alive (transport, FALSE));
      _hbase_socket_transport_set_deadline (transport, g_get_monotonic_time () + 10 * G_USEC_PER_SEC);
      /* The first bytes reach the closed socket, whose reset makes the
       * kernel report EPIPE/ECONNRESET.  That happens within the first 8 MB
       * with the usual socket buffer limits; a few more requests cover
       * machines with huge ones. */
      while (flushed && attempts++ < 4)
        {
          g_assert_true (thrift_transport_write (t, data, (guint32) size, &error));
          flushed = thrift_transport_flush (t, &error);
        }
      g_assert_false (flushed);
      g_assert_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION);
      g_test_message ("%s, request %d: %s", framed ? "framed" : "buffered", attempts, error->message);
      /* a failed flush drops the request: the next one starts afresh */
      g_assert_false (_hbase_socket_transport_is_alive (transport));
    }
}

/* --- deadlines and cancellation ------------------------------------------------------------------------ */

static void
test_deadline (void)
{
  g_autoptr(Peer) peer = peer_start (peer_receive_until_eof, 0);
  g_autoptr(HBaseSocketTransport) transport = transport_to_peer (peer, FALSE);
  g_autoptr(GError) error = NULL;
  guint8 buf[4];
  gint64 start, took;

  send_request (transport, "anybody there?");
  start = g_get_monotonic_time ();
  _hbase_socket_transport_set_deadline (transport, start + 300 * 1000);
  g_assert_cmpint (thrift_transport_read_all (THRIFT_TRANSPORT (transport), buf, 4, &error), ==, -1);
  took = elapsed_ms (start);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_TIMEOUT);
  g_test_message ("after %" G_GINT64_FORMAT " ms: %s", took, error->message);
  g_assert_cmpint (took, >=, 250);
  g_assert_cmpint (took, <, 2000);
  g_assert_cmpuint (_hbase_socket_transport_get_bytes_sent (transport), ==, 14);
  thrift_transport_close (THRIFT_TRANSPORT (transport), NULL);
}

/* Answers the first 5-byte request at once, then never again. */
static void
script_answer_first_request (Peer *peer, int fd)
{
  if (peer_receive (peer, fd, 5) && peer_send (fd, "pong", 4))
    peer_receive_until_eof (peer, fd);
}

#define REQUEST_TIMEOUT_MS 400

static void
test_request_timeout (void)
{
  g_autoptr(Peer) peer = peer_start (script_answer_first_request, 0);
  g_autoptr(HBaseSocketTransport) transport = transport_to_peer (peer, FALSE);
  ThriftTransport *t = THRIFT_TRANSPORT (transport);
  g_autoptr(GError) error = NULL;
  guint8 buf[4];
  g_autoptr(GCancellable) guard = g_cancellable_new ();
  Watchdog *dog;
  gint64 first_write, flushed, since_first, since_flush;

  _hbase_socket_transport_set_request_timeout (transport, REQUEST_TIMEOUT_MS);
  /* without a working timeout the last read would wait forever */
  _hbase_socket_transport_set_cancellable (transport, guard);
  dog = watchdog_start (guard, 5000);

  /* the clock does not run between requests: idle longer than the timeout,
   * then a request answered at once succeeds */
  g_usleep ((REQUEST_TIMEOUT_MS + 100) * 1000);
  send_request (transport, "ping1");
  g_assert_cmpint (thrift_transport_read_all (t, buf, 4, &error), ==, 4);
  g_assert_no_error (error);
  g_assert_true (thrift_transport_read_end (t, &error));
  g_usleep ((REQUEST_TIMEOUT_MS + 100) * 1000);

  /* the next request's timeout starts at its first write, not at the
   * flush, and not at the previous request */
  first_write = g_get_monotonic_time ();
  g_assert_true (thrift_transport_write (t, "pi", 2, &error));
  g_usleep ((REQUEST_TIMEOUT_MS - 100) * 1000);
  g_assert_true (thrift_transport_write (t, "ng2", 3, &error));
  g_assert_true (thrift_transport_flush (t, &error));
  g_assert_no_error (error);
  flushed = g_get_monotonic_time ();
  g_assert_cmpint (thrift_transport_read_all (t, buf, 4, &error), ==, -1);
  since_first = elapsed_ms (first_write);
  since_flush = elapsed_ms (flushed);
  watchdog_stop (dog);
  _hbase_socket_transport_set_cancellable (transport, NULL);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_TIMEOUT);
  g_test_message ("timed out %" G_GINT64_FORMAT " ms after the first write, %" G_GINT64_FORMAT
                  " ms after the flush: %s", since_first, since_flush, error->message);
  g_assert_cmpint (since_first, >=, REQUEST_TIMEOUT_MS - 5);
  g_assert_cmpint (since_first, <, 2000);
  g_assert_cmpint (since_flush, <, REQUEST_TIMEOUT_MS);
  thrift_transport_close (t, NULL);
}

static void
test_cancel_read (void)
{
  g_autoptr(Peer) peer = peer_start (peer_receive_until_eof, 0);
  g_autoptr(HBaseSocketTransport) transport = transport_to_peer (peer, FALSE);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  GThread *canceller;
  guint8 buf[4];
  gint64 start, took;

  send_request (transport, "ping");
  /* a deadline far away, so a missed cancellation fails rather than hangs */
  _hbase_socket_transport_set_deadline (transport, g_get_monotonic_time () + 5 * G_USEC_PER_SEC);
  _hbase_socket_transport_set_cancellable (transport, cancellable);
  start = g_get_monotonic_time ();
  canceller = cancel_later (cancellable, 200);
  g_assert_cmpint (thrift_transport_read_all (THRIFT_TRANSPORT (transport), buf, 4, &error), ==, -1);
  took = elapsed_ms (start);
  g_thread_join (canceller);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_test_message ("cancelled after %" G_GINT64_FORMAT " ms", took);
  g_assert_cmpint (took, >=, 150);
  g_assert_cmpint (took, <, 1000);
  _hbase_socket_transport_set_cancellable (transport, NULL);
  thrift_transport_close (THRIFT_TRANSPORT (transport), NULL);
}

/* --- connecting ----------------------------------------------------------------------------------------------- */

static void
test_connect_refused (void)
{
  guint port = test_closed_port ();
  g_autoptr(HBaseSocketTransport) transport = _hbase_socket_transport_new ("127.0.0.1", port, FALSE, 2000);
  g_autofree char *where = g_strdup_printf ("127.0.0.1:%u", port);
  g_autoptr(GError) error = NULL;

  g_assert_false (_hbase_socket_transport_connect (transport, 0, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION);
  g_assert_nonnull (strstr (error->message, where));
  g_test_message ("%s", error->message);
  g_assert_false (thrift_transport_is_open (THRIFT_TRANSPORT (transport)));
  g_assert_cmpuint (_hbase_socket_transport_get_bytes_sent (transport), ==, 0);
  g_clear_error (&error);

  /* writing on a transport that is not connected fails cleanly */
  g_assert_true (thrift_transport_write (THRIFT_TRANSPORT (transport), "x", 1, &error));
  g_assert_false (thrift_transport_flush (THRIFT_TRANSPORT (transport), &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION);
  g_assert_cmpuint (_hbase_socket_transport_get_bytes_sent (transport), ==, 0);
}

/* Echoes one request of peer->size bytes (a framed request comes back as
 * the same frame). */
static void
script_echo (Peer *peer, int fd)
{
  if (peer_receive (peer, fd, peer->size))
    peer_send (fd, peer->received->data, peer->size);
  peer_receive_until_eof (peer, fd);
}

static void
round_trip (HBaseSocketTransport *transport)
{
  ThriftTransport *t = THRIFT_TRANSPORT (transport);
  g_autoptr(GError) error = NULL;
  guint8 buf[4];

  _hbase_socket_transport_set_deadline (transport, g_get_monotonic_time () + 5 * G_USEC_PER_SEC);
  send_request (transport, "echo");
  g_assert_cmpint (thrift_transport_read_all (t, buf, 4, &error), ==, 4);
  g_assert_no_error (error);
  g_assert_true (memcmp (buf, "echo", 4) == 0);
  g_assert_true (thrift_transport_read_end (t, &error));
  thrift_transport_close (t, NULL);
}

static void
test_connect_localhost (void)
{
  g_autoptr(Peer) peer = peer_start (script_echo, 4);
  g_autoptr(HBaseSocketTransport) transport = NULL;

  /* localhost may resolve to ::1 first, where nothing listens: the next
   * address is tried */
  transport = transport_connected ("localhost", peer->port, FALSE);
  round_trip (transport);
}

static void
test_connect_ipv6 (void)
{
  g_autoptr(Peer) peer = peer_listen_on ("::1", 4);
  g_autoptr(HBaseSocketTransport) transport = NULL;

  if (peer == NULL)
    {
      g_autofree char *why = g_strdup_printf ("no IPv6 loopback here (%s)", g_strerror (errno));

      g_test_skip (why);
      return;
    }
  peer->script = script_echo;
  peer->size = 4 + 4;
  peer->thread = g_thread_new ("peer", peer_thread, peer);
  transport = transport_connected ("::1", peer->port, TRUE);
  round_trip (transport);
  peer_join (peer);
  /* framed: one frame of 4 bytes arrived */
  g_assert_cmpuint (peer->received->len, ==, 4 + 4);
}

static void
test_connect_unresolvable (void)
{
  g_autoptr(HBaseSocketTransport) transport =
    _hbase_socket_transport_new ("no-such-host.invalid", 9090, FALSE, 2000);
  g_autoptr(GError) error = NULL;
  gint64 start = g_get_monotonic_time ();
  gboolean ok = _hbase_socket_transport_connect (transport, 0, NULL, &error);
  gint64 took = elapsed_ms (start);

  if (took > 5000)
    {
      g_autofree char *why =
        g_strdup_printf ("resolving a .invalid name took %" G_GINT64_FORMAT " ms: slow DNS here", took);

      g_test_skip (why);
      return;
    }
  g_assert_false (ok);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION);
  g_assert_nonnull (strstr (error->message, "no-such-host.invalid"));
  g_test_message ("%s (%" G_GINT64_FORMAT " ms)", error->message, took);
}

/* Fills the accept queue of @peer (listening with backlog 0, never
 * accepting) with raw client sockets until a new connect stays in
 * progress, i.e. the kernel drops its SYN.  Returns the sockets, or NULL
 * when the kernel keeps completing connects. */
static GArray *
fill_backlog (Peer *peer)
{
  GArray *fds = g_array_new (FALSE, FALSE, sizeof (int));
  struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons (peer->port) };

  addr.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  for (int i = 0; i < 16; i++)
    {
      int fd = socket (AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
      struct pollfd pfd = { .fd = fd, .events = POLLOUT };

      g_assert_cmpint (fd, >=, 0);
      g_array_append_val (fds, fd);
      if (connect (fd, (struct sockaddr *) &addr, sizeof addr) == 0)
        continue;
      g_assert_cmpint (errno, ==, EINPROGRESS);
      if (poll (&pfd, 1, 200) == 0)
        return fds;   /* still in progress: the SYN was dropped */
    }
  for (guint i = 0; i < fds->len; i++)
    close (g_array_index (fds, int, i));
  g_array_unref (fds);
  return NULL;
}

static void
close_all (GArray *fds)
{
  for (guint i = 0; i < fds->len; i++)
    close (g_array_index (fds, int, i));
  g_array_unref (fds);
}

static void
test_connect_timeout (void)
{
  g_autoptr(Peer) peer = peer_listen_on ("127.0.0.1", 0);
  GArray *fds;

  g_assert_nonnull (peer);
  fds = fill_backlog (peer);
  if (fds == NULL)
    {
      g_test_skip ("the kernel completed every loopback connect to a listener with a full "
                   "backlog instead of dropping the SYN: cannot make a connect hang here");
      return;
    }

  /* the connect timeout */
  {
    g_autoptr(HBaseSocketTransport) transport =
      _hbase_socket_transport_new ("127.0.0.1", peer->port, FALSE, 300);
    g_autoptr(GError) error = NULL;
    gint64 start = g_get_monotonic_time (), took;

    g_assert_false (_hbase_socket_transport_connect (transport, 0, NULL, &error));
    took = elapsed_ms (start);
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_TIMEOUT);
    g_test_message ("after %" G_GINT64_FORMAT " ms: %s", took, error->message);
    g_assert_cmpint (took, >=, 250);
    g_assert_cmpint (took, <, 2000);
    g_assert_false (thrift_transport_is_open (THRIFT_TRANSPORT (transport)));
    g_assert_cmpuint (_hbase_socket_transport_get_bytes_sent (transport), ==, 0);
  }
  /* an explicit deadline before the connect timeout wins */
  {
    g_autoptr(HBaseSocketTransport) transport =
      _hbase_socket_transport_new ("127.0.0.1", peer->port, FALSE, 5000);
    g_autoptr(GError) error = NULL;
    gint64 start = g_get_monotonic_time (), took;

    g_assert_false (_hbase_socket_transport_connect (transport, start + 200 * 1000, NULL, &error));
    took = elapsed_ms (start);
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_TIMEOUT);
    g_assert_cmpint (took, >=, 150);
    g_assert_cmpint (took, <, 2000);
  }
  /* a connect is cancellable */
  {
    g_autoptr(HBaseSocketTransport) transport =
      _hbase_socket_transport_new ("127.0.0.1", peer->port, FALSE, 5000);
    g_autoptr(GCancellable) cancellable = g_cancellable_new ();
    g_autoptr(GError) error = NULL;
    gint64 start = g_get_monotonic_time (), took;
    GThread *canceller = cancel_later (cancellable, 150);

    g_assert_false (_hbase_socket_transport_connect (transport, 0, cancellable, &error));
    took = elapsed_ms (start);
    g_thread_join (canceller);
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    g_assert_cmpint (took, <, 1000);
  }
  close_all (fds);
}

/* --- waiting for a reply ---------------------------------------------------------------------------- */

/* Two requests of 4 bytes, each answered 4 bytes 100 ms later. */
static void
script_reply_late_twice (Peer *peer, int fd)
{
  for (int i = 0; i < 2; i++)
    {
      if (!peer_receive (peer, fd, 4))
        return;
      g_usleep (100 * 1000);
      if (!peer_send (fd, "pong", 4))
        return;
    }
  peer_receive_until_eof (peer, fd);
}

/* A reply that comes later costs one recv(): with no cancellable and a
 * distant deadline a blocking recv() and no poll() (a point call is one
 * send() and one recv()); with a cancellable, a poll() that the
 * cancellable can wake, then the recv() (not a recv() saying EAGAIN, a
 * poll and another recv()).  The bytes received and the time of the last
 * whole reply are kept for the pool (src/connection/hbase-client.c). */
static void
check_reply_late_twice (gboolean with_cancellable)
{
  g_autoptr(Peer) peer = peer_start (script_reply_late_twice, 0);
  g_autoptr(HBaseSocketTransport) transport = transport_to_peer (peer, FALSE);
  g_autoptr(GCancellable) cancellable = with_cancellable ? g_cancellable_new () : NULL;
  ThriftTransport *t = THRIFT_TRANSPORT (transport);
  g_autoptr(GError) error = NULL;
  guint8 buf[4];
  gint64 before, last;
  /* connecting may have polled */
  guint64 polls = _hbase_socket_transport_get_poll_calls (transport);

  _hbase_socket_transport_set_cancellable (transport, cancellable);
  _hbase_socket_transport_set_deadline (transport, g_get_monotonic_time () + 5 * G_USEC_PER_SEC);
  g_assert_cmpint (_hbase_socket_transport_get_last_reply_time (transport), ==, 0);
  for (guint i = 1; i <= 2; i++)
    {
      send_request (transport, "ping");
      g_assert_cmpint (thrift_transport_read_all (t, buf, 4, &error), ==, 4);
      g_assert_no_error (error);
      g_assert_true (memcmp (buf, "pong", 4) == 0);
      g_assert_cmpuint (_hbase_socket_transport_get_recv_calls (transport), ==, i);
      g_assert_cmpuint (_hbase_socket_transport_get_poll_calls (transport) - polls, ==,
                        (with_cancellable ? i : 0));
      g_assert_cmpuint (_hbase_socket_transport_get_bytes_received (transport), ==, 4 * i);
      /* the reply is only complete at read_end */
      last = _hbase_socket_transport_get_last_reply_time (transport);
      before = g_get_monotonic_time ();
      g_assert_true (thrift_transport_read_end (t, &error));
      g_assert_no_error (error);
      g_assert_cmpint (_hbase_socket_transport_get_last_reply_time (transport), >=, before);
      g_assert_cmpint (_hbase_socket_transport_get_last_reply_time (transport), >, last);
      g_assert_cmpint (_hbase_socket_transport_get_last_reply_time (transport), <=,
                       g_get_monotonic_time ());
    }
  g_assert_cmpuint (_hbase_socket_transport_get_send_calls (transport), ==, 2);
  thrift_transport_close (t, NULL);
  g_assert_cmpint (_hbase_socket_transport_get_last_reply_time (transport), ==, 0);
}

static void
test_reply_blocking_recv (void)
{
  check_reply_late_twice (FALSE);
}

static void
test_reply_polls_first (void)
{
  check_reply_late_twice (TRUE);
}

/* --- bytes_sent ------------------------------------------------------------------------------------------------- */

static void
test_bytes_sent (void)
{
  g_autoptr(Peer) peer = peer_start (peer_receive_until_eof, 0);
  g_autoptr(HBaseSocketTransport) transport = transport_to_peer (peer, FALSE);
  ThriftTransport *t = THRIFT_TRANSPORT (transport);
  g_autofree guint8 *request = pattern (100, 30);
  g_autoptr(GError) error = NULL;

  g_assert_cmpuint (_hbase_socket_transport_get_bytes_sent (transport), ==, 0);
  g_assert_true (thrift_transport_write (t, request, 60, &error));
  g_assert_true (thrift_transport_write (t, request + 60, 40, &error));
  g_assert_cmpuint (_hbase_socket_transport_get_bytes_sent (transport), ==, 0);
  g_assert_true (thrift_transport_flush (t, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (_hbase_socket_transport_get_bytes_sent (transport), ==, 100);
  /* flushing nothing sends nothing */
  g_assert_true (thrift_transport_flush (t, &error));
  g_assert_cmpuint (_hbase_socket_transport_get_bytes_sent (transport), ==, 100);

  /* the listener goes away, so reconnecting is refused: a failed connect
   * sends nothing, and the count is unchanged */
  peer_wait_accepted (peer);
  close (peer->listen_fd);
  peer->listen_fd = -1;
  g_assert_false (_hbase_socket_transport_connect (transport, 0, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION);
  g_assert_cmpuint (_hbase_socket_transport_get_bytes_sent (transport), ==, 100);
  peer_join (peer);   /* the reconnect closed the old connection */
  g_assert_cmpuint (peer->received->len, ==, 100);
  g_assert_true (memcmp (peer->received->data, request, 100) == 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/connection/transport/buffered/read-ahead", test_buffered_read_ahead);
  g_test_add_func ("/connection/transport/framed/request-is-one-frame", test_framed_request_is_one_frame);
  g_test_add_func ("/connection/transport/framed/large-reply-linear", test_framed_large_reply_linear);
  g_test_add_func ("/connection/transport/framed/read-end-skips-rest", test_framed_read_end_skips_rest);
  g_test_add_func ("/connection/transport/framed/bad-frame-size", test_framed_bad_frame_size);
  g_test_add_func ("/connection/transport/eof/before-reply", test_eof_before_reply);
  g_test_add_func ("/connection/transport/eof/after-reply", test_eof_after_reply);
  g_test_add_func ("/connection/transport/is-alive", test_is_alive);
  g_test_add_func ("/connection/transport/no-sigpipe", test_no_sigpipe);
  g_test_add_func ("/connection/transport/deadline/explicit", test_deadline);
  g_test_add_func ("/connection/transport/deadline/request-timeout", test_request_timeout);
  g_test_add_func ("/connection/transport/cancel/read", test_cancel_read);
  g_test_add_func ("/connection/transport/connect/refused", test_connect_refused);
  g_test_add_func ("/connection/transport/connect/localhost", test_connect_localhost);
  g_test_add_func ("/connection/transport/connect/ipv6", test_connect_ipv6);
  g_test_add_func ("/connection/transport/connect/unresolvable", test_connect_unresolvable);
  g_test_add_func ("/connection/transport/connect/timeout", test_connect_timeout);
  g_test_add_func ("/connection/transport/bytes-sent", test_bytes_sent);
  g_test_add_func ("/connection/transport/reply-blocking-recv", test_reply_blocking_recv);
  g_test_add_func ("/connection/transport/reply-polls-first", test_reply_polls_first);
  return g_test_run ();
}
