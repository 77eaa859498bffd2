/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-support.c: helpers shared by the fuzz harnesses (fuzz-support.h). */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <thrift/c_glib/protocol/thrift_binary_protocol.h>
#include <thrift/c_glib/protocol/thrift_compact_protocol.h>
#include <thrift/c_glib/transport/thrift_memory_buffer.h>

#include <hbase-glib/hbase-glib-thrift.h>

#include "../../src/connection/hbase-protocol.h"
#include "fuzz-support.h"

/* --- the input ---------------------------------------------------------------------- */

guint8
fuzz_take_u8 (FuzzInput *in)
{
  guint8 byte;

  if (in->size == 0)
    return 0;
  byte = in->data[0];
  in->data++;
  in->size--;
  return byte;
}

guint32
fuzz_take_u32 (FuzzInput *in)
{
  guint32 value = 0;

  for (int i = 0; i < 4; i++)
    value = value << 8 | fuzz_take_u8 (in);
  return value;
}

const guint8 *
fuzz_take_bytes (FuzzInput *in, gsize n, gsize *len)
{
  const guint8 *start = in->data;

  *len = MIN (n, in->size);
  in->data += *len;
  in->size -= *len;
  return start;
}

GBytes *
fuzz_take_gbytes (FuzzInput *in, gsize max)
{
  gsize want = fuzz_take_u8 (in) % (max + 1), len;
  const guint8 *bytes = fuzz_take_bytes (in, want, &len);

  return g_bytes_new (bytes, len);
}

char *
fuzz_take_string (FuzzInput *in, gsize max)
{
  gsize want = fuzz_take_u8 (in) % (max + 1), len;
  const guint8 *bytes = fuzz_take_bytes (in, want, &len);

  return g_strndup ((const char *) bytes, len);
}

/* --- checks ----------------------------------------------------------------------- */

void
fuzz_fail (const char *file, int line, const char *format, ...)
{
  va_list args;

  fprintf (stderr, "FUZZ INVARIANT BROKEN at %s:%d: ", file, line);
  va_start (args, format);
  vfprintf (stderr, format, args);
  va_end (args);
  fputc ('\n', stderr);
  abort ();
}

/* GLib stops the program on a fatal message with a breakpoint trap, which
 * libFuzzer does not catch; this writer aborts instead, so that the input
 * is saved. */
static GLogWriterOutput
fatal_writer (GLogLevelFlags level, const GLogField *fields, gsize n_fields, gpointer user_data)
{
  const char *domain = NULL;
  GLogWriterOutput written;

  /* debug and info messages only as G_MESSAGES_DEBUG asks, as GLib's own
   * writer does: not one line per input */
  for (gsize i = 0; i < n_fields; i++)
    if (strcmp (fields[i].key, "GLIB_DOMAIN") == 0)
      domain = fields[i].value;
  if ((level & (G_LOG_LEVEL_DEBUG | G_LOG_LEVEL_INFO)) &&
      g_log_writer_default_would_drop (level, domain))
    return G_LOG_WRITER_HANDLED;
  written = g_log_writer_standard_streams (level, fields, n_fields, user_data);
  if (level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING))
    {
      fprintf (stderr, "FUZZ: a GLib %s message is fatal\n",
               level & G_LOG_LEVEL_WARNING ? "warning" : "critical or error");
      abort ();
    }
  return written;
}

void
fuzz_init (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      g_log_set_writer_func (fatal_writer, NULL, NULL);
      g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
      /* types whose registration would otherwise count as the first
       * input's leaks or coverage */
      g_type_ensure (HBASE_THRIFT_TYPE_T_RESULT);
      g_type_ensure (HBASE_THRIFT_TYPE_T_H_BASE_SERVICE_CLIENT);
      g_type_ensure (THRIFT_TYPE_BINARY_PROTOCOL);
      g_type_ensure (THRIFT_TYPE_COMPACT_PROTOCOL);
      g_type_ensure (HBASE_ERROR);
      g_once_init_leave (&done, 1);
    }
}

gboolean fuzz_require_utf8_errors = TRUE;

void
fuzz_check_outcome (const char *what, gboolean ok, GError **errorp)
{
  GError *error = *errorp;

  if (ok)
    fuzz_assert (error == NULL, "%s succeeded but set an error: %s", what, error->message);
  else
    {
      fuzz_assert (error != NULL, "%s failed without an error", what);
      fuzz_assert (error->message != NULL && error->message[0] != '\0',
                   "%s failed with an empty error message", what);
      fuzz_assert (!fuzz_require_utf8_errors || g_utf8_validate (error->message, -1, NULL),
                   "%s failed with an error message that is not UTF-8: %s", what, error->message);
    }
  g_clear_error (errorp);
}

/* Sums the bytes so that the compiler keeps the reads. */
static volatile guint8 fuzz_sink;

static void
touch_bytes (GBytes *bytes)
{
  gsize len = 0;
  const guint8 *data;
  guint8 sum = 0;

  fuzz_assert (bytes != NULL, "a row field is NULL");
  data = g_bytes_get_data (bytes, &len);
  for (gsize i = 0; i < len; i++)
    sum += data[i];
  fuzz_sink = sum;
}

void
fuzz_touch_row (HBaseRow *row)
{
  guint n;

  fuzz_assert (row != NULL, "a row is NULL");
  touch_bytes (hbase_row_get_key (row));
  n = hbase_row_get_n_cells (row);
  fuzz_assert (hbase_row_is_empty (row) == (n == 0), "hbase_row_is_empty() disagrees with its cells");
  for (guint i = 0; i < n; i++)
    {
      const HBaseCell *cell = hbase_row_get_cell (row, i);

      fuzz_assert (cell != NULL, "cell %u of %u is NULL", i, n);
      touch_bytes (hbase_cell_get_family (cell));
      touch_bytes (hbase_cell_get_qualifier (cell));
      touch_bytes (hbase_cell_get_value (cell));
      (void) hbase_cell_get_timestamp (cell);
    }
}

gboolean
fuzz_rows_equal (HBaseRow *a, HBaseRow *b)
{
  guint n = hbase_row_get_n_cells (a);

  if (!g_bytes_equal (hbase_row_get_key (a), hbase_row_get_key (b)) || n != hbase_row_get_n_cells (b))
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      const HBaseCell *x = hbase_row_get_cell (a, i), *y = hbase_row_get_cell (b, i);

      if (!g_bytes_equal (hbase_cell_get_family (x), hbase_cell_get_family (y)) ||
          !g_bytes_equal (hbase_cell_get_qualifier (x), hbase_cell_get_qualifier (y)) ||
          !g_bytes_equal (hbase_cell_get_value (x), hbase_cell_get_value (y)) ||
          hbase_cell_get_timestamp (x) != hbase_cell_get_timestamp (y))
        return FALSE;
    }
  return TRUE;
}

/* --- transports and protocols ---------------------------------------------------- */

/* libthrift c_glib 0.17's memory buffer does not chain its finalize up, so
 * GObject's own finalize never runs for it (a leak per buffer): this
 * subclass runs it. */
typedef ThriftMemoryBuffer FuzzMemoryBuffer;
typedef ThriftMemoryBufferClass FuzzMemoryBufferClass;
static GType fuzz_memory_buffer_get_type (void);
G_DEFINE_TYPE (FuzzMemoryBuffer, fuzz_memory_buffer, THRIFT_TYPE_MEMORY_BUFFER)

static void
fuzz_memory_buffer_finalize (GObject *object)
{
  G_OBJECT_CLASS (fuzz_memory_buffer_parent_class)->finalize (object);
  G_OBJECT_CLASS (g_type_class_peek (G_TYPE_OBJECT))->finalize (object);
}

/* At the end of its bytes the memory buffer reads nothing without an
 * error, and thrift_transport_read_all() would ask again for ever: the
 * end of the input is an error, as the peer closing a socket is. */
static gint32
fuzz_memory_buffer_read (ThriftTransport *transport, gpointer buf, guint32 len, GError **error)
{
  if (len > 0 && ((ThriftMemoryBuffer *) transport)->buf->len == 0)
    {
      g_set_error (error, THRIFT_TRANSPORT_ERROR, THRIFT_TRANSPORT_ERROR_RECEIVE,
                   "the input ends here");
      return -1;
    }
  return THRIFT_TRANSPORT_CLASS (fuzz_memory_buffer_parent_class)->read (transport, buf, len, error);
}

static void
fuzz_memory_buffer_class_init (FuzzMemoryBufferClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = fuzz_memory_buffer_finalize;
  THRIFT_TRANSPORT_CLASS (klass)->read = fuzz_memory_buffer_read;
}

static void
fuzz_memory_buffer_init (FuzzMemoryBuffer *self)
{
}

ThriftTransport *
fuzz_memory_transport_new (const guint8 *data, gsize size)
{
  ThriftTransport *transport = g_object_new (fuzz_memory_buffer_get_type (),
                                             "buf_size", (guint) MAX (size, 1), NULL);

  if (size > 0)
    g_assert (thrift_transport_write (transport, (gpointer) data, (guint32) size, NULL));
  return transport;
}

ThriftTransport *
fuzz_socket_transport_new (const guint8 *data, gsize size, gboolean framed)
{
  HBaseSocketTransport *transport;
  int fds[2], buffer_size = 4 * FUZZ_SOCKET_MAX_INPUT;
  gsize sent = 0;

  g_assert (size <= FUZZ_SOCKET_MAX_INPUT);
  if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) < 0)
    {
      fprintf (stderr, "fuzz: socketpair: %s\n", g_strerror (errno));
      return NULL;
    }
  setsockopt (fds[1], SOL_SOCKET, SO_SNDBUF, &buffer_size, sizeof buffer_size);
  while (sent < size)
    {
      ssize_t n = send (fds[1], data + sent, size - sent, MSG_NOSIGNAL);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          fprintf (stderr, "fuzz: send: %s\n", g_strerror (errno));
          close (fds[0]);
          close (fds[1]);
          return NULL;
        }
      sent += (gsize) n;
    }
  close (fds[1]);
  /* as hbase-connection.c sets it up, with the default reply limit */
  transport = _hbase_socket_transport_new_for_fd (fds[0], framed);
  _hbase_socket_transport_set_description (transport, "the fuzzer");
  _hbase_socket_transport_set_max_message (transport, HBASE_CONFIG_DEFAULT_MAX_MESSAGE_SIZE);
  return THRIFT_TRANSPORT (transport);
}

ThriftProtocol *
fuzz_protocol_new (gboolean compact, ThriftTransport *transport)
{
  /* as hbase-connection.c builds it, with the default reply limit */
  return _hbase_protocol_new (compact ? HBASE_PROTOCOL_COMPACT : HBASE_PROTOCOL_BINARY, transport,
                              HBASE_CONFIG_DEFAULT_MAX_MESSAGE_SIZE);
}
