/* SPDX-License-Identifier: Apache-2.0 */
// The peer benchmark's Java Thrift2 client: the generated
// org.apache.hadoop.hbase.thrift2.generated.THBaseService.Client shipped in
// the hbase-thrift jar, over TSocket (which buffers its streams) with the
// binary protocol: the gateway's binary/buffered mode, the same gateway
// (127.0.0.1:9090) as bench/bench-table.  One client and socket per
// thread.  Workloads and options: BenchHarness.java.
//
//   java -cp CLASSES:$(scripts/stack.sh classpath) BenchThrift2 [options]
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.hbase.thrift2.generated.TColumnValue;
import org.apache.hadoop.hbase.thrift2.generated.TGet;
import org.apache.hadoop.hbase.thrift2.generated.THBaseService;
import org.apache.hadoop.hbase.thrift2.generated.TPut;
import org.apache.hadoop.hbase.thrift2.generated.TResult;
import org.apache.hadoop.hbase.thrift2.generated.TScan;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;

public class BenchThrift2 {
  static final class Thrift2Session implements BenchHarness.Session {
    private final TSocket socket;
    private final THBaseService.Client client;
    private final ByteBuffer table;

    Thrift2Session(String host, int port, String table) throws Exception {
      socket = new TSocket(new TConfiguration(), host, port, 60000);
      socket.open();
      client = new THBaseService.Client(new TBinaryProtocol(socket));
      this.table = ByteBuffer.wrap(table.getBytes("UTF-8"));
    }

    private static TPut newPut(int row) {
      TColumnValue cell = new TColumnValue(ByteBuffer.wrap(BenchHarness.FAMILY),
          ByteBuffer.wrap(BenchHarness.QUALIFIER), ByteBuffer.wrap(BenchHarness.value(row)));
      return new TPut(ByteBuffer.wrap(BenchHarness.key(row)), Collections.singletonList(cell));
    }

    @Override
    public void put(int row) throws Exception {
      client.put(table, newPut(row));
    }

    /** The reply's row key, its f:q value (null when missing) and that cell's timestamp. */
    private static void check(String what, int row, TResult result, long sinceMs) {
      TColumnValue cell = null;
      if (result.getColumnValuesSize() == 1) {
        TColumnValue c = result.getColumnValues().get(0);
        if (ByteBuffer.wrap(BenchHarness.FAMILY).equals(c.bufferForFamily())
            && ByteBuffer.wrap(BenchHarness.QUALIFIER).equals(c.bufferForQualifier()))
          cell = c;
      }
      BenchHarness.check(what, row, result.bufferForRow(), cell != null ? cell.bufferForValue() : null,
          cell != null ? cell.getTimestamp() : 0, sinceMs);
    }

    @Override
    public void get(int row, String what, long sinceMs) throws Exception {
      check(what, row, client.get(table, new TGet(ByteBuffer.wrap(BenchHarness.key(row)))), sinceMs);
    }

    @Override
    public void putBatch(int first, int count) throws Exception {
      List<TPut> puts = new ArrayList<>(count);
      for (int i = 0; i < count; i++) puts.add(newPut(first + i));
      client.putMultiple(table, puts);
    }

    @Override
    public long scan(int stopRow, int caching) throws Exception {
      TScan scan = new TScan();
      scan.setCaching(caching);
      if (stopRow >= 0) scan.setStopRow(BenchHarness.key(stopRow));
      int id = client.openScanner(table, scan);
      long count = 0;
      try {
        for (;;) {
          List<TResult> rows = client.getScannerRows(id, caching);
          if (rows.isEmpty()) break;
          for (TResult r : rows) check("scan", (int) count++, r, 0);
        }
      } finally {
        client.closeScanner(id);
      }
      return count;
    }

    @Override
    public void close() {
      socket.close();
    }
  }

  public static void main(String[] args) {
    BenchHarness h = new BenchHarness("java-thrift2", args);
    BenchHarness.main("java-thrift2", () -> h.run(table -> new Thrift2Session(h.host, h.port, table)));
  }
}
