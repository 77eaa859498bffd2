/* SPDX-License-Identifier: Apache-2.0 */
// Readiness probe for a Thrift1 gateway (org.apache.hadoop.hbase.thrift,
// binary protocol, buffered transport), as StackProbe is for the Thrift2 ones:
//   java -cp "$(scripts/stack.sh classpath)" Thrift1Probe.java HOST PORT TIMEOUT_S
// It retries until getTableNames() answers (the gateway reaches the master),
// then exits 0; on timeout it prints the last error and exits 1.
import org.apache.hadoop.hbase.thrift.generated.Hbase;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;

public class Thrift1Probe {
  public static void main(String[] args) throws Exception {
    if (args.length != 3) {
      System.err.println("usage: Thrift1Probe HOST PORT TIMEOUT_S");
      System.exit(2);
    }
    String host = args[0];
    int port = Integer.parseInt(args[1]);
    long deadline = System.nanoTime() + Long.parseLong(args[2]) * 1_000_000_000L;
    String last = "no attempt made";
    while (System.nanoTime() < deadline) {
      TSocket socket = null;
      try {
        socket = new TSocket(new TConfiguration(), host, port, 5000);
        socket.open();
        Hbase.Client client = new Hbase.Client(new TBinaryProtocol(socket));
        int tables = client.getTableNames().size();
        System.out.println("ready: " + host + ":" + port + " Thrift1, " + tables + " tables");
        return;
      } catch (Exception e) {
        last = e.toString();
      } finally {
        if (socket != null) socket.close();
      }
      Thread.sleep(500);
    }
    System.err.println("not ready: " + host + ":" + port + ": " + last);
    System.exit(1);
  }
}
