/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-request-writer.c: field writers and the call message framing the
 * hand-encoded get and put requests share (see hbase-request-writer.h). */
#include "config.h"

#include "hbase-request-writer.h"

gboolean
_hbase_write_binary_field (HBaseWire *wire, const char *name, gint16 id,
                           gconstpointer data, gsize len, GError **error)
{
  HBASE_W (_hbase_wire_write_field_begin (wire, name, T_STRING, id, error));
  HBASE_W (_hbase_wire_write_binary (wire, (gpointer) data, (guint32) len, error));
  HBASE_W (_hbase_wire_write_field_end (wire, error));
  return TRUE;
}

gboolean
_hbase_write_i64_field (HBaseWire *wire, const char *name, gint16 id, gint64 value,
                        GError **error)
{
  HBASE_W (_hbase_wire_write_field_begin (wire, name, T_I64, id, error));
  HBASE_W (_hbase_wire_write_i64 (wire, value, error));
  HBASE_W (_hbase_wire_write_field_end (wire, error));
  return TRUE;
}

gboolean
_hbase_request_send (ThriftProtocol *protocol, const char *method, const char *args,
                     const GByteArray *table, const char *field, gconstpointer one,
                     const GPtrArray *several, HBaseRequestWriteFunc write, GError **error)
{
  HBaseWire wire_;
  HBaseWire *wire = &wire_;

  _hbase_wire_init (wire, protocol);
  HBASE_W (_hbase_wire_write_message_begin (wire, method, T_CALL, 0, error));
  HBASE_W (_hbase_wire_write_struct_begin (wire, args, error));
  if (!_hbase_write_binary_field (wire, "table", 1, table != NULL ? table->data : NULL,
                                  table != NULL ? table->len : 0, error))
    return FALSE;
  if (one != NULL)
    {
      HBASE_W (_hbase_wire_write_field_begin (wire, field, T_STRUCT, 2, error));
      if (!write (one, wire, error))
        return FALSE;
    }
  else
    {
      HBASE_W (_hbase_wire_write_field_begin (wire, field, T_LIST, 2, error));
      HBASE_W (_hbase_wire_write_list_begin (wire, T_STRUCT, (gint32) several->len, error));
      for (guint i = 0; i < several->len; i++)
        if (!write (g_ptr_array_index (several, i), wire, error))
          return FALSE;
      HBASE_W (_hbase_wire_write_list_end (wire, error));
    }
  HBASE_W (_hbase_wire_write_field_end (wire, error));
  HBASE_W (_hbase_wire_write_field_stop (wire, error));
  HBASE_W (_hbase_wire_write_struct_end (wire, error));
  HBASE_W (_hbase_wire_write_message_end (wire, error));
  return thrift_transport_flush (protocol->transport, error) &&
         thrift_transport_write_end (protocol->transport, error);
}
