/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-put-request.c: put and putMultiple with TPuts written by hand.
 *
 * Why this exists: a generated TPut is a GObject holding a GObject per
 * cell, each with its own copies of family, qualifier and value.  callgrind
 * on bench-index's bulk load put building and finalizing them at about
 * 37,000 of the 96,000 instructions a written row cost in the client.  The
 * hand-written path sends each put mutation itself (an asynchronous call
 * sends a copy that shares its bytes, _hbase_mutation_copy) and writes it
 * as a TPut struct
 * (_hbase_mutation_write_put), field for field what the generated writer
 * wrote (tests/table/test-request-encoding.c compares the bytes).  The
 * reply, a void result or a TIOError, is read by hbase-result-reader.c
 * (_hbase_result_reader_recv_void), as the generated receivers read it. */
#include "config.h"

#include "hbase-mutation-private.h"
#include "hbase-put-request.h"
#include "hbase-request-writer.h"
#include "hbase-result-reader.h"

static gboolean
write_put (gconstpointer put, HBaseWire *wire, GError **error)
{
  return _hbase_mutation_write_tput ((HBaseMutation *) put, wire, error);
}

gboolean
_hbase_put_request_send_put (ThriftProtocol *protocol, const GByteArray *table,
                             HBaseMutation *put, GError **error)
{
  return _hbase_request_send (protocol, "put", "put_args", table, "tput", put, NULL, write_put,
                              error);
}

gboolean
_hbase_put_request_send_put_multiple (ThriftProtocol *protocol, const GByteArray *table,
                                      const GPtrArray *puts, GError **error)
{
  return _hbase_request_send (protocol, "putMultiple", "putMultiple_args", table, "tputs", NULL,
                              puts, write_put, error);
}

static ThriftProtocol *
output_protocol (HbaseThriftTHBaseServiceIf *service)
{
  return HBASE_THRIFT_T_H_BASE_SERVICE_CLIENT (service)->output_protocol;
}

static ThriftProtocol *
input_protocol (HbaseThriftTHBaseServiceIf *service)
{
  return HBASE_THRIFT_T_H_BASE_SERVICE_CLIENT (service)->input_protocol;
}

gboolean
_hbase_put_request_put (HbaseThriftTHBaseServiceIf *service, const GByteArray *table,
                        HBaseMutation *put, GError **error)
{
  GError *call_error = NULL;

  if (!_hbase_put_request_send_put (output_protocol (service), table, put, &call_error))
    {
      hbase_error_take_call_error (error, call_error, NULL, NULL);
      return FALSE;
    }
  return _hbase_result_reader_recv_void (input_protocol (service), "put", error);
}

gboolean
_hbase_put_request_put_multiple (HbaseThriftTHBaseServiceIf *service, const GByteArray *table,
                                 const GPtrArray *puts, GError **error)
{
  GError *call_error = NULL;

  if (!_hbase_put_request_send_put_multiple (output_protocol (service), table, puts, &call_error))
    {
      hbase_error_take_call_error (error, call_error, NULL, NULL);
      return FALSE;
    }
  return _hbase_result_reader_recv_void (input_protocol (service), "putMultiple", error);
}
