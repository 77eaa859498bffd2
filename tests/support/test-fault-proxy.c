/* SPDX-License-Identifier: Apache-2.0 */
/* test-fault-proxy.c: a fault-injecting TCP proxy for tests (see
 * test-fault-proxy.h).  One thread runs a poll() loop over the listening
 * socket, a wake-up pipe and both sockets of every connection.  Writes are
 * blocking: tests move a few kilobytes and both peers always read. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <linux/sockios.h>

#include <glib-unix.h>

#include "test-fault-proxy.h"

typedef enum {
  MODE_PASS,
  MODE_DELAY,
  MODE_BLACKHOLE,
  MODE_RESET_REQUEST,
  MODE_RESET_REPLY,
  MODE_TRUNCATE_REPLY,
  MODE_SLOW_DRIP,
  MODE_ACCEPT_CLOSE,
  MODE_GARBAGE,
} Mode;

typedef struct {
  Mode mode;
  guint ms;
  gsize after;
  gsize forward;
  GBytes *garbage;
  guint generation;      /* changes with every mode change */
} Setting;

/* Bytes to write to one side once their time comes. */
typedef struct {
  gint64 due;
  GBytes *data;
} Chunk;

typedef struct {
  int client_fd;
  int upstream_fd;         /* -1 once the upstream closed */
  guint generation;        /* of the setting request_seen/reply_seen count for */
  gsize request_seen;
  gsize reply_seen;
  GByteArray *held;        /* reset-request: request bytes held back */
  GQueue to_upstream;      /* Chunk *, in due order */
  GQueue to_client;
  gint64 last_due_upstream;
  gint64 last_due_client;
  gboolean dead;           /* closed; freed at the end of the loop turn */
} Conn;

struct _TestFaultProxy {
  char *upstream_host;
  guint upstream_port;
  int listen_fd;
  guint port;
  int wake[2];
  GThread *thread;
  GList *conns;            /* Conn *, used by the thread only */

  GMutex lock;             /* guards what follows */
  Setting setting;
  TestFaultProxyStats stats;
  gboolean stopping;
};

/* --- sockets ------------------------------------------------------------------ */

static gboolean
send_all (int fd, const guint8 *data, gsize len)
{
  while (len > 0)
    {
      ssize_t n = send (fd, data, len, MSG_NOSIGNAL);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      data += n;
      len -= (gsize) n;
    }
  return TRUE;
}

static int
connect_upstream (const char *host, guint port)
{
  struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM };
  struct addrinfo *list = NULL;
  g_autofree char *service = g_strdup_printf ("%u", port);
  int fd = -1;

  if (getaddrinfo (host, service, &hints, &list) != 0)
    return -1;
  for (struct addrinfo *ai = list; ai != NULL && fd < 0; ai = ai->ai_next)
    {
      fd = socket (ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
      if (fd >= 0 && connect (fd, ai->ai_addr, ai->ai_addrlen) != 0)
        {
          close (fd);
          fd = -1;
        }
    }
  freeaddrinfo (list);
  return fd;
}

/* Waits (at most 200 ms) until the kernel has sent everything written to
 * @fd, so an RST that follows does not discard it. */
static void
drain_send_queue (int fd)
{
  for (guint i = 0; i < 200; i++)
    {
      int queued = 0;

      if (ioctl (fd, SIOCOUTQ, &queued) != 0 || queued == 0)
        return;
      g_usleep (1000);
    }
}

/* --- connections ------------------------------------------------------------- */

static void
chunk_free (gpointer data)
{
  Chunk *chunk = data;

  g_bytes_unref (chunk->data);
  g_free (chunk);
}

static void
conn_close (TestFaultProxy *proxy, Conn *conn, gboolean reset)
{
  if (conn->dead)
    return;
  if (reset)
    {
      struct linger linger = { .l_onoff = 1, .l_linger = 0 };

      drain_send_queue (conn->client_fd);
      setsockopt (conn->client_fd, SOL_SOCKET, SO_LINGER, &linger, sizeof linger);
    }
  close (conn->client_fd);
  if (conn->upstream_fd >= 0)
    close (conn->upstream_fd);
  conn->client_fd = conn->upstream_fd = -1;
  g_queue_clear_full (&conn->to_upstream, chunk_free);
  g_queue_clear_full (&conn->to_client, chunk_free);
  conn->dead = TRUE;
  g_mutex_lock (&proxy->lock);
  proxy->stats.closed++;
  proxy->stats.open--;
  if (reset)
    proxy->stats.resets++;
  g_mutex_unlock (&proxy->lock);
}

static void
conn_free (Conn *conn)
{
  g_byte_array_unref (conn->held);
  g_free (conn);
}

static void
queue_chunk (GQueue *queue, gint64 *last_due, gint64 due, const guint8 *data, gsize len)
{
  Chunk *chunk;

  if (len == 0)
    return;
  chunk = g_new (Chunk, 1);
  chunk->due = MAX (due, *last_due);
  chunk->data = g_bytes_new (data, len);
  *last_due = chunk->due;
  g_queue_push_tail (queue, chunk);
}

/* Writes the chunks whose time has come.  FALSE when the connection was
 * closed. */
static gboolean
conn_flush (TestFaultProxy *proxy, Conn *conn, gint64 now)
{
  Chunk *chunk;

  while ((chunk = g_queue_peek_head (&conn->to_upstream)) != NULL && chunk->due <= now)
    {
      gsize len;
      const guint8 *data = g_bytes_get_data (chunk->data, &len);

      if (conn->upstream_fd < 0 || !send_all (conn->upstream_fd, data, len))
        {
          conn_close (proxy, conn, FALSE);
          return FALSE;
        }
      g_mutex_lock (&proxy->lock);
      proxy->stats.forwarded_bytes += len;
      g_mutex_unlock (&proxy->lock);
      chunk_free (g_queue_pop_head (&conn->to_upstream));
    }
  while ((chunk = g_queue_peek_head (&conn->to_client)) != NULL && chunk->due <= now)
    {
      gsize len;
      const guint8 *data = g_bytes_get_data (chunk->data, &len);

      if (!send_all (conn->client_fd, data, len))
        {
          conn_close (proxy, conn, FALSE);
          return FALSE;
        }
      g_mutex_lock (&proxy->lock);
      proxy->stats.delivered_bytes += len;
      g_mutex_unlock (&proxy->lock);
      chunk_free (g_queue_pop_head (&conn->to_client));
    }
  /* the upstream closed and everything it said was delivered */
  if (conn->upstream_fd < 0 && g_queue_is_empty (&conn->to_client))
    {
      conn_close (proxy, conn, FALSE);
      return FALSE;
    }
  return TRUE;
}

/* A mode change: counts start again; request bytes held back by
 * reset-request go on under the new mode. */
static void
conn_follow (Conn *conn, const Setting *setting, gint64 now)
{
  if (conn->generation == setting->generation)
    return;
  conn->generation = setting->generation;
  conn->request_seen = conn->reply_seen = 0;
  if (conn->held->len > 0 && setting->mode != MODE_RESET_REQUEST)
    {
      queue_chunk (&conn->to_upstream, &conn->last_due_upstream, now, conn->held->data,
                   conn->held->len);
      g_byte_array_set_size (conn->held, 0);
    }
}

static void
on_request (TestFaultProxy *proxy, Conn *conn, const Setting *setting, const guint8 *data,
            gsize len, gint64 now)
{
  switch (setting->mode)
    {
    case MODE_DELAY:
      queue_chunk (&conn->to_upstream, &conn->last_due_upstream,
                   now + (gint64) setting->ms * 1000, data, len);
      break;
    case MODE_BLACKHOLE:
      break;
    case MODE_RESET_REQUEST:
      g_byte_array_append (conn->held, data, len);
      conn->request_seen += len;
      if (conn->request_seen >= setting->after)
        {
          queue_chunk (&conn->to_upstream, &conn->last_due_upstream, now, conn->held->data,
                       MIN (setting->forward, conn->held->len));
          g_byte_array_set_size (conn->held, 0);
          if (conn_flush (proxy, conn, now))
            conn_close (proxy, conn, TRUE);
        }
      break;
    case MODE_ACCEPT_CLOSE:
      conn_close (proxy, conn, FALSE);
      break;
    case MODE_PASS:
    case MODE_RESET_REPLY:
    case MODE_TRUNCATE_REPLY:
    case MODE_SLOW_DRIP:
    case MODE_GARBAGE:
    default:
      queue_chunk (&conn->to_upstream, &conn->last_due_upstream, now, data, len);
      break;
    }
}

static void
on_reply (TestFaultProxy *proxy, Conn *conn, const Setting *setting, const guint8 *data,
          gsize len, gint64 now)
{
  switch (setting->mode)
    {
    case MODE_DELAY:
      queue_chunk (&conn->to_client, &conn->last_due_client, now + (gint64) setting->ms * 1000,
                   data, len);
      break;
    case MODE_BLACKHOLE:
      break;
    case MODE_RESET_REPLY:
    case MODE_TRUNCATE_REPLY:
      {
        gsize allowed = conn->reply_seen < setting->after ? setting->after - conn->reply_seen : 0;

        queue_chunk (&conn->to_client, &conn->last_due_client, now, data, MIN (allowed, len));
        conn->reply_seen += len;
        if (conn->reply_seen >= setting->after && conn_flush (proxy, conn, G_MAXINT64))
          conn_close (proxy, conn, setting->mode == MODE_RESET_REPLY);
      }
      break;
    case MODE_SLOW_DRIP:
      for (gsize i = 0; i < len; i++)
        queue_chunk (&conn->to_client, &conn->last_due_client,
                     MAX (now, conn->last_due_client) + (gint64) setting->ms * 1000, data + i, 1);
      break;
    case MODE_GARBAGE:
      {
        gsize garbage_len;
        const guint8 *garbage = g_bytes_get_data (setting->garbage, &garbage_len);

        queue_chunk (&conn->to_client, &conn->last_due_client, now, garbage, garbage_len);
      }
      break;
    case MODE_ACCEPT_CLOSE:
      conn_close (proxy, conn, FALSE);
      break;
    case MODE_PASS:
    case MODE_RESET_REQUEST:
    default:
      queue_chunk (&conn->to_client, &conn->last_due_client, now, data, len);
      break;
    }
}

static void
accept_one (TestFaultProxy *proxy, const Setting *setting)
{
  int fd = accept4 (proxy->listen_fd, NULL, NULL, SOCK_CLOEXEC);
  int upstream_fd;
  Conn *conn;

  if (fd < 0)
    return;
  g_mutex_lock (&proxy->lock);
  proxy->stats.accepted++;
  g_mutex_unlock (&proxy->lock);
  upstream_fd = setting->mode == MODE_ACCEPT_CLOSE
                  ? -1 : connect_upstream (proxy->upstream_host, proxy->upstream_port);
  if (upstream_fd < 0)
    {
      close (fd);
      g_mutex_lock (&proxy->lock);
      proxy->stats.closed++;
      g_mutex_unlock (&proxy->lock);
      return;
    }
  conn = g_new0 (Conn, 1);
  conn->client_fd = fd;
  conn->upstream_fd = upstream_fd;
  conn->generation = setting->generation;
  conn->held = g_byte_array_new ();
  g_queue_init (&conn->to_upstream);
  g_queue_init (&conn->to_client);
  proxy->conns = g_list_prepend (proxy->conns, conn);
  g_mutex_lock (&proxy->lock);
  proxy->stats.open++;
  g_mutex_unlock (&proxy->lock);
}

/* Reads what @fd has; FALSE at end of stream or on an error. */
static gboolean
read_some (int fd, guint8 *buffer, gsize size, gsize *len)
{
  ssize_t n;

  do
    n = recv (fd, buffer, size, 0);
  while (n < 0 && errno == EINTR);
  if (n <= 0)
    return FALSE;
  *len = (gsize) n;
  return TRUE;
}

/* --- the thread ---------------------------------------------------------------- */

/* A copy of the current mode (holding a reference to its garbage); FALSE
 * when the proxy is stopping. */
static gboolean
read_setting (TestFaultProxy *proxy, Setting *setting)
{
  gboolean stopping;

  g_mutex_lock (&proxy->lock);
  stopping = proxy->stopping;
  *setting = proxy->setting;
  setting->garbage = setting->garbage != NULL ? g_bytes_ref (setting->garbage) : NULL;
  g_mutex_unlock (&proxy->lock);
  if (stopping)
    g_clear_pointer (&setting->garbage, g_bytes_unref);
  return !stopping;
}

static void
follow_setting (TestFaultProxy *proxy, Conn *conn, const Setting *setting, gint64 now)
{
  if (conn->dead)
    return;
  conn_follow (conn, setting, now);
  if (setting->mode == MODE_ACCEPT_CLOSE)
    conn_close (proxy, conn, FALSE);
}

static gpointer
proxy_thread (gpointer data)
{
  TestFaultProxy *proxy = data;
  guint8 buffer[65536];

  for (;;)
    {
      Setting setting;
      g_autoptr(GArray) fds = g_array_new (FALSE, TRUE, sizeof (struct pollfd));
      g_autoptr(GPtrArray) owners = g_ptr_array_new ();
      gint64 now = g_get_monotonic_time (), next_due = G_MAXINT64;
      struct pollfd wake = { .fd = proxy->wake[0], .events = POLLIN };
      struct pollfd listener = { .fd = proxy->listen_fd, .events = POLLIN };
      int timeout = -1;

      if (!read_setting (proxy, &setting))
        break;
      for (GList *l = proxy->conns; l != NULL; l = l->next)
        {
          Conn *conn = l->data;
          Chunk *chunk;

          follow_setting (proxy, conn, &setting, now);
          if (conn->dead || !conn_flush (proxy, conn, now))
            continue;
          if ((chunk = g_queue_peek_head (&conn->to_upstream)) != NULL)
            next_due = MIN (next_due, chunk->due);
          if ((chunk = g_queue_peek_head (&conn->to_client)) != NULL)
            next_due = MIN (next_due, chunk->due);
        }

      g_array_append_val (fds, wake);
      g_ptr_array_add (owners, NULL);
      g_array_append_val (fds, listener);
      g_ptr_array_add (owners, NULL);
      for (GList *l = proxy->conns; l != NULL; l = l->next)
        {
          Conn *conn = l->data;
          struct pollfd client = { .fd = conn->client_fd, .events = POLLIN };
          struct pollfd upstream = { .fd = conn->upstream_fd, .events = POLLIN };

          if (conn->dead)
            continue;
          g_array_append_val (fds, client);
          g_ptr_array_add (owners, conn);
          if (conn->upstream_fd >= 0)
            {
              g_array_append_val (fds, upstream);
              g_ptr_array_add (owners, conn);
            }
        }
      if (next_due != G_MAXINT64)
        timeout = (int) MAX (0, (next_due - now + 999) / 1000);

      if (poll ((struct pollfd *) fds->data, fds->len, timeout) < 0 && errno != EINTR)
        g_error ("fault proxy: poll failed: %s", g_strerror (errno));
      now = g_get_monotonic_time ();
      /* bytes that came after a mode change must see it, even when the
       * change and the bytes woke the same poll() */
      g_clear_pointer (&setting.garbage, g_bytes_unref);
      if (!read_setting (proxy, &setting))
        break;
      for (GList *l = proxy->conns; l != NULL; l = l->next)
        follow_setting (proxy, l->data, &setting, now);

      for (guint i = 0; i < fds->len; i++)
        {
          struct pollfd *pfd = &g_array_index (fds, struct pollfd, i);
          Conn *conn = owners->pdata[i];
          gsize len = 0;

          if (pfd->revents == 0)
            continue;
          if (i == 0)
            {
              while (read (proxy->wake[0], buffer, sizeof buffer) > 0)
                ;
              continue;
            }
          if (i == 1)
            {
              accept_one (proxy, &setting);
              continue;
            }
          if (conn->dead)
            continue;
          if (pfd->fd == conn->client_fd)
            {
              if (!read_some (conn->client_fd, buffer, sizeof buffer, &len))
                {
                  conn_close (proxy, conn, FALSE);
                  continue;
                }
              g_mutex_lock (&proxy->lock);
              proxy->stats.request_bytes += len;
              g_mutex_unlock (&proxy->lock);
              on_request (proxy, conn, &setting, buffer, len, now);
            }
          else if (pfd->fd == conn->upstream_fd)
            {
              if (!read_some (conn->upstream_fd, buffer, sizeof buffer, &len))
                {
                  /* deliver what is scheduled, then close (conn_flush) */
                  close (conn->upstream_fd);
                  conn->upstream_fd = -1;
                  continue;
                }
              g_mutex_lock (&proxy->lock);
              proxy->stats.reply_bytes += len;
              g_mutex_unlock (&proxy->lock);
              on_reply (proxy, conn, &setting, buffer, len, now);
            }
          if (!conn->dead)
            conn_flush (proxy, conn, now);
        }

      for (GList *l = proxy->conns; l != NULL;)
        {
          GList *next = l->next;

          if (((Conn *) l->data)->dead)
            {
              conn_free (l->data);
              proxy->conns = g_list_delete_link (proxy->conns, l);
            }
          l = next;
        }
      g_clear_pointer (&setting.garbage, g_bytes_unref);
    }

  for (GList *l = proxy->conns; l != NULL; l = l->next)
    {
      conn_close (proxy, l->data, FALSE);
      conn_free (l->data);
    }
  g_clear_pointer (&proxy->conns, g_list_free);
  return NULL;
}

/* --- the public side ------------------------------------------------------------ */

TestFaultProxy *
test_fault_proxy_new (const char *upstream_host, guint upstream_port)
{
  TestFaultProxy *proxy = g_new0 (TestFaultProxy, 1);
  struct sockaddr_in addr = { 0 };
  socklen_t len = sizeof addr;
  g_autoptr(GError) error = NULL;

  proxy->upstream_host = g_strdup (upstream_host);
  proxy->upstream_port = upstream_port;
  g_mutex_init (&proxy->lock);
  proxy->setting.mode = MODE_PASS;

  proxy->listen_fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  g_assert_cmpint (proxy->listen_fd, >=, 0);
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  g_assert_cmpint (bind (proxy->listen_fd, (struct sockaddr *) &addr, sizeof addr), ==, 0);
  g_assert_cmpint (listen (proxy->listen_fd, 64), ==, 0);
  g_assert_cmpint (getsockname (proxy->listen_fd, (struct sockaddr *) &addr, &len), ==, 0);
  proxy->port = ntohs (addr.sin_port);

  g_assert_true (g_unix_open_pipe (proxy->wake, FD_CLOEXEC, &error));
  g_assert_no_error (error);
  g_assert_true (g_unix_set_fd_nonblocking (proxy->wake[0], TRUE, &error));
  g_assert_no_error (error);

  proxy->thread = g_thread_new ("fault-proxy", proxy_thread, proxy);
  return proxy;
}

static void
wake_up (TestFaultProxy *proxy)
{
  ssize_t n;

  do
    n = write (proxy->wake[1], "x", 1);
  while (n < 0 && errno == EINTR);
}

void
test_fault_proxy_free (TestFaultProxy *proxy)
{
  if (proxy == NULL)
    return;
  g_mutex_lock (&proxy->lock);
  proxy->stopping = TRUE;
  g_mutex_unlock (&proxy->lock);
  wake_up (proxy);
  g_thread_join (proxy->thread);
  close (proxy->listen_fd);
  close (proxy->wake[0]);
  close (proxy->wake[1]);
  g_clear_pointer (&proxy->setting.garbage, g_bytes_unref);
  g_mutex_clear (&proxy->lock);
  g_free (proxy->upstream_host);
  g_free (proxy);
}

guint
test_fault_proxy_get_port (TestFaultProxy *proxy)
{
  return proxy->port;
}

void
test_fault_proxy_get_stats (TestFaultProxy *proxy, TestFaultProxyStats *stats)
{
  g_mutex_lock (&proxy->lock);
  *stats = proxy->stats;
  g_mutex_unlock (&proxy->lock);
}

static void
set_mode (TestFaultProxy *proxy, Mode mode, guint ms, gsize after, gsize forward, GBytes *garbage)
{
  g_mutex_lock (&proxy->lock);
  g_clear_pointer (&proxy->setting.garbage, g_bytes_unref);
  proxy->setting.mode = mode;
  proxy->setting.ms = ms;
  proxy->setting.after = after;
  proxy->setting.forward = MIN (forward, after);
  proxy->setting.garbage = garbage;
  proxy->setting.generation++;
  g_mutex_unlock (&proxy->lock);
  wake_up (proxy);
}

void
test_fault_proxy_pass (TestFaultProxy *proxy)
{
  set_mode (proxy, MODE_PASS, 0, 0, 0, NULL);
}

void
test_fault_proxy_delay (TestFaultProxy *proxy, guint ms)
{
  set_mode (proxy, MODE_DELAY, ms, 0, 0, NULL);
}

void
test_fault_proxy_blackhole (TestFaultProxy *proxy)
{
  set_mode (proxy, MODE_BLACKHOLE, 0, 0, 0, NULL);
}

void
test_fault_proxy_reset_request (TestFaultProxy *proxy, gsize after, gsize forward)
{
  set_mode (proxy, MODE_RESET_REQUEST, 0, after, forward, NULL);
}

void
test_fault_proxy_reset_reply (TestFaultProxy *proxy, gsize after)
{
  set_mode (proxy, MODE_RESET_REPLY, 0, after, 0, NULL);
}

void
test_fault_proxy_truncate_reply (TestFaultProxy *proxy, gsize after)
{
  set_mode (proxy, MODE_TRUNCATE_REPLY, 0, after, 0, NULL);
}

void
test_fault_proxy_slow_drip (TestFaultProxy *proxy, guint ms)
{
  set_mode (proxy, MODE_SLOW_DRIP, ms, 0, 0, NULL);
}

void
test_fault_proxy_accept_close (TestFaultProxy *proxy)
{
  set_mode (proxy, MODE_ACCEPT_CLOSE, 0, 0, 0, NULL);
}

void
test_fault_proxy_garbage (TestFaultProxy *proxy, const void *data, gsize len)
{
  GBytes *garbage;

  if (data != NULL)
    garbage = g_bytes_new (data, len);
  else
    {
      guint8 random[64];

      for (guint i = 0; i < sizeof random; i++)
        random[i] = (guint8) g_random_int_range (0, 256);
      garbage = g_bytes_new (random, sizeof random);
    }
  set_mode (proxy, MODE_GARBAGE, 0, 0, 0, garbage);
}

gboolean
test_fault_proxy_wait_closed (TestFaultProxy *proxy, guint timeout_ms)
{
  gint64 until = g_get_monotonic_time () + (gint64) timeout_ms * 1000;

  for (;;)
    {
      TestFaultProxyStats stats;

      test_fault_proxy_get_stats (proxy, &stats);
      if (stats.open == 0)
        return TRUE;
      if (g_get_monotonic_time () >= until)
        return FALSE;
      g_usleep (5000);
    }
}
