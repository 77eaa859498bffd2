/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-put-request.h (private): put and putMultiple calls whose TPuts
 * are written by hand from the mutations.  Why: see hbase-put-request.c. */
#ifndef HBASE_PUT_REQUEST_H
#define HBASE_PUT_REQUEST_H

#include <hbase-glib/hbase-client-thrift.h>
#include <hbase-glib/hbase-table.h>

G_BEGIN_DECLS

/* The whole call messages, as the generated send functions write and
 * flush them, for checked puts (element-type HBaseMutation for
 * @puts).  Errors are the protocol's or transport's own. */
gboolean _hbase_put_request_send_put          (ThriftProtocol             *protocol,
                                               const GByteArray           *table,
                                               HBaseMutation              *put,
                                               GError                    **error);
gboolean _hbase_put_request_send_put_multiple (ThriftProtocol             *protocol,
                                               const GByteArray           *table,
                                               const GPtrArray            *puts,
                                               GError                    **error);

/* Whole calls on a generated service client: sent by hand, the reply read
 * by the generated receiver; failures as hbase_error_take_call_error()
 * makes them. */
gboolean _hbase_put_request_put               (HbaseThriftTHBaseServiceIf *service,
                                               const GByteArray           *table,
                                               HBaseMutation              *put,
                                               GError                    **error);
gboolean _hbase_put_request_put_multiple      (HbaseThriftTHBaseServiceIf *service,
                                               const GByteArray           *table,
                                               const GPtrArray            *puts,
                                               GError                    **error);

G_END_DECLS

#endif /* HBASE_PUT_REQUEST_H */
