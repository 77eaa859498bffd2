/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-transport.c: hbase-glib's socket transport
 * (src/connection/hbase-transport.c), buffered and framed, reading any
 * bytes a gateway may send, checked against a model of the framing.
 *
 * Input: byte 0 bit 0 chooses the framed transport; byte 1 (modulo 32) is
 * the number of operations, each one byte: 0x00-0xBF reads that many bytes
 * modulo 64 (0 reads none), 0xC0-0xDF asks whether N bytes can
 * follow (checkReadBytesAvailable, N = the low 5 bits times 1000), 0xE0 and
 * up ends the reply (read_end).  The rest is what the gateway sends, then
 * it closes the connection.
 *
 * Checked: every operation does what the model says (same bytes, same
 * success or failure); a failure sets an HBASE_ERROR. */
#include "config.h"

#include <string.h>

#include "../../src/connection/hbase-transport.h"
#include "fuzz-support.h"

/* What the transport should do with the bytes @wire. */
typedef struct {
  const guint8 *wire;
  gsize size;
  gsize pos;
  gboolean framed, in_frame;
  gsize frame_end;
} Model;

/* Framed: enters the next frame; FALSE when there is none or it is bad
 * or incomplete (the transport reads a whole frame before using it). */
static gboolean
model_begin_frame (Model *m)
{
  guint32 frame;

  if (m->size - m->pos < 4)
    return FALSE;
  memcpy (&frame, m->wire + m->pos, 4);
  frame = GUINT32_FROM_BE (frame);
  if (frame == 0 || frame > HBASE_TRANSPORT_DEFAULT_MAX_MESSAGE || m->size - m->pos - 4 < frame)
    return FALSE;
  m->pos += 4;
  m->in_frame = TRUE;
  m->frame_end = m->pos + frame;
  return TRUE;
}

/* The bytes a read of @len gives, or NULL when it fails. */
static const guint8 *
model_read (Model *m, gsize len)
{
  const guint8 *start;

  if (m->framed)
    {
      if (len == 0 && !m->in_frame)
        return m->wire + m->pos;     /* nothing to read: no frame needed */
      if (!m->in_frame && !model_begin_frame (m))
        return NULL;
      if (len > m->frame_end - m->pos)
        return NULL;
    }
  else if (len > m->size - m->pos)
    return NULL;
  start = m->wire + m->pos;
  m->pos += len;
  if (m->in_frame && m->pos == m->frame_end)
    m->in_frame = FALSE;
  return start;
}

static void
model_read_end (Model *m)
{
  if (m->in_frame)
    {
      m->pos = m->frame_end;
      m->in_frame = FALSE;
    }
}


int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  FuzzInput in = { data, size };
  gboolean framed = fuzz_take_u8 (&in) & 1;
  guint n_ops = fuzz_take_u8 (&in) % 32;
  gsize n_script;
  const guint8 *script = fuzz_take_bytes (&in, n_ops, &n_script);
  Model model = { in.data, in.size, 0, framed, FALSE, 0 };
  g_autoptr(ThriftTransport) transport = NULL;
  ThriftTransportClass *klass;

  fuzz_init ();
  /* server text (TIOError messages, method names) is quoted as sent */
  fuzz_require_utf8_errors = FALSE;
  if (in.size > FUZZ_SOCKET_MAX_INPUT ||
      (transport = fuzz_socket_transport_new (in.data, in.size, framed)) == NULL)
    return 0;
  klass = THRIFT_TRANSPORT_GET_CLASS (transport);

  for (gsize i = 0; i < n_script; i++)
    {
      guint8 op = script[i];
      GError *error = NULL;

      if (op < 0xc0)
        {
          guint8 buf[64];
          guint32 len = op % 64;
          gsize before = model.pos;
          const guint8 *expected = model_read (&model, len);
          gint32 got = thrift_transport_read_all (transport, buf, len, &error);

          if (expected == NULL)
            {
              fuzz_assert (got < 0, "op %zu: a read of %u bytes at %zu succeeded; the model says it fails",
                           i, len, before);
              fuzz_assert (error != NULL && error->domain == HBASE_ERROR,
                           "op %zu: a failed read set no HBASE_ERROR", i);
              g_error_free (error);
              return 0;     /* the library drops a connection after an error */
            }
          fuzz_assert (got == (gint32) len, "op %zu: a read of %u bytes at %zu gave %d: %s", i, len,
                       before, got, error != NULL ? error->message : "no error");
          fuzz_assert (memcmp (buf, expected, len) == 0, "op %zu: a read at %zu gave other bytes", i, before);
        }
      else if (op < 0xe0)
        {
          glong want = (glong) (op & 0x1f) * 1000;
          gsize available = model.framed && model.in_frame ? model.frame_end - model.pos
                                                            : HBASE_TRANSPORT_DEFAULT_MAX_MESSAGE;
          gboolean ok;

          /* buffered: the bytes must arrive (the limit of the whole reply
           * is far); framed, outside a frame: only the limit counts */
          ok = klass->checkReadBytesAvailable (transport, want, &error);
          if (model.framed && model.in_frame)
            fuzz_assert (ok == ((gsize) want <= available),
                         "op %zu: %ld bytes with %zu left in the frame: %s", i, want, available,
                         ok ? "allowed" : "refused");
          else if (!model.framed)
            fuzz_assert (ok == ((gsize) want <= model.size - model.pos),
                         "op %zu: %ld bytes with %zu left in a buffered reply: %s", i, want,
                         model.size - model.pos, ok ? "allowed" : "refused");
          else
            fuzz_assert (ok, "op %zu: %ld bytes refused between frames", i, want);
          fuzz_check_outcome ("checkReadBytesAvailable", ok, &error);
          if (!ok)
            return 0;     /* the library drops a connection after an error */
        }
      else
        {
          fuzz_assert (thrift_transport_read_end (transport, &error), "op %zu: read_end failed", i);
          model_read_end (&model);
        }
    }
  return 0;
}
