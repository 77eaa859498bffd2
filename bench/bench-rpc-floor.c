/* SPDX-License-Identifier: Apache-2.0 */
/* bench-rpc-floor.c: how much CPU a point get costs the client at the very
 * least, against the CPU hbase-glib spends on the same get.
 *
 *   bench/bench-rpc-floor [--host H] [--port P] [--table T] [--row R] [--calls N]
 *
 * The floor is a client that does nothing but the two system calls every
 * Thrift2 client makes per call on a warm connection: it sends the same
 * pre-encoded get request (binary protocol, buffered transport) with one
 * send() and reads the reply, whose length it learnt on a first call, with
 * blocking recv() calls.  No encoding, no decoding, no allocation: what is
 * left is the kernel's share (loopback TCP, waking the gateway, sleeping
 * until the reply) and the libc wrappers.  Then the same number of gets of
 * the same row through hbase_table_get().  For each it prints the process's
 * user and system CPU time per call (getrusage), the wall time per call,
 * and the system calls per call it made (counted here for the floor; for
 * the library, `strace -c -f` gives them: bench/README.md).
 *
 * The row must exist (any row: the peer benchmark's bench_peers r0000000000
 * by default).  It is a benchmark: built with the library, never run by
 * make check. */
#include "config.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <hbase-glib/hbase-glib.h>

static char *opt_host = NULL;
static int opt_port = 9090;
static char *opt_table = NULL;
static char *opt_row = NULL;
static int opt_calls = 20000;

static GOptionEntry entries[] = {
  { "host", 0, 0, G_OPTION_ARG_STRING, &opt_host, "Gateway address (default 127.0.0.1)", "ADDRESS" },
  { "port", 0, 0, G_OPTION_ARG_INT, &opt_port, "Binary/buffered Thrift2 gateway port (default 9090)", "PORT" },
  { "table", 0, 0, G_OPTION_ARG_STRING, &opt_table, "Table (default bench_peers)", "TABLE" },
  { "row", 0, 0, G_OPTION_ARG_STRING, &opt_row, "Row key of an existing row (default r0000000000)", "ROW" },
  { "calls", 0, 0, G_OPTION_ARG_INT, &opt_calls, "Gets per client (default 20000)", "N" },
  { NULL, 0, 0, 0, NULL, NULL, NULL }
};

typedef struct {
  double user_us, sys_us, wall_us;
} Cost;

static void
put_i32 (GByteArray *out, gint32 value)
{
  guint8 b[4] = { (guint8) ((guint32) value >> 24), (guint8) ((guint32) value >> 16),
                  (guint8) ((guint32) value >> 8), (guint8) value };

  g_byte_array_append (out, b, 4);
}

static void
put_binary (GByteArray *out, const char *data)
{
  put_i32 (out, (gint32) strlen (data));
  g_byte_array_append (out, (const guint8 *) data, (guint) strlen (data));
}

static void
put_field (GByteArray *out, guint8 type, gint16 id)
{
  guint8 b[3] = { type, (guint8) ((guint16) id >> 8), (guint8) id };

  g_byte_array_append (out, b, 3);
}

/* get(1: table, 2: TGet { 1: row }) as the binary protocol writes it */
static GByteArray *
encode_get (const char *table, const char *row)
{
  GByteArray *out = g_byte_array_new ();
  guint8 stop = 0;

  put_i32 (out, (gint32) (0x80010000u | 1u));   /* version 1, T_CALL */
  put_binary (out, "get");
  put_i32 (out, 0);                              /* seqid */
  put_field (out, 11, 1);                        /* T_STRING table */
  put_binary (out, table);
  put_field (out, 12, 2);                        /* T_STRUCT tget */
  put_field (out, 11, 1);                        /* T_STRING row */
  put_binary (out, row);
  g_byte_array_append (out, &stop, 1);           /* end of TGet */
  g_byte_array_append (out, &stop, 1);           /* end of get_args */
  return out;
}

static double
timeval_us (struct timeval tv)
{
  return (double) tv.tv_sec * 1e6 + (double) tv.tv_usec;
}

typedef struct {
  struct rusage usage;
  gint64 wall;
} Mark;

static void
mark (Mark *m)
{
  getrusage (RUSAGE_SELF, &m->usage);
  m->wall = g_get_monotonic_time ();
}

static Cost
cost_since (const Mark *start, guint calls)
{
  Mark end;
  Cost cost;

  mark (&end);
  cost.user_us = (timeval_us (end.usage.ru_utime) - timeval_us (start->usage.ru_utime)) / calls;
  cost.sys_us = (timeval_us (end.usage.ru_stime) - timeval_us (start->usage.ru_stime)) / calls;
  cost.wall_us = (double) (end.wall - start->wall) / calls;
  return cost;
}

static int
connect_gateway (const char *host, int port)
{
  struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = htons ((guint16) port) };
  int fd = socket (AF_INET, SOCK_STREAM, 0), one = 1;

  if (fd < 0 || inet_pton (AF_INET, host, &address.sin_addr) != 1 ||
      connect (fd, (struct sockaddr *) &address, sizeof address) != 0)
    {
      g_printerr ("bench-rpc-floor: cannot connect to %s:%d: %s\n", host, port, g_strerror (errno));
      if (fd >= 0)
        close (fd);
      return -1;
    }
  setsockopt (fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return fd;
}

/* One call; returns the reply's length, or -1.  @expected 0: the first
 * call, reading until the gateway has been silent for 200 ms after the
 * first bytes. */
static gssize
call_raw (int fd, const GByteArray *request, gsize expected, guint8 *buf, gsize cap,
          guint *syscalls)
{
  gsize got = 0;

  if (send (fd, request->data, request->len, MSG_NOSIGNAL) != (gssize) request->len)
    return -1;
  (*syscalls)++;
  while (expected == 0 || got < expected)
    {
      gssize n;

      /* the first call: the first bytes may take long (a cold gateway),
       * the rest of the reply follows within the silence limit */
      if (expected == 0 && got > 0)
        {
          struct timeval wait = { .tv_sec = 0, .tv_usec = 200000 };

          setsockopt (fd, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
        }
      n = recv (fd, buf + got, cap - got, 0);

      (*syscalls)++;
      if (n <= 0)
        {
          if (expected == 0 && n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && got > 0)
            break;
          return -1;
        }
      got += (gsize) n;
    }
  if (expected == 0)
    {
      struct timeval none = { 0 };

      setsockopt (fd, SOL_SOCKET, SO_RCVTIMEO, &none, sizeof none);
    }
  return (gssize) got;
}

static void
print_cost (const char *client, Cost cost, double syscalls_per_call)
{
  if (syscalls_per_call >= 0)
    printf ("%-22s %9.2f %9.2f %9.2f %9.2f %10.2f\n", client, cost.user_us, cost.sys_us,
            cost.user_us + cost.sys_us, cost.wall_us, syscalls_per_call);
  else
    printf ("%-22s %9.2f %9.2f %9.2f %9.2f %10s\n", client, cost.user_us, cost.sys_us,
            cost.user_us + cost.sys_us, cost.wall_us, "(strace)");
}

int
main (int argc, char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new ("- the CPU floor of a point get");
  g_autoptr(GError) error = NULL;
  g_autoptr(GByteArray) request = NULL;
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(GBytes) key = NULL;
  g_autofree char *gateway = NULL;
  const char *host, *table_name, *row;
  guint8 buf[65536];
  guint syscalls = 0;
  gssize length;
  Mark start;
  Cost cost;
  int fd;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("bench-rpc-floor: %s\n", error->message);
      return 2;
    }
  if (opt_calls < 1)
    {
      g_printerr ("bench-rpc-floor: --calls must be positive\n");
      return 2;
    }
  host = opt_host != NULL ? opt_host : "127.0.0.1";
  table_name = opt_table != NULL ? opt_table : "bench_peers";
  row = opt_row != NULL ? opt_row : "r0000000000";

  /* the floor: the same bytes, one send() and blocking recv()s */
  request = encode_get (table_name, row);
  if ((fd = connect_gateway (host, opt_port)) < 0)
    return 1;
  length = call_raw (fd, request, 0, buf, sizeof buf, &syscalls);
  if (length <= 0)
    {
      g_printerr ("bench-rpc-floor: no reply to the first get\n");
      return 1;
    }
  for (int i = 0; i < opt_calls / 10; i++)   /* warm-up */
    if (call_raw (fd, request, (gsize) length, buf, sizeof buf, &syscalls) != length)
      goto raw_failed;
  syscalls = 0;
  mark (&start);
  for (int i = 0; i < opt_calls; i++)
    if (call_raw (fd, request, (gsize) length, buf, sizeof buf, &syscalls) != length)
      goto raw_failed;
  cost = cost_since (&start, (guint) opt_calls);
  close (fd);

  printf ("# %d gets of %s/%s, reply %zd bytes, gateway %s:%d\n", opt_calls, table_name, row,
          length, host, opt_port);
  printf ("%-22s %9s %9s %9s %9s %10s\n", "client", "user_us", "sys_us", "cpu_us", "wall_us",
          "syscalls");
  print_cost ("floor (send+recv)", cost, (double) syscalls / opt_calls);

  /* the library, the same gets */
  gateway = g_strdup_printf ("%s:%d", host, opt_port);
  config = hbase_config_new ();
  key = g_bytes_new (row, strlen (row));
  if (!hbase_config_set_gateways (config, gateway, &error) ||
      (client = hbase_client_new (config)) == NULL ||
      (table = hbase_table_new (client, table_name, &error)) == NULL)
    goto failed;
  for (int i = 0; i < opt_calls / 10 + 1; i++)
    {
      g_autoptr(HBaseRow) got = hbase_table_get (table, key, NULL, NULL, &error);

      if (got == NULL)
        goto failed;
      if (hbase_row_is_empty (got))
        {
          g_printerr ("bench-rpc-floor: the row %s of %s does not exist\n", row, table_name);
          return 1;
        }
    }
  mark (&start);
  for (int i = 0; i < opt_calls; i++)
    {
      HBaseRow *got = hbase_table_get (table, key, NULL, NULL, &error);

      if (got == NULL)
        goto failed;
      hbase_row_unref (got);
    }
  print_cost ("hbase_table_get", cost_since (&start, (guint) opt_calls), -1);
  return 0;

raw_failed:
  g_printerr ("bench-rpc-floor: a raw get failed or its reply changed length\n");
  return 1;

failed:
  g_printerr ("bench-rpc-floor: %s\n", error->message);
  return 1;
}
