/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-protocol.c: libthrift_c_glib's binary and compact protocols with
 * every length of a reply checked (why: hbase-protocol.h).
 *
 * Two thin subclasses share one set of checked reads; each override does
 * its check and calls the parent class for the rest, so the wire format
 * stays libthrift_c_glib's. */
#include "config.h"

#include <thrift/c_glib/protocol/thrift_binary_protocol.h>
#include <thrift/c_glib/protocol/thrift_compact_protocol.h>

#include "hbase-protocol.h"
#include "hbase-transport.h"

/* compact protocol header (THRIFT-110) */
#define COMPACT_PROTOCOL_ID 0x82
#define COMPACT_VERSION 1
#define COMPACT_VERSION_MASK 0x1f
#define COMPACT_TYPE_SHIFT 5
#define COMPACT_TYPE_BITS 0x07

typedef struct {
  gsize max_message;
  guint depth;
  gboolean compact;
  HBaseSocketTransport *direct;  /* binary over hbase-glib's transport (hbase-wire.h) */
  ThriftProtocolClass *parent;   /* the class whose reads are checked */
} Guard;

typedef struct {
  ThriftBinaryProtocol parent;
  Guard guard;
} HBaseBinaryProtocol;

typedef struct {
  ThriftBinaryProtocolClass parent;
} HBaseBinaryProtocolClass;

typedef struct {
  ThriftCompactProtocol parent;
  Guard guard;
} HBaseCompactProtocol;

typedef struct {
  ThriftCompactProtocolClass parent;
} HBaseCompactProtocolClass;

static GType _hbase_binary_protocol_get_type (void);
static GType _hbase_compact_protocol_get_type (void);

/* the binary protocol's type, once one was made: compared by
 * _hbase_protocol_get_direct_transport() on every call */
static GType binary_type;

G_DEFINE_TYPE (HBaseBinaryProtocol, _hbase_binary_protocol, THRIFT_TYPE_BINARY_PROTOCOL)
G_DEFINE_TYPE (HBaseCompactProtocol, _hbase_compact_protocol, THRIFT_TYPE_COMPACT_PROTOCOL)

static Guard *
guard_of (ThriftProtocol *protocol)
{
  if (G_TYPE_FROM_INSTANCE (protocol) == _hbase_compact_protocol_get_type ())
    return &((HBaseCompactProtocol *) protocol)->guard;
  return &((HBaseBinaryProtocol *) protocol)->guard;
}

/* Sets a protocol error and marks the transport failed: whatever follows
 * in the stream can no longer be read in step. */
static gint32
refuse (ThriftProtocol *protocol, GError **error, ThriftProtocolError code,
        const char *format, ...) G_GNUC_PRINTF (4, 5);

static gint32
refuse (ThriftProtocol *protocol, GError **error, ThriftProtocolError code,
        const char *format, ...)
{
  va_list args;

  if (error != NULL && *error == NULL)
    {
      va_start (args, format);
      *error = g_error_new_valist (THRIFT_PROTOCOL_ERROR, code, format, args);
      va_end (args);
    }
  _hbase_socket_transport_mark_failed (protocol->transport);
  return -1;
}

/* Marks the transport failed after a parent read failed. */
static gint32
failed (ThriftProtocol *protocol)
{
  _hbase_socket_transport_mark_failed (protocol->transport);
  return -1;
}

/* Whether @size more bytes can follow in this reply; with hbase-glib's
 * transport this also waits until they have arrived (see
 * hbase-transport.c), so nothing is allocated for bytes never sent. */
static gboolean
can_follow (ThriftProtocol *protocol, gint64 size, GError **error)
{
  Guard *guard = guard_of (protocol);
  ThriftTransportClass *transport_class = THRIFT_TRANSPORT_GET_CLASS (protocol->transport);

  if (size < 0 || (guint64) size > guard->max_message)
    {
      refuse (protocol, error, THRIFT_PROTOCOL_ERROR_SIZE_LIMIT,
              "the reply announces %" G_GINT64_FORMAT " bytes, above the limit of %"
              G_GSIZE_FORMAT " bytes", size, guard->max_message);
      return FALSE;
    }
  if (size > 0 && !transport_class->checkReadBytesAvailable (protocol->transport, (glong) size, error))
    {
      failed (protocol);
      return FALSE;
    }
  return TRUE;
}

/* The compact protocol's unsigned varint of at most 32 bits. */
static gint32
read_varint32 (ThriftProtocol *protocol, guint32 *value, GError **error)
{
  guint32 result = 0;

  for (guint i = 0; i < 5; i++)
    {
      guint8 byte;

      if (thrift_transport_read_all (protocol->transport, &byte, 1, error) < 0)
        return failed (protocol);
      if (i == 4 && (byte & 0xf0) != 0)
        break;
      result |= (guint32) (byte & 0x7f) << (7 * i);
      if ((byte & 0x80) == 0)
        {
          *value = result;
          return (gint32) i + 1;
        }
    }
  return refuse (protocol, error, THRIFT_PROTOCOL_ERROR_INVALID_DATA,
                 "a variable-length integer of the reply is over 32 bits");
}

/* A string or binary's length @size: not negative, within the limit (and
 * @cap when not 0), and its bytes can follow. */
static gboolean
length_is_valid (ThriftProtocol *protocol, gint64 size, gsize cap, GError **error)
{
  if (size < 0)
    return refuse (protocol, error, THRIFT_PROTOCOL_ERROR_NEGATIVE_SIZE,
                   "the reply announces a string of negative size %" G_GINT64_FORMAT, size) >= 0;
  if (cap != 0 && (guint64) size > cap)
    return refuse (protocol, error, THRIFT_PROTOCOL_ERROR_SIZE_LIMIT,
                   "the reply announces a method name of %" G_GINT64_FORMAT " bytes "
                   "(at most %" G_GSIZE_FORMAT "): this is not a Thrift reply", size, cap) >= 0;
  return can_follow (protocol, size, error);
}

/* A string or binary's length, read and checked (length_is_valid). */
static gint32
read_length (ThriftProtocol *protocol, gsize cap, guint32 *len, GError **error)
{
  Guard *guard = guard_of (protocol);
  gint32 xfer;
  gint64 size;

  if (guard->compact)
    {
      guint32 raw = 0;

      if ((xfer = read_varint32 (protocol, &raw, error)) < 0)
        return -1;
      size = (gint32) raw;
    }
  else
    {
      gint32 raw = 0;

      if ((xfer = guard->parent->read_i32 (protocol, &raw, error)) < 0)
        return failed (protocol);
      size = raw;
    }
  if (!length_is_valid (protocol, size, cap, error))
    return -1;
  *len = (guint32) size;
  return xfer;
}

static gint32
read_string_capped (ThriftProtocol *protocol, gsize cap, gchar **str, GError **error)
{
  guint32 len = 0;
  gint32 xfer;

  *str = NULL;
  if ((xfer = read_length (protocol, cap, &len, error)) < 0)
    return -1;
  *str = g_malloc ((gsize) len + 1);
  if (len > 0 && thrift_transport_read_all (protocol->transport, *str, len, error) < 0)
    {
      g_clear_pointer (str, g_free);
      return failed (protocol);
    }
  (*str)[len] = '\0';
  return xfer + (gint32) len;
}

static gint32
checked_read_string (ThriftProtocol *protocol, gchar **str, GError **error)
{
  return read_string_capped (protocol, 0, str, error);
}

static gint32
checked_read_binary (ThriftProtocol *protocol, gpointer *buf, guint32 *len, GError **error)
{
  gint32 xfer;

  *buf = NULL;
  *len = 0;
  if ((xfer = read_length (protocol, 0, len, error)) < 0)
    return -1;
  if (*len == 0)
    return xfer;
  *buf = g_malloc (*len);
  if (thrift_transport_read_all (protocol->transport, *buf, *len, error) < 0)
    {
      g_clear_pointer (buf, g_free);
      *len = 0;
      return failed (protocol);
    }
  return xfer + (gint32) *len;
}

static gboolean
valid_message_type (gint type)
{
  return type == T_CALL || type == T_REPLY || type == T_EXCEPTION || type == T_ONEWAY;
}

/* A new message: nothing is nested yet, whatever the last one left. */
static void
begin_message (ThriftProtocol *protocol)
{
  Guard *guard = guard_of (protocol);

  guard->depth = 0;
  if (guard->compact)
    {
      ThriftCompactProtocol *compact = THRIFT_COMPACT_PROTOCOL (protocol);

      g_queue_clear (&compact->_last_field);
      compact->_last_field_id = 0;
    }
}

/* A method name is an identifier: printable ASCII (it ends up in error
 * messages, which must stay UTF-8).  Frees *@name when it is not. */
static gboolean
name_is_printable (ThriftProtocol *protocol, const char *name, GError **error)
{
  for (const char *p = name; *p != '\0'; p++)
    if (*p < 0x21 || *p > 0x7e)
      {
        refuse (protocol, error, THRIFT_PROTOCOL_ERROR_INVALID_DATA,
                "the reply's method name holds a byte 0x%02x: this is not a Thrift reply",
                (guint8) *p);
        return FALSE;
      }
  return TRUE;
}

static gboolean
check_name (ThriftProtocol *protocol, gchar **name, GError **error)
{
  if (name_is_printable (protocol, *name, error))
    return TRUE;
  g_clear_pointer (name, g_free);
  return FALSE;
}

/* The message type of a strict binary message header @header. */
static gboolean
binary_header_type (ThriftProtocol *protocol, gint32 header, ThriftMessageType *type,
                    GError **error)
{
  if (header >= 0 || ((guint32) header & THRIFT_BINARY_PROTOCOL_VERSION_MASK) != THRIFT_BINARY_PROTOCOL_VERSION_1)
    return refuse (protocol, error, THRIFT_PROTOCOL_ERROR_BAD_VERSION,
                   "the reply does not start with a binary protocol message header "
                   "(0x%08x): check the protocol", (guint32) header) >= 0;
  if (!valid_message_type (header & 0xff))
    return refuse (protocol, error, THRIFT_PROTOCOL_ERROR_INVALID_DATA,
                   "the reply has an unknown message type %d", header & 0xff) >= 0;
  *type = (ThriftMessageType) (header & 0xff);
  return TRUE;
}

static gint32
binary_read_message_begin (ThriftProtocol *protocol, gchar **name, ThriftMessageType *type,
                           gint32 *seqid, GError **error)
{
  Guard *guard = guard_of (protocol);
  gint32 header = 0, xfer, ret;

  *name = NULL;
  begin_message (protocol);
  if ((xfer = guard->parent->read_i32 (protocol, &header, error)) < 0)
    return failed (protocol);
  if (!binary_header_type (protocol, header, type, error))
    return -1;
  if ((ret = read_string_capped (protocol, HBASE_PROTOCOL_MAX_NAME, name, error)) < 0 ||
      !check_name (protocol, name, error))
    return -1;
  xfer += ret;
  if ((ret = guard->parent->read_i32 (protocol, seqid, error)) < 0)
    {
      g_clear_pointer (name, g_free);
      return failed (protocol);
    }
  return xfer + ret;
}

static gint32
compact_read_message_begin (ThriftProtocol *protocol, gchar **name, ThriftMessageType *type,
                            gint32 *seqid, GError **error)
{
  guint8 header[2];
  guint32 id = 0;
  gint32 xfer = 2, ret;

  *name = NULL;
  begin_message (protocol);
  if (thrift_transport_read_all (protocol->transport, header, 2, error) < 0)
    return failed (protocol);
  if (header[0] != COMPACT_PROTOCOL_ID || (header[1] & COMPACT_VERSION_MASK) != COMPACT_VERSION)
    return refuse (protocol, error, THRIFT_PROTOCOL_ERROR_BAD_VERSION,
                   "the reply does not start with a compact protocol message header "
                   "(0x%02x%02x): check the protocol", header[0], header[1]);
  if (!valid_message_type ((header[1] >> COMPACT_TYPE_SHIFT) & COMPACT_TYPE_BITS))
    return refuse (protocol, error, THRIFT_PROTOCOL_ERROR_INVALID_DATA,
                   "the reply has an unknown message type %d",
                   (header[1] >> COMPACT_TYPE_SHIFT) & COMPACT_TYPE_BITS);
  *type = (ThriftMessageType) ((header[1] >> COMPACT_TYPE_SHIFT) & COMPACT_TYPE_BITS);
  if ((ret = read_varint32 (protocol, &id, error)) < 0)
    return -1;
  xfer += ret;
  *seqid = (gint32) id;
  if ((ret = read_string_capped (protocol, HBASE_PROTOCOL_MAX_NAME, name, error)) < 0 ||
      !check_name (protocol, name, error))
    return -1;
  return xfer + ret;
}

/* One level deeper: refused past HBASE_PROTOCOL_MAX_DEPTH. */
static gboolean
enter (ThriftProtocol *protocol, GError **error)
{
  Guard *guard = guard_of (protocol);

  if (guard->depth >= HBASE_PROTOCOL_MAX_DEPTH)
    {
      refuse (protocol, error, THRIFT_PROTOCOL_ERROR_DEPTH_LIMIT,
              "the reply nests structs and containers more than %d deep",
              HBASE_PROTOCOL_MAX_DEPTH);
      return FALSE;
    }
  guard->depth++;
  return TRUE;
}

static void
leave (ThriftProtocol *protocol)
{
  Guard *guard = guard_of (protocol);

  if (guard->depth > 0)
    guard->depth--;
}

static gint32
checked_read_struct_begin (ThriftProtocol *protocol, gchar **name, GError **error)
{
  gint32 ret;

  *name = NULL;
  if (!enter (protocol, error))
    return -1;
  if ((ret = guard_of (protocol)->parent->read_struct_begin (protocol, name, error)) < 0)
    return failed (protocol);
  return ret;
}

static gint32
checked_read_struct_end (ThriftProtocol *protocol, GError **error)
{
  leave (protocol);
  return guard_of (protocol)->parent->read_struct_end (protocol, error);
}

/* @size elements of @count_types types follow: they must fit in what can
 * still follow, counted in 64 bits (libthrift_c_glib multiplies in int). */
static gboolean
elements_can_follow (ThriftProtocol *protocol, guint32 size, const ThriftType *types,
                     guint count_types, GError **error)
{
  gint64 least = 0;

  for (guint i = 0; i < count_types; i++)
    {
      gint min = thrift_protocol_get_min_serialized_size (protocol, types[i], NULL);

      if (min < 0)
        {
          refuse (protocol, error, THRIFT_PROTOCOL_ERROR_INVALID_DATA,
                  "the reply has a container of unknown element type %d", (int) types[i]);
          return FALSE;
        }
      least += MAX (min, 1);
    }
  if (size > G_MAXINT32)
    {
      refuse (protocol, error, THRIFT_PROTOCOL_ERROR_SIZE_LIMIT,
              "the reply announces a container of %u elements", size);
      return FALSE;
    }
  return can_follow (protocol, (gint64) size * least, error);
}

static gint32
checked_read_list_begin (ThriftProtocol *protocol, ThriftType *element_type, guint32 *size,
                         GError **error)
{
  gint32 ret;

  *size = 0;
  if (!enter (protocol, error))
    return -1;
  if ((ret = guard_of (protocol)->parent->read_list_begin (protocol, element_type, size, error)) < 0)
    return failed (protocol);
  if (!elements_can_follow (protocol, *size, element_type, 1, error))
    {
      *size = 0;
      return -1;
    }
  return ret;
}

/* Both protocols read a set's header through read_list_begin: checked,
 * and counted as one level, there. */
static gint32
checked_read_set_begin (ThriftProtocol *protocol, ThriftType *element_type, guint32 *size,
                        GError **error)
{
  gint32 ret;

  *size = 0;
  if ((ret = guard_of (protocol)->parent->read_set_begin (protocol, element_type, size, error)) < 0)
    return failed (protocol);
  return ret;
}

static gint32
checked_read_map_begin (ThriftProtocol *protocol, ThriftType *key_type, ThriftType *value_type,
                        guint32 *size, GError **error)
{
  gint32 ret;
  ThriftType types[2];

  *size = 0;
  if (!enter (protocol, error))
    return -1;
  if ((ret = guard_of (protocol)->parent->read_map_begin (protocol, key_type, value_type, size,
                                                          error)) < 0)
    return failed (protocol);
  types[0] = *key_type;
  types[1] = *value_type;
  if (*size > 0 && !elements_can_follow (protocol, *size, types, 2, error))
    {
      *size = 0;
      return -1;
    }
  return ret;
}

static gint32
checked_read_list_end (ThriftProtocol *protocol, GError **error)
{
  leave (protocol);
  return guard_of (protocol)->parent->read_list_end (protocol, error);
}

static gint32
checked_read_set_end (ThriftProtocol *protocol, GError **error)
{
  leave (protocol);
  return guard_of (protocol)->parent->read_set_end (protocol, error);
}

static gint32
checked_read_map_end (ThriftProtocol *protocol, GError **error)
{
  leave (protocol);
  return guard_of (protocol)->parent->read_map_end (protocol, error);
}

static gboolean
known_type (gint8 type)
{
  switch (type)
    {
    case T_BOOL: case T_BYTE: case T_DOUBLE: case T_I16: case T_I32: case T_I64:
    case T_STRING: case T_STRUCT: case T_MAP: case T_SET: case T_LIST:
      return TRUE;
    default:
      return FALSE;
    }
}

/* The binary protocol's map header, read here in full: libthrift_c_glib
 * 0.17 asks for the smallest size of the key and of the value type before
 * checking either, and sets its error twice when both are unknown. */
static gint32
binary_read_map_begin (ThriftProtocol *protocol, ThriftType *key_type, ThriftType *value_type,
                       guint32 *size, GError **error)
{
  gint8 key = 0, value = 0;
  gint32 n = 0, xfer = 0, ret;
  ThriftType types[2];

  *size = 0;
  if (!enter (protocol, error))
    return -1;
  if ((ret = thrift_protocol_read_byte (protocol, &key, error)) < 0)
    return failed (protocol);
  xfer += ret;
  if ((ret = thrift_protocol_read_byte (protocol, &value, error)) < 0)
    return failed (protocol);
  xfer += ret;
  if ((ret = thrift_protocol_read_i32 (protocol, &n, error)) < 0)
    return failed (protocol);
  xfer += ret;
  if (n < 0)
    return refuse (protocol, error, THRIFT_PROTOCOL_ERROR_NEGATIVE_SIZE,
                   "the reply announces a map of negative size %d", n);
  if (n > 0 && (!known_type (key) || !known_type (value)))
    return refuse (protocol, error, THRIFT_PROTOCOL_ERROR_INVALID_DATA,
                   "the reply has a map of unknown key or value type (%d, %d)", key, value);
  *key_type = (ThriftType) key;
  *value_type = (ThriftType) value;
  types[0] = *key_type;
  types[1] = *value_type;
  if (n > 0 && !elements_can_follow (protocol, (guint32) n, types, 2, error))
    return -1;
  *size = (guint32) n;
  return xfer;
}

static void
install_checked_reads (ThriftProtocolClass *klass)
{
  klass->read_string = checked_read_string;
  klass->read_binary = checked_read_binary;
  klass->read_struct_begin = checked_read_struct_begin;
  klass->read_struct_end = checked_read_struct_end;
  klass->read_list_begin = checked_read_list_begin;
  klass->read_list_end = checked_read_list_end;
  klass->read_set_begin = checked_read_set_begin;
  klass->read_set_end = checked_read_set_end;
  klass->read_map_begin = checked_read_map_begin;
  klass->read_map_end = checked_read_map_end;
}

static void
_hbase_binary_protocol_class_init (HBaseBinaryProtocolClass *klass)
{
  ThriftProtocolClass *protocol_class = THRIFT_PROTOCOL_CLASS (klass);

  install_checked_reads (protocol_class);
  protocol_class->read_message_begin = binary_read_message_begin;
  protocol_class->read_map_begin = binary_read_map_begin;
}

static void
_hbase_binary_protocol_init (HBaseBinaryProtocol *self)
{
  self->guard.parent = THRIFT_PROTOCOL_CLASS (_hbase_binary_protocol_parent_class);
}

/* A reply whose decoding failed inside a struct leaves field ids on the
 * compact protocol's stack, which libthrift_c_glib 0.17's finalize never
 * frees. */
static void
_hbase_compact_protocol_finalize (GObject *object)
{
  g_queue_clear (&THRIFT_COMPACT_PROTOCOL (object)->_last_field);
  G_OBJECT_CLASS (_hbase_compact_protocol_parent_class)->finalize (object);
}

static void
_hbase_compact_protocol_class_init (HBaseCompactProtocolClass *klass)
{
  ThriftProtocolClass *protocol_class = THRIFT_PROTOCOL_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = _hbase_compact_protocol_finalize;

  install_checked_reads (protocol_class);
  protocol_class->read_message_begin = compact_read_message_begin;
}

static void
_hbase_compact_protocol_init (HBaseCompactProtocol *self)
{
  self->guard.parent = THRIFT_PROTOCOL_CLASS (_hbase_compact_protocol_parent_class);
  self->guard.compact = TRUE;
}

ThriftProtocol *
_hbase_protocol_new (HBaseProtocol protocol, ThriftTransport *transport, gsize max_message)
{
  ThriftProtocol *self;
  gint limit = (gint) MIN (max_message, (gsize) G_MAXINT32);

  if (protocol == HBASE_PROTOCOL_COMPACT)
    /* the compact protocol's own limits, for its reads not replaced here
     * (and for readers that look at them, hbase-result-reader.c) */
    self = g_object_new (_hbase_compact_protocol_get_type (), "transport", transport,
                         "string_limit", limit, "container_limit", limit, NULL);
  else
    {
      self = g_object_new (_hbase_binary_protocol_get_type (), "transport", transport, NULL);
      binary_type = _hbase_binary_protocol_get_type ();
      if (HBASE_IS_SOCKET_TRANSPORT (transport))
        guard_of (self)->direct = HBASE_SOCKET_TRANSPORT (transport);
    }
  guard_of (self)->max_message = max_message;
  return self;
}

HBaseSocketTransport *
_hbase_protocol_get_direct_transport (ThriftProtocol *protocol)
{
  if (binary_type == 0 || G_TYPE_FROM_INSTANCE (protocol) != binary_type)
    return NULL;
  return ((HBaseBinaryProtocol *) protocol)->guard.direct;
}

gboolean
_hbase_protocol_enter (ThriftProtocol *protocol, GError **error)
{
  return enter (protocol, error);
}

void
_hbase_protocol_leave (ThriftProtocol *protocol)
{
  leave (protocol);
}

gboolean
_hbase_protocol_check_list (ThriftProtocol *protocol, ThriftType element, gint32 size,
                            GError **error)
{
  /* the binary protocol's own check and words */
  if (size < 0)
    {
      refuse (protocol, error, THRIFT_PROTOCOL_ERROR_NEGATIVE_SIZE, "got negative size of %d", size);
      return FALSE;
    }
  return elements_can_follow (protocol, (guint32) size, &element, 1, error);
}

/* A big-endian i32 straight from the transport. */
static gboolean
read_be32 (HBaseSocketTransport *direct, gint32 *value, GError **error)
{
  guint8 b[4];

  if (_hbase_socket_transport_read (direct, b, 4, error) < 0)
    return FALSE;
  *value = (gint32) (((guint32) b[0] << 24) | ((guint32) b[1] << 16) | ((guint32) b[2] << 8) | b[3]);
  return TRUE;
}

gboolean
_hbase_protocol_read_message_begin_direct (ThriftProtocol *protocol, char *name,
                                           ThriftMessageType *type, gint32 *seqid,
                                           GError **error)
{
  HBaseSocketTransport *direct = _hbase_protocol_get_direct_transport (protocol);
  gint32 header, len;

  g_return_val_if_fail (direct != NULL, FALSE);
  begin_message (protocol);
  if (!read_be32 (direct, &header, error) ||
      !binary_header_type (protocol, header, type, error) ||
      !read_be32 (direct, &len, error) ||
      !length_is_valid (protocol, len, HBASE_PROTOCOL_MAX_NAME, error) ||
      (len > 0 && _hbase_socket_transport_read (direct, name, (guint32) len, error) < 0))
    return FALSE;
  name[len] = '\0';
  return name_is_printable (protocol, name, error) && read_be32 (direct, seqid, error);
}

