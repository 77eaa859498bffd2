/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-result-reader.h (private): hand-written receivers of the replies
 * that carry rows (get, getMultiple, getScannerRows), decoding the
 * TResults straight into HBaseRows.  Why: see hbase-result-reader.c.
 *
 * get and getMultiple send HBaseGetRequests (hbase-get-request.h, encoded
 * by hand too), getScannerRows sends with the generated
 * hbase_thrift_t_h_base_service_client_send_get_scanner_rows(); the replies
 * are read with the receivers here.  Failures are reported exactly as the generated
 * calls followed by hbase_error_take_call_error() report them: the same
 * HBASE_ERROR codes and messages, the same can_retry. */
#ifndef HBASE_RESULT_READER_H
#define HBASE_RESULT_READER_H

#include <hbase-glib/hbase-client-thrift.h>
#include <hbase-glib/hbase-table.h>

#include "hbase-get-request.h"

G_BEGIN_DECLS

/* --- whole calls on a generated service client -------------------------------------- */

/* get: @row is the row (empty when it does not exist). */
gboolean _hbase_result_reader_get              (HbaseThriftTHBaseServiceIf *service,
                                                const GByteArray           *table,
                                                const HBaseGetRequest      *request,
                                                HBaseRow                  **row,
                                                GError                    **error);
/* getMultiple: @requests (element-type HBaseGetRequest); @rows
 * (element-type HBaseRow), one per request, in order. */
gboolean _hbase_result_reader_get_multiple     (HbaseThriftTHBaseServiceIf *service,
                                                const GByteArray           *table,
                                                const GPtrArray            *requests,
                                                GPtrArray                 **rows,
                                                GError                    **error);
/* getScannerRows: @rows (element-type HBaseRow), empty at the end. */
gboolean _hbase_result_reader_get_scanner_rows (HbaseThriftTHBaseServiceIf *service,
                                                gint32                      scanner_id,
                                                gint32                      n_rows,
                                                GPtrArray                 **rows,
                                                GError                    **error);

/* --- the receivers alone (for tests: any protocol and transport) -------------------- */

gboolean _hbase_result_reader_recv_get              (ThriftProtocol  *protocol,
                                                     HBaseRow       **row,
                                                     GError         **error);
gboolean _hbase_result_reader_recv_get_multiple     (ThriftProtocol  *protocol,
                                                     GPtrArray      **rows,
                                                     GError         **error);
gboolean _hbase_result_reader_recv_get_scanner_rows (ThriftProtocol  *protocol,
                                                     GPtrArray      **rows,
                                                     GError         **error);
/* The reply of a call that returns nothing but may throw a TIOError
 * (put, putMultiple): what the generated recv_* function reads. */
gboolean _hbase_result_reader_recv_void             (ThriftProtocol  *protocol,
                                                     const char      *method,
                                                     GError         **error);

/* One TResult / a list<TResult>, outside any message.  Errors are the
 * protocol's or transport's own (not yet HBASE_ERROR). */
gboolean _hbase_result_reader_read_result           (ThriftProtocol  *protocol,
                                                     HBaseRow       **row,
                                                     GError         **error);
gboolean _hbase_result_reader_read_results          (ThriftProtocol  *protocol,
                                                     GPtrArray      **rows,
                                                     GError         **error);

G_END_DECLS

#endif /* HBASE_RESULT_READER_H */
