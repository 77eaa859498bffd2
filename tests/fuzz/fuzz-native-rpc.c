/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-native-rpc.c: the decoders of HBase's own RPC (src/native/): the
 * response frame (_hbase_native_decode_response), the KeyValueCodec
 * cellblock, its split into rows, the cells of results, the registry's
 * replies (ClientMetaService), the rows of hbase:meta and their RegionInfo,
 * and a whole call reading its reply from a socket.
 *
 * Input: byte 0 (modulo 4) is the mode, byte 1 the reply kind (modulo the
 * number of kinds: Get, Scan, Multi, Mutate, GetMetaRegionLocations,
 * GetActiveMaster, GetTableDescriptors, GetProcedureResult, ListNamespaces):
 *   0  a response frame (the bytes after its 4-byte length), for the call id
 *      in bytes 2-5, decoded as that kind, then what the library makes of it
 *      (cells, rows, hbase:meta's location, the master's address);
 *   1  a cellblock (after a count byte, modulo 16, and that many cell
 *      counts of one byte each), decoded, then split into rows;
 *   2  one row of hbase:meta: the table name and the row key looked for
 *      (two short strings), then a cellblock whose cells make the row;
 *   3  what a server sends on a connection (frames, each with its 4-byte
 *      length), read by a call of that kind (call id 1, then 2), with a
 *      reply limit of 64 bytes times bytes 2-3 (0: the default); the peer
 *      closes after the bytes.
 *
 * Checked: every call succeeds without an error or fails with one, every
 * byte of what it returns can be read, and a reply that decodes never
 * counts more cells than it holds. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../../src/native/hbase-native-cells.h"
#include "../../src/native/hbase-native-client.h"
#include "../../src/native/hbase-native-connection.h"
#include "../../src/native/hbase-native-pb.h"
#include "../../src/native/hbase-native-replies.h"
#include "fuzz-support.h"
#include "Client.pb-c.h"
#include "MasterAdmin.pb-c.h"
#include "Registry.pb-c.h"

enum { KIND_GET, KIND_SCAN, KIND_MULTI, KIND_MUTATE, KIND_META_LOCATIONS, KIND_ACTIVE_MASTER,
       KIND_TABLE_DESCRIPTORS, KIND_PROCEDURE_RESULT, KIND_LIST_NAMESPACES, N_KINDS };

static const ProtobufCMessageDescriptor *
kind_descriptor (guint kind)
{
  switch (kind)
    {
    case KIND_GET: return &hbase__pb__get_response__descriptor;
    case KIND_SCAN: return &hbase__pb__scan_response__descriptor;
    case KIND_MULTI: return &hbase__pb__multi_response__descriptor;
    case KIND_MUTATE: return &hbase__pb__mutate_response__descriptor;
    case KIND_META_LOCATIONS: return &hbase__pb__get_meta_region_locations_response__descriptor;
    case KIND_ACTIVE_MASTER: return &hbase__pb__get_active_master_response__descriptor;
    case KIND_TABLE_DESCRIPTORS: return &hbase__pb__get_table_descriptors_response__descriptor;
    case KIND_PROCEDURE_RESULT: return &hbase__pb__get_procedure_result_response__descriptor;
    default: return &hbase__pb__list_namespaces_response__descriptor;
    }
}

static const char *const kind_method[N_KINDS] = {
  "Get", "Scan", "Multi", "Mutate", "GetMetaRegionLocations", "GetActiveMaster",
  "GetTableDescriptors", "getProcedureResult", "ListNamespaces",
};

static void
touch_bytes (GBytes *bytes)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  volatile guint8 sum = 0;

  for (gsize i = 0; i < len; i++)
    sum += data[i];
  (void) sum;
}

static void
touch_cells (GPtrArray *cells)
{
  for (guint i = 0; i < cells->len; i++)
    {
      HBaseNativeCell *cell = cells->pdata[i];

      fuzz_assert (cell != NULL, "a NULL cell at %u", i);
      touch_bytes (cell->row);
      touch_bytes (cell->family);
      touch_bytes (cell->qualifier);
      touch_bytes (cell->value);
    }
}

static void
touch_rows (GPtrArray *rows)
{
  for (guint i = 0; i < rows->len; i++)
    {
      HBaseNativeRow *row = rows->pdata[i];

      fuzz_assert (row->cells->len > 0, "row %u has no cell", i);
      touch_bytes (row->key);
      touch_cells (row->cells);
      for (guint c = 0; c < row->cells->len; c++)
        fuzz_assert (g_bytes_equal (row->key, ((HBaseNativeCell *) row->cells->pdata[c])->row),
                     "row %u holds a cell of another row", i);
    }
}

static void
touch_region (HBaseNativeRegion *region)
{
  fuzz_assert (region->table != NULL, "a region without a table");
  touch_bytes (region->name);
  touch_bytes (region->start_key);
  touch_bytes (region->end_key);
  fuzz_assert (region->host != NULL, "a region without a host");
  (void) strlen (region->table);
  (void) strlen (region->host);
}

/* Cellblock cells, split into rows by @counts, as a scan takes them. */
static void
split_block (GBytes *block, const guint32 *counts, gsize n_counts)
{
  GError *error = NULL;
  GPtrArray *cells = block != NULL ? _hbase_native_decode_cellblock (block, &error)
                                   : g_ptr_array_new_with_free_func ((GDestroyNotify) _hbase_native_cell_free);
  GPtrArray *rows;
  gsize total = 0;

  fuzz_check_outcome ("decode_cellblock", cells != NULL, &error);
  if (cells == NULL)
    return;
  touch_cells (cells);
  for (gsize i = 0; i < n_counts; i++)
    total += counts[i];
  {
    guint n_cells = cells->len;

    rows = _hbase_native_split_rows (cells, counts, n_counts, &error);
    fuzz_check_outcome ("split_rows", rows != NULL, &error);
    fuzz_assert (rows == NULL || total == n_cells, "split %u cells counted as %" G_GSIZE_FORMAT,
                 n_cells, total);
  }
  if (rows != NULL)
    {
      touch_rows (rows);
      g_ptr_array_unref (rows);
    }
}

/* The first row key of @block's cells, or "row". */
static GBytes *
first_row (const Hbase__Pb__Result *result, GBytes *block)
{
  g_autoptr(GPtrArray) cells = NULL;

  if (result != NULL && result->n_cell > 0)
    return _hbase_native_pb_bytes (&result->cell[0]->row);
  if (block != NULL && (cells = _hbase_native_decode_cellblock (block, NULL)) != NULL &&
      cells->len > 0)
    return g_bytes_ref (((HBaseNativeCell *) cells->pdata[0])->row);
  return g_bytes_new_static ("row", 3);
}

/* A single-row reply's cells, as get and mutate take them. */
static void
reply_cells (const Hbase__Pb__Result *result, GBytes *block, const char *what)
{
  g_autoptr(GBytes) row = first_row (result, block);
  GError *error = NULL;
  GPtrArray *cells = _hbase_native_pb_reply_cells (result, block, row, what, &error);

  fuzz_check_outcome (what, cells != NULL, &error);
  if (cells != NULL)
    {
      touch_cells (cells);
      g_ptr_array_unref (cells);
    }
}

/* What the library makes of a decoded reply of @kind. */
static void
use_reply (guint kind, ProtobufCMessage *response, GBytes *block)
{
  GError *error = NULL;

  switch (kind)
    {
    case KIND_GET:
      reply_cells (((Hbase__Pb__GetResponse *) response)->result, block, "Get");
      break;
    case KIND_MUTATE:
      reply_cells (((Hbase__Pb__MutateResponse *) response)->result, block, "Mutate");
      break;
    case KIND_SCAN:
      {
        Hbase__Pb__ScanResponse *scanned = (Hbase__Pb__ScanResponse *) response;

        split_block (block, scanned->cells_per_result, scanned->n_cells_per_result);
        for (gsize i = 0; i < scanned->n_results; i++)
          {
            GPtrArray *cells = _hbase_native_pb_result_cells (scanned->results[i]);

            touch_cells (cells);
            g_ptr_array_unref (cells);
          }
      }
      break;
    case KIND_MULTI:
      {
        Hbase__Pb__MultiResponse *multi = (Hbase__Pb__MultiResponse *) response;
        GPtrArray *block_cells = block != NULL ? _hbase_native_decode_cellblock (block, &error) : NULL;
        guint next = 0;

        if (block != NULL)
          fuzz_check_outcome ("decode_cellblock", block_cells != NULL, &error);
        for (gsize i = 0; i < multi->n_regionactionresult; i++)
          {
            const Hbase__Pb__RegionActionResult *rar = multi->regionactionresult[i];

            for (gsize k = 0; k < rar->n_resultorexception; k++)
              {
                const Hbase__Pb__Result *result = rar->resultorexception[k]->result;
                GPtrArray *cells = _hbase_native_pb_result_cells (result);
                guint count = result != NULL && result->has_associated_cell_count
                              ? result->associated_cell_count : 0;

                touch_cells (cells);
                g_ptr_array_unref (cells);
                if (block_cells != NULL && count <= block_cells->len - next)
                  next += count;
              }
          }
        if (block_cells != NULL)
          g_ptr_array_unref (block_cells);
      }
      break;
    case KIND_META_LOCATIONS:
      {
        HBaseNativeRegion *meta = _hbase_native_meta_from_locations (
          (Hbase__Pb__GetMetaRegionLocationsResponse *) response, "fuzzer:1", &error);

        fuzz_check_outcome ("meta_from_locations", meta != NULL, &error);
        if (meta != NULL)
          {
            touch_region (meta);
            _hbase_native_region_free (meta);
          }
      }
      break;
    case KIND_ACTIVE_MASTER:
      {
        char *master = _hbase_native_master_from_reply (
          (Hbase__Pb__GetActiveMasterResponse *) response, "fuzzer:1", &error);

        fuzz_check_outcome ("master_from_reply", master != NULL, &error);
        if (master != NULL)
          (void) strlen (master);
        g_free (master);
      }
      break;
    default:
      break;
    }
}

static void
run_frame (guint kind, FuzzInput *in)
{
  guint32 call_id = fuzz_take_u32 (in);
  gsize len;
  const guint8 *data = fuzz_take_bytes (in, in->size, &len);
  g_autoptr(GBytes) frame = g_bytes_new (data, len);
  ProtobufCMessage *response = NULL;
  GBytes *block = NULL;
  GError *error = NULL;
  gboolean ok = _hbase_native_decode_response (frame, call_id, kind_descriptor (kind), &response,
                                               &block, &error);

  fuzz_check_outcome ("decode_response", ok, &error);
  fuzz_assert (ok == (response != NULL), "a response on failure, or none on success");
  if (!ok)
    {
      fuzz_assert (block == NULL, "a cellblock on failure");
      return;
    }
  if (block != NULL)
    touch_bytes (block);
  use_reply (kind, response, block);
  protobuf_c_message_free_unpacked (response, NULL);
  g_clear_pointer (&block, g_bytes_unref);
}

static void
run_cellblock (FuzzInput *in)
{
  guint32 counts[16];
  gsize n = fuzz_take_u8 (in) % 16, len;
  const guint8 *data;
  g_autoptr(GBytes) block = NULL;

  for (gsize i = 0; i < n; i++)
    counts[i] = fuzz_take_u8 (in);
  data = fuzz_take_bytes (in, in->size, &len);
  block = g_bytes_new (data, len);
  split_block (block, counts, n);
}

static void
run_meta_row (FuzzInput *in)
{
  /* the caller's table name, which is UTF-8 (the server's bytes are not) */
  g_autofree char *raw_table = fuzz_take_string (in, 32);
  g_autofree char *table = g_utf8_make_valid (raw_table, -1);
  g_autoptr(GBytes) key = fuzz_take_gbytes (in, 32);
  gsize len;
  const guint8 *data = fuzz_take_bytes (in, in->size, &len);
  g_autoptr(GBytes) block = g_bytes_new (data, len);
  GError *error = NULL;
  GPtrArray *cells = _hbase_native_decode_cellblock (block, &error);
  guint32 count;
  GPtrArray *rows;
  HBaseNativeRegion *region;

  fuzz_check_outcome ("decode_cellblock", cells != NULL, &error);
  if (cells == NULL)
    return;
  count = cells->len;
  rows = _hbase_native_split_rows (cells, &count, 1, &error);
  fuzz_check_outcome ("split_rows", rows != NULL, &error);
  if (rows == NULL || rows->len == 0)
    {
      g_clear_pointer (&rows, g_ptr_array_unref);
      return;
    }
  region = _hbase_native_region_from_meta_row (rows->pdata[0], table, key, &error);
  fuzz_check_outcome ("region_from_meta_row", region != NULL, &error);
  if (region != NULL)
    {
      touch_region (region);
      fuzz_assert (strcmp (region->table, table) == 0, "a region of table %s for %s",
                   region->table, table);
      _hbase_native_region_free (region);
    }
  g_ptr_array_unref (rows);
}

static void
run_connection (guint kind, FuzzInput *in)
{
  guint limit = (guint) fuzz_take_u8 (in) << 8;
  gsize len;
  const guint8 *data;
  int fds[2], buffer_size = 4 * FUZZ_SOCKET_MAX_INPUT;
  gsize sent = 0;
  HBaseNativeConnection *conn;
  Hbase__Pb__GetRequest request = HBASE__PB__GET_REQUEST__INIT;

  limit |= fuzz_take_u8 (in);
  data = fuzz_take_bytes (in, MIN (in->size, FUZZ_SOCKET_MAX_INPUT), &len);
  if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) < 0)
    {
      fprintf (stderr, "fuzz: socketpair: %s\n", g_strerror (errno));
      return;
    }
  setsockopt (fds[1], SOL_SOCKET, SO_SNDBUF, &buffer_size, sizeof buffer_size);
  while (sent < len)
    {
      ssize_t n = send (fds[1], data + sent, len - sent, MSG_NOSIGNAL);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      sent += (gsize) n;
    }
  /* the end of the bytes is the end of the stream; what the client writes
   * still has somewhere to go */
  shutdown (fds[1], SHUT_WR);
  conn = _hbase_native_connection_new_for_fd (fds[0], "ClientService");
  if (limit > 0)
    _hbase_native_connection_set_max_frame (conn, (gsize) limit * 64);
  for (int call = 0; call < 2; call++)
    {
      ProtobufCMessage *response = NULL;
      GBytes *block = NULL;
      GError *error = NULL;
      gboolean ok = _hbase_native_connection_call (conn, kind_method[kind], &request.base,
                                                   kind_descriptor (kind), &response, &block,
                                                   g_get_monotonic_time () + 5 * G_USEC_PER_SEC,
                                                   NULL, &error);

      fuzz_check_outcome ("connection_call", ok, &error);
      if (!ok)
        break;
      use_reply (kind, response, block);
      protobuf_c_message_free_unpacked (response, NULL);
      g_clear_pointer (&block, g_bytes_unref);
    }
  _hbase_native_connection_free (conn);
  close (fds[1]);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  FuzzInput in = { data, size };
  guint mode, kind;

  fuzz_init ();
  mode = fuzz_take_u8 (&in) % 4;
  kind = fuzz_take_u8 (&in) % N_KINDS;
  switch (mode)
    {
    case 0:
      run_frame (kind, &in);
      break;
    case 1:
      run_cellblock (&in);
      break;
    case 2:
      run_meta_row (&in);
      break;
    default:
      run_connection (kind, &in);
      break;
    }
  return 0;
}
