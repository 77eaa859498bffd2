/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-native-connection.c: HBase's own RPC on one socket (RPC.proto's
 * header comment is the specification).  The client opens with the
 * preamble "HBas", version 0, auth 0x50 (SIMPLE) and a length-prefixed
 * ConnectionHeader (user, service, KeyValueCodec); the server answers
 * nothing.  Each call is a frame: 4-byte big-endian length, then the
 * varint-delimited RequestHeader and request, then an optional cellblock;
 * each reply the same with a ResponseHeader, whose ExceptionResponse (if
 * any) replaces the response.  Every length the server sends is checked
 * against what is left of its frame before it is used.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <hbase-glib/hbase-error.h>

#include "../connection/hbase-transport.h"
#include "../core/hbase-error-private.h"
#include "hbase-native-connection.h"
#include "RPC.pb-c.h"

struct _HBaseNativeConnection
{
  HBaseSocketTransport *transport;
  char                 *address;     /* "host:port", for messages */
  char                 *service;
  gboolean              said_hello;  /* preamble and header sent on this socket */
  gboolean              for_fd;      /* cannot reconnect */
  gboolean              request_sent; /* the last call's request was (maybe in part) written */
  guint32               next_call_id;
  gsize                 max_frame;   /* largest response frame accepted */
  gsize                 frame_reserved;  /* bytes the last frame read reserved */
};

/* ---- encoding ---------------------------------------------------------- */

static void
append_be32 (GByteArray *out, guint32 value)
{
  guint8 b[4] = { value >> 24, value >> 16, value >> 8, value };

  g_byte_array_append (out, b, 4);
}

static void
append_message (GByteArray *out, const ProtobufCMessage *message)
{
  gsize size = protobuf_c_message_get_packed_size (message);
  guint at;

  at = out->len;
  g_byte_array_set_size (out, out->len + size);
  protobuf_c_message_pack (message, out->data + at);
}

static void
set_be32 (guint8 *at, guint32 value)
{
  at[0] = value >> 24;
  at[1] = value >> 16;
  at[2] = value >> 8;
  at[3] = value;
}

GByteArray *
_hbase_native_encode_hello (const char *service, const char *user)
{
  static const guint8 preamble[6] = { 'H', 'B', 'a', 's', 0x00, 0x50 };
  Hbase__Pb__UserInformation info = HBASE__PB__USER_INFORMATION__INIT;
  Hbase__Pb__ConnectionHeader header = HBASE__PB__CONNECTION_HEADER__INIT;
  GByteArray *out = g_byte_array_new ();

  info.effective_user = (char *) user;
  header.user_info = &info;
  header.service_name = (char *) service;
  header.cell_block_codec_class = (char *) HBASE_NATIVE_CODEC;
  g_byte_array_append (out, preamble, sizeof preamble);
  append_be32 (out, 0);
  append_message (out, &header.base);
  set_be32 (out->data + 6, out->len - 10);
  return out;
}

static guint
varint_size (guint64 value)
{
  guint n = 1;

  while (value >= 0x80)
    {
      value >>= 7;
      n++;
    }
  return n;
}

static guint8 *
put_varint (guint8 *at, guint64 value)
{
  do
    {
      *at = value & 0x7f;
      value >>= 7;
      if (value != 0)
        *at |= 0x80;
      at++;
    }
  while (value != 0);
  return at;
}

/* A request frame, measured first and then packed straight into its one
 * buffer (no temporaries, no growth). */
typedef struct
{
  Hbase__Pb__RequestHeader header;
  Hbase__Pb__CellBlockMeta meta;
  const ProtobufCMessage  *param;
  const guint8            *cellblock;
  gsize                    cellblock_len;
  gsize                    header_size, param_size;
} RequestFrame;

/* Fills @f and returns the frame's size, its 4-byte length included. */
static gsize
request_frame_measure (RequestFrame *f, guint32 call_id, const char *method,
                       const ProtobufCMessage *param, const guint8 *cellblock,
                       gsize cellblock_len)
{
  hbase__pb__request_header__init (&f->header);
  hbase__pb__cell_block_meta__init (&f->meta);
  f->header.has_call_id = TRUE;
  f->header.call_id = call_id;
  f->header.method_name = (char *) method;
  f->header.has_request_param = TRUE;
  f->header.request_param = TRUE;
  if (cellblock_len > 0)
    {
      f->meta.has_length = TRUE;
      f->meta.length = cellblock_len;
      f->header.cell_block_meta = &f->meta;
    }
  f->param = param;
  f->cellblock = cellblock;
  f->cellblock_len = cellblock_len;
  f->header_size = protobuf_c_message_get_packed_size (&f->header.base);
  f->param_size = protobuf_c_message_get_packed_size (param);
  return 4 + varint_size (f->header_size) + f->header_size + varint_size (f->param_size) +
         f->param_size + cellblock_len;
}

/* Packs the frame @f measured as @size bytes into @out. */
static void
request_frame_pack (const RequestFrame *f, guint8 *out, gsize size)
{
  guint8 *at = out + 4;

  set_be32 (out, size - 4);
  at = put_varint (at, f->header_size);
  at += protobuf_c_message_pack (&f->header.base, at);
  at = put_varint (at, f->param_size);
  at += protobuf_c_message_pack (f->param, at);
  if (f->cellblock_len > 0)
    memcpy (at, f->cellblock, f->cellblock_len);
  g_assert ((gsize) (at + f->cellblock_len - out) == size);
}

GByteArray *
_hbase_native_encode_request (guint32 call_id, const char *method, const ProtobufCMessage *param,
                              const guint8 *cellblock, gsize cellblock_len)
{
  RequestFrame f;
  gsize size = request_frame_measure (&f, call_id, method, param, cellblock, cellblock_len);
  GByteArray *out = g_byte_array_sized_new (size);

  g_byte_array_set_size (out, size);
  request_frame_pack (&f, out->data, size);
  return out;
}

/* ---- server exceptions ------------------------------------------------- */

typedef struct
{
  const char              *name;   /* after "org.apache.hadoop.hbase." unless it starts with "java." */
  HBaseNativeExceptionKind kind;
  gint                     code;
} ExceptionClass;

static const ExceptionClass exception_classes[] = {
  { "NotServingRegionException", HBASE_NATIVE_EXCEPTION_RELOCATE, HBASE_ERROR_SERVER },
  { "exceptions.RegionMovedException", HBASE_NATIVE_EXCEPTION_RELOCATE, HBASE_ERROR_SERVER },
  { "client.RegionOfflineException", HBASE_NATIVE_EXCEPTION_RELOCATE, HBASE_ERROR_SERVER },
  { "client.NoServerForRegionException", HBASE_NATIVE_EXCEPTION_RELOCATE, HBASE_ERROR_SERVER },
  { "CallQueueTooBigException", HBASE_NATIVE_EXCEPTION_RETRY, HBASE_ERROR_SERVER },
  { "CallDroppedException", HBASE_NATIVE_EXCEPTION_RETRY, HBASE_ERROR_SERVER },
  { "exceptions.RegionOpeningException", HBASE_NATIVE_EXCEPTION_RETRY, HBASE_ERROR_SERVER },
  { "quotas.RpcThrottlingException", HBASE_NATIVE_EXCEPTION_RETRY, HBASE_ERROR_SERVER },
  { "RetryImmediatelyException", HBASE_NATIVE_EXCEPTION_RETRY, HBASE_ERROR_SERVER },
  { "RegionTooBusyException", HBASE_NATIVE_EXCEPTION_RETRY, HBASE_ERROR_SERVER },
  { "PleaseHoldException", HBASE_NATIVE_EXCEPTION_RETRY, HBASE_ERROR_SERVER },
  { "regionserver.RegionServerAbortedException", HBASE_NATIVE_EXCEPTION_SERVER_GONE, HBASE_ERROR_CONNECTION },
  { "regionserver.RegionServerStoppedException", HBASE_NATIVE_EXCEPTION_SERVER_GONE, HBASE_ERROR_CONNECTION },
  { "exceptions.MasterStoppedException", HBASE_NATIVE_EXCEPTION_SERVER_GONE, HBASE_ERROR_CONNECTION },
  { "ipc.ServerNotRunningYetException", HBASE_NATIVE_EXCEPTION_SERVER_GONE, HBASE_ERROR_CONNECTION },
  { "TableNotFoundException", HBASE_NATIVE_EXCEPTION_FINAL, HBASE_ERROR_NOT_FOUND },
  { "regionserver.NoSuchColumnFamilyException", HBASE_NATIVE_EXCEPTION_FINAL, HBASE_ERROR_NOT_FOUND },
  { "NamespaceNotFoundException", HBASE_NATIVE_EXCEPTION_FINAL, HBASE_ERROR_NOT_FOUND },
  { "UnknownScannerException", HBASE_NATIVE_EXCEPTION_FINAL, HBASE_ERROR_NOT_FOUND },
  { "UnknownRegionException", HBASE_NATIVE_EXCEPTION_FINAL, HBASE_ERROR_NOT_FOUND },
  { "exceptions.FailedSanityCheckException", HBASE_NATIVE_EXCEPTION_FINAL, HBASE_ERROR_ILLEGAL_ARGUMENT },
  { "regionserver.WrongRowIOException", HBASE_NATIVE_EXCEPTION_FINAL, HBASE_ERROR_ILLEGAL_ARGUMENT },
  { "exceptions.UnknownProtocolException", HBASE_NATIVE_EXCEPTION_FINAL, HBASE_ERROR_ILLEGAL_ARGUMENT },
  { "ipc.UnsupportedCellCodecException", HBASE_NATIVE_EXCEPTION_FINAL, HBASE_ERROR_ILLEGAL_ARGUMENT },
  { "ipc.UnsupportedCompressionCodecException", HBASE_NATIVE_EXCEPTION_FINAL, HBASE_ERROR_ILLEGAL_ARGUMENT },
  { "java.lang.IllegalArgumentException", HBASE_NATIVE_EXCEPTION_FINAL, HBASE_ERROR_ILLEGAL_ARGUMENT },
  { "DoNotRetryIOException", HBASE_NATIVE_EXCEPTION_FINAL, HBASE_ERROR_IO },
  { "TableNotEnabledException", HBASE_NATIVE_EXCEPTION_FINAL, HBASE_ERROR_IO },
  { "TableNotDisabledException", HBASE_NATIVE_EXCEPTION_FINAL, HBASE_ERROR_IO },
};

static const ExceptionClass *
find_exception (const char *class_name)
{
  static const char prefix[] = "org.apache.hadoop.hbase.";
  const char *name;

  if (class_name == NULL)
    return NULL;
  name = g_str_has_prefix (class_name, prefix) ? class_name + strlen (prefix) : class_name;
  for (gsize i = 0; i < G_N_ELEMENTS (exception_classes); i++)
    if (strcmp (exception_classes[i].name, name) == 0 &&
        (name != class_name || g_str_has_prefix (name, "java.")))
      return &exception_classes[i];
  return NULL;
}

HBaseNativeExceptionKind
_hbase_native_exception_kind (const char *class_name)
{
  const ExceptionClass *found = find_exception (class_name);

  return found != NULL ? found->kind : HBASE_NATIVE_EXCEPTION_FINAL;
}

gint
_hbase_native_exception_code (const char *class_name)
{
  const ExceptionClass *found = find_exception (class_name);

  return found != NULL ? found->code : HBASE_ERROR_IO;
}

void
_hbase_native_set_exception_error (GError **error, const char *class_name,
                                   const char *stack_trace, gboolean do_not_retry)
{
  /* the server's bytes, which go into messages: valid UTF-8 */
  g_autofree char *valid_class = class_name != NULL ? g_utf8_make_valid (class_name, -1) : NULL;
  const char *cls = valid_class != NULL && *valid_class != '\0' ? valid_class : "(no exception class)";
  g_autofree char *valid_trace = stack_trace != NULL ? g_utf8_make_valid (stack_trace, -1) : NULL;
  g_autofree char *trace = NULL;
  g_autofree char *summary = NULL;
  GError *made;

  /* the server's whole text, which starts with "CLASS: message" (then
   * "\n\tat ..."), kept as the gateway's errors keep theirs; the class
   * always leads it, since the retry rules read the class from there */
  if (valid_trace != NULL && *valid_trace != '\0')
    trace = g_str_has_prefix (valid_trace, cls) ? g_strdup (valid_trace)
                                                 : g_strdup_printf ("%s: %s", cls, valid_trace);
  else
    trace = g_strdup (cls);
  /* the message is the one-line summary the Thrift2 path gives: the
   * class without its package, the first line of the message, a table's
   * long description shortened */
  summary = _hbase_error_summarize (trace, cls);
  made = g_error_new (HBASE_ERROR, _hbase_native_exception_code (class_name), "%s", summary);
  if (do_not_retry || _hbase_native_exception_kind (class_name) == HBASE_NATIVE_EXCEPTION_FINAL)
    _hbase_error_set_permanent (made);
  _hbase_error_set_server_trace (made, trace);
  g_propagate_error (error, made);
}

gboolean
_hbase_native_error_not_run (const GError *error)
{
  /* a region elsewhere, busy or opening, a full queue; a server stopping,
   * aborting or not yet running, which it says before running anything */
  return _hbase_native_error_kind (error) != HBASE_NATIVE_EXCEPTION_FINAL;
}

HBaseNativeExceptionKind
_hbase_native_error_kind (const GError *error)
{
  g_autofree char *cls = NULL;
  const char *text, *end;

  if (error == NULL || error->domain != HBASE_ERROR)
    return HBASE_NATIVE_EXCEPTION_FINAL;
  /* the class leads the server's text (see above); an error without one
   * (made here, not by a server) names it in its message, if at all */
  text = hbase_error_get_server_trace (error);
  if (text == NULL)
    text = error->message;
  end = text + strcspn (text, ": \n\t");
  cls = g_strndup (text, end - text);
  return _hbase_native_exception_kind (cls);
}

/* ---- decoding ---------------------------------------------------------- */

static gboolean
protocol_error (GError **error, const char *what)
{
  g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL, "malformed HBase RPC reply: %s", what);
  return FALSE;
}

/* A varint length at *@pos, within @len; advances *@pos. */
static gboolean
read_length (const guint8 *data, gsize len, gsize *pos, gsize *value)
{
  guint64 v = 0;

  for (guint shift = 0; shift < 64 && *pos < len; shift += 7)
    {
      guint8 b = data[(*pos)++];

      v |= (guint64) (b & 0x7f) << shift;
      if ((b & 0x80) == 0)
        {
          if (v > len - *pos)
            return FALSE;
          *value = v;
          return TRUE;
        }
    }
  return FALSE;
}

/* An allocator for the ResponseHeader, read and dropped on every call:
 * its few small parts come from a buffer on the stack, anything larger
 * (an exception's stack trace) from the heap. */
typedef struct
{
  ProtobufCAllocator base;
  gsize              used;
  guint64            buffer[32];   /* 256 bytes, aligned for any field */
} StackAllocator;

static void *
stack_alloc (void *data, size_t size)
{
  StackAllocator *a = data;
  gsize rounded = (size + 7) & ~(gsize) 7;

  if (rounded >= size && rounded <= sizeof a->buffer - a->used)
    {
      void *at = (guint8 *) a->buffer + a->used;

      a->used += rounded;
      return at;
    }
  return g_malloc (size);
}

static void
stack_free (void *data, void *pointer)
{
  StackAllocator *a = data;
  guintptr p = (guintptr) pointer, start = (guintptr) a->buffer;

  if (p - start >= sizeof a->buffer)
    g_free (pointer);
}

static void
stack_allocator_init (StackAllocator *a)
{
  a->base.alloc = stack_alloc;
  a->base.free = stack_free;
  a->base.allocator_data = a;
  a->used = 0;
}

gsize
_hbase_native_element_budget (gsize bytes)
{
  return HBASE_NATIVE_MIN_ELEMENTS + bytes / HBASE_NATIVE_BYTES_PER_ELEMENT;
}

/* The allocator of a response: every allocation protobuf-c makes (a
 * message, a string, an array) counts against the reply's element budget,
 * and fails beyond it, which fails the unpacking.  Its memory is malloc()'s,
 * so the message is freed as any other (protobuf_c_message_free_unpacked
 * with no allocator). */
typedef struct
{
  ProtobufCAllocator base;
  gsize              left;
  gboolean           over;
} BudgetAllocator;

static void *
budget_alloc (void *data, size_t size)
{
  BudgetAllocator *a = data;

  if (a->left == 0)
    {
      a->over = TRUE;
      return NULL;
    }
  a->left--;
  return malloc (size > 0 ? size : 1);
}

static void
budget_free (void *data, void *pointer)
{
  free (pointer);
}

/* The call id of a server's answer to the connection rather than to a
 * call (-1 as the Java server writes it): what a secured server says to a
 * client speaking SIMPLE authentication, before it closes the socket. */
#define CONNECTION_CALL_ID G_MAXUINT32

static void
set_connection_error (GError **error, const Hbase__Pb__ExceptionResponse *e)
{
  g_autoptr(GError) local = NULL;
  const char *cls = e->exception_class_name != NULL ? e->exception_class_name : "";
  const char *trace = e->stack_trace != NULL ? e->stack_trace : "";
  const char *text;

  if (error == NULL)
    return;
  /* its message is the server's text summarized: one line of valid UTF-8,
   * at most a few hundred bytes */
  _hbase_native_set_exception_error (&local, e->exception_class_name, e->stack_trace, TRUE);
  text = local->message;
  if (g_str_has_suffix (cls, "AccessDeniedException") ||
      strstr (trace, "Authentication is required") != NULL)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_AUTHENTICATION,
                   "the server refused the connection, it requires authentication (a secured "
                   "cluster; the native backend speaks only SIMPLE authentication, so reach a "
                   "secured cluster through Thrift2 gateways with Kerberos): %s", text);
      _hbase_error_set_permanent (*error);
      _hbase_error_set_server_trace (*error, hbase_error_get_server_trace (local));
      return;
    }
  g_set_error (error, local->domain, local->code, "the server refused the connection: %s", text);
  if (_hbase_error_is_permanent (local))
    _hbase_error_set_permanent (*error);
  _hbase_error_set_server_trace (*error, hbase_error_get_server_trace (local));
}

gboolean
_hbase_native_decode_response (GBytes *frame, guint32 call_id,
                               const ProtobufCMessageDescriptor *descriptor,
                               ProtobufCMessage **response, GBytes **cellblock, GError **error)
{
  gsize len, pos = 0, header_len, body_len, cellblock_len = 0;
  const guint8 *data = g_bytes_get_data (frame, &len);
  Hbase__Pb__ResponseHeader *header;
  ProtobufCMessage *body;
  StackAllocator allocator;

  stack_allocator_init (&allocator);
  *response = NULL;
  if (cellblock != NULL)
    *cellblock = NULL;
  if (!read_length (data, len, &pos, &header_len))
    return protocol_error (error, "the response header's length runs past the frame");
  header = hbase__pb__response_header__unpack (&allocator.base, header_len, data + pos);
  if (header == NULL)
    return protocol_error (error, "the response header does not decode");
  pos += header_len;
  if (header->has_call_id && header->call_id == CONNECTION_CALL_ID && call_id != CONNECTION_CALL_ID &&
      header->exception != NULL)
    {
      set_connection_error (error, header->exception);
      hbase__pb__response_header__free_unpacked (header, &allocator.base);
      return FALSE;
    }
  if (!header->has_call_id || header->call_id != call_id)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                   "malformed HBase RPC reply: call id %u%s, expected %u", header->call_id,
                   header->has_call_id ? "" : " (absent)", call_id);
      hbase__pb__response_header__free_unpacked (header, &allocator.base);
      return FALSE;
    }
  if (header->cell_block_meta != NULL && header->cell_block_meta->has_length)
    {
      cellblock_len = header->cell_block_meta->length;
      if (cellblock_len > len - pos)
        {
          hbase__pb__response_header__free_unpacked (header, &allocator.base);
          return protocol_error (error, "the cellblock is longer than the frame");
        }
    }
  if (header->exception != NULL)
    {
      Hbase__Pb__ExceptionResponse *e = header->exception;

      _hbase_native_set_exception_error (error, e->exception_class_name, e->stack_trace,
                                         e->has_do_not_retry && e->do_not_retry);
      hbase__pb__response_header__free_unpacked (header, &allocator.base);
      return FALSE;
    }
  hbase__pb__response_header__free_unpacked (header, &allocator.base);

  if (!read_length (data, len - cellblock_len, &pos, &body_len))
    return protocol_error (error, "the response's length runs past the frame");
  if (pos + body_len != len - cellblock_len)
    return protocol_error (error, "the frame's length does not add up to its parts");
  {
    BudgetAllocator budget = { { budget_alloc, budget_free, NULL },
                               _hbase_native_element_budget (body_len), FALSE };

    budget.base.allocator_data = &budget;
    body = protobuf_c_message_unpack (descriptor, &budget.base, body_len, data + pos);
    if (body == NULL && budget.over)
      {
        g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                     "malformed HBase RPC reply: its response of %" G_GSIZE_FORMAT " bytes decodes "
                     "to more than %" G_GSIZE_FORMAT " elements (messages, strings, arrays)",
                     body_len, _hbase_native_element_budget (body_len));
        return FALSE;
      }
  }
  if (body == NULL)
    return protocol_error (error, "the response does not decode");
  *response = body;
  if (cellblock != NULL && cellblock_len > 0)
    *cellblock = g_bytes_new_from_bytes (frame, len - cellblock_len, cellblock_len);
  return TRUE;
}

/* ---- the connection ---------------------------------------------------- */

static HBaseNativeConnection *
connection_new (HBaseSocketTransport *transport, const char *address, const char *service)
{
  HBaseNativeConnection *self = g_new0 (HBaseNativeConnection, 1);
  g_autofree char *description = g_strdup_printf ("HBase server %s (%s)", address, service);

  self->transport = transport;
  self->address = g_strdup (address);
  self->service = g_strdup (service);
  self->next_call_id = 1;
  _hbase_socket_transport_set_description (transport, description);
  _hbase_native_connection_set_max_frame (self, HBASE_NATIVE_MAX_FRAME);
  return self;
}

void
_hbase_native_connection_set_max_frame (HBaseNativeConnection *self, gsize max_frame)
{
  /* the server's length prefix is a Java int */
  self->max_frame = CLAMP (max_frame, 1, (gsize) G_MAXINT32);
  /* the 4-byte length and the largest frame */
  _hbase_socket_transport_set_max_message (self->transport, self->max_frame + 4);
}

gsize
_hbase_native_connection_get_frame_reserved (HBaseNativeConnection *self)
{
  return self->frame_reserved;
}

HBaseNativeConnection *
_hbase_native_connection_new (const char *host, guint port, const char *service,
                              guint connect_timeout_ms)
{
  g_autofree char *address = g_strdup_printf ("%s:%u", host, port);

  return connection_new (_hbase_socket_transport_new (host, port, FALSE, connect_timeout_ms),
                         address, service);
}

HBaseNativeConnection *
_hbase_native_connection_new_for_fd (int fd, const char *service)
{
  HBaseNativeConnection *self =
    connection_new (_hbase_socket_transport_new_for_fd (fd, FALSE), "socket", service);

  self->for_fd = TRUE;
  return self;
}

void
_hbase_native_connection_free (HBaseNativeConnection *self)
{
  if (self == NULL)
    return;
  g_object_unref (self->transport);
  g_free (self->address);
  g_free (self->service);
  g_free (self);
}

const char *
_hbase_native_connection_get_address (HBaseNativeConnection *self)
{
  return self->address;
}

gboolean
_hbase_native_connection_is_connected (HBaseNativeConnection *self)
{
  return self->said_hello;
}

gboolean
_hbase_native_connection_request_sent (HBaseNativeConnection *self)
{
  return self->request_sent;
}

static void
drop_socket (HBaseNativeConnection *self)
{
  thrift_transport_close (THRIFT_TRANSPORT (self->transport), NULL);
  self->said_hello = FALSE;
}

static gboolean
send_bytes (HBaseNativeConnection *self, GByteArray *bytes, GError **error)
{
  ThriftTransport *t = THRIFT_TRANSPORT (self->transport);

  return thrift_transport_write (t, bytes->data, bytes->len, error);
}

/* Reads one response frame: its length is checked before anything is
 * allocated for it, and its buffer grows as its bytes arrive, a chunk at
 * a time, so that a length prefix alone (a hostile or broken server
 * announcing a huge frame and sending little) costs no more than a
 * chunk. */
static GBytes *
read_frame (HBaseNativeConnection *self, GError **error)
{
  guint8 be[4];
  guint32 size;
  g_autofree guint8 *body = NULL;
  gsize got = 0, cap = 0;

  self->frame_reserved = 0;
  if (_hbase_socket_transport_read (self->transport, be, 4, error) != 4)
    return NULL;
  size = (guint32) be[0] << 24 | (guint32) be[1] << 16 | (guint32) be[2] << 8 | be[3];
  if (size == 0 || size > self->max_frame)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                   "malformed HBase RPC reply from %s: a frame of %u bytes (limit %" G_GSIZE_FORMAT
                   " bytes, the max-message-size setting)", self->address, size, self->max_frame);
      return NULL;
    }
  while (got < size)
    {
      gsize chunk = MIN (size - got, (gsize) HBASE_NATIVE_FRAME_CHUNK);

      if (got + chunk > cap)
        {
          /* doubling, so that a large frame costs few copies: never
           * past the frame, nor more than twice the bytes that came */
          cap = MIN ((gsize) size, MAX (got + chunk, cap * 2));
          body = g_realloc (body, cap);
          self->frame_reserved = cap;
        }
      if (_hbase_socket_transport_read (self->transport, body + got, (guint32) chunk, error) !=
          (gint32) chunk)
        return NULL;
      got += chunk;
    }
  return g_bytes_new_take (g_steal_pointer (&body), size);
}

gboolean
_hbase_native_connection_call (HBaseNativeConnection *self, const char *method,
                               const ProtobufCMessage *param,
                               const ProtobufCMessageDescriptor *descriptor,
                               ProtobufCMessage **response, GBytes **cellblock,
                               gint64 deadline, GCancellable *cancellable, GError **error)
{
  ThriftTransport *t = THRIFT_TRANSPORT (self->transport);
  guint32 call_id = self->next_call_id++;
  RequestFrame f;
  gsize size;
  g_autoptr(GBytes) frame = NULL;
  gboolean ok;

  *response = NULL;
  if (cellblock != NULL)
    *cellblock = NULL;
  self->request_sent = FALSE;
  _hbase_socket_transport_set_deadline (self->transport, deadline);
  _hbase_socket_transport_set_cancellable (self->transport, cancellable);
  if (!self->said_hello)
    {
      g_autoptr(GByteArray) hello = _hbase_native_encode_hello (self->service, g_get_user_name ());

      if (!self->for_fd && !_hbase_socket_transport_connect (self->transport, deadline,
                                                             cancellable, error))
        {
          g_prefix_error (error, "HBase server %s: ", self->address);
          return FALSE;
        }
      if (!send_bytes (self, hello, error))
        goto failed;
      self->said_hello = TRUE;
    }
  if (call_id == 0 || call_id > G_MAXINT32)
    {
      /* the Java server reads the call id as an int32: wrap before that */
      call_id = 1;
      self->next_call_id = 2;
    }
  /* packed straight into the transport's send buffer */
  size = request_frame_measure (&f, call_id, method, param, NULL, 0);
  /* the server reads the frame length as a Java int */
  if (size > G_MAXINT32)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "HBase server %s: a %s request of %" G_GSIZE_FORMAT " bytes is too large",
                   self->address, method, size);
      return FALSE;
    }
  request_frame_pack (&f, _hbase_socket_transport_reserve (self->transport, (guint32) size), size);
  self->request_sent = TRUE;
  if (!thrift_transport_flush (t, error))
    goto failed;
  frame = read_frame (self, error);
  if (frame == NULL)
    goto failed;
  thrift_transport_read_end (t, NULL);
  ok = _hbase_native_decode_response (frame, call_id, descriptor, response, cellblock, error);
  if (!ok && error != NULL && *error != NULL &&
      g_error_matches (*error, HBASE_ERROR, HBASE_ERROR_PROTOCOL))
    drop_socket (self);   /* out of step: do not reuse */
  else if (!ok && _hbase_native_error_kind (error != NULL ? *error : NULL) ==
           HBASE_NATIVE_EXCEPTION_SERVER_GONE)
    drop_socket (self);
  return ok;

failed:
  drop_socket (self);
  return FALSE;
}
