/* SPDX-License-Identifier: Apache-2.0 */
/* capture-native.c: records real replies of the local stack's HBase as
 * seed inputs of fuzz-native-rpc (tests/fuzz/corpus/native-rpc/captured-*).
 *
 *   build/tests/fuzz/capture-native HOST:PORT TABLE
 *
 * HOST:PORT is a bootstrap server (the master); TABLE a table with a few
 * rows (e.g. one the tests left, or made with the hbase-glib command).  It
 * asks the registry for hbase:meta and the active master, scans hbase:meta,
 * then gets, scans, multi-gets and puts on TABLE's first region and asks for
 * a region that does not exist (an exception), each call on a socket of its
 * own, and keeps every reply frame as the server sent it, prefixed with the
 * selector bytes of the harness (see the header of fuzz-native-rpc.c):
 * mode 0 (the frame, for its call id), mode 3 (the frame with its length),
 * and for replies with a cellblock, mode 1 (the block with its cell counts)
 * and, for hbase:meta's, mode 2 (the block as one meta row). */
#include "config.h"

#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gio/gio.h>

#include "../../src/native/hbase-native-cells.h"
#include "../../src/native/hbase-native-connection.h"
#include "Client.pb-c.h"
#include "RPC.pb-c.h"
#include "MasterAdmin.pb-c.h"
#include "Registry.pb-c.h"

/* the reply kinds of fuzz-native-rpc.c */
enum { KIND_GET, KIND_SCAN, KIND_MULTI, KIND_MUTATE, KIND_META_LOCATIONS, KIND_ACTIVE_MASTER,
       KIND_TABLE_DESCRIPTORS, KIND_PROCEDURE_RESULT, KIND_LIST_NAMESPACES };

static const char *out_dir;
/* the region of the table, from its hbase:meta row */
static char *meta_region;

static int
connect_to (const char *host, guint port)
{
  struct addrinfo hints = { 0 }, *res;
  char service[16];
  int fd;

  hints.ai_socktype = SOCK_STREAM;
  g_snprintf (service, sizeof service, "%u", port);
  if (getaddrinfo (host, service, &hints, &res) != 0)
    g_error ("cannot resolve %s", host);
  fd = socket (res->ai_family, SOCK_STREAM, 0);
  if (fd < 0 || connect (fd, res->ai_addr, res->ai_addrlen) < 0)
    g_error ("cannot connect to %s:%u: %s", host, port, g_strerror (errno));
  freeaddrinfo (res);
  return fd;
}

static void
write_all (int fd, const guint8 *data, gsize len)
{
  while (len > 0)
    {
      ssize_t n = write (fd, data, len);

      if (n <= 0)
        g_error ("write: %s", g_strerror (errno));
      data += n;
      len -= n;
    }
}

static void
read_all (int fd, guint8 *data, gsize len)
{
  while (len > 0)
    {
      ssize_t n = read (fd, data, len);

      if (n <= 0)
        g_error ("read: %s", n == 0 ? "closed" : g_strerror (errno));
      data += n;
      len -= n;
    }
}

static void
save (const char *name, guint8 mode, guint8 kind, const guint8 *extra, gsize extra_len,
      const guint8 *data, gsize len)
{
  g_autoptr(GByteArray) seed = g_byte_array_new ();
  g_autofree char *path = g_strdup_printf ("%s/captured-%s", out_dir, name);
  g_autoptr(GError) error = NULL;

  g_byte_array_append (seed, &mode, 1);
  g_byte_array_append (seed, &kind, 1);
  if (extra_len > 0)
    g_byte_array_append (seed, extra, extra_len);
  g_byte_array_append (seed, data, len);
  if (seed->len > 16384)
    {
      g_printerr ("capture: %s is %u bytes, not kept\n", name, seed->len);
      return;
    }
  if (!g_file_set_contents (path, (const char *) seed->data, seed->len, &error))
    g_error ("%s", error->message);
  g_print ("%s (%u bytes)\n", path, seed->len);
}

/* One call on a new socket; the reply frame (without its length) and
 * what it decodes to (NULL for an exception). */
static GBytes *
call (const char *host, guint port, const char *service, const char *method,
      const ProtobufCMessage *param, const ProtobufCMessageDescriptor *descriptor,
      ProtobufCMessage **response, GBytes **block)
{
  g_autoptr(GByteArray) hello = _hbase_native_encode_hello (service, g_get_user_name ());
  g_autoptr(GByteArray) request = _hbase_native_encode_request (7, method, param, NULL, 0);
  g_autoptr(GError) error = NULL;
  int fd = connect_to (host, port);
  guint8 be[4];
  guint32 size;
  guint8 *body;
  GBytes *frame;

  write_all (fd, hello->data, hello->len);
  write_all (fd, request->data, request->len);
  read_all (fd, be, 4);
  size = (guint32) be[0] << 24 | (guint32) be[1] << 16 | (guint32) be[2] << 8 | be[3];
  body = g_malloc (size);
  read_all (fd, body, size);
  close (fd);
  frame = g_bytes_new_take (body, size);
  if (!_hbase_native_decode_response (frame, 7, descriptor, response, block, &error))
    g_printerr ("capture: %s: %s\n", method, error->message);
  return frame;
}

/* Saves @frame as the seeds of modes 0 and 3 (and 1, 2 for @block). */
static void
save_reply (const char *name, guint8 kind, GBytes *frame, GBytes *block,
            const guint32 *counts, gsize n_counts, const char *meta_table)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (frame, &len);
  guint8 call_id[4] = { 0, 0, 0, 7 };
  g_autoptr(GByteArray) framed = g_byte_array_new ();
  g_autofree char *name0 = g_strdup_printf ("%s-frame", name);
  g_autofree char *name3 = g_strdup_printf ("%s-socket", name);
  guint8 be[4] = { len >> 24, len >> 16, len >> 8, len };
  guint8 no_limit[2] = { 0, 0 };

  save (name0, 0, kind, call_id, 4, data, len);
  /* on a socket the first call's id is 1 */
  {
    g_autoptr(GByteArray) renumbered = g_byte_array_new ();
    Hbase__Pb__ResponseHeader header = HBASE__PB__RESPONSE_HEADER__INIT;
    gsize pos = 0, header_len = 0;
    guint shift = 0;

    /* the delimited ResponseHeader, packed again with call id 1 */
    while (pos < len)
      {
        guint8 b = data[pos++];

        header_len |= (gsize) (b & 0x7f) << shift;
        shift += 7;
        if ((b & 0x80) == 0)
          break;
      }
    {
      Hbase__Pb__ResponseHeader *got = hbase__pb__response_header__unpack (NULL, header_len, data + pos);
      g_autofree guint8 *buf = NULL;
      gsize packed;
      guint8 varint[10];
      guint n = 0;

      g_assert (got != NULL);
      header = *got;
      header.call_id = 1;
      buf = g_malloc (hbase__pb__response_header__get_packed_size (&header));
      packed = hbase__pb__response_header__pack (&header, buf);
      for (gsize v = packed; ; v >>= 7)
        {
          varint[n++] = (v & 0x7f) | (v >= 0x80 ? 0x80 : 0);
          if (v < 0x80)
            break;
        }
      g_byte_array_append (renumbered, varint, n);
      g_byte_array_append (renumbered, buf, packed);
      hbase__pb__response_header__free_unpacked (got, NULL);
    }
    g_byte_array_append (renumbered, data + pos + header_len, len - pos - header_len);
    be[0] = renumbered->len >> 24;
    be[1] = renumbered->len >> 16;
    be[2] = renumbered->len >> 8;
    be[3] = renumbered->len;
    g_byte_array_append (framed, no_limit, 2);
    g_byte_array_append (framed, be, 4);
    g_byte_array_append (framed, renumbered->data, renumbered->len);
    save (name3, 3, kind, NULL, 0, framed->data, framed->len);
  }
  if (block != NULL)
    {
      g_autoptr(GByteArray) extra = g_byte_array_new ();
      g_autofree char *name1 = g_strdup_printf ("%s-cellblock", name);
      guint8 n = MIN (n_counts, 15);
      gsize block_len;
      const guint8 *block_data = g_bytes_get_data (block, &block_len);

      g_byte_array_append (extra, &n, 1);
      for (guint i = 0; i < n; i++)
        {
          guint8 c = MIN (counts[i], 255);

          g_byte_array_append (extra, &c, 1);
        }
      save (name1, 1, 0, extra->data, extra->len, block_data, block_len);
      if (meta_table != NULL)
        {
          g_autofree char *prefix = g_strdup_printf ("%s,", meta_table);
          gsize at = 0;

          /* each row of @meta_table's regions as a seed of its own */
          for (gsize r = 0; r < n_counts && at < block_len; r++)
            {
              gsize start = at;
              guint16 row_len = block_data[at + 12] << 8 | block_data[at + 13];
              gboolean wanted = row_len > strlen (prefix) &&
                                memcmp (block_data + at + 14, prefix, strlen (prefix)) == 0;

              for (guint i = 0; i < counts[r] && at + 4 <= block_len; i++)
                at += 4 + ((gsize) block_data[at] << 24 | block_data[at + 1] << 16 |
                           block_data[at + 2] << 8 | block_data[at + 3]);
              if (wanted)
                {
                  g_autoptr(GByteArray) row = g_byte_array_new ();
                  g_autofree char *name2 = g_strdup_printf ("%s-meta-row", name);
                  guint8 table_len = strlen (meta_table), key_len = 0;

                  g_byte_array_append (row, &table_len, 1);
                  g_byte_array_append (row, (const guint8 *) meta_table, table_len);
                  g_byte_array_append (row, &key_len, 1);
                  save (name2, 2, 0, row->data, row->len, block_data + start,
                        MIN (at, block_len) - start);
                  g_free (meta_region);
                  meta_region = g_strndup ((const char *) block_data + start + 14, row_len);
                }
            }
        }
    }
}

int
main (int argc, char **argv)
{
  g_auto(GStrv) master = NULL;
  const char *table;
  guint port;
  ProtobufCMessage *response = NULL;
  g_autoptr(GBytes) block = NULL;
  g_autoptr(GBytes) frame = NULL;
  Hbase__Pb__RegionLocation *meta_loc;
  g_autofree char *meta_host = NULL;
  guint meta_port;
  g_autoptr(GBytes) region_name = NULL;

  if (argc != 4)
    {
      g_printerr ("usage: %s MASTER_HOST:PORT TABLE OUT_DIR\n", argv[0]);
      return 2;
    }
  master = g_strsplit (argv[1], ":", 2);
  port = atoi (master[1]);
  table = argv[2];
  out_dir = argv[3];

  /* the registry */
  {
    Hbase__Pb__GetActiveMasterRequest req = HBASE__PB__GET_ACTIVE_MASTER_REQUEST__INIT;

    frame = call (master[0], port, HBASE_NATIVE_META_SERVICE, "GetActiveMaster", &req.base,
                  &hbase__pb__get_active_master_response__descriptor, &response, &block);
    save_reply ("active-master", KIND_ACTIVE_MASTER, frame, NULL, NULL, 0, NULL);
    protobuf_c_message_free_unpacked (response, NULL);
    g_clear_pointer (&frame, g_bytes_unref);
  }
  {
    Hbase__Pb__GetMetaRegionLocationsRequest req = HBASE__PB__GET_META_REGION_LOCATIONS_REQUEST__INIT;
    Hbase__Pb__GetMetaRegionLocationsResponse *locations;

    frame = call (master[0], port, HBASE_NATIVE_META_SERVICE, "GetMetaRegionLocations", &req.base,
                  &hbase__pb__get_meta_region_locations_response__descriptor, &response, &block);
    save_reply ("meta-locations", KIND_META_LOCATIONS, frame, NULL, NULL, 0, NULL);
    locations = (Hbase__Pb__GetMetaRegionLocationsResponse *) response;
    g_assert (locations != NULL && locations->n_meta_locations > 0);
    meta_loc = locations->meta_locations[0];
    meta_host = g_strdup (meta_loc->server_name->host_name);
    meta_port = meta_loc->server_name->port;
    protobuf_c_message_free_unpacked (response, NULL);
    g_clear_pointer (&frame, g_bytes_unref);
  }

  /* hbase:meta: the rows of TABLE */
  {
    Hbase__Pb__RegionSpecifier spec = HBASE__PB__REGION_SPECIFIER__INIT;
    Hbase__Pb__Scan scan = HBASE__PB__SCAN__INIT;
    Hbase__Pb__ScanRequest req = HBASE__PB__SCAN_REQUEST__INIT;
    /* as the library looks a row up: reversed, from "TABLE,ROW,:" */
    g_autofree char *start = g_strdup_printf ("%s,,:", table);
    Hbase__Pb__Column column = HBASE__PB__COLUMN__INIT;
    Hbase__Pb__Column *columns[1] = { &column };
    Hbase__Pb__ScanResponse *scanned;

    spec.type = HBASE__PB__REGION_SPECIFIER__REGION_SPECIFIER_TYPE__REGION_NAME;
    spec.value.data = (guint8 *) "hbase:meta,,1";
    spec.value.len = strlen ("hbase:meta,,1");
    column.family.data = (guint8 *) "info";
    column.family.len = 4;
    scan.n_column = 1;
    scan.column = columns;
    scan.has_start_row = TRUE;
    scan.start_row.data = (guint8 *) start;
    scan.start_row.len = strlen (start);
    scan.has_stop_row = TRUE;
    scan.stop_row.data = (guint8 *) table;
    scan.stop_row.len = strlen (table);
    scan.has_reversed = TRUE;
    scan.reversed = TRUE;
    scan.has_caching = TRUE;
    scan.caching = 5;
    req.has_client_handles_heartbeats = TRUE;
    req.client_handles_heartbeats = TRUE;
    req.region = &spec;
    req.scan = &scan;
    req.has_number_of_rows = TRUE;
    req.number_of_rows = 5;
    req.has_close_scanner = TRUE;
    req.close_scanner = TRUE;
    frame = call (meta_host, meta_port, HBASE_NATIVE_CLIENT_SERVICE, "Scan", &req.base,
                  &hbase__pb__scan_response__descriptor, &response, &block);
    scanned = (Hbase__Pb__ScanResponse *) response;
    g_assert (scanned != NULL);
    g_assert (block != NULL);
    save_reply ("meta-scan", KIND_SCAN, frame, block, scanned->cells_per_result,
                scanned->n_cells_per_result, table);
    g_assert (meta_region != NULL);
    region_name = g_bytes_new (meta_region, strlen (meta_region));
    protobuf_c_message_free_unpacked (response, NULL);
    g_clear_pointer (&frame, g_bytes_unref);
    g_clear_pointer (&block, g_bytes_unref);
  }

  /* the table's first region (on the same server in the local stack) */
  {
    Hbase__Pb__RegionSpecifier spec = HBASE__PB__REGION_SPECIFIER__INIT;
    Hbase__Pb__Scan scan = HBASE__PB__SCAN__INIT;
    Hbase__Pb__ScanRequest req = HBASE__PB__SCAN_REQUEST__INIT;
    Hbase__Pb__ScanResponse *scanned;
    Hbase__Pb__GetRequest get_req = HBASE__PB__GET_REQUEST__INIT;
    Hbase__Pb__Get get = HBASE__PB__GET__INIT;
    g_autoptr(GPtrArray) cells = NULL;
    GBytes *first_row;

    spec.type = HBASE__PB__REGION_SPECIFIER__REGION_SPECIFIER_TYPE__REGION_NAME;
    spec.value.data = (guint8 *) g_bytes_get_data (region_name, &spec.value.len);
    scan.has_caching = TRUE;
    scan.caching = 5;
    req.has_client_handles_heartbeats = TRUE;
    req.client_handles_heartbeats = TRUE;
    req.region = &spec;
    req.scan = &scan;
    req.has_number_of_rows = TRUE;
    req.number_of_rows = 6;
    req.has_close_scanner = TRUE;
    req.close_scanner = TRUE;
    frame = call (meta_host, meta_port, HBASE_NATIVE_CLIENT_SERVICE, "Scan", &req.base,
                  &hbase__pb__scan_response__descriptor, &response, &block);
    scanned = (Hbase__Pb__ScanResponse *) response;
    g_assert (scanned != NULL);
    save_reply ("table-scan", KIND_SCAN, frame, block, scanned->cells_per_result,
                scanned->n_cells_per_result, NULL);
    g_assert (block != NULL);
    cells = _hbase_native_decode_cellblock (block, NULL);
    first_row = ((HBaseNativeCell *) cells->pdata[0])->row;
    protobuf_c_message_free_unpacked (response, NULL);
    g_clear_pointer (&frame, g_bytes_unref);
    g_clear_pointer (&block, g_bytes_unref);

    get.row.data = (guint8 *) g_bytes_get_data (first_row, &get.row.len);
    get_req.region = &spec;
    get_req.get = &get;
    frame = call (meta_host, meta_port, HBASE_NATIVE_CLIENT_SERVICE, "Get", &get_req.base,
                  &hbase__pb__get_response__descriptor, &response, &block);
    {
      Hbase__Pb__GetResponse *got = (Hbase__Pb__GetResponse *) response;
      guint32 count = got != NULL && got->result != NULL ? got->result->associated_cell_count : 0;

      save_reply ("get", KIND_GET, frame, block, &count, 1, NULL);
    }
    protobuf_c_message_free_unpacked (response, NULL);
    g_clear_pointer (&frame, g_bytes_unref);
    g_clear_pointer (&block, g_bytes_unref);

    /* a Multi of two gets */
    {
      Hbase__Pb__Get gets[2] = { HBASE__PB__GET__INIT, HBASE__PB__GET__INIT };
      Hbase__Pb__Action actions[2] = { HBASE__PB__ACTION__INIT, HBASE__PB__ACTION__INIT };
      Hbase__Pb__Action *action_ptrs[2] = { &actions[0], &actions[1] };
      Hbase__Pb__RegionAction ra = HBASE__PB__REGION_ACTION__INIT;
      Hbase__Pb__RegionAction *ra_ptrs[1] = { &ra };
      Hbase__Pb__MultiRequest multi = HBASE__PB__MULTI_REQUEST__INIT;

      for (int i = 0; i < 2; i++)
        {
          gets[i].row = get.row;
          actions[i].has_index = TRUE;
          actions[i].index = i;
          actions[i].get = &gets[i];
        }
      gets[1].row.data = (guint8 *) "no such row";
      gets[1].row.len = 11;
      ra.region = &spec;
      ra.n_action = 2;
      ra.action = action_ptrs;
      multi.n_regionaction = 1;
      multi.regionaction = ra_ptrs;
      frame = call (meta_host, meta_port, HBASE_NATIVE_CLIENT_SERVICE, "Multi", &multi.base,
                    &hbase__pb__multi_response__descriptor, &response, &block);
      save_reply ("multi", KIND_MULTI, frame, block, NULL, 0, NULL);
      protobuf_c_message_free_unpacked (response, NULL);
      g_clear_pointer (&frame, g_bytes_unref);
      g_clear_pointer (&block, g_bytes_unref);
    }

    /* a region that does not exist: NotServingRegionException */
    spec.value.data = (guint8 *) "no,such,region";
    spec.value.len = strlen ("no,such,region");
    frame = call (meta_host, meta_port, HBASE_NATIVE_CLIENT_SERVICE, "Get", &get_req.base,
                  &hbase__pb__get_response__descriptor, &response, &block);
    save_reply ("not-serving", KIND_GET, frame, NULL, NULL, 0, NULL);
    g_clear_pointer (&frame, g_bytes_unref);
  }

  /* the master: namespaces */
  {
    Hbase__Pb__ListNamespacesRequest req = HBASE__PB__LIST_NAMESPACES_REQUEST__INIT;

    frame = call (master[0], port, "MasterService", "ListNamespaces", &req.base,
                  &hbase__pb__list_namespaces_response__descriptor, &response, &block);
    save_reply ("list-namespaces", KIND_LIST_NAMESPACES, frame, NULL, NULL, 0, NULL);
    protobuf_c_message_free_unpacked (response, NULL);
    g_clear_pointer (&frame, g_bytes_unref);
  }
  return 0;
}
