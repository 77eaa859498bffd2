# SPDX-License-Identifier: Apache-2.0
"""The peer benchmark's happybase client (bench/run-peers.sh, bench/README.md).

happybase 1.3.0 (thriftpy2, its Cython binary protocol and buffered
transport) against a Thrift1 gateway of the same HBase
(scripts/stack.sh start-thrift1 PORT), binary protocol, buffered transport.
One happybase.Connection per thread.  The same workloads, rows, options and
RESULT lines as bench/bench-table.c and bench/java/BenchHarness.java:

  put1, putN        point puts (Table.put) of rows 0 .. ops-1, N threads split the range
  batch100/1000     Table.batch(batch_size=100/1000): rows 0 .. batch-rows-1
  get1, getN        point gets of random rows of the read table (get_row())
  scan              Table.scan(batch_size=caching) of the whole read table

Rows: key "r%010d", one cell f:q, a 100-byte value of its own (value()).
Every reply is checked (check()): a get's row key and value, every scanned
row's key (the n-th row must be row n) and value, and after each put
workload, untimed, a read-back of three of its rows, whose cells must be
newer than the workload's start.  A wrong answer ends the run (status 1).
"""
import argparse
import random
import sys
import threading
import time

import happybase
from happybase.table import make_row

CLIENT = "happybase"
COLUMN = b"f:q"
VALUE_BYTES = 100


class WrongAnswer(Exception):
    pass


def key(i):
    return b"r%010d" % i


def value(i):
    """The value of row i: "v%010d" of i repeated over 100 bytes, so that every
    row's value is its own (prepare_rows() in bench-table.c and
    BenchHarness.value() are the same)."""
    return (b"v%010d" % i * 10)[:VALUE_BYTES]


# The keys and values of every row a workload touches, computed once before
# anything is timed (prepare_rows()): a put shares its row's value, and a
# check costs two comparisons, in every client.
KNOWN_KEYS = []
KNOWN_VALUES = []


def prepare_rows(n):
    KNOWN_KEYS[:] = [key(i) for i in range(n)]
    KNOWN_VALUES[:] = [value(i) for i in range(n)]


def text(row_key):
    return "(none)" if row_key is None else row_key[:64].decode("latin-1")


def check(what, i, row_key, val, timestamp=0, since_ms=0):
    """Checks that a reply is row i as the bench writes it: its key, its f:q
    value (None when missing) and, when since_ms > 0, a cell written at
    since_ms or later."""
    if i >= len(KNOWN_KEYS):
        raise WrongAnswer("%s: a row beyond the %d expected, '%s'" % (what, len(KNOWN_KEYS), text(row_key)))
    if row_key != KNOWN_KEYS[i]:
        raise WrongAnswer("%s: expected row %s, got row '%s'" % (what, key(i).decode(), text(row_key)))
    if val != KNOWN_VALUES[i]:
        raise WrongAnswer("%s: row %s has %s f:q value (is the table loaded by this version of the bench?)"
                          % (what, key(i).decode(), "no" if val is None else "the wrong"))
    if since_ms > 0 and timestamp < since_ms:
        raise WrongAnswer("%s: row %s was written at %d ms, before the workload started (%d ms): "
                          "the workload's write is missing" % (what, key(i).decode(), timestamp, since_ms))


def get_row(table, i, what, since_ms=0):
    """Table.row(key(i)), checked.  Table.row() drops the row key of the
    reply, so this makes the same Thrift1 call (getRowWithColumns) and the
    same conversion (happybase.table.make_row) itself, keeping the key and
    the cell's timestamp for the check."""
    rows = table.connection.client.getRowWithColumns(table.name, key(i), None, {})
    if not rows:
        check(what, i, None, None)
    cell = rows[0].columns.get(COLUMN)
    data = make_row(rows[0].columns, False)
    check(what, i, rows[0].row, data.get(COLUMN), cell.timestamp if cell is not None else 0, since_ms)


def connect(args):
    return happybase.Connection(host=args.host, port=args.port, transport="buffered",
                                protocol="binary", timeout=60000, autoconnect=True)


def run_point(args, table_name, put, n, threads, seed):
    """(wall seconds, cpu seconds) of n point operations over `threads` threads."""
    connections = [connect(args) for _ in range(threads)]
    failures = []
    start = threading.Event()

    def work(k):
        table = connections[k].table(table_name)
        rnd = random.Random(seed + k)
        first = n * k // threads
        count = n * (k + 1) // threads - first
        start.wait()
        try:
            for j in range(count):
                if put:
                    table.put(key(first + j), {COLUMN: KNOWN_VALUES[first + j]})
                else:
                    get_row(table, rnd.randrange(args.rows), "get")
        except Exception as e:  # reported by the main thread
            failures.append(e)

    workers = [threading.Thread(target=work, args=(k,)) for k in range(threads)]
    for w in workers:
        w.start()
    c0, t0 = time.process_time(), time.perf_counter()
    start.set()
    for w in workers:
        w.join()
    result = (time.perf_counter() - t0, time.process_time() - c0)
    for c in connections:
        c.close()
    if failures:
        raise failures[0]
    return result


def run_batches(args, n, batch):
    connection = connect(args)
    table = connection.table(args.write_table)
    c0, t0 = time.process_time(), time.perf_counter()
    with table.batch(batch_size=batch) as b:
        for i in range(n):
            b.put(key(i), {COLUMN: KNOWN_VALUES[i]})
    result = (time.perf_counter() - t0, time.process_time() - c0)
    connection.close()
    return result


def run_scan(args, stop, expected):
    connection = connect(args)
    table = connection.table(args.read_table)
    c0, t0 = time.process_time(), time.perf_counter()
    count = 0
    for row_key, data in table.scan(row_stop=key(stop) if stop >= 0 else None, batch_size=args.caching):
        check("scan", count, row_key, data.get(COLUMN))
        count += 1
    result = (time.perf_counter() - t0, time.process_time() - c0)
    connection.close()
    if expected > 0 and count != expected:
        raise WrongAnswer("the scan returned %d rows, expected %d (is the read table loaded?)"
                           % (count, expected))
    return result


def check_written(args, n, since_ms, workload):
    """After a put workload of rows 0 .. n-1 that started at since_ms: its
    first, middle and last rows."""
    connection = connect(args)
    table = connection.table(args.write_table)
    for i in (0, n // 2, n - 1):
        get_row(table, i, "read-back after " + workload, since_ms)
    connection.close()


def report(workload, threads, n, seconds, cpu):
    print("RESULT client=%s workload=%s threads=%d ops=%d seconds=%.3f ops_per_s=%.1f cpu_s=%.3f"
          % (CLIENT, workload, threads, n, seconds, n / seconds, cpu), flush=True)


def main():
    p = argparse.ArgumentParser(description="happybase in the peer benchmark")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=9190, help="Thrift1 gateway port")
    p.add_argument("--read-table", default="bench_peers")
    p.add_argument("--write-table", default="bench_peers_w")
    p.add_argument("--rows", type=int, default=200000)
    p.add_argument("--ops", type=int, default=50000)
    p.add_argument("--batch-rows", type=int, default=200000)
    p.add_argument("--threads", type=int, default=8)
    p.add_argument("--warmup", type=int, default=5000)
    p.add_argument("--caching", type=int, default=1000)
    p.add_argument("--workloads", default=None)
    p.add_argument("--warmup-only", action="store_true",
                   help="run only each workload's untimed warm-up, print nothing (warms the gateway)")
    args = p.parse_args()
    if min(args.rows, args.ops, args.batch_rows, args.threads, args.caching) < 1 or args.warmup < 0:
        p.error("--rows, --ops, --batch-rows, --threads and --caching must be positive")
    wanted = set(args.workloads.split(",")) if args.workloads else None
    # every row a workload writes or reads: rows, ops, batch-rows and the
    # warm-ups (at least 2 batches of 1000)
    prepare_rows(max(args.rows, args.ops, args.batch_rows, args.warmup, 2000))

    def want(name):
        return wanted is None or name in wanted

    for t, name in ((1, "put1"), (args.threads, "putN")):
        if want(name):
            if args.warmup:
                run_point(args, args.write_table, True, args.warmup, t, 1)
            if not args.warmup_only:
                since_ms = int(time.time() * 1000)
                result = run_point(args, args.write_table, True, args.ops, t, 1)
                check_written(args, args.ops, since_ms, "put")
                report("put", t, args.ops, *result)
    for batch in (100, 1000):
        if want("batch%d" % batch):
            if args.warmup:
                run_batches(args, max(args.warmup, 2 * batch), batch)
            if not args.warmup_only:
                since_ms = int(time.time() * 1000)
                result = run_batches(args, args.batch_rows, batch)
                check_written(args, args.batch_rows, since_ms, "put_batch%d" % batch)
                report("put_batch%d" % batch, 1, args.batch_rows, *result)
    for t, name in ((1, "get1"), (args.threads, "getN")):
        if want(name):
            if args.warmup:
                run_point(args, args.read_table, False, args.warmup, t, 1000)
            if not args.warmup_only:
                report("get", t, args.ops, *run_point(args, args.read_table, False, args.ops, t, 1))
    if want("scan"):
        if args.warmup:
            run_scan(args, min(args.rows, 10 * args.warmup), 0)
        if not args.warmup_only:
            report("scan", 1, args.rows, *run_scan(args, -1, args.rows))

if __name__ == "__main__":
    try:
        main()
    except Exception as e:
        print("bench_happybase: %s" % e, file=sys.stderr)
        sys.exit(1)
