/* SPDX-License-Identifier: Apache-2.0 */
/* bench-transport.c: how long it takes to receive and decode one scan
 * response of 1k, 10k and 100k rows from a real Thrift2 gateway, over the
 * buffered and the framed transport, through hbase-glib's connection
 * ("ours": hbase_connection_open() + hbase_connection_get_service()) and
 * through Thrift c_glib's own socket and transports built by hand
 * ("cglib").  A benchmark, not a test: see bench/README.md.
 *
 * Each case opens a scanner (caching = rows) on the table bench_transport,
 * times ONE getScannerRows(scanner, rows) call -- the request, the
 * gateway's work, and the client receiving and decoding the one response --
 * then checks it returned exactly `rows` rows with the expected first and
 * last row keys and closes the scanner.  The wall-clock median of --repeat
 * runs is reported, with the client's own CPU time for the call (the
 * receive and decode; the gateway runs in another process).
 *
 * Long because: one program measures both transports through both clients
 * with one harness, so that their figures compare. */
#include "config.h"

#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <thrift/c_glib/protocol/thrift_binary_protocol.h>
#include <thrift/c_glib/transport/thrift_buffered_transport.h>
#include <thrift/c_glib/transport/thrift_framed_transport.h>
#include <thrift/c_glib/transport/thrift_socket.h>

#include <hbase-glib/hbase-glib-thrift.h>

#define TABLE "bench_transport"
#define FAMILY "f"
#define CELLS_PER_ROW 5
#define VALUE_BYTES 40
#define LOAD_BATCH 1000
#define PROBE_ROWS 1000
/* Thrift c_glib 0.17's DEFAULT_MAX_FRAME_SIZE: ThriftFramedTransport refuses
 * a frame over this many bytes. */
#define CGLIB_MAX_FRAME_SIZE 16384000

typedef HbaseThriftTHBaseServiceIf Service;

typedef enum { IMPL_OURS, IMPL_CGLIB } Impl;
static const char *const impl_names[] = { "ours", "cglib" };

/* --- options ------------------------------------------------------------ */

static char *opt_host = NULL;
static int opt_buffered_port = 9090;
static int opt_framed_port = 9092;
static char *opt_rows = NULL;
static int opt_repeat = 3;
static char *opt_impl = NULL;
static char *opt_transport = NULL;
static double opt_budget = 60.0;
static gboolean opt_load = FALSE;
static gboolean opt_markers = FALSE;

static GOptionEntry entries[] = {
  { "host", 0, 0, G_OPTION_ARG_STRING, &opt_host, "Gateway host (default 127.0.0.1)", "HOST" },
  { "buffered-port", 0, 0, G_OPTION_ARG_INT, &opt_buffered_port,
    "Port of the binary/buffered gateway (default 9090)", "PORT" },
  { "framed-port", 0, 0, G_OPTION_ARG_INT, &opt_framed_port,
    "Port of the binary/framed gateway (default 9092)", "PORT" },
  { "rows", 0, 0, G_OPTION_ARG_STRING, &opt_rows,
    "Response sizes in rows, comma-separated (default 1000,10000,100000)", "N,N,..." },
  { "repeat", 0, 0, G_OPTION_ARG_INT, &opt_repeat,
    "Runs per case; the median is reported (default 3)", "N" },
  { "impl", 0, 0, G_OPTION_ARG_STRING, &opt_impl,
    "ours, cglib or both (default both)", "IMPL" },
  { "transport", 0, 0, G_OPTION_ARG_STRING, &opt_transport,
    "buffered, framed or both (default both)", "TRANSPORT" },
  { "budget-seconds", 0, 0, G_OPTION_ARG_DOUBLE, &opt_budget,
    "Time budget of one case; a case predicted to need more is skipped; 0 = no limit (default 60)",
    "S" },
  { "load", 0, 0, G_OPTION_ARG_NONE, &opt_load,
    "Create table " TABLE " and load the largest row count if it is not loaded yet", NULL },
  { "strace-markers", 0, 0, G_OPTION_ARG_NONE, &opt_markers,
    "Write a marker line to stderr (one write(2) each) right before and after every timed call, "
    "for bench/run-transport.sh", NULL },
  { NULL, 0, 0, 0, NULL, NULL, NULL }
};

/* --- small helpers ------------------------------------------------------ */

static GByteArray *
bytes_new (const char *data, gsize len)
{
  GByteArray *array = g_byte_array_sized_new ((guint) len);

  return g_byte_array_append (array, (const guint8 *) data, (guint) len);
}

static GByteArray *
bytes_from_string (const char *text)
{
  return bytes_new (text, strlen (text));
}

static gboolean
bytes_equal (const GByteArray *array, const char *text)
{
  return array != NULL && array->len == strlen (text) &&
         memcmp (array->data, text, array->len) == 0;
}

static char *
row_key (guint i)
{
  return g_strdup_printf ("row%08u", i);
}

/* The VALUE_BYTES-byte value of cell @cell of row @row. */
static GByteArray *
cell_value (guint row, guint cell)
{
  char value[VALUE_BYTES + 1];
  int n = g_snprintf (value, sizeof value, "value:%08u:%u:", row, cell);

  memset (value + n, 'x', VALUE_BYTES - n);
  return bytes_new (value, VALUE_BYTES);
}

static gint64
cpu_time_us (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

/* A single write(2) on stderr, so that strace shows it as one line. */
static void
marker (const char *text)
{
  gsize len = strlen (text);

  if (write (STDERR_FILENO, text, len) != (gssize) len)
    {
      /* nothing to do: the marker is only for strace */
    }
}

/* Natural logarithm and exponential, enough for the budget's power-law
 * extrapolation without linking libm. */
static double
bench_ln (double x)
{
  const double ln2 = 0.69314718055994530942;
  double y, y2, term, sum = 0.0;
  int e = 0;

  if (x <= 0.0)
    return 0.0;
  while (x > 2.0) { x /= 2.0; e++; }
  while (x < 1.0) { x *= 2.0; e--; }
  y = (x - 1.0) / (x + 1.0);
  y2 = y * y;
  term = y;
  for (int k = 1; k < 60; k += 2)
    {
      sum += term / k;
      term *= y2;
    }
  return 2.0 * sum + e * ln2;
}

static double
bench_exp (double x)
{
  const double ln2 = 0.69314718055994530942;
  int n = (int) (x / ln2);
  double r = x - n * ln2, term = 1.0, sum = 1.0;

  for (int k = 1; k < 30; k++)
    {
      term *= r / k;
      sum += term;
    }
  for (; n > 0; n--) sum *= 2.0;
  for (; n < 0; n++) sum /= 2.0;
  return sum;
}

static int
compare_guint (gconstpointer a, gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return x < y ? -1 : x > y;
}

static int
compare_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static double
median (double *values, guint n)
{
  qsort (values, n, sizeof *values, compare_double);
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

/* Turns a failed generated call into one message. */
static void
set_call_error (GError **error, const char *what, GError *call_error,
                HbaseThriftTIOError *io, HbaseThriftTIllegalArgument *ia)
{
  GError *converted = NULL;

  if (call_error == NULL && io == NULL && ia == NULL)
    call_error = g_error_new_literal (HBASE_ERROR, HBASE_ERROR_PROTOCOL, "call failed");
  hbase_error_take_call_error (&converted, call_error, io, ia);
  g_set_error (error, converted->domain, converted->code, "%s: %s", what, converted->message);
  g_error_free (converted);
}

/* --- exact size of a response in the binary protocol -------------------- */

/* A write-only Thrift transport that drops what it is given: the binary
 * protocol's write functions return the bytes they produce, so writing the
 * decoded response to it gives the exact size it had on the wire. */
typedef struct { ThriftTransport parent; } BenchNullTransport;
typedef struct { ThriftTransportClass parent; } BenchNullTransportClass;

GType bench_null_transport_get_type (void);
G_DEFINE_TYPE (BenchNullTransport, bench_null_transport, THRIFT_TYPE_TRANSPORT)

static gboolean null_is_open (ThriftTransport *t) { return TRUE; }
static gboolean null_ok (ThriftTransport *t, GError **error) { return TRUE; }
static gboolean null_write (ThriftTransport *t, const gpointer buf, const guint32 len, GError **error)
{ return TRUE; }
static gint32
null_read (ThriftTransport *t, gpointer buf, guint32 len, GError **error)
{
  g_set_error_literal (error, THRIFT_TRANSPORT_ERROR, THRIFT_TRANSPORT_ERROR_RECEIVE,
                       "the null transport cannot be read");
  return -1;
}

static void
bench_null_transport_class_init (BenchNullTransportClass *cls)
{
  ThriftTransportClass *ttc = THRIFT_TRANSPORT_CLASS (cls);

  ttc->is_open = null_is_open;
  ttc->open = null_ok;
  ttc->close = null_ok;
  ttc->read = null_read;
  ttc->read_end = null_ok;
  ttc->write = null_write;
  ttc->write_end = null_ok;
  ttc->flush = null_ok;
}

static void
bench_null_transport_init (BenchNullTransport *t)
{
}

/* Bytes of the getScannerRows reply carrying @rows on the wire (binary
 * protocol, plus the 4-byte frame header when @framed), or -1. */
static gint64
response_bytes (GPtrArray *rows, gboolean framed)
{
  g_autoptr(GObject) transport = g_object_new (bench_null_transport_get_type (), NULL);
  g_autoptr(GObject) protocol = g_object_new (THRIFT_TYPE_BINARY_PROTOCOL, "transport", transport, NULL);
  ThriftProtocol *p = THRIFT_PROTOCOL (protocol);
  gint64 total = framed ? 4 : 0;
  gint32 n[11];

  n[0] = thrift_protocol_write_message_begin (p, "getScannerRows", T_REPLY, 0, NULL);
  n[1] = thrift_protocol_write_struct_begin (p, "getScannerRows_result", NULL);
  n[2] = thrift_protocol_write_field_begin (p, "success", T_LIST, 0, NULL);
  n[3] = thrift_protocol_write_list_begin (p, T_STRUCT, (gint32) rows->len, NULL);
  for (guint i = 0; i < rows->len; i++)
    {
      gint32 r = thrift_struct_write (THRIFT_STRUCT (rows->pdata[i]), p, NULL);

      if (r < 0)
        return -1;
      total += r;
    }
  n[4] = thrift_protocol_write_list_end (p, NULL);
  n[5] = thrift_protocol_write_field_end (p, NULL);
  n[6] = thrift_protocol_write_field_stop (p, NULL);
  n[7] = thrift_protocol_write_struct_end (p, NULL);
  n[8] = thrift_protocol_write_message_end (p, NULL);
  for (int i = 0; i <= 8; i++)
    {
      if (n[i] < 0)
        return -1;
      total += n[i];
    }
  return total;
}

/* --- the two ways to talk to the gateway -------------------------------- */

typedef struct {
  Impl impl;
  HBaseTransport transport;
  HBaseConnection *connection;      /* ours */
  ThriftTransport *socket;          /* cglib: socket, transport, protocol, client */
  ThriftTransport *ttransport;
  ThriftProtocol *protocol;
  HbaseThriftTHBaseServiceClient *client;
  Service *service;
} Endpoint;

static guint
port_of (HBaseTransport transport)
{
  return (guint) (transport == HBASE_TRANSPORT_FRAMED ? opt_framed_port : opt_buffered_port);
}

static void
endpoint_free (Endpoint *e)
{
  if (e == NULL)
    return;
  g_clear_object (&e->connection);
  if (e->ttransport != NULL && thrift_transport_is_open (e->ttransport))
    thrift_transport_close (e->ttransport, NULL);
  g_clear_object (&e->client);
  g_clear_object (&e->protocol);
  g_clear_object (&e->ttransport);
  g_clear_object (&e->socket);
  g_free (e);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Endpoint, endpoint_free)

static Endpoint *
endpoint_open (Impl impl, HBaseTransport transport, GError **error)
{
  g_autoptr(Endpoint) e = g_new0 (Endpoint, 1);
  guint port = port_of (transport);

  e->impl = impl;
  e->transport = transport;
  if (impl == IMPL_OURS)
    {
      e->connection = hbase_connection_open (opt_host, port, HBASE_PROTOCOL_BINARY, transport, error);
      if (e->connection == NULL)
        return NULL;
      e->service = hbase_connection_get_service (e->connection);
      return g_steal_pointer (&e);
    }

  /* Thrift c_glib's own stack, as the first hbase-connection.c built it. */
  e->socket = g_object_new (THRIFT_TYPE_SOCKET, "hostname", opt_host, "port", port, NULL);
  e->ttransport = g_object_new (transport == HBASE_TRANSPORT_FRAMED ? THRIFT_TYPE_FRAMED_TRANSPORT
                                                                    : THRIFT_TYPE_BUFFERED_TRANSPORT,
                                "transport", e->socket, NULL);
  e->protocol = g_object_new (THRIFT_TYPE_BINARY_PROTOCOL, "transport", e->ttransport, NULL);
  e->client = g_object_new (HBASE_THRIFT_TYPE_T_H_BASE_SERVICE_CLIENT,
                            "input_protocol", e->protocol, "output_protocol", e->protocol, NULL);
  if (!thrift_transport_open (e->ttransport, error))
    {
      g_prefix_error (error, "cannot connect to %s:%u: ", opt_host, port);
      return NULL;
    }
  e->service = HBASE_THRIFT_T_H_BASE_SERVICE_IF (e->client);
  return g_steal_pointer (&e);
}

/* --- the table ---------------------------------------------------------- */

static HbaseThriftTTableName *
table_name (void)
{
  g_autoptr(GByteArray) qualifier = bytes_from_string (TABLE);

  return g_object_new (HBASE_THRIFT_TYPE_T_TABLE_NAME, "qualifier", qualifier, NULL);
}

static gboolean
table_exists (Service *service, gboolean *exists, GError **error)
{
  g_autoptr(HbaseThriftTTableName) tname = table_name ();
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;

  if (!hbase_thrift_t_h_base_service_if_table_exists (service, exists, tname, &io, &call_error))
    {
      set_call_error (error, "tableExists", call_error, io, NULL);
      return FALSE;
    }
  return TRUE;
}

/* Whether row @rows - 1 exists with all its cells (rows are loaded in
 * order, so then every row before it does too). */
static gboolean
table_loaded (Service *service, guint rows, gboolean *loaded, GError **error)
{
  g_autofree char *key = row_key (rows - 1);
  g_autoptr(GByteArray) row = bytes_from_string (key);
  g_autoptr(GByteArray) table = bytes_from_string (TABLE);
  g_autoptr(HbaseThriftTGet) get = g_object_new (HBASE_THRIFT_TYPE_T_GET, "row", row, NULL);
  g_autoptr(HbaseThriftTResult) result = g_object_new (HBASE_THRIFT_TYPE_T_RESULT, NULL);
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;
  gboolean exists = FALSE;

  if (!table_exists (service, &exists, error))
    return FALSE;
  if (!exists)
    {
      *loaded = FALSE;
      return TRUE;
    }
  if (!hbase_thrift_t_h_base_service_if_get (service, &result, table, get, &io, &call_error))
    {
      set_call_error (error, "get", call_error, io, NULL);
      return FALSE;
    }
  *loaded = result->columnValues->len == CELLS_PER_ROW;
  return TRUE;
}

static gboolean
load_table (Service *service, guint rows, GError **error)
{
  g_autoptr(GByteArray) table = bytes_from_string (TABLE);
  g_autoptr(GByteArray) family = bytes_from_string (FAMILY);
  gboolean exists = FALSE;
  gint64 start = g_get_monotonic_time ();

  if (!table_exists (service, &exists, error))
    return FALSE;
  if (!exists)
    {
      g_autoptr(HbaseThriftTTableName) tname = table_name ();
      g_autoptr(HbaseThriftTColumnFamilyDescriptor) cf =
        g_object_new (HBASE_THRIFT_TYPE_T_COLUMN_FAMILY_DESCRIPTOR, "name", family, NULL);
      g_autoptr(HbaseThriftTTableDescriptor) desc =
        g_object_new (HBASE_THRIFT_TYPE_T_TABLE_DESCRIPTOR, "tableName", tname, NULL);
      g_autoptr(GPtrArray) splits = g_ptr_array_new ();
      g_autoptr(HbaseThriftTIOError) io = NULL;
      GError *call_error = NULL;

      g_ptr_array_add (desc->columns, g_object_ref (cf));
      desc->__isset_columns = TRUE;
      if (!hbase_thrift_t_h_base_service_if_create_table (service, desc, splits, &io, &call_error))
        {
          set_call_error (error, "createTable " TABLE, call_error, io, NULL);
          return FALSE;
        }
      g_print ("created table %s (family %s)\n", TABLE, FAMILY);
    }

  for (guint first = 0; first < rows; first += LOAD_BATCH)
    {
      g_autoptr(GPtrArray) puts = g_ptr_array_new_with_free_func (g_object_unref);
      g_autoptr(HbaseThriftTIOError) io = NULL;
      GError *call_error = NULL;

      for (guint i = first; i < rows && i < first + LOAD_BATCH; i++)
        {
          g_autofree char *key = row_key (i);
          g_autoptr(GByteArray) row = bytes_from_string (key);
          HbaseThriftTPut *put = g_object_new (HBASE_THRIFT_TYPE_T_PUT, "row", row, NULL);

          for (guint c = 0; c < CELLS_PER_ROW; c++)
            {
              g_autofree char *q = g_strdup_printf ("c%u", c);
              g_autoptr(GByteArray) qualifier = bytes_from_string (q);
              g_autoptr(GByteArray) value = cell_value (i, c);

              g_ptr_array_add (put->columnValues,
                               g_object_new (HBASE_THRIFT_TYPE_T_COLUMN_VALUE, "family", family,
                                             "qualifier", qualifier, "value", value, NULL));
            }
          g_ptr_array_add (puts, put);
        }
      if (!hbase_thrift_t_h_base_service_if_put_multiple (service, table, puts, &io, &call_error))
        {
          set_call_error (error, "putMultiple", call_error, io, NULL);
          return FALSE;
        }
    }
  g_print ("loaded %u rows (%u cells of %u-byte values each) into %s in %.1f s\n", rows,
           CELLS_PER_ROW, VALUE_BYTES, TABLE, (g_get_monotonic_time () - start) / 1e6);
  return TRUE;
}

/* --- one measurement ---------------------------------------------------- */

typedef struct {
  double wall_ms;
  double cpu_ms;
  gint64 bytes;
} Sample;

static gboolean
close_scanner (Service *service, gint32 scanner, GError **error)
{
  g_autoptr(HbaseThriftTIOError) io = NULL;
  g_autoptr(HbaseThriftTIllegalArgument) ia = NULL;
  GError *call_error = NULL;

  if (!hbase_thrift_t_h_base_service_if_close_scanner (service, scanner, &io, &ia, &call_error))
    {
      set_call_error (error, "closeScanner", call_error, io, ia);
      return FALSE;
    }
  return TRUE;
}

/* Checks the response: @size rows, keys row00000000 .. row(size-1) at the
 * ends, every row with all its cells. */
static gboolean
verify (GPtrArray *rows, guint size, GError **error)
{
  g_autofree char *first = row_key (0);
  g_autofree char *last = row_key (size - 1);

  if (rows->len != size)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                   "expected %u rows, the response had %u (is the table loaded? use --load)",
                   size, rows->len);
      return FALSE;
    }
  if (!bytes_equal (((HbaseThriftTResult *) rows->pdata[0])->row, first) ||
      !bytes_equal (((HbaseThriftTResult *) rows->pdata[size - 1])->row, last))
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                   "the response does not run from %s to %s", first, last);
      return FALSE;
    }
  for (guint i = 0; i < rows->len; i++)
    if (((HbaseThriftTResult *) rows->pdata[i])->columnValues->len != CELLS_PER_ROW)
      {
        g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                     "row %u of the response has %u cells, expected %u", i,
                     ((HbaseThriftTResult *) rows->pdata[i])->columnValues->len, CELLS_PER_ROW);
        return FALSE;
      }
  return TRUE;
}

static gboolean
measure_once (Endpoint *e, guint size, gboolean mark, Sample *sample, GError **error)
{
  g_autoptr(GByteArray) table = bytes_from_string (TABLE);
  g_autoptr(GByteArray) start_row = bytes_from_string ("row00000000");
  g_autoptr(HbaseThriftTScan) scan =
    g_object_new (HBASE_THRIFT_TYPE_T_SCAN, "startRow", start_row, "caching", (gint32) size, NULL);
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(HbaseThriftTIOError) io = NULL;
  g_autoptr(HbaseThriftTIllegalArgument) ia = NULL;
  GError *call_error = NULL;
  gint32 scanner = -1;
  gint64 t0, t1, c0, c1;
  gboolean ok;

  scan->__isset_startRow = TRUE;
  scan->__isset_caching = TRUE;
  if (!hbase_thrift_t_h_base_service_if_open_scanner (e->service, &scanner, table, scan, &io,
                                                      &call_error))
    {
      set_call_error (error, "openScanner", call_error, io, NULL);
      return FALSE;
    }

  if (mark)
    marker ("bench-transport: response begin\n");
  t0 = g_get_monotonic_time ();
  c0 = cpu_time_us ();
  ok = hbase_thrift_t_h_base_service_if_get_scanner_rows (e->service, &rows, scanner,
                                                          (gint32) size, &io, &ia, &call_error);
  c1 = cpu_time_us ();
  t1 = g_get_monotonic_time ();
  if (mark)
    marker ("bench-transport: response end\n");

  if (!ok)
    {
      set_call_error (error, "getScannerRows", call_error, io, ia);
      return FALSE;
    }
  if (!verify (rows, size, error))
    {
      close_scanner (e->service, scanner, NULL);
      return FALSE;
    }
  sample->wall_ms = (t1 - t0) / 1000.0;
  sample->cpu_ms = (c1 - c0) / 1000.0;
  sample->bytes = response_bytes (rows, e->transport == HBASE_TRANSPORT_FRAMED);
  return close_scanner (e->service, scanner, error);
}

/* --- cases, budget and report ------------------------------------------- */

typedef enum { CASE_DONE, CASE_SKIPPED, CASE_FAILED } CaseState;

typedef struct {
  Impl impl;
  HBaseTransport transport;
  guint rows;
  CaseState state;
  char *note;
  guint runs;
  double wall_ms;
  double cpu_ms;
  gint64 bytes;
} Case;

static void
case_clear (gpointer data)
{
  g_free (((Case *) data)->note);
}

/* Measured points (of this impl and transport, probes included) that the
 * budget extrapolates from. */
typedef struct {
  Impl impl;
  HBaseTransport transport;
  guint rows;
  double seconds;
  gint64 bytes;
} Point;

/* Predicts the wall time of one run of @rows rows from the largest two
 * smaller measured points, as t ~ rows^k: k fitted from the two points and
 * kept within [1, 3], or k = 2 (c_glib framed's quadratic copy) from one
 * point.  FALSE if there is no smaller point. */
static gboolean
predict_seconds (GArray *points, Impl impl, HBaseTransport transport, guint rows, double *seconds)
{
  const Point *p2 = NULL, *p1 = NULL;
  double k = 2.0;

  /* p2: the largest measured size below @rows; p1: the largest below p2 */
  for (guint i = 0; i < points->len; i++)
    {
      const Point *p = &g_array_index (points, Point, i);

      if (p->impl == impl && p->transport == transport && p->rows < rows &&
          (p2 == NULL || p->rows > p2->rows))
        p2 = p;
    }
  for (guint i = 0; p2 != NULL && i < points->len; i++)
    {
      const Point *p = &g_array_index (points, Point, i);

      if (p->impl == impl && p->transport == transport && p->rows < p2->rows &&
          (p1 == NULL || p->rows > p1->rows))
        p1 = p;
    }
  if (p2 == NULL)
    return FALSE;
  if (p1 != NULL && p1->seconds > 0 && p2->seconds > 0)
    k = CLAMP (bench_ln (p2->seconds / p1->seconds) / bench_ln ((double) p2->rows / p1->rows), 1.0, 3.0);
  *seconds = p2->seconds * bench_exp (k * bench_ln ((double) rows / p2->rows));
  return TRUE;
}

/* The largest measured size below @rows, or 0. */
static guint
largest_below (GArray *points, Impl impl, HBaseTransport transport, guint rows)
{
  guint best = 0;

  for (guint i = 0; i < points->len; i++)
    {
      const Point *p = &g_array_index (points, Point, i);

      if (p->impl == impl && p->transport == transport && p->rows < rows && p->rows > best)
        best = p->rows;
    }
  return best;
}

/* Wire bytes per row, from the largest measured response of any case. */
static double
bytes_per_row (GArray *points)
{
  const Point *best = NULL;

  for (guint i = 0; i < points->len; i++)
    {
      const Point *p = &g_array_index (points, Point, i);

      if (p->bytes > 0 && (best == NULL || p->rows > best->rows))
        best = p;
    }
  return best != NULL ? (double) best->bytes / best->rows : 0.0;
}

static void
print_case (const Case *c, const char *prefix)
{
  g_print ("%s%-5s  %-8s  %7u rows  ", prefix, impl_names[c->impl],
           hbase_transport_to_string (c->transport), c->rows);
  switch (c->state)
    {
    case CASE_DONE:
      g_print ("%10" G_GINT64_FORMAT " B  %10.1f ms  %8.2f us/row  %7.2f MB/s  client CPU %9.1f ms  (median of %u)\n",
               c->bytes, c->wall_ms, c->wall_ms * 1000.0 / c->rows,
               c->bytes / (c->wall_ms * 1000.0), c->cpu_ms, c->runs);
      break;
    case CASE_SKIPPED:
      g_print ("skipped (%s)\n", c->note);
      break;
    case CASE_FAILED:
      g_print ("FAILED: %s\n", c->note);
      break;
    }
  fflush (stdout);
}

/* Runs one case: up to --repeat runs on one connection, within the budget. */
static void
run_case (Case *c, GArray *points, gboolean probe)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(Endpoint) e = NULL;
  g_autofree double *walls = g_new0 (double, opt_repeat);
  g_autofree double *cpus = g_new0 (double, opt_repeat);
  guint repeat = probe ? 1 : (guint) opt_repeat;
  double spent = 0.0;

  e = endpoint_open (c->impl, c->transport, &error);
  if (e == NULL)
    {
      c->state = CASE_FAILED;
      c->note = g_strdup (error->message);
      return;
    }
  for (c->runs = 0; c->runs < repeat; c->runs++)
    {
      Sample s;

      if (!measure_once (e, c->rows, opt_markers && !probe, &s, &error))
        {
          c->state = CASE_FAILED;
          c->note = g_strdup (error->message);
          return;
        }
      walls[c->runs] = s.wall_ms;
      cpus[c->runs] = s.cpu_ms;
      c->bytes = s.bytes;
      spent += s.wall_ms / 1000.0;
      /* another run only if it should still fit in the budget */
      if (opt_budget > 0 && spent + s.wall_ms / 1000.0 > opt_budget)
        {
          c->runs++;
          break;
        }
    }
  c->state = CASE_DONE;
  c->wall_ms = median (walls, c->runs);
  c->cpu_ms = median (cpus, c->runs);
  {
    Point point = { c->impl, c->transport, c->rows, c->wall_ms / 1000.0, c->bytes };

    g_array_append_val (points, point);
  }
}

/* Whether the budget or c_glib's frame limit rules the case out; sets the
 * reason. */
static gboolean
should_skip (Case *c, GArray *points)
{
  double per_row = bytes_per_row (points);
  double seconds;

  if (c->impl == IMPL_CGLIB && c->transport == HBASE_TRANSPORT_FRAMED && per_row > 0 &&
      per_row * c->rows > CGLIB_MAX_FRAME_SIZE)
    {
      c->note = g_strdup_printf ("response of ~%.0f bytes is over c_glib's %d-byte frame limit",
                                 per_row * c->rows, CGLIB_MAX_FRAME_SIZE);
      return TRUE;
    }
  if (opt_budget > 0 && predict_seconds (points, c->impl, c->transport, c->rows, &seconds) &&
      seconds > opt_budget)
    {
      c->note = g_strdup_printf ("over budget: one run predicted at ~%.0f s, budget %.0f s",
                                 seconds, opt_budget);
      return TRUE;
    }
  return FALSE;
}

static void
print_table (GArray *cases)
{
  g_print ("\n| impl  | transport | rows    | response bytes | median ms  | us/row   | MB/s    | client CPU ms | runs |\n"
           "|-------|-----------|---------|----------------|------------|----------|---------|---------------|------|\n");
  for (guint i = 0; i < cases->len; i++)
    {
      const Case *c = &g_array_index (cases, Case, i);

      g_print ("| %-5s | %-9s | %7u | ", impl_names[c->impl],
               hbase_transport_to_string (c->transport), c->rows);
      if (c->state == CASE_DONE)
        g_print ("%14" G_GINT64_FORMAT " | %10.1f | %8.2f | %7.2f | %13.1f | %4u |\n", c->bytes,
                 c->wall_ms, c->wall_ms * 1000.0 / c->rows, c->bytes / (c->wall_ms * 1000.0),
                 c->cpu_ms, c->runs);
      else
        g_print ("%s: %s |\n", c->state == CASE_SKIPPED ? "skipped" : "FAILED", c->note);
    }

  /* scaling: time ratio against row ratio between consecutive measured
   * sizes; an exponent near 1 is linear in the payload */
  g_print ("\nscaling (time ~ rows^k between consecutive sizes; k = 1 is linear):\n");
  for (guint i = 0; i < cases->len; i++)
    {
      const Case *c = &g_array_index (cases, Case, i);
      const Case *prev = NULL;

      if (c->state != CASE_DONE)
        continue;
      for (guint j = 0; j < i; j++)
        {
          const Case *p = &g_array_index (cases, Case, j);

          if (p->impl == c->impl && p->transport == c->transport && p->state == CASE_DONE)
            prev = p;
        }
      if (prev == NULL)
        continue;
      g_print ("  %-5s %-8s %6u -> %6u rows: wall x%.2f (k = %.2f), client CPU x%.2f (k = %.2f)\n",
               impl_names[c->impl], hbase_transport_to_string (c->transport), prev->rows, c->rows,
               c->wall_ms / prev->wall_ms,
               bench_ln (c->wall_ms / prev->wall_ms) / bench_ln ((double) c->rows / prev->rows),
               prev->cpu_ms > 0 ? c->cpu_ms / prev->cpu_ms : 0.0,
               prev->cpu_ms > 0 && c->cpu_ms > 0
                 ? bench_ln (c->cpu_ms / prev->cpu_ms) / bench_ln ((double) c->rows / prev->rows)
                 : 0.0);
    }
}

/* --- main --------------------------------------------------------------- */

static gboolean
parse_rows (const char *text, GArray *sizes, GError **error)
{
  g_auto(GStrv) parts = g_strsplit (text, ",", -1);

  for (guint i = 0; parts[i] != NULL; i++)
    {
      guint64 n;

      if (!g_ascii_string_to_unsigned (g_strstrip (parts[i]), 10, 1, 10000000, &n, error))
        {
          g_prefix_error (error, "--rows: ");
          return FALSE;
        }
      guint rows = (guint) n;

      if (sizes->len == 0 || g_array_index (sizes, guint, sizes->len - 1) != rows)
        g_array_append_val (sizes, rows);
    }
  g_array_sort (sizes, compare_guint);
  return TRUE;
}

int
main (int argc, char **argv)
{
  g_autoptr(GOptionContext) context =
    g_option_context_new ("- time the decode of one scan response, hbase-glib vs Thrift c_glib");
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) sizes = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) cases = g_array_new (FALSE, TRUE, sizeof (Case));
  g_autoptr(GArray) points = g_array_new (FALSE, FALSE, sizeof (Point));
  gboolean impls[2], transports[2];
  guint max_rows;

  g_array_set_clear_func (cases, case_clear);
  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_description (context,
    "Runs against a real Thrift2 gateway pair speaking binary/buffered and binary/framed\n"
    "(the local stack: scripts/stack.sh start). See bench/README.md.");
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("bench-transport: %s\n", error->message);
      return 2;
    }
  if (opt_host == NULL)
    opt_host = g_strdup ("127.0.0.1");
  if (!parse_rows (opt_rows != NULL ? opt_rows : "1000,10000,100000", sizes, &error))
    {
      g_printerr ("bench-transport: %s\n", error->message);
      return 2;
    }
  if (opt_repeat < 1 || opt_buffered_port < 1 || opt_buffered_port > 65535 ||
      opt_framed_port < 1 || opt_framed_port > 65535)
    {
      g_printerr ("bench-transport: --repeat must be at least 1 and ports within 1-65535\n");
      return 2;
    }
  impls[IMPL_OURS] = opt_impl == NULL || g_str_equal (opt_impl, "both") || g_str_equal (opt_impl, "ours");
  impls[IMPL_CGLIB] = opt_impl == NULL || g_str_equal (opt_impl, "both") || g_str_equal (opt_impl, "cglib");
  transports[HBASE_TRANSPORT_BUFFERED] = opt_transport == NULL || g_str_equal (opt_transport, "both") ||
                                         g_str_equal (opt_transport, "buffered");
  transports[HBASE_TRANSPORT_FRAMED] = opt_transport == NULL || g_str_equal (opt_transport, "both") ||
                                       g_str_equal (opt_transport, "framed");
  if (!impls[0] && !impls[1])
    {
      g_printerr ("bench-transport: --impl must be ours, cglib or both\n");
      return 2;
    }
  if (!transports[0] && !transports[1])
    {
      g_printerr ("bench-transport: --transport must be buffered, framed or both\n");
      return 2;
    }
  max_rows = g_array_index (sizes, guint, sizes->len - 1);

  /* The gateway closes the connection rather than write to a closed one
   * quietly; a broken connection must be an error, not a signal. */
  signal (SIGPIPE, SIG_IGN);

  /* Reachability, and the table, through the public API on every gateway
   * that will be used. */
  for (int t = HBASE_TRANSPORT_BUFFERED; t <= HBASE_TRANSPORT_FRAMED; t++)
    {
      g_autoptr(HBaseConnection) connection = NULL;
      gboolean loaded = FALSE;

      if (!transports[t])
        continue;
      connection = hbase_connection_open (opt_host, port_of (t), HBASE_PROTOCOL_BINARY, t, &error);
      if (connection == NULL ||
          !table_loaded (hbase_connection_get_service (connection), max_rows, &loaded, &error))
        {
          g_printerr ("bench-transport: the binary/%s Thrift2 gateway at %s:%u does not answer: %s\n"
                      "bench-transport: is the local stack running? (scripts/stack.sh status; "
                      "scripts/stack.sh start)\n",
                      hbase_transport_to_string (t), opt_host, port_of (t), error->message);
          return 2;
        }
      if (!loaded && opt_load)
        {
          if (!load_table (hbase_connection_get_service (connection), max_rows, &error))
            {
              g_printerr ("bench-transport: loading %s failed: %s\n", TABLE, error->message);
              return 2;
            }
          loaded = TRUE;
        }
      if (!loaded)
        {
          g_printerr ("bench-transport: table %s does not hold %u rows yet; run once with --load\n",
                      TABLE, max_rows);
          return 2;
        }
    }

  g_print ("bench-transport: one getScannerRows response per run from %s on %s (buffered :%d, "
           "framed :%d), %d run(s) per case, budget ",
           TABLE, opt_host, opt_buffered_port, opt_framed_port, opt_repeat);
  if (opt_budget > 0)
    g_print ("%.0f s per case\n", opt_budget);
  else
    g_print ("none\n");

  for (int impl = IMPL_OURS; impl <= IMPL_CGLIB; impl++)
    for (int t = HBASE_TRANSPORT_BUFFERED; t <= HBASE_TRANSPORT_FRAMED; t++)
      {
        if (!impls[impl] || !transports[t])
          continue;
        for (guint i = 0; i < sizes->len; i++)
          {
            Case c = { .impl = impl, .transport = t, .rows = g_array_index (sizes, guint, i) };
            /* Probes (one run each, not reported as cases) at 1000 and
             * 2000 rows, then 20000, 200000, ... until two measured sizes
             * lie below this one, the larger within a factor of 10: the
             * budget then extrapolates over at most one decade with an
             * exponent fitted on this implementation and transport. */
            while (opt_budget > 0)
              {
                guint below = largest_below (points, impl, t, c.rows);
                gboolean two = below != 0 && largest_below (points, impl, t, below) != 0;
                Case probe = { .impl = impl, .transport = t };

                if (below == 0)
                  probe.rows = PROBE_ROWS;
                else if (!two)
                  probe.rows = 2 * below;
                else if (c.rows > 10 * below)
                  probe.rows = 10 * below;
                else
                  break;
                if (probe.rows >= c.rows)
                  break;
                if (should_skip (&probe, points))
                  {
                    g_free (probe.note);
                    break;
                  }
                run_case (&probe, points, TRUE);
                print_case (&probe, "probe: ");
                g_free (probe.note);
                if (probe.state != CASE_DONE)
                  break;
              }
            if (should_skip (&c, points))
              c.state = CASE_SKIPPED;
            else
              run_case (&c, points, FALSE);
            print_case (&c, "");
            g_array_append_val (cases, c);
          }
      }

  print_table (cases);
  for (guint i = 0; i < cases->len; i++)
    if (g_array_index (cases, Case, i).state == CASE_FAILED)
      return 1;
  return 0;
}
