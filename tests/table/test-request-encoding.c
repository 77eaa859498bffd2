/* SPDX-License-Identifier: Apache-2.0 */
/* Unit test (no server) of the hand-encoded requests: get and
 * getMultiple (src/table/hbase-get-request.c) for every kind of
 * HBaseReadOptions, put and putMultiple (src/table/hbase-put-request.c)
 * for every kind of put.  The bytes must be those the generated send
 * functions write for the generated structs the library built before
 * (the same constructions as here), with the binary and the compact
 * protocol. */
#include "config.h"

#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <thrift/c_glib/protocol/thrift_binary_protocol.h>
#include <thrift/c_glib/protocol/thrift_compact_protocol.h>
#include <thrift/c_glib/transport/thrift_memory_buffer.h>

#include <hbase-glib/hbase-glib-thrift.h>

#include "../../src/connection/hbase-protocol.h"
#include "../../src/table/hbase-get-request.h"
#include "../../src/table/hbase-mutation-private.h"
#include "../../src/table/hbase-put-request.h"
#include "../../src/table/hbase-table-private.h"

/* c_glib 0.17's memory buffer does not chain its finalize up (GObject's
 * notify queue would leak under valgrind): this subclass does. */
typedef ThriftMemoryBuffer TestMemoryBuffer;
typedef ThriftMemoryBufferClass TestMemoryBufferClass;
static GType test_memory_buffer_get_type (void);
G_DEFINE_TYPE (TestMemoryBuffer, test_memory_buffer, THRIFT_TYPE_MEMORY_BUFFER)

static void
test_memory_buffer_finalize (GObject *object)
{
  G_OBJECT_CLASS (test_memory_buffer_parent_class)->finalize (object);
  G_OBJECT_CLASS (g_type_class_peek (G_TYPE_OBJECT))->finalize (object);
}

static void
test_memory_buffer_class_init (TestMemoryBufferClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = test_memory_buffer_finalize;
}

static void
test_memory_buffer_init (TestMemoryBuffer *self)
{
}

/* The generated TGet of a row and options: what hbase_table_get() sent
 * before requests were encoded by hand, and what exists still sends. */
static HbaseThriftTGet *
generated_get (GBytes *row, const HBaseReadOptions *options)
{
  return _hbase_table_tget_new (row, options);
}

/* The encodings the tests run with (the data of each test case): the
 * binary or compact protocol on a memory buffer, or the library's own
 * binary protocol over its socket transport, which hand-written requests
 * are encoded on directly (hbase-wire.h), read back from the other end
 * of a socket pair. */
enum { ENCODING_BINARY, ENCODING_COMPACT, ENCODING_DIRECT };

typedef struct {
  ThriftTransport *memory;    /* or the socket transport (direct) */
  ThriftProtocol *protocol;
  int peer_fd;                /* direct: what the transport sent arrives here */
  GByteArray *received;       /* direct: the bytes read from peer_fd */
} Sink;

static void
sink_init (Sink *sink, int encoding)
{
  int fds[2];

  sink->peer_fd = -1;
  sink->received = NULL;
  if (encoding == ENCODING_DIRECT)
    {
      g_assert_cmpint (socketpair (AF_UNIX, SOCK_STREAM, 0, fds), ==, 0);
      sink->memory = THRIFT_TRANSPORT (_hbase_socket_transport_new_for_fd (fds[0], FALSE));
      sink->protocol = _hbase_protocol_new (HBASE_PROTOCOL_BINARY, sink->memory, 1024 * 1024);
      g_assert_nonnull (_hbase_protocol_get_direct_transport (sink->protocol));
      sink->peer_fd = fds[1];
      sink->received = g_byte_array_new ();
      return;
    }
  sink->memory = g_object_new (test_memory_buffer_get_type (), "buf_size", 1024 * 1024, NULL);
  sink->protocol = g_object_new (encoding == ENCODING_COMPACT ? THRIFT_TYPE_COMPACT_PROTOCOL
                                                              : THRIFT_TYPE_BINARY_PROTOCOL,
                                 "transport", sink->memory, NULL);
}

static void
sink_clear (Sink *sink)
{
  g_clear_object (&sink->protocol);
  g_clear_object (&sink->memory);
  if (sink->peer_fd >= 0)
    close (sink->peer_fd);
  g_clear_pointer (&sink->received, g_byte_array_unref);
}

static GByteArray *
sink_bytes (Sink *sink)
{
  guint8 chunk[65536];
  ssize_t n;

  if (sink->received == NULL)
    return ((ThriftMemoryBuffer *) sink->memory)->buf;
  /* the request was flushed whole before the encoder returned */
  while ((n = recv (sink->peer_fd, chunk, sizeof chunk, MSG_DONTWAIT)) > 0)
    g_byte_array_append (sink->received, chunk, (guint) n);
  return sink->received;
}

/* What the generated code writes (expected, through a service client on
 * that sink) and what the hand-written encoder writes (got). */
typedef struct {
  Sink expected, got;
  HbaseThriftTHBaseServiceClient *service;
  HbaseThriftTHBaseServiceIf *client;
} Pair;

static void
pair_init (Pair *pair, int encoding)
{
  /* the generated writer's bytes, always through c_glib's own protocol */
  sink_init (&pair->expected, encoding == ENCODING_DIRECT ? ENCODING_BINARY : encoding);
  sink_init (&pair->got, encoding);
  pair->service = g_object_new (HBASE_THRIFT_TYPE_T_H_BASE_SERVICE_CLIENT,
                                "input_protocol", pair->expected.protocol,
                                "output_protocol", pair->expected.protocol, NULL);
  pair->client = HBASE_THRIFT_T_H_BASE_SERVICE_IF (pair->service);
}

static void
pair_reset (Pair *pair)
{
  g_byte_array_set_size (sink_bytes (&pair->expected), 0);
  g_byte_array_set_size (sink_bytes (&pair->got), 0);
}

static void
pair_assert_same (Pair *pair)
{
  g_assert_cmpmem (sink_bytes (&pair->got)->data, sink_bytes (&pair->got)->len,
                   sink_bytes (&pair->expected)->data, sink_bytes (&pair->expected)->len);
}

static void
pair_clear (Pair *pair)
{
  g_clear_object (&pair->service);
  sink_clear (&pair->expected);
  sink_clear (&pair->got);
}

static const char *const two_columns[] = { "f:q", "g", NULL };
static const char *const odd_columns[] = { "f:", "f:a:b", ":q", "f:\xff\x01", NULL };

static const HBaseReadOptions cases[] = {
  { .columns = NULL },
  { .columns = two_columns },
  { .columns = odd_columns },
  { .max_versions = 3 },
  { .min_timestamp = 1000 },                                   /* no upper bound */
  { .max_timestamp = 2000 },                                   /* no lower bound */
  { .min_timestamp = -5, .max_timestamp = G_MAXINT64 - 1 },
  { .filter = "KeyOnlyFilter()" },
  { .filter = "" },
  { .columns = two_columns, .max_versions = G_MAXINT32, .min_timestamp = 1, .max_timestamp = 2,
    .filter = "PrefixFilter('r\\x00')" },
};

static void
check_case (gboolean compact, GBytes *row, const HBaseReadOptions *options)
{
  g_autoptr(GByteArray) table = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(HbaseThriftTGet) get = generated_get (row, options);
  HBaseGetRequest *request = _hbase_get_request_new (row, options);
  g_autoptr(GPtrArray) gets = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) requests = g_ptr_array_new_with_free_func (_hbase_get_request_free);
  Pair pair;

  g_byte_array_append (table, (const guint8 *) "ns:table", 8);
  pair_init (&pair, compact);

  /* get */
  g_assert_true (hbase_thrift_t_h_base_service_client_send_get (pair.client,
                                                                table, get, &error));
  g_assert_no_error (error);
  g_assert_true (_hbase_get_request_send_get (pair.got.protocol, table, request, &error));
  g_assert_no_error (error);
  pair_assert_same (&pair);

  /* getMultiple: the same request three times, and an empty list */
  for (guint n = 0; n <= 3; n += 3)
    {
      pair_reset (&pair);
      g_ptr_array_set_size (gets, 0);
      g_ptr_array_set_size (requests, 0);
      for (guint i = 0; i < n; i++)
        {
          g_ptr_array_add (gets, generated_get (row, options));
          g_ptr_array_add (requests, _hbase_get_request_new (row, options));
        }
      g_assert_true (hbase_thrift_t_h_base_service_client_send_get_multiple (
        pair.client, table, gets, &error));
      g_assert_no_error (error);
      g_assert_true (_hbase_get_request_send_get_multiple (pair.got.protocol, table, requests, &error));
      g_assert_no_error (error);
      pair_assert_same (&pair);
    }

  _hbase_get_request_free (request);
  pair_clear (&pair);
}

/* The byte forms of the columns and the filter: qualifiers and filter
 * values with 0x00, 0xFF and ':' go out as they are. */
static void
check_byte_forms (gboolean compact, GBytes *row)
{
  static const char filter_text[] = "ValueFilter(=, 'binary:\0\xff''')";
  g_autoptr(GPtrArray) list = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_column_unref);
  g_autoptr(GBytes) qualifier = g_bytes_new ("a\0:\xff", 4);
  g_autoptr(GBytes) empty = g_bytes_new (NULL, 0);
  g_autoptr(GBytes) filter = g_bytes_new (filter_text, sizeof filter_text - 1);
  HBaseReadOptions options = HBASE_READ_OPTIONS_INIT;

  g_ptr_array_add (list, hbase_column_new ("f", qualifier));
  g_ptr_array_add (list, hbase_column_new ("g", NULL));
  g_ptr_array_add (list, hbase_column_new ("h", empty));
  options.column_list = list;
  options.filter_bytes = filter;
  check_case (compact, row, &options);
}

static void
test_same_bytes (gconstpointer data)
{
  gboolean compact = GPOINTER_TO_INT (data);
  g_autoptr(GBytes) row = g_bytes_new ("r\0\xff" "0000000001", 13);
  g_autoptr(GBytes) empty = g_bytes_new (NULL, 0);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_test_message ("case %u", i);
      check_case (compact, row, &cases[i]);
    }
  check_case (compact, row, NULL);
  check_case (compact, empty, NULL);   /* not valid for a get, but encodable */
  check_byte_forms (compact, row);
}

/* The request keeps what it needs: the caller may free its options. */
static void
test_copies_options (void)
{
  char *columns[] = { g_strdup ("f:q"), NULL };
  char *filter = g_strdup ("KeyOnlyFilter()");
  HBaseReadOptions options = { .columns = (const char *const *) columns, .max_versions = 2,
                               .min_timestamp = 1, .max_timestamp = 2, .filter = filter };
  g_autoptr(GBytes) row = g_bytes_new ("r", 1);
  HBaseGetRequest *request = _hbase_get_request_new (row, &options);
  g_autoptr(HbaseThriftTGet) get = generated_get (row, &options);
  Pair pair;
  g_autoptr(GError) error = NULL;

  g_free (columns[0]);
  g_free (filter);
  pair_init (&pair, FALSE);
  g_assert_cmpint (thrift_struct_write (THRIFT_STRUCT (get), pair.expected.protocol, &error), >=, 0);
  g_assert_true (_hbase_get_request_write (request, pair.got.protocol, &error));
  g_assert_no_error (error);
  pair_assert_same (&pair);
  _hbase_get_request_free (request);
  _hbase_get_request_free (NULL);
  pair_clear (&pair);
}

/* --- puts ------------------------------------------------------------------------------ */

static void
put_text (HBaseMutation *put, const char *family, const char *qualifier, const char *value)
{
  g_autoptr(GBytes) bytes = g_bytes_new (value, strlen (value));

  hbase_mutation_put (put, family, qualifier, bytes);
}

static HBaseMutation *
put_case (guint i)
{
  g_autoptr(GBytes) row = g_bytes_new ("r\0\xff" "01", 5);
  g_autoptr(GBytes) family = g_bytes_new ("f", 1);
  g_autoptr(GBytes) empty = g_bytes_new (NULL, 0);
  g_autoptr(GBytes) binary = g_bytes_new ("\0\x01\xfe", 3);
  HBaseMutation *put = hbase_mutation_new_put (row);

  switch (i)
    {
    case 0:   /* one cell */
      put_text (put, "f", "q", "v");
      break;
    case 1:   /* empty qualifier and value, binary bytes */
      hbase_mutation_put_bytes (put, family, empty, empty, -1);
      hbase_mutation_put_bytes (put, family, binary, binary, -1);
      break;
    case 2:   /* timestamps: per cell and the put's */
      hbase_mutation_put_bytes (put, family, binary, binary, 42);
      put_text (put, "g", "q", "w");
      hbase_mutation_set_timestamp (put, G_MAXINT64 - 1);
      break;
    case 3:   /* durability */
      put_text (put, "f", "q", "v");
      hbase_mutation_set_durability (put, HBASE_DURABILITY_SKIP_WAL);
      break;
    default:  /* many cells */
      for (guint c = 0; c < 40; c++)
        {
          g_autofree char *qualifier = g_strdup_printf ("q%u", c);

          put_text (put, c % 2 ? "f" : "g", qualifier, qualifier);
        }
      hbase_mutation_set_durability (put, HBASE_DURABILITY_FSYNC_WAL);
      break;
    }
  return put;
}

#define N_PUT_CASES 5

static void
check_put_case (gboolean compact, guint i)
{
  g_autoptr(GByteArray) table = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseMutation) put = put_case (i);
  g_autoptr(HbaseThriftTPut) tput = NULL;
  g_autoptr(GPtrArray) tputs = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) puts = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
  Pair pair;

  g_assert_true (_hbase_mutation_check (put, &error));
  tput = _hbase_mutation_to_put (put);
  g_byte_array_append (table, (const guint8 *) "ns:table", 8);
  pair_init (&pair, compact);

  g_assert_true (hbase_thrift_t_h_base_service_client_send_put (pair.client,
                                                                table, tput, &error));
  g_assert_no_error (error);
  g_assert_true (_hbase_put_request_send_put (pair.got.protocol, table, put, &error));
  g_assert_no_error (error);
  pair_assert_same (&pair);

  /* putMultiple: every case so far, and an empty list */
  for (guint n = 0; n <= i + 1; n += i + 1)
    {
      pair_reset (&pair);
      g_ptr_array_set_size (tputs, 0);
      g_ptr_array_set_size (puts, 0);
      for (guint c = 0; c < n; c++)
        {
          HBaseMutation *other = put_case (c);

          g_ptr_array_add (tputs, _hbase_mutation_to_put (other));
          g_ptr_array_add (puts, other);
        }
      g_assert_true (hbase_thrift_t_h_base_service_client_send_put_multiple (
        pair.client, table, tputs, &error));
      g_assert_no_error (error);
      g_assert_true (_hbase_put_request_send_put_multiple (pair.got.protocol, table, puts, &error));
      g_assert_no_error (error);
      pair_assert_same (&pair);
    }
  g_assert_cmpuint (_hbase_mutation_put_size (put), >, 0);
  pair_clear (&pair);
}

static void
test_put_same_bytes (gconstpointer data)
{
  for (guint i = 0; i < N_PUT_CASES; i++)
    {
      g_test_message ("put case %u", i);
      check_put_case (GPOINTER_TO_INT (data), i);
    }
}

/* What is sent is the put as it was: the copy does not follow changes
 * made to the mutation afterwards. */
static void
test_put_copy_is_frozen (void)
{
  g_autoptr(HBaseMutation) put = put_case (0);
  g_autoptr(HBaseMutation) copy = _hbase_mutation_copy (put);
  g_autoptr(HBaseMutation) same = put_case (0);
  g_autoptr(GError) error = NULL;
  Pair pair;

  put_text (put, "f", "later", "x");
  hbase_mutation_set_timestamp (put, 7);
  pair_init (&pair, FALSE);
  g_assert_true (_hbase_mutation_write_put (same, pair.expected.protocol, &error));
  g_assert_true (_hbase_mutation_write_put (copy, pair.got.protocol, &error));
  g_assert_no_error (error);
  pair_assert_same (&pair);
  g_assert_cmpuint (_hbase_mutation_put_size (copy), ==, 5 + 3);
  pair_clear (&pair);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/put-request/binary/same-bytes", GINT_TO_POINTER (FALSE), test_put_same_bytes);
  g_test_add_data_func ("/put-request/compact/same-bytes", GINT_TO_POINTER (TRUE), test_put_same_bytes);
  g_test_add_data_func ("/put-request/binary-direct/same-bytes", GINT_TO_POINTER (ENCODING_DIRECT),
                        test_put_same_bytes);
  g_test_add_func ("/put-request/copy-is-frozen", test_put_copy_is_frozen);
  g_test_add_data_func ("/get-request/binary/same-bytes", GINT_TO_POINTER (FALSE), test_same_bytes);
  g_test_add_data_func ("/get-request/compact/same-bytes", GINT_TO_POINTER (TRUE), test_same_bytes);
  g_test_add_data_func ("/get-request/binary-direct/same-bytes", GINT_TO_POINTER (ENCODING_DIRECT),
                        test_same_bytes);
  g_test_add_func ("/get-request/copies-options", test_copies_options);
  return g_test_run ();
}
