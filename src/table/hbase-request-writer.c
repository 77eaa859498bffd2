/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-request-writer.c: field writers and the call message framing the
 * hand-encoded get and put requests share (see hbase-request-writer.h). */
#include "config.h"

#include "hbase-request-writer.h"

gboolean
_hbase_write_binary_field (ThriftProtocol *protocol, const char *name, gint16 id,
                           gconstpointer data, gsize len, GError **error)
{
  HBASE_W (thrift_protocol_write_field_begin (protocol, name, T_STRING, id, error));
  HBASE_W (thrift_protocol_write_binary (protocol, (gpointer) data, (guint32) len, error));
  HBASE_W (thrift_protocol_write_field_end (protocol, error));
  return TRUE;
}

gboolean
_hbase_write_i64_field (ThriftProtocol *protocol, const char *name, gint16 id, gint64 value,
                        GError **error)
{
  HBASE_W (thrift_protocol_write_field_begin (protocol, name, T_I64, id, error));
  HBASE_W (thrift_protocol_write_i64 (protocol, value, error));
  HBASE_W (thrift_protocol_write_field_end (protocol, error));
  return TRUE;
}

gboolean
_hbase_request_send (ThriftProtocol *protocol, const char *method, const char *args,
                     const GByteArray *table, const char *field, gconstpointer one,
                     const GPtrArray *several, HBaseRequestWriteFunc write, GError **error)
{
  HBASE_W (thrift_protocol_write_message_begin (protocol, method, T_CALL, 0, error));
  HBASE_W (thrift_protocol_write_struct_begin (protocol, args, error));
  if (!_hbase_write_binary_field (protocol, "table", 1, table != NULL ? table->data : NULL,
                                  table != NULL ? table->len : 0, error))
    return FALSE;
  if (one != NULL)
    {
      HBASE_W (thrift_protocol_write_field_begin (protocol, field, T_STRUCT, 2, error));
      if (!write (one, protocol, error))
        return FALSE;
    }
  else
    {
      HBASE_W (thrift_protocol_write_field_begin (protocol, field, T_LIST, 2, error));
      HBASE_W (thrift_protocol_write_list_begin (protocol, T_STRUCT, (gint32) several->len, error));
      for (guint i = 0; i < several->len; i++)
        if (!write (g_ptr_array_index (several, i), protocol, error))
          return FALSE;
      HBASE_W (thrift_protocol_write_list_end (protocol, error));
    }
  HBASE_W (thrift_protocol_write_field_end (protocol, error));
  HBASE_W (thrift_protocol_write_field_stop (protocol, error));
  HBASE_W (thrift_protocol_write_struct_end (protocol, error));
  HBASE_W (thrift_protocol_write_message_end (protocol, error));
  return thrift_transport_flush (protocol->transport, error) &&
         thrift_transport_write_end (protocol->transport, error);
}
