/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-wire.c: the parts of hbase-wire.h too long to inline: message
 * headers and list headers, binary protocol, written and read directly. */
#include "config.h"

#include "hbase-wire.h"

gboolean
_hbase_wire_write_message_begin (HBaseWire *wire, const char *name, ThriftMessageType type,
                                 gint32 seqid, GError **error)
{
  if (wire->direct != NULL)
    {
      guint32 len = (guint32) strlen (name);

      if (!_hbase_wire_write_i32 (wire, (gint32) (THRIFT_BINARY_PROTOCOL_VERSION_1 | (guint32) type), error) ||
          !_hbase_wire_write_binary (wire, name, len, error))
        return FALSE;
      return _hbase_wire_write_i32 (wire, seqid, error);
    }
  return thrift_protocol_write_message_begin (wire->protocol, name, type, seqid, error) >= 0;
}

gboolean
_hbase_wire_read_list_begin (HBaseWire *wire, ThriftType *element, guint32 *size, GError **error)
{
  guint8 type;
  gint32 n;

  *size = 0;
  if (wire->direct == NULL)
    return thrift_protocol_read_list_begin (wire->protocol, element, size, error) >= 0;
  if (!_hbase_protocol_enter (wire->protocol, error) ||
      _hbase_socket_transport_read (wire->direct, &type, 1, error) < 0 ||
      !_hbase_wire_read_i32 (wire, &n, error))
    return FALSE;
  *element = (ThriftType) type;
  if (!_hbase_protocol_check_list (wire->protocol, *element, n, error))
    return FALSE;
  *size = (guint32) n;
  return TRUE;
}
