# SPDX-License-Identifier: Apache-2.0
"""The peer benchmark's happybase client (bench/run-peers.sh, bench/README.md).

happybase 1.3.0 (thriftpy2, its Cython binary protocol and buffered
transport) against a Thrift1 gateway of the same HBase
(scripts/stack.sh start-thrift1 PORT), binary protocol, buffered transport.
One happybase.Connection per thread.  The same workloads, rows, options and
RESULT lines as bench/bench-table.c and bench/java/BenchHarness.java:

  put1, putN        point puts (Table.put) of rows 0 .. ops-1, N threads split the range
  batch100/1000     Table.batch(batch_size=100/1000): rows 0 .. batch-rows-1
  get1, getN        point gets (Table.row) of random rows of the read table (checked)
  scan              Table.scan(batch_size=caching) of the whole read table (counted)

Rows: key "r%010d", one cell f:q, a 100-byte value.
"""
import argparse
import random
import sys
import threading
import time

import happybase

CLIENT = "happybase"
COLUMN = b"f:q"
VALUE = b"v" * 100


def key(i):
    return b"r%010d" % i


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
                    table.put(key(first + j), {COLUMN: VALUE})
                else:
                    row = rnd.randrange(args.rows)
                    value = table.row(key(row)).get(COLUMN)
                    if value is None or len(value) != len(VALUE):
                        raise RuntimeError("row %d: missing or wrong value (is the read table loaded?)" % row)
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
            b.put(key(i), {COLUMN: VALUE})
    result = (time.perf_counter() - t0, time.process_time() - c0)
    connection.close()
    return result


def run_scan(args, stop, expected):
    connection = connect(args)
    table = connection.table(args.read_table)
    c0, t0 = time.process_time(), time.perf_counter()
    count = 0
    for _ in table.scan(row_stop=key(stop) if stop >= 0 else None, batch_size=args.caching):
        count += 1
    result = (time.perf_counter() - t0, time.process_time() - c0)
    connection.close()
    if expected > 0 and count != expected:
        raise RuntimeError("the scan returned %d rows, expected %d (is the read table loaded?)"
                           % (count, expected))
    return result


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
    args = p.parse_args()
    if min(args.rows, args.ops, args.batch_rows, args.threads, args.caching) < 1 or args.warmup < 0:
        p.error("--rows, --ops, --batch-rows, --threads and --caching must be positive")
    wanted = set(args.workloads.split(",")) if args.workloads else None

    def want(name):
        return wanted is None or name in wanted

    for t, name in ((1, "put1"), (args.threads, "putN")):
        if want(name):
            if args.warmup:
                run_point(args, args.write_table, True, args.warmup, t, 1)
            report("put", t, args.ops, *run_point(args, args.write_table, True, args.ops, t, 1))
    for batch in (100, 1000):
        if want("batch%d" % batch):
            if args.warmup:
                run_batches(args, max(args.warmup, 2 * batch), batch)
            report("put_batch%d" % batch, 1, args.batch_rows, *run_batches(args, args.batch_rows, batch))
    for t, name in ((1, "get1"), (args.threads, "getN")):
        if want(name):
            if args.warmup:
                run_point(args, args.read_table, False, args.warmup, t, 1000)
            report("get", t, args.ops, *run_point(args, args.read_table, False, args.ops, t, 1))
    if want("scan"):
        if args.warmup:
            run_scan(args, min(args.rows, 10 * args.warmup), 0)
        report("scan", 1, args.rows, *run_scan(args, -1, args.rows))


if __name__ == "__main__":
    try:
        main()
    except Exception as e:
        print("bench_happybase: %s" % e, file=sys.stderr)
        sys.exit(1)
