/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of the checked protocols (src/connection/hbase-protocol.c) on
 * a socket pair: what honest replies may hold passes (many containers side
 * by side, nesting up to the limit), one level more does not. */
#include "config.h"

#include <sys/socket.h>
#include <unistd.h>

#include <hbase-glib/hbase-glib.h>

#include "../../src/connection/hbase-protocol.h"
#include "../../src/connection/hbase-transport.h"

typedef struct {
  HBaseSocketTransport *transport;
  ThriftProtocol *protocol;
} Reader;

/* A reader of @bytes (the peer end closed after writing them). */
static void
reader_init (Reader *reader, HBaseProtocol protocol, const GByteArray *bytes)
{
  int fds[2];

  g_assert_cmpint (socketpair (AF_UNIX, SOCK_STREAM, 0, fds), ==, 0);
  g_assert_cmpint (write (fds[1], bytes->data, bytes->len), ==, (gssize) bytes->len);
  close (fds[1]);
  reader->transport = _hbase_socket_transport_new_for_fd (fds[0], FALSE);
  _hbase_socket_transport_set_deadline (reader->transport, g_get_monotonic_time () + 5 * G_USEC_PER_SEC);
  reader->protocol = _hbase_protocol_new (protocol, THRIFT_TRANSPORT (reader->transport), 1 << 20);
}

static void
reader_clear (Reader *reader)
{
  g_clear_object (&reader->protocol);
  g_clear_object (&reader->transport);
}

static void
append (GByteArray *bytes, const guint8 *data, guint len)
{
  g_byte_array_append (bytes, data, len);
}

/* A struct of @n fields, each an empty container of @kind (binary protocol). */
static GByteArray *
binary_struct_of_containers (guint n, guint8 kind)
{
  GByteArray *bytes = g_byte_array_new ();

  for (guint i = 0; i < n; i++)
    {
      guint8 field[3] = { kind, (guint8) ((i + 1) >> 8), (guint8) (i + 1) };
      const guint8 empty_list[5] = { 0x08, 0, 0, 0, 0 };
      const guint8 empty_map[6] = { 0x08, 0x08, 0, 0, 0, 0 };

      append (bytes, field, 3);
      if (kind == 0x0d)
        append (bytes, empty_map, 6);
      else
        append (bytes, empty_list, 5);
    }
  append (bytes, (const guint8 *) "\0", 1);
  return bytes;
}

/* The same in the compact protocol: field headers with delta 1. */
static GByteArray *
compact_struct_of_containers (guint n, guint8 kind)
{
  GByteArray *bytes = g_byte_array_new ();

  for (guint i = 0; i < n; i++)
    {
      guint8 field = (guint8) (0x10 | kind);
      /* list/set: size 0 in the high nibble, i32 elements; map: a 0 varint */
      guint8 empty = kind == 0x0b ? 0x00 : 0x05;

      append (bytes, &field, 1);
      append (bytes, &empty, 1);
    }
  append (bytes, (const guint8 *) "\0", 1);
  return bytes;
}

static void
test_many_containers (void)
{
  const struct {
    HBaseProtocol protocol;
    guint8 kind;
  } cases[] = {
    { HBASE_PROTOCOL_BINARY, 0x0f },   /* list */
    { HBASE_PROTOCOL_BINARY, 0x0e },   /* set */
    { HBASE_PROTOCOL_BINARY, 0x0d },   /* map */
    { HBASE_PROTOCOL_COMPACT, 0x09 },  /* list */
    { HBASE_PROTOCOL_COMPACT, 0x0a },  /* set */
    { HBASE_PROTOCOL_COMPACT, 0x0b },  /* map */
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GByteArray) bytes = cases[i].protocol == HBASE_PROTOCOL_BINARY
        ? binary_struct_of_containers (200, cases[i].kind)
        : compact_struct_of_containers (200, cases[i].kind);
      g_autoptr(GError) error = NULL;
      Reader reader;

      reader_init (&reader, cases[i].protocol, bytes);
      g_assert_cmpint (thrift_protocol_skip (reader.protocol, T_STRUCT, &error), ==, (gint32) bytes->len);
      g_assert_no_error (error);
      g_assert_false (_hbase_socket_transport_has_failed (reader.transport));
      reader_clear (&reader);
    }
}

/* Structs nested @depth deep through field 1 of each (binary protocol). */
static GByteArray *
nested_structs (guint depth)
{
  GByteArray *bytes = g_byte_array_new ();
  const guint8 field[3] = { 0x0c, 0x00, 0x01 };

  for (guint i = 1; i < depth; i++)
    append (bytes, field, 3);
  for (guint i = 0; i < depth; i++)
    append (bytes, (const guint8 *) "\0", 1);
  return bytes;
}

static void
test_depth_limit (void)
{
  for (guint depth = HBASE_PROTOCOL_MAX_DEPTH; depth <= HBASE_PROTOCOL_MAX_DEPTH + 1; depth++)
    {
      g_autoptr(GByteArray) bytes = nested_structs (depth);
      g_autoptr(GError) error = NULL;
      Reader reader;
      gint32 ret;

      reader_init (&reader, HBASE_PROTOCOL_BINARY, bytes);
      ret = thrift_protocol_skip (reader.protocol, T_STRUCT, &error);
      if (depth <= HBASE_PROTOCOL_MAX_DEPTH)
        {
          g_assert_no_error (error);
          g_assert_cmpint (ret, ==, (gint32) bytes->len);
        }
      else
        {
          g_assert_error (error, THRIFT_PROTOCOL_ERROR, THRIFT_PROTOCOL_ERROR_DEPTH_LIMIT);
          g_assert_cmpint (ret, <, 0);
          g_assert_true (_hbase_socket_transport_has_failed (reader.transport));
        }
      reader_clear (&reader);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/protocol/many-containers", test_many_containers);
  g_test_add_func ("/protocol/depth-limit", test_depth_limit);
  return g_test_run ();
}
