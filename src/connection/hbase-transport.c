/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-transport.c: hbase-glib's own Thrift transport over one TCP socket.
 *
 * Reads go through one buffer filled by large recv() calls and consumed by
 * offset.  In framed mode a whole frame is gathered in that buffer and
 * served from it; nothing is ever removed from the front of a byte array,
 * so decoding costs O(payload) (c_glib 0.17's framed transport memmoves the
 * rest of the frame on every read, which is quadratic).  Writes are
 * gathered and sent by flush() in one send() when the kernel takes it.
 * Every wait is a poll() bounded by the call's deadline and woken by its
 * GCancellable, except a reply's wait in a call with neither a cancellable
 * nor a near deadline: a blocking recv() of at most a slice (see fill()),
 * so that a point call costs one send() and one recv().
 *
 * Over HTTP (a gateway in HTTP mode) the socket is an HBaseHttpChannel
 * (hbase-http.c): flush() POSTs the request and receives the whole
 * response body, which is then read like a frame, with the same checks.
 *
 * To a Kerberos socket gateway, each new socket first runs the SASL
 * GSSAPI handshake (hbase-sasl.c) within the connect deadline; then every
 * message is a frame, its payload plain (QOP authentication: exactly the
 * framed transport) or one wrap token per frame (integrity, privacy),
 * unwrapped in place in the read buffer when the frame is complete.
 *
 * Long because: the socket and the HTTP channel feed one read buffer, whose
 * inlined fast path and limit checks every reply goes through; split in
 * two files, the struct would have to become a header of its own for the
 * few HTTP functions. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <hbase-glib/hbase-connection.h>
#include <hbase-glib/hbase-error.h>

#include "hbase-config-private.h"
#include "hbase-http.h"
#include "hbase-sasl.h"
#include "hbase-transport.h"
#include "../core/hbase-error-private.h"

#define READ_CHUNK (64 * 1024)
#define SHRINK_ABOVE (1024 * 1024)

/* The vfuncs below are only ever installed on this class, so they cast
 * without GObject's type check: on the read path the checked
 * HBASE_SOCKET_TRANSPORT() cast cost 9 % of a scan's instructions (one
 * check per protocol primitive, BENCHMARKS.md). */
#define SELF(transport) ((HBaseSocketTransport *) (transport))

struct _HBaseSocketTransport {
  ThriftTransport parent;

  char *host;
  guint port;
  gboolean framed;
  guint connect_timeout_ms;
  guint request_timeout_ms;   /* per request when no explicit deadline */
  char *description;
  gsize max_message;

  int fd;
  HBaseHttpChannel *http;     /* HTTP mode: the channel instead of fd */
  gboolean http_open;
  gint64 deadline;            /* explicit, for the calls in progress; 0 = none */
  gint64 request_deadline;    /* from request_timeout_ms, set per request */
  GCancellable *cancellable;

  /* read side: bytes [rpos, rlen) of rbuf are received and unread */
  guint8 *rbuf;
  gsize rcap, rpos, rlen;
  gboolean in_frame;
  gsize frame_end;            /* framed: offset in rbuf where the frame ends */
  gsize reply_bytes;          /* buffered: bytes of the current reply so far */
  guint64 replies;            /* replies read completely on this connection */
  gboolean awaiting_reply;    /* a request was sent; nothing of its reply received yet */
  gint64 last_reply_time;     /* monotonic µs when the last reply was read; 0: none */
  gboolean failed;            /* a read or write failed: the stream is out of step */
  gboolean reply_started;     /* bytes came back since the last request was sent */
  gboolean blocking_waits;    /* the socket blocks (SO_RCVTIMEO = BLOCKING_SLICE_MS) */

  /* write side */
  /* bytes [0, wlen) of wbuf are the request being written; grown by
   * hand: the protocols write a primitive at a time */
  guint8 *wbuf;
  gsize wlen, wcap;

  guint64 bytes_sent, bytes_received, recv_calls, send_calls, poll_calls;

  /* Kerberos (socket mode): SASL GSSAPI after each connect; NULL: none */
  HBaseKerberosSettings *kerberos;
  char *kerberos_host;        /* the gateway host, for its service principal */
  HBaseSasl *sasl;            /* the session of the current socket */
  GByteArray *sasl_out;       /* wrapped frames of the request being sent */
  gint64 handshake_us;        /* how long the last SASL handshake took */
};

G_DEFINE_TYPE (HBaseSocketTransport, _hbase_socket_transport, THRIFT_TYPE_TRANSPORT)

static const char *
describe (HBaseSocketTransport *self)
{
  return self->description != NULL ? self->description : self->host;
}

/* Connected: the socket is open, or (HTTP) the transport was opened. */
static inline gboolean
connected (HBaseSocketTransport *self)
{
  return self->fd >= 0 || self->http_open;
}

static gint64
effective_deadline (HBaseSocketTransport *self)
{
  return self->deadline != 0 ? self->deadline : self->request_deadline;
}

/* Waits until @fd is ready for @events, the deadline passes or the call is
 * cancelled.  @what says what was being waited for, for the messages. */
static gboolean
wait_fd (HBaseSocketTransport *self, short events, gint64 deadline,
         GCancellable *cancellable, const char *what, GError **error)
{
  for (;;)
    {
      struct pollfd fds[2] = { { .fd = self->fd, .events = events } };
      GPollFD cancel_fd = { .fd = -1 };
      int timeout = -1, n, nfds = 1;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      if (deadline != 0)
        {
          gint64 left = deadline - g_get_monotonic_time ();

          if (left <= 0)
            {
              /* not a byte back on this connection: most likely the
               * gateway waits for more of what it takes for something
               * else.  A SASL gateway does exactly that with a plain
               * request (docs/secure-stack.md, finding 5) */
              gboolean silent = self->replies == 0 && !self->reply_started && (events & POLLIN);

              g_set_error (error, HBASE_ERROR, HBASE_ERROR_TIMEOUT,
                           "timed out %s %s%s", what, describe (self),
                           !silent ? ""
                           : self->kerberos == NULL
                             ? " (no reply at all: the gateway may require Kerberos (SASL), "
                               "or speak another protocol or transport)"
                             : " (no reply at all: does the gateway speak this protocol and transport?)");
              return FALSE;
            }
          timeout = (int) MIN ((left + 999) / 1000, G_MAXINT);
        }
      if (cancellable != NULL && g_cancellable_make_pollfd (cancellable, &cancel_fd))
        {
          fds[1].fd = cancel_fd.fd;
          fds[1].events = POLLIN;
          nfds = 2;
        }
      n = poll (fds, nfds, timeout);
      self->poll_calls++;
      if (nfds == 2)
        g_cancellable_release_fd (cancellable);
      if (n < 0 && errno != EINTR)
        {
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION,
                       "poll failed %s %s: %s", what, describe (self), g_strerror (errno));
          return FALSE;
        }
      if (n > 0 && fds[0].revents != 0)
        return TRUE;
    }
}

static void
set_closed_error (HBaseSocketTransport *self, GError **error)
{
  if (self->reply_started)
    g_set_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION,
                 "the gateway %s closed the connection in the middle of a reply%s",
                 describe (self), self->replies == 0
                   ? ": check that it speaks this protocol and transport" : "");
  else if (self->replies == 0)
    g_set_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION,
                 "the gateway %s closed the connection without replying: "
                 "check that it speaks this protocol and transport", describe (self));
  else
    g_set_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION,
                 "the gateway %s closed the connection", describe (self));
}

/* Makes room for more unread bytes at rbuf[rpos..], on the way to @need:
 * moves the unread tail to the front (it is small except inside a partly
 * read frame) and grows the buffer, at most doubling it at a time, so the
 * memory held follows the bytes that really arrived, not a length the
 * peer announced. */
static void
make_room (HBaseSocketTransport *self, gsize need)
{
  if (self->rpos > 0 && self->rcap - self->rpos < need)
    {
      gsize unread = self->rlen - self->rpos;

      memmove (self->rbuf, self->rbuf + self->rpos, unread);
      if (self->in_frame)
        self->frame_end -= self->rpos;
      self->rlen = unread;
      self->rpos = 0;
    }
  if (self->rlen == self->rcap || self->rcap < READ_CHUNK)
    {
      gsize target = self->rpos + need;
      gsize cap = MAX ((gsize) READ_CHUNK, MIN (self->rcap * 2, target));

      cap = MAX (cap, self->rlen + 1);
      self->rbuf = g_realloc (self->rbuf, cap);
      self->rcap = cap;
    }
}

/* How long one blocking recv() may wait (SO_RCVTIMEO).  Why block at all:
 * a poll() before each reply's recv() is one system call in three of a
 * point get.  A call with no GCancellable and more than a slice of time
 * left receives in a blocking recv(); when the slice passes with nothing
 * received, or with a cancellable or a near deadline, it polls as before,
 * so deadlines and cancellation keep their precision. */
#define BLOCKING_SLICE_MS 250

/* After connecting: the socket blocks in recv() up to a slice; every other
 * send and receive passes MSG_DONTWAIT.  If it cannot be set up, the
 * socket stays non-blocking and every wait polls. */
static void
enable_blocking_waits (HBaseSocketTransport *self)
{
  struct timeval slice = { .tv_sec = 0, .tv_usec = BLOCKING_SLICE_MS * 1000 };
  int flags = fcntl (self->fd, F_GETFL);

  self->blocking_waits = FALSE;
  if (flags < 0 ||
      setsockopt (self->fd, SOL_SOCKET, SO_RCVTIMEO, &slice, sizeof slice) != 0 ||
      fcntl (self->fd, F_SETFL, flags & ~O_NONBLOCK) != 0)
    return;
  self->blocking_waits = TRUE;
}

/* Whether the next recv() may block for a slice. */
static gboolean
may_block (HBaseSocketTransport *self)
{
  gint64 deadline;

  if (!self->blocking_waits || self->cancellable != NULL)
    return FALSE;
  deadline = effective_deadline (self);
  return deadline == 0 ||
         deadline - g_get_monotonic_time () > (gint64) BLOCKING_SLICE_MS * G_TIME_SPAN_MILLISECOND;
}

/* Receives until at least @need bytes are unread. */
static gboolean
fill (HBaseSocketTransport *self, gsize need, GError **error)
{
  gboolean block;

  /* the common case: a primitive already read ahead.  Returning before
   * make_room() matters: moving the unread tail on every read is what
   * made buffered decoding cost O(reads x buffer) */
  if (self->rlen - self->rpos >= need)
    return TRUE;
  if (self->fd < 0)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION,
                   "not connected to the gateway %s", describe (self));
      return FALSE;
    }
  make_room (self, MAX (need, (gsize) READ_CHUNK));
  block = may_block (self);
  /* right after a request, a non-blocking recv() would only say EAGAIN
   * (the gateway has not answered within microseconds): wait first, one
   * syscall less */
  if (self->awaiting_reply)
    {
      self->awaiting_reply = FALSE;
      if (!block && !wait_fd (self, POLLIN, effective_deadline (self), self->cancellable,
                              "waiting for a reply from", error))
        return FALSE;
    }
  while (self->rlen - self->rpos < need)
    {
      ssize_t n;

      if (self->rlen == self->rcap)
        make_room (self, need);
      /* asked again each time: a reply that trickles in must not keep a
       * blocking loop going past the deadline */
      if (block)
        block = may_block (self);
      n = recv (self->fd, self->rbuf + self->rlen, self->rcap - self->rlen, block ? 0 : MSG_DONTWAIT);

      self->recv_calls++;
      if (n > 0)
        {
          self->rlen += (gsize) n;
          self->bytes_received += (guint64) n;
          self->reply_started = TRUE;
          continue;
        }
      if (n == 0)
        {
          set_closed_error (self, error);
          return FALSE;
        }
      if (errno == EINTR)
        continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK)
        {
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION,
                       "cannot read from the gateway %s: %s", describe (self), g_strerror (errno));
          return FALSE;
        }
      /* a slice passed with nothing: the deadline's own poll from now on */
      block = FALSE;
      if (!wait_fd (self, POLLIN, effective_deadline (self), self->cancellable,
                    "waiting for a reply from", error))
        return FALSE;
    }
  return TRUE;
}

/* SASL integrity or privacy: the frame just gathered at rpos is one
 * wrap token; its plain bytes replace it, and whatever was read ahead
 * beyond it (the start of a next frame) moves down to follow them. */
static gboolean
unwrap_frame (HBaseSocketTransport *self, gsize size, GError **error)
{
  gsize plain = 0, after = self->rpos + size;

  if (!_hbase_sasl_unwrap_in_place (self->sasl, self->rbuf + self->rpos, size, &plain, error))
    {
      g_prefix_error (error, "from the gateway %s: ", describe (self));
      return FALSE;
    }
  if (after < self->rlen)
    memmove (self->rbuf + self->rpos + plain, self->rbuf + after, self->rlen - after);
  self->rlen -= size - plain;
  self->frame_end = self->rpos + plain;
  if (plain == 0)
    self->in_frame = FALSE;   /* an empty message: nothing to read in it */
  return TRUE;
}

/* Framed: gathers the next whole frame into the buffer. */
static gboolean
begin_frame (HBaseSocketTransport *self, GError **error)
{
  guint32 size;

  if (self->http != NULL)
    {
      /* the reply is the whole response body, and it is all read */
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                   "the reply from %s is shorter than its contents claim", describe (self));
      return FALSE;
    }
  if (!fill (self, 4, error))
    return FALSE;
  memcpy (&size, self->rbuf + self->rpos, 4);
  size = GUINT32_FROM_BE (size);
  if (size == 0 || size > self->max_message)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                   "the gateway %s sent a frame of %u bytes (limit %" G_GSIZE_FORMAT "): "
                   "check that it speaks the framed transport", describe (self),
                   size, self->max_message);
      return FALSE;
    }
  self->rpos += 4;
  if (!fill (self, size, error))
    return FALSE;
  self->in_frame = TRUE;
  self->frame_end = self->rpos + size;
  if (self->sasl != NULL && _hbase_sasl_wraps (self->sasl))
    return unwrap_frame (self, size, error);
  return TRUE;
}

/* Copies a primitive into or out of the buffers: the protocols read and
 * write 1, 2, 4 and 8 bytes at a time, which fixed-size copies do in one
 * move instead of a call to memcpy(). */
static inline void
copy_bytes (gpointer buf, const guint8 *from, guint32 len)
{
  switch (len)
    {
    case 1:
      *(guint8 *) buf = *from;
      break;
    case 2:
      memcpy (buf, from, 2);
      break;
    case 4:
      memcpy (buf, from, 4);
      break;
    case 8:
      memcpy (buf, from, 8);
      break;
    default:
      memcpy (buf, from, len);
    }
}

/* A read failed: the stream is out of step, the connection unusable. */
static gint32
slow_read_failed (HBaseSocketTransport *self)
{
  self->failed = TRUE;
  return -1;
}

/* not inlined: the fast path then needs no stack frame of its own */
static gint32 read_all_slow (HBaseSocketTransport *self, gpointer buf, guint32 len,
                             GError **error) G_GNUC_NO_INLINE;

/* Every primitive of every reply comes through here (about 30 per scanned
 * row): the bytes are nearly always read ahead already, and that case
 * takes a few instructions; the rest (receiving, frames, limits, errors)
 * is read_all_slow(). */
static inline gint32
read_all (HBaseSocketTransport *self, gpointer buf, guint32 len, GError **error)
{
  if (G_UNLIKELY (len == 0))
    return 0;   /* nothing to copy, and no buffer yet to copy from */
  if (G_LIKELY (len <= self->rlen - self->rpos))
    {
      if (self->framed)
        {
          if (self->in_frame && len <= self->frame_end - self->rpos)
            {
              copy_bytes (buf, self->rbuf + self->rpos, len);
              self->rpos += len;
              if (self->rpos == self->frame_end)
                self->in_frame = FALSE;
              return (gint32) len;
            }
        }
      else if (len <= self->max_message - self->reply_bytes)
        {
          copy_bytes (buf, self->rbuf + self->rpos, len);
          self->rpos += len;
          self->reply_bytes += len;
          return (gint32) len;
        }
    }
  return read_all_slow (self, buf, len, error);
}

static gint32
socket_transport_read_all (ThriftTransport *transport, gpointer buf, guint32 len, GError **error)
{
  return read_all (SELF (transport), buf, len, error);
}

static gint32
read_all_slow (HBaseSocketTransport *self, gpointer buf, guint32 len, GError **error)
{
  if (len > G_MAXINT32)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL, "read of %u bytes is too large", len);
      return slow_read_failed (self);
    }
  if (self->framed)
    {
      if (!self->in_frame && !begin_frame (self, error))
        return slow_read_failed (self);
      if (len > self->frame_end - self->rpos)
        {
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                       "the reply from %s is shorter than its contents claim", describe (self));
          return slow_read_failed (self);
        }
    }
  else
    {
      if (len > self->max_message - self->reply_bytes)
        {
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                       "the reply from %s exceeds %" G_GSIZE_FORMAT " bytes",
                       describe (self), self->max_message);
          return slow_read_failed (self);
        }
      self->reply_bytes += len;
      if (!fill (self, len, error))
        return slow_read_failed (self);
    }
  memcpy (buf, self->rbuf + self->rpos, len);
  self->rpos += len;
  if (self->in_frame && self->rpos == self->frame_end)
    self->in_frame = FALSE;
  return (gint32) len;
}

gint32
_hbase_socket_transport_read (HBaseSocketTransport *self, gpointer buf, guint32 len,
                              GError **error)
{
  return read_all (self, buf, len, error);
}

static gint32
socket_transport_read (ThriftTransport *transport, gpointer buf, guint32 len, GError **error)
{
  return socket_transport_read_all (transport, buf, len, error);
}

/* The reply is complete.  Bytes a framed reply carried beyond what the
 * protocol read are dropped with the frame. */
static gboolean
socket_transport_read_end (ThriftTransport *transport, GError **error)
{
  HBaseSocketTransport *self = SELF (transport);

  if (self->in_frame)
    {
      self->rpos = self->frame_end;
      self->in_frame = FALSE;
    }
  if (self->rpos == self->rlen)
    {
      self->rpos = self->rlen = 0;
      /* a huge reply should not pin its buffer for the connection's life */
      if (self->rcap > SHRINK_ABOVE)
        {
          g_clear_pointer (&self->rbuf, g_free);
          self->rcap = 0;
        }
    }
  self->reply_bytes = 0;
  self->reply_started = FALSE;
  self->replies++;
  self->awaiting_reply = FALSE;
  self->last_reply_time = g_get_monotonic_time ();
  return TRUE;
}

/* Room for @len more bytes of the request being written. */
static inline guint8 *
reserve (HBaseSocketTransport *self, guint32 len)
{
  guint8 *at;

  if (self->wlen == 0)
    {
      /* a new request: its timeout starts now */
      self->request_deadline = self->request_timeout_ms > 0
        ? g_get_monotonic_time () + (gint64) self->request_timeout_ms * 1000 : 0;
      if (self->framed && self->http == NULL)
        self->wlen = 4;   /* room for the frame size */
    }
  if (G_UNLIKELY (self->wcap < self->wlen + len))
    {
      self->wcap = MAX (self->wcap * 2, self->wlen + len);
      self->wbuf = g_realloc (self->wbuf, self->wcap);
    }
  at = self->wbuf + self->wlen;
  self->wlen += len;
  return at;
}

static gboolean
socket_transport_write (ThriftTransport *transport, const gpointer buf, const guint32 len,
                        GError **error)
{
  copy_bytes (reserve (SELF (transport), len), (const guint8 *) buf, len);
  return TRUE;
}

void
_hbase_socket_transport_write (HBaseSocketTransport *self, gconstpointer buf, guint32 len)
{
  socket_transport_write ((ThriftTransport *) self, (const gpointer) buf, len, NULL);
}

guint8 *
_hbase_socket_transport_reserve (HBaseSocketTransport *self, guint32 len)
{
  return reserve (self, len);
}

static gboolean
socket_transport_write_end (ThriftTransport *transport, GError **error)
{
  return TRUE;
}

/* HTTP: one POST, whose response body is the reply, read as a frame. */
static gboolean
http_flush (HBaseSocketTransport *self, GError **error)
{
  guint8 *reply = NULL;
  gsize length = 0;
  gboolean ok;

  if (!self->http_open)
    {
      self->wlen = 0;
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION,
                   "not connected to the gateway %s", describe (self));
      return FALSE;
    }
  ok = _hbase_http_channel_post (self->http, self->wbuf, self->wlen, self->max_message,
                                 effective_deadline (self), self->cancellable, describe (self),
                                 &reply, &length, &self->bytes_sent, &self->bytes_received, error);
  self->send_calls++;
  self->wlen = 0;
  if (self->wcap > SHRINK_ABOVE)
    {
      g_clear_pointer (&self->wbuf, g_free);
      self->wcap = 0;
    }
  self->awaiting_reply = FALSE;
  if (!ok)
    {
      self->failed = TRUE;
      return FALSE;
    }
  self->recv_calls++;
  g_free (self->rbuf);
  self->rbuf = reply;
  self->rcap = self->rlen = length;
  self->rpos = 0;
  self->in_frame = TRUE;
  self->frame_end = length;
  self->reply_started = length > 0;
  return TRUE;
}

/* Sends @length bytes of @data by @deadline. */
static gboolean
send_all (HBaseSocketTransport *self, const guint8 *data, gsize length, gint64 deadline,
          GCancellable *cancellable, GError **error)
{
  gsize sent = 0;
  gboolean ok = TRUE;

  while (ok && sent < length)
    {
      /* MSG_NOSIGNAL: a gateway that closed the socket is an error to
       * report, not a SIGPIPE that kills the process */
      ssize_t n = send (self->fd, data + sent, length - sent, MSG_NOSIGNAL | MSG_DONTWAIT);

      self->send_calls++;
      if (n >= 0)
        {
          sent += (gsize) n;
          self->bytes_sent += (guint64) n;
        }
      else if (errno == EAGAIN || errno == EWOULDBLOCK)
        ok = wait_fd (self, POLLOUT, deadline, cancellable, "sending a request to", error);
      else if (errno == EPIPE || errno == ECONNRESET)
        {
          set_closed_error (self, error);
          ok = FALSE;
        }
      else if (errno != EINTR)
        {
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION,
                       "cannot send to the gateway %s: %s", describe (self), g_strerror (errno));
          ok = FALSE;
        }
    }
  return ok;
}

/* The request is sent (or failed): ready for its reply. */
static gboolean
flush_done (HBaseSocketTransport *self, gboolean ok)
{
  self->wlen = 0;
  if (!ok)
    self->failed = TRUE;
  /* a huge request should not pin its buffer for the connection's life */
  if (self->wcap > SHRINK_ABOVE)
    {
      g_clear_pointer (&self->wbuf, g_free);
      self->wcap = 0;
    }
  self->reply_started = FALSE;
  /* the first read of the reply polls before it receives */
  self->awaiting_reply = ok && self->rpos == self->rlen;
  return ok;
}

/* SASL integrity or privacy: the request (after the 4 bytes reserved
 * for a plain frame's length) goes out as wrap tokens, each a frame. */
static gboolean
sasl_flush (HBaseSocketTransport *self, GError **error)
{
  gboolean ok;

  if (self->sasl_out == NULL)
    self->sasl_out = g_byte_array_new ();
  g_byte_array_set_size (self->sasl_out, 0);
  ok = _hbase_sasl_wrap_frames (self->sasl, self->wbuf + 4, self->wlen - 4, self->sasl_out,
                                error);
  if (ok)
    ok = send_all (self, self->sasl_out->data, self->sasl_out->len, effective_deadline (self),
                   self->cancellable, error);
  /* a huge request should not pin its buffer either */
  if (self->sasl_out->len > SHRINK_ABOVE)
    g_clear_pointer (&self->sasl_out, g_byte_array_unref);
  else
    g_byte_array_set_size (self->sasl_out, 0);
  return flush_done (self, ok);
}

static gboolean
socket_transport_flush (ThriftTransport *transport, GError **error)
{
  HBaseSocketTransport *self = SELF (transport);
  gboolean ok;

  if (self->wlen == 0)
    return TRUE;
  if (self->http != NULL)
    return http_flush (self, error);
  if (self->fd < 0)
    {
      self->wlen = 0;
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION,
                   "not connected to the gateway %s", describe (self));
      return FALSE;
    }
  if (self->framed)
    {
      guint32 size = GUINT32_TO_BE ((guint32) (self->wlen - 4));

      memcpy (self->wbuf, &size, 4);
    }
  if (G_UNLIKELY (self->sasl != NULL) && _hbase_sasl_wraps (self->sasl))
    return sasl_flush (self, error);
  ok = send_all (self, self->wbuf, self->wlen, effective_deadline (self), self->cancellable,
                 error);
  return flush_done (self, ok);
}

static gboolean
socket_transport_is_open (ThriftTransport *transport)
{
  return connected (SELF (transport));
}

static gboolean
socket_transport_close (ThriftTransport *transport, GError **error)
{
  HBaseSocketTransport *self = HBASE_SOCKET_TRANSPORT (transport);

  if (self->fd >= 0)
    close (self->fd);
  self->fd = -1;
  g_clear_pointer (&self->sasl, _hbase_sasl_free);
  self->http_open = FALSE;
  self->rpos = self->rlen = 0;
  self->in_frame = FALSE;
  self->reply_bytes = 0;
  self->replies = 0;
  self->awaiting_reply = FALSE;
  self->last_reply_time = 0;
  self->wlen = 0;
  self->failed = FALSE;
  self->reply_started = FALSE;
  return TRUE;
}

static gboolean
socket_transport_open (ThriftTransport *transport, GError **error)
{
  HBaseSocketTransport *self = HBASE_SOCKET_TRANSPORT (transport);

  return _hbase_socket_transport_connect (self, 0, self->cancellable, error);
}

static gboolean
socket_transport_peek (ThriftTransport *transport, GError **error)
{
  return _hbase_socket_transport_is_alive (HBASE_SOCKET_TRANSPORT (transport));
}

/* The protocol asks before reading a string or container of @size bytes;
 * a garbled length (wrong protocol, corrupt or hostile reply) is refused
 * before anything is allocated for it.  A buffered reply's bytes are
 * received first: what the protocol then allocates is bounded by what the
 * gateway really sent, not by what it announced (a framed reply is whole
 * in the buffer already). */
static gboolean
socket_transport_check_read_bytes_available (ThriftTransport *transport, glong size, GError **error)
{
  HBaseSocketTransport *self = SELF (transport);
  gsize available = self->in_frame ? self->frame_end - self->rpos
                                   : self->max_message - self->reply_bytes;

  /* libthrift_c_glib asks even after it failed on a container's element
   * type (with a size it computed from that failure): its error stands */
  if (error != NULL && *error != NULL)
    {
      self->failed = TRUE;
      return FALSE;
    }
  if (size < 0 || (gsize) size > available)
    {
      if (self->in_frame)
        g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                     "the reply from %s announces %ld bytes where its frame holds %" G_GSIZE_FORMAT
                     " more: check the protocol and transport", describe (self), size, available);
      else
        g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                     "the reply from %s announces %ld bytes where at most %" G_GSIZE_FORMAT
                     " can follow within the limit of %" G_GSIZE_FORMAT " bytes a reply "
                     "(max-message-size): check the protocol and transport",
                     describe (self), size, available, self->max_message);
      self->failed = TRUE;
      return FALSE;
    }
  if (!self->framed && !fill (self, (gsize) size, error))
    {
      self->failed = TRUE;
      return FALSE;
    }
  return TRUE;
}

/* Message-size accounting is done per reply above; the base class's
 * connection-lifetime counters would cap a long-lived connection. */
static gboolean
socket_transport_count_noop (ThriftTransport *transport, glong size, GError **error)
{
  return TRUE;
}

static void
_hbase_socket_transport_finalize (GObject *object)
{
  HBaseSocketTransport *self = HBASE_SOCKET_TRANSPORT (object);

  if (self->fd >= 0)
    close (self->fd);
  g_clear_pointer (&self->http, _hbase_http_channel_free);
  g_clear_pointer (&self->sasl, _hbase_sasl_free);
  g_clear_pointer (&self->sasl_out, g_byte_array_unref);
  g_clear_object (&self->cancellable);
  g_free (self->wbuf);
  g_free (self->rbuf);
  g_free (self->host);
  g_free (self->description);
  if (self->kerberos != NULL)
    {
      _hbase_kerberos_settings_clear (self->kerberos);
      g_free (self->kerberos);
    }
  g_free (self->kerberos_host);
  G_OBJECT_CLASS (_hbase_socket_transport_parent_class)->finalize (object);
}

static void
_hbase_socket_transport_class_init (HBaseSocketTransportClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  ThriftTransportClass *transport_class = THRIFT_TRANSPORT_CLASS (klass);

  object_class->finalize = _hbase_socket_transport_finalize;
  transport_class->is_open = socket_transport_is_open;
  transport_class->peek = socket_transport_peek;
  transport_class->open = socket_transport_open;
  transport_class->close = socket_transport_close;
  transport_class->read = socket_transport_read;
  transport_class->read_all = socket_transport_read_all;
  transport_class->read_end = socket_transport_read_end;
  transport_class->write = socket_transport_write;
  transport_class->write_end = socket_transport_write_end;
  transport_class->flush = socket_transport_flush;
  transport_class->checkReadBytesAvailable = socket_transport_check_read_bytes_available;
  transport_class->updateKnownMessageSize = socket_transport_count_noop;
  transport_class->resetConsumedMessageSize = socket_transport_count_noop;
  transport_class->countConsumedMessageBytes = socket_transport_count_noop;
}

static void
_hbase_socket_transport_init (HBaseSocketTransport *self)
{
  self->fd = -1;
  self->max_message = HBASE_TRANSPORT_DEFAULT_MAX_MESSAGE;
}

HBaseSocketTransport *
_hbase_socket_transport_new (const char *host, guint port, gboolean framed, guint connect_timeout_ms)
{
  HBaseSocketTransport *self = g_object_new (HBASE_TYPE_SOCKET_TRANSPORT, NULL);

  self->host = g_strdup (host);
  self->port = port;
  self->framed = framed;
  self->connect_timeout_ms = connect_timeout_ms;
  return self;
}

HBaseSocketTransport *
_hbase_socket_transport_new_http (const char                  *url,
                                  const char                  *host,
                                  const HBaseTlsSettings      *tls,
                                  const HBaseKerberosSettings *kerberos,
                                  guint                        connect_timeout_ms)
{
  HBaseSocketTransport *self = _hbase_socket_transport_new (url, 0, TRUE, connect_timeout_ms);

  self->http = _hbase_http_channel_new (url, host, tls, kerberos, connect_timeout_ms);
  return self;
}

void
_hbase_socket_transport_set_kerberos (HBaseSocketTransport        *self,
                                      const char                  *host,
                                      const HBaseKerberosSettings *kerberos)
{
  if (self->kerberos != NULL)
    _hbase_kerberos_settings_clear (self->kerberos);
  else
    self->kerberos = g_new0 (HBaseKerberosSettings, 1);
  _hbase_kerberos_settings_copy (self->kerberos, kerberos);
  g_free (self->kerberos_host);
  self->kerberos_host = g_strdup (host);
  /* after the handshake every message is a frame: with QOP
   * authentication exactly the framed transport's, otherwise of wrap
   * tokens (flush and begin_frame) */
  if (self->http == NULL)
    self->framed = TRUE;
}

void
_hbase_socket_transport_set_description (HBaseSocketTransport *self, const char *description)
{
  g_free (self->description);
  self->description = g_strdup (description);
}

void
_hbase_socket_transport_set_request_timeout (HBaseSocketTransport *self, guint timeout_ms)
{
  self->request_timeout_ms = timeout_ms;
}

static void
set_socket_options (int fd)
{
  int one = 1;

  /* requests are written whole by flush(): Nagle would only delay them */
  setsockopt (fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  setsockopt (fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
}

/* Tries one address; on failure says why in @reason. */
static int
connect_one (HBaseSocketTransport *self, const struct addrinfo *ai, gint64 deadline,
             GCancellable *cancellable, GError **reason)
{
  int fd = socket (ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
  int err = 0;
  socklen_t len = sizeof err;

  if (fd < 0)
    {
      g_set_error (reason, HBASE_ERROR, HBASE_ERROR_CONNECTION, "socket: %s", g_strerror (errno));
      return -1;
    }
  if (connect (fd, ai->ai_addr, ai->ai_addrlen) == 0)
    return fd;
  if (errno != EINPROGRESS)
    err = errno;
  else
    {
      self->fd = fd;   /* wait_fd polls self->fd */
      if (!wait_fd (self, POLLOUT, deadline, cancellable, "connecting to", reason))
        {
          self->fd = -1;
          close (fd);
          return -1;
        }
      self->fd = -1;
      if (getsockopt (fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0)
        err = errno;
    }
  if (err == 0)
    return fd;
  close (fd);
  g_set_error (reason, HBASE_ERROR, HBASE_ERROR_CONNECTION, "%s", g_strerror (err));
  return -1;
}

/* The SASL handshake's I/O: the connect deadline and cancellable. */
typedef struct {
  HBaseSocketTransport *self;
  gint64 deadline;
  GCancellable *cancellable;
  gboolean sent;
  gsize received;
} Handshake;

static gboolean
handshake_send (gpointer io, const guint8 *data, gsize length, GError **error)
{
  Handshake *h = io;

  h->sent = TRUE;
  return send_all (h->self, data, length, h->deadline, h->cancellable, error);
}

/* Reads exactly what the negotiation asks for: the gateway sends nothing
 * unasked, so nothing is read ahead into the reply buffer. */
static gboolean
handshake_recv (gpointer io, guint8 *data, gsize length, GError **error)
{
  Handshake *h = io;
  HBaseSocketTransport *self = h->self;
  gsize got = 0;

  while (got < length)
    {
      ssize_t n = recv (self->fd, data + got, length - got, MSG_DONTWAIT);

      self->recv_calls++;
      if (n > 0)
        {
          got += (gsize) n;
          h->received += (gsize) n;
          self->bytes_received += (guint64) n;
          /* the gateway answered: a timeout is then no "no reply at all"
           * (the first request's flush clears it) */
          self->reply_started = TRUE;
        }
      else if (n == 0 || errno == ECONNRESET)
        {
          /* a reset too: a peer that closes without reading what it was
           * sent (the client's token) resets the connection */
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION,
                       "the gateway %s closed the connection during the Kerberos (SASL) "
                       "handshake%s", describe (self), h->received == 0
                         ? " without a word: it does not seem to speak SASL" : "");
          return FALSE;
        }
      else if (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK)
        {
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION,
                       "cannot read from the gateway %s: %s", describe (self), g_strerror (errno));
          return FALSE;
        }
      else if (errno != EINTR &&
               !wait_fd (self, POLLIN, h->deadline, h->cancellable,
                         "in the Kerberos (SASL) handshake with", error))
        return FALSE;
    }
  return TRUE;
}

/* Authenticates the new socket (SASL GSSAPI) within the connect
 * deadline; from then on frames are plain, signed or sealed as agreed. */
static gboolean
sasl_handshake (HBaseSocketTransport *self, gint64 deadline, GCancellable *cancellable,
                GError **error)
{
  Handshake h = { self, deadline, cancellable, FALSE, 0 };
  gint64 start = g_get_monotonic_time ();
  GError *local = NULL;

  self->sasl = _hbase_sasl_negotiate (self->kerberos, self->kerberos_host, describe (self),
                                      MIN (self->max_message, (gsize) 0xFFFFFF),
                                      deadline, cancellable, handshake_send, handshake_recv, &h, &local);
  self->handshake_us = g_get_monotonic_time () - start;
  if (self->sasl != NULL)
    return TRUE;
  /* (a timeout before anything was sent is the KDC's, said as such) */
  if (h.sent && h.received == 0 && g_error_matches (local, HBASE_ERROR, HBASE_ERROR_TIMEOUT))
    {
      /* a plain Thrift gateway reads START's "\x01\0\0\0\x06" as the
       * length of a method name (16 MiB) and waits for it in silence,
       * without closing (checked on the stack): no reply is all there is
       * to tell it by */
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION,
                   "the gateway %s did not answer the Kerberos (SASL) handshake within %"
                   G_GINT64_FORMAT " ms: it does not seem to speak SASL (is it a plain "
                   "Thrift gateway? then turn Kerberos off for it)",
                   describe (self), (self->handshake_us + 500) / 1000);
      /* not retried after a pause: the same gateway would keep silent
       * again (the client still tries the other gateways of its list) */
      if (error != NULL)
        _hbase_error_set_permanent (*error);
      g_error_free (local);
      return FALSE;
    }
  g_propagate_error (error, local);
  return FALSE;
}

guint
_hbase_socket_transport_get_qop (HBaseSocketTransport *self)
{
  return self->sasl != NULL ? _hbase_sasl_get_qop (self->sasl) : 0;
}

gboolean
_hbase_socket_transport_connect (HBaseSocketTransport *self, gint64 deadline,
                                 GCancellable *cancellable, GError **error)
{
  struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM };
  struct addrinfo *addresses = NULL;
  g_autoptr(GError) reason = NULL;
  g_autofree char *service = g_strdup_printf ("%u", self->port);
  gint64 connect_deadline = self->connect_timeout_ms == 0 ? 0 :
    g_get_monotonic_time () + (gint64) self->connect_timeout_ms * 1000;
  int rc;

  socket_transport_close (THRIFT_TRANSPORT (self), NULL);
  if (deadline != 0 && (connect_deadline == 0 || deadline < connect_deadline))
    connect_deadline = deadline;
  if (self->http != NULL)
    {
      /* curl connects (and shakes hands) on the first POST, within the
       * call's deadline; its failures then say so */
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      self->http_open = TRUE;
      return TRUE;
    }

  rc = getaddrinfo (self->host, service, &hints, &addresses);
  if (rc != 0)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION,
                   "cannot resolve the gateway host '%s': %s", self->host, gai_strerror (rc));
      /* an unknown name stays unknown for the call's few seconds; a DNS
       * server that did not answer (EAI_AGAIN) may answer the next time */
      if (error != NULL && rc != EAI_AGAIN && rc != EAI_SYSTEM && rc != EAI_MEMORY)
        _hbase_error_set_permanent (*error);
      return FALSE;
    }
  for (struct addrinfo *ai = addresses; ai != NULL && self->fd < 0; ai = ai->ai_next)
    {
      g_clear_error (&reason);
      self->fd = connect_one (self, ai, connect_deadline, cancellable, &reason);
      if (self->fd < 0 && (g_error_matches (reason, HBASE_ERROR, HBASE_ERROR_TIMEOUT) ||
                           g_error_matches (reason, G_IO_ERROR, G_IO_ERROR_CANCELLED)))
        break;
    }
  freeaddrinfo (addresses);

  if (self->fd < 0)
    {
      if (g_error_matches (reason, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_propagate_error (error, g_steal_pointer (&reason));
      else
        g_set_error (error, HBASE_ERROR,
                     g_error_matches (reason, HBASE_ERROR, HBASE_ERROR_TIMEOUT)
                       ? HBASE_ERROR_TIMEOUT : HBASE_ERROR_CONNECTION,
                     "cannot connect to Thrift2 gateway %s:%u: %s", self->host, self->port,
                     reason != NULL ? reason->message : "no address");
      return FALSE;
    }
  set_socket_options (self->fd);
  enable_blocking_waits (self);
  if (self->kerberos != NULL && !sasl_handshake (self, connect_deadline, cancellable, error))
    {
      socket_transport_close (THRIFT_TRANSPORT (self), NULL);
      return FALSE;
    }
  return TRUE;
}

void
_hbase_socket_transport_set_deadline (HBaseSocketTransport *self, gint64 deadline)
{
  self->deadline = deadline;
}

void
_hbase_socket_transport_set_cancellable (HBaseSocketTransport *self, GCancellable *cancellable)
{
  g_set_object (&self->cancellable, cancellable);
}

gboolean
_hbase_socket_transport_is_idle (HBaseSocketTransport *self)
{
  return connected (self) && !self->failed && self->rpos == self->rlen && !self->in_frame &&
         self->wlen == 0;
}

gboolean
_hbase_socket_transport_is_alive (HBaseSocketTransport *self)
{
  struct pollfd pfd = { .fd = self->fd, .events = POLLIN | POLLRDHUP };
  char byte;
  ssize_t n;

  if (!_hbase_socket_transport_is_idle (self))
    return FALSE;
  if (self->http != NULL)
    return _hbase_http_channel_is_alive (self->http);
  if (poll (&pfd, 1, 0) == 0)
    return TRUE;
  if (pfd.revents & (POLLERR | POLLHUP | POLLRDHUP | POLLNVAL))
    return FALSE;
  /* readable while no reply is expected: end of stream, or stray bytes */
  n = recv (self->fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
  return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
}

guint64
_hbase_socket_transport_get_poll_calls (HBaseSocketTransport *self)
{
  return self->poll_calls;
}

guint64
_hbase_socket_transport_get_bytes_sent (HBaseSocketTransport *self)
{
  return self->bytes_sent;
}

guint64
_hbase_socket_transport_get_bytes_received (HBaseSocketTransport *self)
{
  return self->bytes_received;
}

gint64
_hbase_socket_transport_get_last_reply_time (HBaseSocketTransport *self)
{
  return self->last_reply_time;
}

guint64
_hbase_socket_transport_get_recv_calls (HBaseSocketTransport *self)
{
  return self->recv_calls;
}

guint64
_hbase_socket_transport_get_send_calls (HBaseSocketTransport *self)
{
  return self->send_calls;
}

void
_hbase_socket_transport_mark_failed (ThriftTransport *transport)
{
  if (transport != NULL && G_TYPE_FROM_INSTANCE (transport) == HBASE_TYPE_SOCKET_TRANSPORT)
    SELF (transport)->failed = TRUE;
}

gboolean
_hbase_socket_transport_has_failed (HBaseSocketTransport *self)
{
  return self->failed;
}

void
_hbase_socket_transport_set_max_message (HBaseSocketTransport *self, gsize max_message)
{
  self->max_message = MAX (max_message, (gsize) 1);
}

HBaseSocketTransport *
_hbase_socket_transport_new_for_fd (int fd, gboolean framed)
{
  HBaseSocketTransport *self = _hbase_socket_transport_new ("fd", 0, framed, 0);
  int flags = fcntl (fd, F_GETFL);

  if (flags >= 0)
    fcntl (fd, F_SETFL, flags | O_NONBLOCK);
  self->fd = fd;
  enable_blocking_waits (self);
  return self;
}
