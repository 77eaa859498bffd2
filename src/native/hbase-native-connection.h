/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-native-connection.h (private): one connection speaking HBase's own
 * RPC (the protocol of RPC.proto, SIMPLE authentication) to a master or a
 * region server, one call at a time, over the library's socket transport
 * (deadlines, cancellation, read limits).  Also the pure encoders and the
 * reply decoder, for tests, and how a server's exception becomes a GError.
 */
#ifndef HBASE_NATIVE_CONNECTION_H
#define HBASE_NATIVE_CONNECTION_H

#include <gio/gio.h>
#include <protobuf-c/protobuf-c.h>

G_BEGIN_DECLS

/* The services a connection is for (ConnectionHeader.service_name). */
#define HBASE_NATIVE_CLIENT_SERVICE "ClientService"
#define HBASE_NATIVE_META_SERVICE   "ClientMetaService"

/* The cellblock codec asked for: cells without tags (hbase-native-cells.h). */
#define HBASE_NATIVE_CODEC "org.apache.hadoop.hbase.codec.KeyValueCodec"

/* Largest response frame accepted by default (the default of the
 * max-message-size setting): above it the reply is refused
 * (HBASE_ERROR_PROTOCOL) before anything is allocated for it. */
#define HBASE_NATIVE_MAX_FRAME (256u * 1024 * 1024)

/* A frame's buffer grows by at most this much ahead of the bytes that
 * arrived: a length prefix alone reserves no more than this. */
#define HBASE_NATIVE_FRAME_CHUNK (256u * 1024)

/* The most elements (protobuf messages, strings and arrays; cells) a
 * reply of @bytes may decode to: a floor, then one per
 * HBASE_NATIVE_BYTES_PER_ELEMENT bytes.  A hostile reply of many tiny
 * elements (empty results, two bytes each) would otherwise cost some 50
 * times its size in objects; beyond the budget it is HBASE_ERROR_PROTOCOL. */
#define HBASE_NATIVE_MIN_ELEMENTS       (1u << 20)
#define HBASE_NATIVE_BYTES_PER_ELEMENT  64u
gsize _hbase_native_element_budget (gsize bytes);

typedef struct _HBaseNativeConnection HBaseNativeConnection;

/* How a caller should react to a server exception (by its Java class). */
typedef enum
{
  HBASE_NATIVE_EXCEPTION_FINAL,        /* not retryable: report it */
  HBASE_NATIVE_EXCEPTION_RELOCATE,     /* the region is elsewhere: drop the cached location, look it up again */
  HBASE_NATIVE_EXCEPTION_RETRY,        /* busy or opening: the same server, after a pause */
  HBASE_NATIVE_EXCEPTION_SERVER_GONE,  /* the server stops or is not ready: close the connection */
} HBaseNativeExceptionKind;

/* The 6-byte preamble and the ConnectionHeader frame for @service as
 * @user (effective_user), asking for the KeyValueCodec. */
GByteArray *_hbase_native_encode_hello   (const char              *service,
                                          const char              *user);

/* A request frame: 4-byte big-endian length, the varint-delimited
 * RequestHeader (call id, method, request_param, cell_block_meta when
 * @cellblock_len > 0), the varint-delimited @param, then the cellblock. */
GByteArray *_hbase_native_encode_request (guint32                  call_id,
                                          const char              *method,
                                          const ProtobufCMessage  *param,
                                          const guint8            *cellblock,
                                          gsize                    cellblock_len);

/* Decodes one response frame (the bytes after the length): checks the call
 * id, turns an ExceptionResponse into a GError
 * (_hbase_native_set_exception_error), unpacks the response as @descriptor
 * into *@response (free with protobuf_c_message_free_unpacked) and hands
 * the cellblock, if any, to *@cellblock (NULL when none; it borrows
 * @frame's bytes, so it is a sub-GBytes of @frame).  Every malformed
 * frame is HBASE_ERROR_PROTOCOL. */
gboolean _hbase_native_decode_response (GBytes                           *frame,
                                        guint32                           call_id,
                                        const ProtobufCMessageDescriptor *descriptor,
                                        ProtobufCMessage                **response,
                                        GBytes                          **cellblock,
                                        GError                          **error);

/* The exception's Java class -> what to do, and the HBASE_ERROR code. */
HBaseNativeExceptionKind _hbase_native_exception_kind (const char *class_name);
gint                     _hbase_native_exception_code (const char *class_name);
/* Sets @error from a server exception: "CLASS: message" (the first line
 * of the stack trace, which is the server's message), the code of
 * _hbase_native_exception_code(); permanent when @do_not_retry or FINAL. */
void _hbase_native_set_exception_error (GError    **error,
                                        const char *class_name,
                                        const char *stack_trace,
                                        gboolean    do_not_retry);
/* The kind of the server exception @error reports (FINAL when it is none). */
HBaseNativeExceptionKind _hbase_native_error_kind (const GError *error);
/* Whether @error is a server's answer that it did not run the call (so a
 * write that is not idempotent may be sent again): any exception of a
 * kind but FINAL. */
gboolean _hbase_native_error_not_run (const GError *error);

/* A connection to @host:@port for @service; it connects on the first call. */
HBaseNativeConnection *_hbase_native_connection_new        (const char *host,
                                                            guint       port,
                                                            const char *service,
                                                            guint       connect_timeout_ms);
/* The same over an already connected socket (tests): the hello is sent
 * on the first call. */
HBaseNativeConnection *_hbase_native_connection_new_for_fd (int         fd,
                                                            const char *service);
void                   _hbase_native_connection_free       (HBaseNativeConnection *self);
/* The largest response frame accepted (the max-message-size setting;
 * HBASE_NATIVE_MAX_FRAME until set, at most G_MAXINT32). */
void                   _hbase_native_connection_set_max_frame (HBaseNativeConnection *self,
                                                               gsize                  max_frame);
/* Bytes reserved for the last frame read (the whole frame once it
 * arrived; for a frame cut short, what its bytes so far needed). */
gsize                  _hbase_native_connection_get_frame_reserved (HBaseNativeConnection *self);
const char            *_hbase_native_connection_get_address (HBaseNativeConnection *self);
/* Whether the connection is connected and in step (FALSE before the first
 * call and after a failed read or write, which closes it). */
gboolean               _hbase_native_connection_is_connected (HBaseNativeConnection *self);
/* Whether the last call got as far as writing its request (so the server
 * may have run it); FALSE when it failed before (connecting, the hello). */
gboolean               _hbase_native_connection_request_sent (HBaseNativeConnection *self);

/* One call: sends @method with @param, waits for its reply until
 * @deadline (monotonic µs, 0: none) or @cancellable, decodes it as
 * _hbase_native_decode_response() does.  A failed read or write closes the
 * connection (the next call reconnects). */
gboolean _hbase_native_connection_call (HBaseNativeConnection            *self,
                                        const char                       *method,
                                        const ProtobufCMessage           *param,
                                        const ProtobufCMessageDescriptor *descriptor,
                                        ProtobufCMessage                **response,
                                        GBytes                          **cellblock,
                                        gint64                            deadline,
                                        GCancellable                     *cancellable,
                                        GError                          **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseNativeConnection, _hbase_native_connection_free)

G_END_DECLS

#endif /* HBASE_NATIVE_CONNECTION_H */
