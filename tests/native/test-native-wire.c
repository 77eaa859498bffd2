/* SPDX-License-Identifier: Apache-2.0 */
/* test-native-wire.c: the bytes of HBase's own RPC, with no server: the
 * preamble and ConnectionHeader frame, a Get request frame, a call over a
 * socket pair, hostile response frames (each HBASE_ERROR_PROTOCOL, never
 * a crash) and how server exceptions become error codes.
 */
#include "config.h"

#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <hbase-glib/hbase-error.h>

#include "../../src/core/hbase-error-private.h"
#include "../../src/native/hbase-native-connection.h"
#include "../../src/native/hbase-native-pb.h"
#include "Client.pb-c.h"
#include "RPC.pb-c.h"

static void
assert_bytes (const guint8 *got, gsize got_len, const guint8 *want, gsize want_len)
{
  if (got_len != want_len || memcmp (got, want, want_len) != 0)
    {
      g_autofree char *a = g_base64_encode (got, got_len);
      g_autofree char *b = g_base64_encode (want, want_len);

      g_test_message ("got  %s\nwant %s", a, b);
    }
  g_assert_cmpmem (got, got_len, want, want_len);
}

/* Preamble "HBas" 0 0x50, then a 4-byte length and the ConnectionHeader:
 * 1 user_info { 1 effective_user "bob" }, 2 service_name, 3 codec. */
static void
test_hello (void)
{
  g_autoptr(GByteArray) got = _hbase_native_encode_hello ("ClientService", "bob");
  static const char codec[] = "org.apache.hadoop.hbase.codec.KeyValueCodec";
  g_autoptr(GByteArray) want = g_byte_array_new ();
  guint8 b;

  g_byte_array_append (want, (const guint8 *) "HBas\x00\x50", 6);
  g_byte_array_append (want, (const guint8 *) "\0\0\0\0", 4);
  g_byte_array_append (want, (const guint8 *) "\x0a\x05\x0a\x03" "bob", 7);
  g_byte_array_append (want, (const guint8 *) "\x12\x0d" "ClientService", 15);
  b = 0x1a;
  g_byte_array_append (want, &b, 1);
  b = strlen (codec);
  g_byte_array_append (want, &b, 1);
  g_byte_array_append (want, (const guint8 *) codec, strlen (codec));
  want->data[9] = want->len - 10;
  assert_bytes (got->data, got->len, want->data, want->len);
  g_assert_cmpuint (got->data[9], ==, 7 + 15 + 2 + 43);
}

/* A Get request: length, delimited RequestHeader { 1 call_id 7,
 * 3 method "Get", 4 request_param true }, delimited GetRequest { 1 region
 * { 1 type REGION_NAME, 2 "r" }, 2 get { 1 row "k" } }. */
static void
test_request_frame (void)
{
  Hbase__Pb__RegionSpecifier spec = HBASE__PB__REGION_SPECIFIER__INIT;
  Hbase__Pb__Get get = HBASE__PB__GET__INIT;
  Hbase__Pb__GetRequest request = HBASE__PB__GET_REQUEST__INIT;
  static const guint8 want[] = {
    0, 0, 0, 23,
    9, 0x08, 7, 0x1a, 3, 'G', 'e', 't', 0x20, 1,
    12, 0x0a, 5, 0x08, 1, 0x12, 1, 'r', 0x12, 3, 0x0a, 1, 'k',
  };
  g_autoptr(GByteArray) got = NULL;

  spec.type = HBASE__PB__REGION_SPECIFIER__REGION_SPECIFIER_TYPE__REGION_NAME;
  spec.value.data = (guint8 *) "r";
  spec.value.len = 1;
  get.row.data = (guint8 *) "k";
  get.row.len = 1;
  request.region = &spec;
  request.get = &get;
  got = _hbase_native_encode_request (7, "Get", &request.base, NULL, 0);
  assert_bytes (got->data, got->len, want, sizeof want);

  /* with a cellblock: cell_block_meta { 1 length 3 } in the header, the
   * block after the param */
  g_byte_array_unref (got);
  got = _hbase_native_encode_request (7, "Get", &request.base, (const guint8 *) "xyz", 3);
  g_assert_cmpuint (got->len, ==, sizeof want + 4 + 3);
  g_assert_cmpuint (got->data[3], ==, 23 + 4 + 3);
  g_assert_cmpuint (got->data[4], ==, 9 + 4);
  g_assert_cmpmem (got->data + 14, 4, "\x2a\x02\x08\x03", 4);
  g_assert_cmpmem (got->data + got->len - 3, 3, "xyz", 3);
}

/* ---- response frames ---- */

static void
append_varint (GByteArray *out, guint64 v)
{
  do
    {
      guint8 b = (v & 0x7f) | (v > 0x7f ? 0x80 : 0);

      g_byte_array_append (out, &b, 1);
      v >>= 7;
    }
  while (v != 0);
}

static void
append_delimited (GByteArray *out, const ProtobufCMessage *m)
{
  gsize size = protobuf_c_message_get_packed_size (m);
  guint at;

  append_varint (out, size);
  at = out->len;
  g_byte_array_set_size (out, at + size);
  protobuf_c_message_pack (m, out->data + at);
}

/* A GetResponse frame (no length) for call @id: result
 * { associated_cell_count 1 } and a cellblock of @block_len bytes, whose
 * declared length is @meta_len. */
static GBytes *
get_reply (guint32 id, gsize meta_len, const char *block, gsize block_len)
{
  Hbase__Pb__ResponseHeader header = HBASE__PB__RESPONSE_HEADER__INIT;
  Hbase__Pb__CellBlockMeta meta = HBASE__PB__CELL_BLOCK_META__INIT;
  Hbase__Pb__GetResponse response = HBASE__PB__GET_RESPONSE__INIT;
  Hbase__Pb__Result result = HBASE__PB__RESULT__INIT;
  GByteArray *out = g_byte_array_new ();

  header.has_call_id = TRUE;
  header.call_id = id;
  if (meta_len > 0)
    {
      meta.has_length = TRUE;
      meta.length = meta_len;
      header.cell_block_meta = &meta;
    }
  result.has_associated_cell_count = TRUE;
  result.associated_cell_count = 1;
  response.result = &result;
  append_delimited (out, &header.base);
  append_delimited (out, &response.base);
  g_byte_array_append (out, (const guint8 *) block, block_len);
  return g_byte_array_free_to_bytes (out);
}

static void
test_decode_ok (void)
{
  g_autoptr(GBytes) frame = get_reply (5, 4, "CELL", 4);
  ProtobufCMessage *response = NULL;
  g_autoptr(GBytes) block = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (_hbase_native_decode_response (frame, 5, &hbase__pb__get_response__descriptor,
                                                &response, &block, &error));
  g_assert_no_error (error);
  g_assert_cmpint (((Hbase__Pb__GetResponse *) response)->result->associated_cell_count, ==, 1);
  g_assert_cmpmem (g_bytes_get_data (block, NULL), g_bytes_get_size (block), "CELL", 4);
  protobuf_c_message_free_unpacked (response, NULL);
}

static void
expect_protocol_error (GBytes *frame, guint32 id, const char *what)
{
  ProtobufCMessage *response = NULL;
  GBytes *block = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_false (_hbase_native_decode_response (frame, id, &hbase__pb__get_response__descriptor,
                                                 &response, &block, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL);
  g_assert_nonnull (strstr (error->message, what));
  g_assert_null (response);
  g_assert_null (block);
}

static void
test_decode_malformed (void)
{
  g_autoptr(GBytes) wrong_id = get_reply (6, 4, "CELL", 4);
  g_autoptr(GBytes) block_too_long = get_reply (5, 40, "CELL", 4);
  g_autoptr(GBytes) extra = get_reply (5, 3, "CELL", 4);
  g_autoptr(GBytes) whole = get_reply (5, 4, "CELL", 4);
  g_autoptr(GBytes) header_past_end = g_bytes_new ("\x7f\x08\x05", 3);
  g_autoptr(GBytes) endless_varint = g_bytes_new ("\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff", 11);
  g_autoptr(GBytes) garbage_header = g_bytes_new ("\x03\xff\xff\xff", 4);
  g_autoptr(GBytes) empty = g_bytes_new ("", 0);

  expect_protocol_error (wrong_id, 5, "call id 6, expected 5");
  expect_protocol_error (block_too_long, 5, "cellblock is longer than the frame");
  expect_protocol_error (extra, 5, "does not add up");
  expect_protocol_error (header_past_end, 5, "runs past the frame");
  expect_protocol_error (endless_varint, 5, "runs past the frame");
  expect_protocol_error (garbage_header, 5, "does not decode");
  expect_protocol_error (empty, 5, "runs past the frame");
  /* every truncation of a good frame */
  for (gsize cut = 0; cut < g_bytes_get_size (whole); cut++)
    {
      g_autoptr(GBytes) part = g_bytes_new_from_bytes (whole, 0, cut);
      ProtobufCMessage *response = NULL;
      GBytes *block = NULL;
      g_autoptr(GError) error = NULL;

      g_assert_false (_hbase_native_decode_response (part, 5, &hbase__pb__get_response__descriptor,
                                                     &response, &block, &error));
      g_assert_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL);
    }
}

/* A reply carrying an ExceptionResponse: the error keeps the class and
 * the server's message (not the stack frames). */
static void
test_decode_exception (void)
{
  Hbase__Pb__ResponseHeader header = HBASE__PB__RESPONSE_HEADER__INIT;
  Hbase__Pb__ExceptionResponse e = HBASE__PB__EXCEPTION_RESPONSE__INIT;
  g_autoptr(GByteArray) out = g_byte_array_new ();
  g_autoptr(GBytes) frame = NULL;
  ProtobufCMessage *response = NULL;
  g_autoptr(GError) error = NULL;

  header.has_call_id = TRUE;
  header.call_id = 3;
  e.exception_class_name = (char *) "org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException";
  e.stack_trace = (char *) "org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException: "
                           "Column family nope does not exist\n\tat org.apache.Foo.bar(Foo.java:1)\n";
  header.exception = &e;
  append_delimited (out, &header.base);
  frame = g_bytes_new (out->data, out->len);
  g_assert_false (_hbase_native_decode_response (frame, 3, &hbase__pb__get_response__descriptor,
                                                 &response, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND);
  /* the gateway's one-line summary; the whole text as the server trace */
  g_assert_cmpstr (error->message, ==, "NoSuchColumnFamilyException: Column family nope does not exist");
  g_assert_cmpstr (hbase_error_get_server_trace (error), ==, e.stack_trace);
  g_assert_true (_hbase_error_is_permanent (error));
  g_assert_cmpint (_hbase_native_error_kind (error), ==, HBASE_NATIVE_EXCEPTION_FINAL);
}

static void
test_exception_mapping (void)
{
  static const struct { const char *cls; gint code; HBaseNativeExceptionKind kind; } cases[] = {
    { "org.apache.hadoop.hbase.NotServingRegionException", HBASE_ERROR_SERVER, HBASE_NATIVE_EXCEPTION_RELOCATE },
    { "org.apache.hadoop.hbase.exceptions.RegionMovedException", HBASE_ERROR_SERVER, HBASE_NATIVE_EXCEPTION_RELOCATE },
    { "org.apache.hadoop.hbase.RegionTooBusyException", HBASE_ERROR_SERVER, HBASE_NATIVE_EXCEPTION_RETRY },
    { "org.apache.hadoop.hbase.CallQueueTooBigException", HBASE_ERROR_SERVER, HBASE_NATIVE_EXCEPTION_RETRY },
    { "org.apache.hadoop.hbase.exceptions.RegionOpeningException", HBASE_ERROR_SERVER, HBASE_NATIVE_EXCEPTION_RETRY },
    { "org.apache.hadoop.hbase.ipc.ServerNotRunningYetException", HBASE_ERROR_CONNECTION, HBASE_NATIVE_EXCEPTION_SERVER_GONE },
    { "org.apache.hadoop.hbase.regionserver.RegionServerStoppedException", HBASE_ERROR_CONNECTION, HBASE_NATIVE_EXCEPTION_SERVER_GONE },
    { "org.apache.hadoop.hbase.TableNotFoundException", HBASE_ERROR_NOT_FOUND, HBASE_NATIVE_EXCEPTION_FINAL },
    { "org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException", HBASE_ERROR_NOT_FOUND, HBASE_NATIVE_EXCEPTION_FINAL },
    { "org.apache.hadoop.hbase.UnknownScannerException", HBASE_ERROR_NOT_FOUND, HBASE_NATIVE_EXCEPTION_FINAL },
    { "org.apache.hadoop.hbase.DoNotRetryIOException", HBASE_ERROR_IO, HBASE_NATIVE_EXCEPTION_FINAL },
    { "org.apache.hadoop.hbase.exceptions.FailedSanityCheckException", HBASE_ERROR_ILLEGAL_ARGUMENT, HBASE_NATIVE_EXCEPTION_FINAL },
    { "java.lang.IllegalArgumentException", HBASE_ERROR_ILLEGAL_ARGUMENT, HBASE_NATIVE_EXCEPTION_FINAL },
    { "java.io.IOException", HBASE_ERROR_IO, HBASE_NATIVE_EXCEPTION_FINAL },
    /* the short name alone is not the HBase class */
    { "NotServingRegionException", HBASE_ERROR_IO, HBASE_NATIVE_EXCEPTION_FINAL },
    { "com.example.NotServingRegionException", HBASE_ERROR_IO, HBASE_NATIVE_EXCEPTION_FINAL },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;

      g_test_message ("%s", cases[i].cls);
      g_assert_cmpint (_hbase_native_exception_code (cases[i].cls), ==, cases[i].code);
      g_assert_cmpint (_hbase_native_exception_kind (cases[i].cls), ==, cases[i].kind);
      _hbase_native_set_exception_error (&error, cases[i].cls, NULL, FALSE);
      g_assert_error (error, HBASE_ERROR, cases[i].code);
      /* the class without its package, as the Thrift2 path's summaries */
      g_assert_cmpstr (error->message, ==, strrchr (cases[i].cls, '.') != NULL
                                             ? strrchr (cases[i].cls, '.') + 1 : cases[i].cls);
      g_assert_cmpstr (hbase_error_get_server_trace (error), ==, cases[i].cls);
      g_assert_cmpint (_hbase_native_error_kind (error), ==, cases[i].kind);
      g_assert_cmpint (_hbase_error_is_permanent (error), ==,
                       cases[i].kind == HBASE_NATIVE_EXCEPTION_FINAL);
    }
  /* do_not_retry makes any error permanent; a message without the class
   * gets it in front */
  {
    g_autoptr(GError) error = NULL;

    _hbase_native_set_exception_error (&error, "org.apache.hadoop.hbase.RegionTooBusyException",
                                       "busy", TRUE);
    g_assert_cmpstr (error->message, ==, "RegionTooBusyException: busy");
    g_assert_cmpstr (hbase_error_get_server_trace (error), ==,
                     "org.apache.hadoop.hbase.RegionTooBusyException: busy");
    g_assert_true (_hbase_error_is_permanent (error));
  }
}

/* A whole call over a socket pair: what the connection sends (hello, then
 * the request frame) and what it makes of the reply and of a frame length
 * beyond the limit. */
static void
test_call_over_socket (void)
{
  int fds[2];
  g_autoptr(HBaseNativeConnection) conn = NULL;
  Hbase__Pb__GetRequest request = HBASE__PB__GET_REQUEST__INIT;
  g_autoptr(GByteArray) hello = _hbase_native_encode_hello ("ClientService", g_get_user_name ());
  g_autoptr(GByteArray) req1 = _hbase_native_encode_request (1, "Get", &request.base, NULL, 0);
  g_autoptr(GBytes) reply = get_reply (1, 4, "CELL", 4);
  guint8 buf[4096];
  guint8 be[4];
  gsize expect = hello->len + req1->len, got = 0;
  ProtobufCMessage *response = NULL;
  g_autoptr(GBytes) block = NULL;
  g_autoptr(GError) error = NULL;
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  g_assert_cmpint (socketpair (AF_UNIX, SOCK_STREAM, 0, fds), ==, 0);
  conn = _hbase_native_connection_new_for_fd (fds[0], "ClientService");
  /* the reply is written first: the call reads it after sending */
  be[0] = 0; be[1] = 0; be[2] = 0; be[3] = g_bytes_get_size (reply);
  g_assert_cmpint (write (fds[1], be, 4), ==, 4);
  g_assert_cmpint (write (fds[1], g_bytes_get_data (reply, NULL), g_bytes_get_size (reply)), ==,
                   (gssize) g_bytes_get_size (reply));
  g_assert_true (_hbase_native_connection_call (conn, "Get", &request.base,
                                                &hbase__pb__get_response__descriptor,
                                                &response, &block, deadline, NULL, &error));
  g_assert_no_error (error);
  protobuf_c_message_free_unpacked (response, NULL);
  g_assert_cmpmem (g_bytes_get_data (block, NULL), g_bytes_get_size (block), "CELL", 4);
  while (got < expect)
    {
      gssize n = read (fds[1], buf + got, sizeof buf - got);

      g_assert_cmpint (n, >, 0);
      got += n;
    }
  g_assert_cmpmem (buf, hello->len, hello->data, hello->len);
  g_assert_cmpmem (buf + hello->len, req1->len, req1->data, req1->len);

  /* the next call (id 2) gets a frame length of 256 MiB + 1: refused */
  be[0] = 0x10; be[1] = 0; be[2] = 0; be[3] = 1;
  g_assert_cmpint (write (fds[1], be, 4), ==, 4);
  g_clear_pointer (&block, g_bytes_unref);
  g_assert_false (_hbase_native_connection_call (conn, "Get", &request.base,
                                                 &hbase__pb__get_response__descriptor,
                                                 &response, &block, deadline, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL);
  g_assert_nonnull (strstr (error->message, "268435457 bytes"));
  close (fds[1]);
}

/* A server announcing a frame of 200 MiB (within the limit) that sends a
 * few bytes and closes: the call fails with the connection closed, and the
 * frame's buffer never grew past what came (nothing like the announced
 * size is reserved up front). */
static void
test_huge_frame_announced (void)
{
  int fds[2];
  g_autoptr(HBaseNativeConnection) conn = NULL;
  Hbase__Pb__GetRequest request = HBASE__PB__GET_REQUEST__INIT;
  guint8 head[4] = { 0x0c, 0x80, 0x00, 0x00 };   /* 200 MiB */
  guint8 some[1000] = { 0 };
  ProtobufCMessage *response = NULL;
  GBytes *block = NULL;
  g_autoptr(GError) error = NULL;
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  g_assert_cmpint (socketpair (AF_UNIX, SOCK_STREAM, 0, fds), ==, 0);
  conn = _hbase_native_connection_new_for_fd (fds[0], "ClientService");
  g_assert_cmpint (write (fds[1], head, 4), ==, 4);
  g_assert_cmpint (write (fds[1], some, sizeof some), ==, (gssize) sizeof some);
  shutdown (fds[1], SHUT_WR);
  g_assert_false (_hbase_native_connection_call (conn, "Get", &request.base,
                                                 &hbase__pb__get_response__descriptor,
                                                 &response, &block, deadline, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION);
  g_test_message ("%s", error->message);
  g_assert_null (response);
  g_assert_null (block);
  g_assert_cmpuint (_hbase_native_connection_get_frame_reserved (conn), >, 0);
  g_assert_cmpuint (_hbase_native_connection_get_frame_reserved (conn), <=,
                    2 * HBASE_NATIVE_FRAME_CHUNK);
  close (fds[1]);
}

/* A ScanResponse frame for call 1 of @n empty results (two bytes each:
 * field 5, length 0). */
static GBytes *
empty_results_reply (gsize n)
{
  Hbase__Pb__ResponseHeader header = HBASE__PB__RESPONSE_HEADER__INIT;
  GByteArray *out = g_byte_array_new ();
  gsize at;

  header.has_call_id = TRUE;
  header.call_id = 1;
  append_delimited (out, &header.base);
  append_varint (out, 2 * n);
  at = out->len;
  g_byte_array_set_size (out, at + 2 * n);
  for (gsize i = 0; i < n; i++)
    {
      out->data[at + 2 * i] = 0x2a;
      out->data[at + 2 * i + 1] = 0;
    }
  return g_byte_array_free_to_bytes (out);
}

/* A reply of millions of tiny elements (here 2 Mi empty results in 4 MiB,
 * some 50 times that in objects) is refused for its element budget; one of
 * as many elements as the budget's floor decodes. */
static void
test_element_budget (void)
{
  g_autoptr(GBytes) hostile = empty_results_reply (2u << 20);
  g_autoptr(GBytes) fine = empty_results_reply (HBASE_NATIVE_MIN_ELEMENTS - 2);
  ProtobufCMessage *response = NULL;
  GBytes *block = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_false (_hbase_native_decode_response (hostile, 1, &hbase__pb__scan_response__descriptor,
                                                 &response, &block, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL);
  g_assert_nonnull (strstr (error->message, "elements"));
  g_assert_null (response);
  g_clear_error (&error);

  g_assert_true (_hbase_native_decode_response (fine, 1, &hbase__pb__scan_response__descriptor,
                                                &response, &block, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (((Hbase__Pb__ScanResponse *) response)->n_results, ==,
                    HBASE_NATIVE_MIN_ELEMENTS - 2);
  protobuf_c_message_free_unpacked (response, NULL);
}

static int write_fd;

static gpointer
write_wire (gpointer data)
{
  GByteArray *wire = data;
  gsize sent = 0;

  while (sent < wire->len)
    {
      gssize n = write (write_fd, wire->data + sent, wire->len - sent);

      g_assert_cmpint (n, >, 0);
      sent += n;
    }
  return NULL;
}

/* The frame limit is the connection's setting (max-message-size): one
 * byte over it is refused before anything is read or allocated for it;
 * a frame at the limit is read whole, in several chunks. */
static void
test_frame_limit_setting (void)
{
  int fds[2];
  g_autoptr(HBaseNativeConnection) conn = NULL;
  Hbase__Pb__GetRequest request = HBASE__PB__GET_REQUEST__INIT;
  gsize cell_len = 3 * HBASE_NATIVE_FRAME_CHUNK;
  g_autofree char *cell = g_malloc0 (cell_len);
  g_autoptr(GBytes) reply = get_reply (1, cell_len, cell, cell_len);
  gsize reply_len = g_bytes_get_size (reply);
  guint8 be[4] = { reply_len >> 24, reply_len >> 16, reply_len >> 8, reply_len };
  ProtobufCMessage *response = NULL;
  g_autoptr(GBytes) block = NULL;
  g_autoptr(GError) error = NULL;
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  g_autoptr(GByteArray) wire = g_byte_array_new ();
  GThread *writer;

  g_assert_cmpint (socketpair (AF_UNIX, SOCK_STREAM, 0, fds), ==, 0);
  conn = _hbase_native_connection_new_for_fd (fds[0], "ClientService");
  _hbase_native_connection_set_max_frame (conn, reply_len);
  /* more than a socket buffer holds: written while the call reads */
  g_byte_array_append (wire, be, 4);
  g_byte_array_append (wire, g_bytes_get_data (reply, NULL), reply_len);
  write_fd = fds[1];
  writer = g_thread_new ("server", write_wire, wire);
  g_assert_true (_hbase_native_connection_call (conn, "Get", &request.base,
                                                &hbase__pb__get_response__descriptor,
                                                &response, &block, deadline, NULL, &error));
  g_assert_no_error (error);
  protobuf_c_message_free_unpacked (response, NULL);
  g_assert_cmpuint (g_bytes_get_size (block), ==, cell_len);
  g_assert_cmpuint (_hbase_native_connection_get_frame_reserved (conn), ==, reply_len);
  g_thread_join (writer);

  _hbase_native_connection_set_max_frame (conn, reply_len - 1);
  g_assert_cmpint (write (fds[1], be, 4), ==, 4);
  g_clear_pointer (&block, g_bytes_unref);
  g_assert_false (_hbase_native_connection_call (conn, "Get", &request.base,
                                                 &hbase__pb__get_response__descriptor,
                                                 &response, &block, deadline, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL);
  g_assert_nonnull (strstr (error->message, "max-message-size"));
  g_assert_cmpuint (_hbase_native_connection_get_frame_reserved (conn), ==, 0);
  close (fds[1]);
}

/* A single-row reply with a cell of another row is refused, whether the
 * cells are taken as a list or checked before being visited. */
static void
test_reply_rows (void)
{
  Hbase__Pb__Cell mine = HBASE__PB__CELL__INIT, other = HBASE__PB__CELL__INIT;
  Hbase__Pb__Cell *cells[2] = { &mine, &other };
  Hbase__Pb__Result result = HBASE__PB__RESULT__INIT;
  g_autoptr(GBytes) row = g_bytes_new_static ("r1", 2);
  g_autoptr(GPtrArray) none = g_ptr_array_new ();
  g_autoptr(GPtrArray) got = NULL;
  g_autoptr(GError) error = NULL;

  mine.row.data = (guint8 *) "r1";
  mine.row.len = 2;
  other.row.data = (guint8 *) "r2";
  other.row.len = 2;
  result.cell = cells;
  result.n_cell = 1;
  g_assert_true (_hbase_native_pb_check_rows (&result, none, row, "Get", &error));
  g_assert_no_error (error);
  got = _hbase_native_pb_reply_cells (&result, NULL, row, "Get", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (got->len, ==, 1);

  result.n_cell = 2;
  g_assert_false (_hbase_native_pb_check_rows (&result, none, row, "Get", &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL);
  g_assert_cmpstr (error->message, ==, "malformed Get reply: a cell of another row");
  g_clear_error (&error);
  g_assert_null (_hbase_native_pb_reply_cells (&result, NULL, row, "Increment", &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL);
  g_assert_cmpstr (error->message, ==, "malformed Increment reply: a cell of another row");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/native/wire/hello", test_hello);
  g_test_add_func ("/native/wire/request-frame", test_request_frame);
  g_test_add_func ("/native/wire/decode-ok", test_decode_ok);
  g_test_add_func ("/native/wire/decode-malformed", test_decode_malformed);
  g_test_add_func ("/native/wire/decode-exception", test_decode_exception);
  g_test_add_func ("/native/wire/exception-mapping", test_exception_mapping);
  g_test_add_func ("/native/wire/call-over-socket", test_call_over_socket);
  g_test_add_func ("/native/wire/reply-rows", test_reply_rows);
  g_test_add_func ("/native/wire/huge-frame-announced", test_huge_frame_announced);
  g_test_add_func ("/native/wire/frame-limit-setting", test_frame_limit_setting);
  g_test_add_func ("/native/wire/element-budget", test_element_budget);
  return g_test_run ();
}
