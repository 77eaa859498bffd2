/* SPDX-License-Identifier: Apache-2.0 */
// The peer benchmark's Java harness (bench/run-peers.sh, bench/README.md):
// the options, the workloads, the timing and the RESULT lines shared by
// BenchThrift2 (the Thrift2 gateway's own generated Java client) and
// BenchNative (HBase's native Java client).  The same workloads as
// bench/bench-table.c and bench/python/bench_happybase.py:
//
//   put1, putN        point puts of rows 0 .. ops-1 (N threads split the range)
//   batch100/1000     put multiple: rows 0 .. batch-rows-1 in calls of 100/1000 rows
//   get1, getN        point gets of random rows of the read table
//   scan              the whole read table, caching rows per round trip
//
// Rows: key "r%010d", one cell f:q, a 100-byte value of its own (value()).
// Every reply is checked (check()): a get's row key and value, every scanned
// row's key (the n-th row must be row n) and value, and after each put
// workload, untimed, a read-back of three of its rows, whose cells must be
// newer than the workload's start.  A wrong answer ends the run (status 1).
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;

public final class BenchHarness {
  public static final byte[] FAMILY = {'f'};
  public static final byte[] QUALIFIER = {'q'};
  public static final int VALUE_BYTES = 100;

  /** One thread's handle on one table: a socket (Thrift2) or a Table (native). */
  public interface Session extends AutoCloseable {
    void put(int row) throws Exception;

    /**
     * Gets the row and checks the reply with check(what, row, ..., sinceMs):
     * throws when it is not the row as the bench writes it.
     */
    void get(int row, String what, long sinceMs) throws Exception;

    void putBatch(int first, int count) throws Exception;

    /**
     * Scans rows below stopRow (all rows when stopRow < 0), checking every
     * row with check("scan", n, ...) where n counts the rows from 0; returns
     * the count.
     */
    long scan(int stopRow, int caching) throws Exception;

    @Override
    void close() throws Exception;
  }

  public interface SessionFactory {
    Session open(String table) throws Exception;
  }

  public String host = "127.0.0.1";
  public int port = 9090;
  public String readTable = "bench_peers";
  public String writeTable = "bench_peers_w";
  public int rows = 200000;
  public int ops = 50000;
  public int batchRows = 200000;
  public int threads = 8;
  public int warmup = 5000;
  public int caching = 1000;
  public List<String> workloads = null;
  public boolean warmupOnly = false;
  public List<String> extra = new ArrayList<>();

  private final String client;

  public BenchHarness(String client, String[] args) {
    this.client = client;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (!a.startsWith("--")) {
        extra.add(a);
        continue;
      }
      if (a.equals("--warmup-only")) {
        warmupOnly = true;
        continue;
      }
      if (i + 1 >= args.length) usage("option " + a + " needs a value");
      String v = args[++i];
      switch (a) {
        case "--host": host = v; break;
        case "--port": port = Integer.parseInt(v); break;
        case "--read-table": readTable = v; break;
        case "--write-table": writeTable = v; break;
        case "--rows": rows = Integer.parseInt(v); break;
        case "--ops": ops = Integer.parseInt(v); break;
        case "--batch-rows": batchRows = Integer.parseInt(v); break;
        case "--threads": threads = Integer.parseInt(v); break;
        case "--warmup": warmup = Integer.parseInt(v); break;
        case "--caching": caching = Integer.parseInt(v); break;
        case "--workloads": workloads = Arrays.asList(v.split(",")); break;
        default: usage("unknown option " + a);
      }
    }
    if (rows < 1 || ops < 1 || batchRows < 1 || threads < 1 || warmup < 0 || caching < 1)
      usage("--rows, --ops, --batch-rows, --threads and --caching must be positive");
    // every row a workload writes or reads: rows, ops, batch-rows and the
    // warm-ups (at least 2 batches of 1000); "load TABLE ROWS" adds its own
    prepareRows(Math.max(Math.max(rows, ops), Math.max(batchRows, Math.max(warmup, 2000))));
  }

  private void usage(String why) {
    System.err.println(client + ": " + why);
    System.err.println("options: --host H --port P --read-table T --write-table T --rows N --ops N"
        + " --batch-rows N --threads N --warmup N --caching N --workloads put1,putN,batch100,batch1000,get1,getN,scan"
        + " --warmup-only");
    System.exit(2);
  }

  /**
   * The value of row i: "v%010d" of i repeated over 100 bytes, so that every
   * row's value is its own and a reply for another row cannot pass the check
   * (prepare_rows() in bench-table.c and value() in bench_happybase.py are
   * the same).  The keys and values of every row a workload touches are
   * computed once, before anything is timed (the constructor): a put shares
   * its row's value, and a check costs two comparisons, in every client.
   */
  private static byte[] computeValue(int i) {
    byte[] unit = key(i);
    unit[0] = 'v';
    byte[] v = new byte[VALUE_BYTES];
    for (int j = 0; j < VALUE_BYTES; j++) v[j] = unit[j % unit.length];
    return v;
  }

  private static byte[][] knownKeys = new byte[0][];
  private static byte[][] knownValues = new byte[0][];

  /** Computes the keys and values of rows 0 .. n-1, unless known already. */
  public static void prepareRows(int n) {
    if (n <= knownKeys.length) return;
    knownKeys = new byte[n][];
    knownValues = new byte[n][];
    for (int i = 0; i < n; i++) {
      knownKeys[i] = key(i);
      knownValues[i] = computeValue(i);
    }
  }

  /** Row i's value (shared: not to be modified). */
  public static byte[] value(int i) {
    return knownValues[i];
  }

  private static String text(ByteBuffer b) {
    if (b == null) return "(none)";
    byte[] bytes = new byte[Math.min(b.remaining(), 64)];
    b.duplicate().get(bytes);
    return new String(bytes, StandardCharsets.ISO_8859_1);
  }

  /**
   * Checks that a reply is row i as the bench writes it: key, the f:q value
   * (null when the reply has none) and, when sinceMs > 0, a cell written at
   * sinceMs or later.  what names the operation for the message.
   */
  public static void check(String what, int i, ByteBuffer key, ByteBuffer value, long timestamp,
                           long sinceMs) {
    if (i >= knownKeys.length)
      throw new IllegalStateException(what + ": a row beyond the " + knownKeys.length + " expected, '"
          + text(key) + "'");
    byte[] expectedKey = knownKeys[i];
    if (key == null || !key.equals(ByteBuffer.wrap(expectedKey)))
      throw new IllegalStateException(what + ": expected row " + new String(expectedKey,
          StandardCharsets.ISO_8859_1) + ", got row '" + text(key) + "'");
    if (value == null || !value.equals(ByteBuffer.wrap(knownValues[i])))
      throw new IllegalStateException(what + ": row " + text(key) + " has " + (value == null ? "no" : "the wrong")
          + " f:q value (is the table loaded by this version of the bench?)");
    if (sinceMs > 0 && timestamp < sinceMs)
      throw new IllegalStateException(what + ": row " + text(key) + " was written at " + timestamp
          + " ms, before the workload started (" + sinceMs + " ms): the workload's write is missing");
  }

  /** "r%010d" without String.format, whose cost would be the bench's, not the client's. */
  public static byte[] key(int i) {
    byte[] k = new byte[11];
    k[0] = 'r';
    for (int p = 10; p >= 1; p--) {
      k[p] = (byte) ('0' + i % 10);
      i /= 10;
    }
    return k;
  }

  private boolean wanted(String name) {
    return workloads == null || workloads.contains(name);
  }

  private static long cpuNanos() {
    java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean)
      return ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime();
    return 0;
  }

  private void report(String workload, int nThreads, long n, double seconds, double cpu) {
    System.out.printf(java.util.Locale.ROOT,
        "RESULT client=%s workload=%s threads=%d ops=%d seconds=%.3f ops_per_s=%.1f cpu_s=%.3f%n",
        client, workload, nThreads, n, seconds, n / seconds, cpu);
    System.out.flush();
  }

  /** [wall seconds, cpu seconds] of ops point operations over nThreads threads. */
  private double[] runPoint(SessionFactory factory, String table, boolean put, int n, int nThreads,
                           long seed) throws Exception {
    Session[] sessions = new Session[nThreads];
    Thread[] workers = new Thread[nThreads];
    Exception[] failures = new Exception[nThreads];
    CountDownLatch start = new CountDownLatch(1);
    try {
      for (int k = 0; k < nThreads; k++) sessions[k] = factory.open(table);
      for (int k = 0; k < nThreads; k++) {
        final int kk = k;
        final int first = (int) ((long) n * k / nThreads);
        final int count = (int) ((long) n * (k + 1) / nThreads) - first;
        workers[k] = new Thread(() -> {
          SplittableRandom random = new SplittableRandom(seed + kk);
          Session s = sessions[kk];
          try {
            start.await();
            for (int j = 0; j < count; j++) {
              if (put) {
                s.put(first + j);
              } else {
                s.get(random.nextInt(rows), "get", 0);
              }
            }
          } catch (Exception e) {
            failures[kk] = e;
          }
        });
        workers[k].start();
      }
      long c0 = cpuNanos(), t0 = System.nanoTime();
      start.countDown();
      for (Thread w : workers) w.join();
      double[] r = {(System.nanoTime() - t0) / 1e9, (cpuNanos() - c0) / 1e9};
      for (Exception e : failures) if (e != null) throw e;
      return r;
    } finally {
      for (Session s : sessions) if (s != null) s.close();
    }
  }

  private double[] runBatches(SessionFactory factory, int n, int batch) throws Exception {
    try (Session s = factory.open(writeTable)) {
      long c0 = cpuNanos(), t0 = System.nanoTime();
      for (int first = 0; first < n; first += batch) s.putBatch(first, Math.min(batch, n - first));
      return new double[] {(System.nanoTime() - t0) / 1e9, (cpuNanos() - c0) / 1e9};
    }
  }

  /** After a put workload of rows 0 .. n-1 that started at sinceMs: its first, middle and last rows. */
  private void checkWritten(SessionFactory factory, int n, long sinceMs, String workload) throws Exception {
    try (Session s = factory.open(writeTable)) {
      for (int row : new int[] {0, n / 2, n - 1}) s.get(row, "read-back after " + workload, sinceMs);
    }
  }

  private double[] runScan(SessionFactory factory, int stop, long expected) throws Exception {
    try (Session s = factory.open(readTable)) {
      long c0 = cpuNanos(), t0 = System.nanoTime();
      long count = s.scan(stop, caching);
      double[] r = {(System.nanoTime() - t0) / 1e9, (cpuNanos() - c0) / 1e9};
      if (expected > 0 && count != expected)
        throw new IllegalStateException("the scan returned " + count + " rows, expected " + expected
            + " (is the read table loaded?)");
      return r;
    }
  }

  public void run(SessionFactory factory) throws Exception {
    for (int pass = 0; pass < 2; pass++) {
      int t = pass == 0 ? 1 : threads;
      if (!wanted(pass == 0 ? "put1" : "putN")) continue;
      if (warmup > 0) runPoint(factory, writeTable, true, warmup, t, 1);
      if (warmupOnly) continue;
      long since = System.currentTimeMillis();
      double[] r = runPoint(factory, writeTable, true, ops, t, 1);
      checkWritten(factory, ops, since, "put");
      report("put", t, ops, r[0], r[1]);
    }
    for (int pass = 0; pass < 2; pass++) {
      int batch = pass == 0 ? 100 : 1000;
      if (!wanted(pass == 0 ? "batch100" : "batch1000")) continue;
      if (warmup > 0) runBatches(factory, Math.max(warmup, 2 * batch), batch);
      if (warmupOnly) continue;
      long since = System.currentTimeMillis();
      double[] r = runBatches(factory, batchRows, batch);
      checkWritten(factory, batchRows, since, "put_batch" + batch);
      report("put_batch" + batch, 1, batchRows, r[0], r[1]);
    }
    for (int pass = 0; pass < 2; pass++) {
      int t = pass == 0 ? 1 : threads;
      if (!wanted(pass == 0 ? "get1" : "getN")) continue;
      if (warmup > 0) runPoint(factory, readTable, false, warmup, t, 1000);
      if (warmupOnly) continue;
      double[] r = runPoint(factory, readTable, false, ops, t, 1);
      report("get", t, ops, r[0], r[1]);
    }
    if (wanted("scan")) {
      if (warmup > 0) runScan(factory, Math.min(rows, 10 * warmup), 0);
      if (warmupOnly) return;
      double[] r = runScan(factory, -1, rows);
      report("scan", 1, rows, r[0], r[1]);
    }
  }

  /** Runs main's body; a failure (a wrong answer included) is one line on stderr and status 1. */
  public static void main(String client, MainBody body) {
    try {
      body.run();
    } catch (Exception e) {
      System.err.println(client + ": " + (e.getMessage() != null ? e.getMessage() : e.toString()));
      System.exit(1);
    }
  }

  public interface MainBody {
    void run() throws Exception;
  }
}
