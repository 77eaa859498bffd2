/* SPDX-License-Identifier: Apache-2.0 */
// Readiness probe for the local stack: waits until a Thrift2 gateway answers
// real calls, not just an open port.  Run as a single-file program with the
// stack's classpath:
//   java -cp "$(cat classpath)" StackProbe.java HOST PORT PROTOCOL TRANSPORT TIMEOUT_S
// PROTOCOL is binary|compact, TRANSPORT buffered|framed.  It retries until
// listNamespaces() names "hbase" (the master is initialised) and a get on
// hbase:meta answers (a region server serves data), then exits 0; on timeout
// it prints the last error and exits 1.
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.hadoop.hbase.thrift2.generated.TGet;
import org.apache.hadoop.hbase.thrift2.generated.THBaseService;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.layered.TFramedTransport;

public class StackProbe {
  public static void main(String[] args) throws Exception {
    if (args.length != 5) {
      System.err.println("usage: StackProbe HOST PORT binary|compact buffered|framed TIMEOUT_S");
      System.exit(2);
    }
    String host = args[0];
    int port = Integer.parseInt(args[1]);
    boolean compact = args[2].equals("compact");
    boolean framed = args[3].equals("framed");
    long deadline = System.nanoTime() + Long.parseLong(args[4]) * 1_000_000_000L;
    String last = "no attempt made";
    while (System.nanoTime() < deadline) {
      TTransport transport = null;
      try {
        transport = new TSocket(new TConfiguration(), host, port, 5000);
        if (framed) transport = new TFramedTransport(transport);
        transport.open();
        TProtocol protocol = compact ? new TCompactProtocol(transport) : new TBinaryProtocol(transport);
        THBaseService.Client client = new THBaseService.Client(protocol);
        List<String> namespaces = client.listNamespaces();
        if (!namespaces.contains("hbase")) throw new Exception("namespaces so far: " + namespaces);
        ByteBuffer meta = ByteBuffer.wrap("hbase:meta".getBytes(StandardCharsets.UTF_8));
        client.exists(meta, new TGet(ByteBuffer.wrap(new byte[] {0})));
        System.out.println("ready: " + host + ":" + port + " " + args[2] + "/" + args[3]);
        return;
      } catch (Exception e) {
        last = e.toString();
      } finally {
        if (transport != null) transport.close();
      }
      Thread.sleep(500);
    }
    System.err.println("not ready: " + host + ":" + port + ": " + last);
    System.exit(1);
  }
}
