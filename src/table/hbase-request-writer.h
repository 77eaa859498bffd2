/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-request-writer.h (private): what the hand-encoded requests share
 * (hbase-get-request.c, hbase-put-request.c, the TPut writer in
 * hbase-mutation.c): fields written through a ThriftProtocol, and the call
 * message around a request's arguments, byte for byte as the generated
 * code writes them.  Errors are the protocol's or transport's own. */
#ifndef HBASE_REQUEST_WRITER_H
#define HBASE_REQUEST_WRITER_H

#include <hbase-glib/hbase-client-thrift.h>
#include <hbase-glib/hbase-table.h>

#include "../connection/hbase-wire.h"

G_BEGIN_DECLS

/* Each _hbase_wire_write_*() returns FALSE on failure (hbase-wire.h). */
#define HBASE_W(call) G_STMT_START { if (!(call)) return FALSE; } G_STMT_END

gboolean _hbase_write_binary_field (HBaseWire      *wire,
                                    const char     *name,
                                    gint16          id,
                                    gconstpointer   data,
                                    gsize           len,
                                    GError        **error);
gboolean _hbase_write_i64_field    (HBaseWire      *wire,
                                    const char     *name,
                                    gint16          id,
                                    gint64          value,
                                    GError        **error);

/* Writes one argument struct (a TGet, a TPut...). */
typedef gboolean (*HBaseRequestWriteFunc) (gconstpointer   item,
                                           HBaseWire      *wire,
                                           GError        **error);

/* A call "@method(1: table, 2: @field)" as the generated send functions
 * write it (T_CALL, sequence id 0, struct @args) and flush it as one
 * request: @field is @one, a struct, or when @one is NULL @several, a
 * list of structs. */
gboolean _hbase_request_send       (ThriftProtocol        *protocol,
                                    const char            *method,
                                    const char            *args,
                                    const GByteArray      *table,
                                    const char            *field,
                                    gconstpointer          one,
                                    const GPtrArray       *several,
                                    HBaseRequestWriteFunc  write,
                                    GError               **error);

G_END_DECLS

#endif /* HBASE_REQUEST_WRITER_H */
