/* SPDX-License-Identifier: Apache-2.0 */
// The peer benchmark's native Java client: HBase's own
// org.apache.hadoop.hbase.client (ZooKeeper, then the region server's RPC,
// no gateway): what the server itself can do for a client on this machine.
// One Connection shared by the threads, a Table per thread; plain
// Table.put / get / put(List) / getScanner.  Workloads and options:
// BenchHarness.java.  The configuration (ZooKeeper quorum and port) is the
// stack's hbase-site.xml, first on the classpath.
//
//   java -cp CLASSES:$(scripts/stack.sh classpath) BenchNative [options]
//   java ... BenchNative create TABLE        drop TABLE if it exists, create it (family f)
//   java ... BenchNative load TABLE ROWS     create it, put rows 0 .. ROWS-1, flush,
//                                            major-compact and scan it once (warm cache,
//                                            and every row checked)
// run-peers.sh uses the last two to prepare the tables of every client.
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.CompactionState;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;

public class BenchNative {
  static final class NativeSession implements BenchHarness.Session {
    private final Table table;

    NativeSession(Connection connection, String table) throws Exception {
      this.table = connection.getTable(TableName.valueOf(table));
    }

    private static Put newPut(int row) {
      return new Put(BenchHarness.key(row))
          .addColumn(BenchHarness.FAMILY, BenchHarness.QUALIFIER, BenchHarness.value(row));
    }

    @Override
    public void put(int row) throws Exception {
      table.put(newPut(row));
    }

    /** The reply's row key, its f:q value (null when missing) and that cell's timestamp. */
    private static void check(String what, int row, Result result, long sinceMs) {
      Cell cell = result.getColumnLatestCell(BenchHarness.FAMILY, BenchHarness.QUALIFIER);
      BenchHarness.check(what, row, result.getRow() != null ? ByteBuffer.wrap(result.getRow()) : null,
          cell != null ? ByteBuffer.wrap(cell.getValueArray(), cell.getValueOffset(), cell.getValueLength()) : null,
          cell != null ? cell.getTimestamp() : 0, sinceMs);
    }

    @Override
    public void get(int row, String what, long sinceMs) throws Exception {
      check(what, row, table.get(new Get(BenchHarness.key(row))), sinceMs);
    }

    @Override
    public void putBatch(int first, int count) throws Exception {
      List<Put> puts = new ArrayList<>(count);
      for (int i = 0; i < count; i++) puts.add(newPut(first + i));
      table.put(puts);
    }

    @Override
    public long scan(int stopRow, int caching) throws Exception {
      Scan scan = new Scan().setCaching(caching);
      if (stopRow >= 0) scan.withStopRow(BenchHarness.key(stopRow));
      long count = 0;
      try (ResultScanner scanner = table.getScanner(scan)) {
        for (Result r = scanner.next(); r != null; r = scanner.next()) check("scan", (int) count++, r, 0);
      }
      return count;
    }

    @Override
    public void close() throws Exception {
      table.close();
    }
  }

  static void create(Admin admin, TableName name) throws Exception {
    if (admin.tableExists(name)) {
      if (admin.isTableEnabled(name)) admin.disableTable(name);
      admin.deleteTable(name);
    }
    admin.createTable(TableDescriptorBuilder.newBuilder(name)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.of(BenchHarness.FAMILY)).build());
  }

  static void load(Connection connection, Admin admin, TableName name, int rows) throws Exception {
    long t0 = System.nanoTime();
    BenchHarness.prepareRows(rows);
    create(admin, name);
    try (NativeSession s = new NativeSession(connection, name.getNameAsString())) {
      for (int first = 0; first < rows; first += 1000) s.putBatch(first, Math.min(1000, rows - first));
      admin.flush(name);
      admin.majorCompact(name);
      Thread.sleep(1000);
      long deadline = System.nanoTime() + 300_000_000_000L;
      while (admin.getCompactionState(name) != CompactionState.NONE) {
        if (System.nanoTime() > deadline) throw new IllegalStateException("major compaction still running after 300 s");
        Thread.sleep(200);
      }
      long count = s.scan(-1, 1000);
      if (count != rows) throw new IllegalStateException("loaded " + count + " rows, expected " + rows);
    }
    System.err.printf("bench-native: %s loaded with %d rows, flushed and compacted in %.1f s%n",
        name, rows, (System.nanoTime() - t0) / 1e9);
  }

  public static void main(String[] args) {
    BenchHarness h = new BenchHarness("java-native", args);
    BenchHarness.main("java-native", () -> body(h));
  }

  private static void body(BenchHarness h) throws Exception {
    Configuration conf = HBaseConfiguration.create();
    try (Connection connection = ConnectionFactory.createConnection(conf)) {
      if (!h.extra.isEmpty()) {
        String command = h.extra.get(0);
        try (Admin admin = connection.getAdmin()) {
          if (command.equals("create") && h.extra.size() == 2) {
            create(admin, TableName.valueOf(h.extra.get(1)));
          } else if (command.equals("load") && h.extra.size() == 3) {
            load(connection, admin, TableName.valueOf(h.extra.get(1)), Integer.parseInt(h.extra.get(2)));
          } else {
            System.err.println("usage: BenchNative [options] | create TABLE | load TABLE ROWS");
            System.exit(2);
          }
        }
        return;
      }
      h.run(table -> new NativeSession(connection, table));
    }
  }
}
