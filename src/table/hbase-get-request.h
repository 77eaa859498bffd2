/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-get-request.h (private): get and getMultiple requests encoded by
 * hand, without generated TGet objects.  Why: see hbase-get-request.c. */
#ifndef HBASE_GET_REQUEST_H
#define HBASE_GET_REQUEST_H

#include <hbase-glib/hbase-client-thrift.h>
#include <hbase-glib/hbase-table.h>

G_BEGIN_DECLS

/* What a TGet carries for hbase_table_get(): a row and HBaseReadOptions. */
typedef struct _HBaseGetRequest HBaseGetRequest;

/* @options must have passed _hbase_read_options_check(); @row is
 * referenced, @options copied. */
HBaseGetRequest *_hbase_get_request_new               (GBytes                 *row,
                                                       const HBaseReadOptions *options);
/* A request for @row reading what @model reads: its columns and filter
 * are shared, not copied again (requests never change once made). */
HBaseGetRequest *_hbase_get_request_new_like          (GBytes                 *row,
                                                       const HBaseGetRequest  *model);
void             _hbase_get_request_free              (gpointer                request);

/* What @request reads, for the native backend: the row, the columns
 * (HBaseColumn; NULL: every column), versions (0: the default), the time
 * range (*@max_ts 0: none) and the filter (NULL: none).  All borrowed. */
void             _hbase_get_request_peek              (const HBaseGetRequest  *request,
                                                       GBytes                **row,
                                                       GPtrArray             **columns,
                                                       gint32                 *max_versions,
                                                       gint64                 *min_ts,
                                                       gint64                 *max_ts,
                                                       GBytes                **filter);

/* Whether @a and @b read the same things (columns in the same order,
 * versions, time range, filter and whether it was typed), whatever their
 * rows: such requests can go in one getMultiple call. */
gboolean         _hbase_get_request_same_read         (const HBaseGetRequest  *a,
                                                       const HBaseGetRequest  *b);

/* The request as a TGet struct, field for field what the generated
 * writer writes for the TGet hbase_table_get() used to build. */
gboolean         _hbase_get_request_write             (const HBaseGetRequest  *request,
                                                       ThriftProtocol         *protocol,
                                                       GError                **error);

/* The whole call messages, as the generated send functions write and
 * flush them.  Errors are the protocol's or transport's own. */
gboolean         _hbase_get_request_send_get          (ThriftProtocol         *protocol,
                                                       const GByteArray       *table,
                                                       const HBaseGetRequest  *request,
                                                       GError                **error);
/* @requests: (element-type HBaseGetRequest) */
gboolean         _hbase_get_request_send_get_multiple (ThriftProtocol         *protocol,
                                                       const GByteArray       *table,
                                                       const GPtrArray        *requests,
                                                       GError                **error);

G_END_DECLS

#endif /* HBASE_GET_REQUEST_H */
