/* hbase-put-request.c: put and putMultiple with TPuts written by hand.
 *
 * Why this exists: a generated TPut is a GObject holding a GObject per
 * cell, each with its own copies of family, qualifier and value.  callgrind
 * on bench-index's bulk load put building and finalizing them at about
 * 37,000 of the 95,000 instructions a written row cost in the client.  The
 * hand-written path sends a copy of each put mutation that shares its
 * bytes (_hbase_mutation_copy) and writes it as a TPut struct
 * (_hbase_mutation_write_put), field for field what the generated writer
 * wrote (tests/table/test-request-encoding.c compares the bytes).  The
 * reply, a void result or a TIOError, is read by the generated receivers. */
#include "config.h"

#include "hbase-mutation-private.h"
#include "hbase-put-request.h"

#define W(call) G_STMT_START { if ((call) < 0) return FALSE; } G_STMT_END

/* The message around the arguments, as the generated send functions
 * write it: T_CALL, sequence id 0, then flushed as one request. */
static gboolean
send_call (ThriftProtocol *protocol, const char *method, const GByteArray *table,
           HBaseMutation *one, const GPtrArray *several, GError **error)
{
  W (thrift_protocol_write_message_begin (protocol, method, T_CALL, 0, error));
  W (thrift_protocol_write_struct_begin (protocol, one != NULL ? "put_args" : "putMultiple_args",
                                         error));
  W (thrift_protocol_write_field_begin (protocol, "table", T_STRING, 1, error));
  W (thrift_protocol_write_binary (protocol, table != NULL ? table->data : NULL,
                                   table != NULL ? table->len : 0, error));
  W (thrift_protocol_write_field_end (protocol, error));
  if (one != NULL)
    {
      W (thrift_protocol_write_field_begin (protocol, "tput", T_STRUCT, 2, error));
      if (!_hbase_mutation_write_put (one, protocol, error))
        return FALSE;
    }
  else
    {
      W (thrift_protocol_write_field_begin (protocol, "tputs", T_LIST, 2, error));
      W (thrift_protocol_write_list_begin (protocol, T_STRUCT, (gint32) several->len, error));
      for (guint i = 0; i < several->len; i++)
        if (!_hbase_mutation_write_put (g_ptr_array_index (several, i), protocol, error))
          return FALSE;
      W (thrift_protocol_write_list_end (protocol, error));
    }
  W (thrift_protocol_write_field_end (protocol, error));
  W (thrift_protocol_write_field_stop (protocol, error));
  W (thrift_protocol_write_struct_end (protocol, error));
  W (thrift_protocol_write_message_end (protocol, error));
  return thrift_transport_flush (protocol->transport, error) &&
         thrift_transport_write_end (protocol->transport, error);
}

gboolean
_hbase_put_request_send_put (ThriftProtocol *protocol, const GByteArray *table,
                             HBaseMutation *put, GError **error)
{
  return send_call (protocol, "put", table, put, NULL, error);
}

gboolean
_hbase_put_request_send_put_multiple (ThriftProtocol *protocol, const GByteArray *table,
                                      const GPtrArray *puts, GError **error)
{
  return send_call (protocol, "putMultiple", table, NULL, puts, error);
}

static ThriftProtocol *
output_protocol (HbaseThriftTHBaseServiceIf *service)
{
  return HBASE_THRIFT_T_H_BASE_SERVICE_CLIENT (service)->output_protocol;
}

gboolean
_hbase_put_request_put (HbaseThriftTHBaseServiceIf *service, const GByteArray *table,
                        HBaseMutation *put, GError **error)
{
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;

  if (_hbase_put_request_send_put (output_protocol (service), table, put, &call_error) &&
      hbase_thrift_t_h_base_service_client_recv_put (service, &io, &call_error))
    return TRUE;
  hbase_error_take_call_error (error, call_error, io, NULL);
  return FALSE;
}

gboolean
_hbase_put_request_put_multiple (HbaseThriftTHBaseServiceIf *service, const GByteArray *table,
                                 const GPtrArray *puts, GError **error)
{
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;

  if (_hbase_put_request_send_put_multiple (output_protocol (service), table, puts, &call_error) &&
      hbase_thrift_t_h_base_service_client_recv_put_multiple (service, &io, &call_error))
    return TRUE;
  hbase_error_take_call_error (error, call_error, io, NULL);
  return FALSE;
}
