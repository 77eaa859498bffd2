/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-wire.h (private): the Thrift reads and writes of the hand-written
 * request encoders and reply decoders (src/table), with a direct path for
 * the common case.
 *
 * Why: every thrift_protocol_*() call goes through two class dispatches
 * and several GType checks before the binary protocol copies a few bytes
 * into hbase-glib's transport.  callgrind on a point get put that at about
 * 13,000 of the 18,500 instructions the client spent per call.  When the
 * protocol is hbase-glib's binary protocol over its own socket transport
 * (every binary gateway connection, socket or HTTP), an HBaseWire encodes
 * and decodes the binary protocol itself, big-endian, straight into and
 * out of the transport's buffers, with the same checks the protocol makes
 * (hbase-protocol.h: nesting depth, container sizes, lengths) and the
 * same failure marking.  Any other protocol (compact, or a caller's own)
 * goes through thrift_protocol_*() as before: the bytes on the wire are
 * the same either way (tests/table/test-request-encoding.c). */
#ifndef HBASE_WIRE_H
#define HBASE_WIRE_H

#include <string.h>

#include <thrift/c_glib/protocol/thrift_binary_protocol.h>
#include <thrift/c_glib/protocol/thrift_protocol.h>

#include "hbase-protocol.h"
#include "hbase-transport.h"

G_BEGIN_DECLS

typedef struct {
  ThriftProtocol *protocol;
  HBaseSocketTransport *direct;   /* NULL: through thrift_protocol_*() */
} HBaseWire;

static inline void
_hbase_wire_init (HBaseWire *wire, ThriftProtocol *protocol)
{
  wire->protocol = protocol;
  wire->direct = _hbase_protocol_get_direct_transport (protocol);
}

/* --- writes: the binary protocol's bytes; never fail on the direct path
 * (the transport buffers until the flush) --------------------------------- */

static inline void
_hbase_wire_put_be (guint8 *out, guint64 value, guint bytes)
{
  for (guint i = 0; i < bytes; i++)
    out[i] = (guint8) (value >> (8 * (bytes - 1 - i)));
}

static inline gboolean
_hbase_wire_write_field_begin (HBaseWire *wire, const char *name, ThriftType type, gint16 id,
                               GError **error)
{
  if (wire->direct != NULL)
    {
      guint8 bytes[3] = { (guint8) type, (guint8) ((guint16) id >> 8), (guint8) id };

      _hbase_socket_transport_write (wire->direct, bytes, 3);
      return TRUE;
    }
  return thrift_protocol_write_field_begin (wire->protocol, name, type, id, error) >= 0;
}

static inline gboolean
_hbase_wire_write_field_end (HBaseWire *wire, GError **error)
{
  return wire->direct != NULL || thrift_protocol_write_field_end (wire->protocol, error) >= 0;
}

static inline gboolean
_hbase_wire_write_field_stop (HBaseWire *wire, GError **error)
{
  if (wire->direct != NULL)
    {
      guint8 stop = T_STOP;

      _hbase_socket_transport_write (wire->direct, &stop, 1);
      return TRUE;
    }
  return thrift_protocol_write_field_stop (wire->protocol, error) >= 0;
}

static inline gboolean
_hbase_wire_write_struct_begin (HBaseWire *wire, const char *name, GError **error)
{
  return wire->direct != NULL || thrift_protocol_write_struct_begin (wire->protocol, name, error) >= 0;
}

static inline gboolean
_hbase_wire_write_struct_end (HBaseWire *wire, GError **error)
{
  return wire->direct != NULL || thrift_protocol_write_struct_end (wire->protocol, error) >= 0;
}

static inline gboolean
_hbase_wire_write_i32 (HBaseWire *wire, gint32 value, GError **error)
{
  if (wire->direct != NULL)
    {
      guint8 bytes[4];

      _hbase_wire_put_be (bytes, (guint32) value, 4);
      _hbase_socket_transport_write (wire->direct, bytes, 4);
      return TRUE;
    }
  return thrift_protocol_write_i32 (wire->protocol, value, error) >= 0;
}

static inline gboolean
_hbase_wire_write_i64 (HBaseWire *wire, gint64 value, GError **error)
{
  if (wire->direct != NULL)
    {
      guint8 bytes[8];

      _hbase_wire_put_be (bytes, (guint64) value, 8);
      _hbase_socket_transport_write (wire->direct, bytes, 8);
      return TRUE;
    }
  return thrift_protocol_write_i64 (wire->protocol, value, error) >= 0;
}

static inline gboolean
_hbase_wire_write_binary (HBaseWire *wire, gconstpointer data, guint32 len, GError **error)
{
  if (wire->direct != NULL)
    {
      guint8 bytes[4];

      _hbase_wire_put_be (bytes, len, 4);
      _hbase_socket_transport_write (wire->direct, bytes, 4);
      if (len > 0)
        _hbase_socket_transport_write (wire->direct, data, len);
      return TRUE;
    }
  return thrift_protocol_write_binary (wire->protocol, (gpointer) data, len, error) >= 0;
}

static inline gboolean
_hbase_wire_write_list_begin (HBaseWire *wire, ThriftType element, gint32 size, GError **error)
{
  if (wire->direct != NULL)
    {
      guint8 bytes[5] = { (guint8) element };

      _hbase_wire_put_be (bytes + 1, (guint32) size, 4);
      _hbase_socket_transport_write (wire->direct, bytes, 5);
      return TRUE;
    }
  return thrift_protocol_write_list_begin (wire->protocol, element, size, error) >= 0;
}

static inline gboolean
_hbase_wire_write_list_end (HBaseWire *wire, GError **error)
{
  return wire->direct != NULL || thrift_protocol_write_list_end (wire->protocol, error) >= 0;
}

/* A strict (versioned) message header, as the binary protocol writes it. */
gboolean _hbase_wire_write_message_begin (HBaseWire         *wire,
                                          const char        *name,
                                          ThriftMessageType  type,
                                          gint32             seqid,
                                          GError           **error);

static inline gboolean
_hbase_wire_write_message_end (HBaseWire *wire, GError **error)
{
  return wire->direct != NULL || thrift_protocol_write_message_end (wire->protocol, error) >= 0;
}

/* --- reads: failures mark the transport failed, as the protocol does ----- */

/* @len raw bytes (a binary field's contents). */
static inline gboolean
_hbase_wire_read_bytes (HBaseWire *wire, gpointer buf, guint32 len, GError **error)
{
  if (wire->direct != NULL)
    return _hbase_socket_transport_read (wire->direct, buf, len, error) >= 0;
  return thrift_transport_read_all (wire->protocol->transport, buf, len, error) >= 0;
}

static inline gboolean
_hbase_wire_read_i32 (HBaseWire *wire, gint32 *value, GError **error)
{
  if (wire->direct != NULL)
    {
      guint8 b[4];

      if (_hbase_socket_transport_read (wire->direct, b, 4, error) < 0)
        return FALSE;
      *value = (gint32) (((guint32) b[0] << 24) | ((guint32) b[1] << 16) | ((guint32) b[2] << 8) | b[3]);
      return TRUE;
    }
  return thrift_protocol_read_i32 (wire->protocol, value, error) >= 0;
}

static inline gboolean
_hbase_wire_read_i64 (HBaseWire *wire, gint64 *value, GError **error)
{
  if (wire->direct != NULL)
    {
      guint8 b[8];
      guint64 v = 0;

      if (_hbase_socket_transport_read (wire->direct, b, 8, error) < 0)
        return FALSE;
      for (guint i = 0; i < 8; i++)
        v = (v << 8) | b[i];
      *value = (gint64) v;
      return TRUE;
    }
  return thrift_protocol_read_i64 (wire->protocol, value, error) >= 0;
}

static inline gboolean
_hbase_wire_read_field_begin (HBaseWire *wire, ThriftType *type, gint16 *id, GError **error)
{
  if (wire->direct != NULL)
    {
      guint8 b[2];

      if (_hbase_socket_transport_read (wire->direct, b, 1, error) < 0)
        return FALSE;
      *type = (ThriftType) b[0];
      *id = 0;
      if (*type == T_STOP)
        return TRUE;
      if (_hbase_socket_transport_read (wire->direct, b, 2, error) < 0)
        return FALSE;
      *id = (gint16) (((guint16) b[0] << 8) | b[1]);
      return TRUE;
    }
  else
    {
      gchar *name = NULL;
      gint32 ret = thrift_protocol_read_field_begin (wire->protocol, &name, type, id, error);

      g_free (name);
      return ret >= 0;
    }
}

static inline gboolean
_hbase_wire_read_field_end (HBaseWire *wire, GError **error)
{
  return wire->direct != NULL || thrift_protocol_read_field_end (wire->protocol, error) >= 0;
}

static inline gboolean
_hbase_wire_read_struct_begin (HBaseWire *wire, GError **error)
{
  if (wire->direct != NULL)
    return _hbase_protocol_enter (wire->protocol, error);
  else
    {
      gchar *name = NULL;
      gint32 ret = thrift_protocol_read_struct_begin (wire->protocol, &name, error);

      g_free (name);
      return ret >= 0;
    }
}

static inline gboolean
_hbase_wire_read_struct_end (HBaseWire *wire, GError **error)
{
  if (wire->direct != NULL)
    {
      _hbase_protocol_leave (wire->protocol);
      return TRUE;
    }
  return thrift_protocol_read_struct_end (wire->protocol, error) >= 0;
}

/* A list header, its size checked against what can still follow. */
gboolean _hbase_wire_read_list_begin (HBaseWire   *wire,
                                      ThriftType  *element,
                                      guint32     *size,
                                      GError     **error);

static inline gboolean
_hbase_wire_read_list_end (HBaseWire *wire, GError **error)
{
  if (wire->direct != NULL)
    {
      _hbase_protocol_leave (wire->protocol);
      return TRUE;
    }
  return thrift_protocol_read_list_end (wire->protocol, error) >= 0;
}

G_END_DECLS

#endif /* HBASE_WIRE_H */
