/* SPDX-License-Identifier: Apache-2.0 */
// Readiness probe for the local stack: waits until a Thrift2 gateway answers
// real calls, not just an open port.  Run as a single-file program with the
// stack's classpath:
//   java -cp "$(cat classpath)" StackProbe.java HOST PORT PROTOCOL TRANSPORT TIMEOUT_S
// PROTOCOL is binary|compact, TRANSPORT buffered|framed|http|https (http and
// https: Thrift over HTTP POSTs to http(s)://HOST:PORT/, binary only; https
// trusts the CA certificates of the PEM file named by HBASE_GLIB_PROBE_CA_FILE).  It retries until
// listNamespaces() names "hbase" (the master is initialised) and a get on
// hbase:meta answers (a region server serves data), then exits 0; on timeout
// it prints the last error and exits 1.
import java.io.FileInputStream;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.hadoop.hbase.thrift2.generated.TGet;
import org.apache.hadoop.hbase.thrift2.generated.THBaseService;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.transport.THttpClient;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.layered.TFramedTransport;

public class StackProbe {
  public static void main(String[] args) throws Exception {
    if (args.length != 5) {
      System.err.println("usage: StackProbe HOST PORT binary|compact buffered|framed|http|https TIMEOUT_S");
      System.exit(2);
    }
    String host = args[0];
    int port = Integer.parseInt(args[1]);
    boolean compact = args[2].equals("compact");
    boolean framed = args[3].equals("framed");
    boolean http = args[3].startsWith("http");
    if (args[3].equals("https")) trustCaFile(System.getenv("HBASE_GLIB_PROBE_CA_FILE"));
    long deadline = System.nanoTime() + Long.parseLong(args[4]) * 1_000_000_000L;
    String last = "no attempt made";
    while (System.nanoTime() < deadline) {
      TTransport transport = null;
      try {
        if (http) {
          THttpClient client = new THttpClient(args[3] + "://" + host + ":" + port + "/");
          client.setConnectTimeout(5000);
          client.setReadTimeout(5000);
          transport = client;
        } else {
          transport = new TSocket(new TConfiguration(), host, port, 5000);
          if (framed) transport = new TFramedTransport(transport);
        }
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

  // HttpsURLConnection (under THttpClient) trusts the certificates of @path alone.
  private static void trustCaFile(String path) throws Exception {
    if (path == null || path.isEmpty()) return;
    KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
    trust.load(null, null);
    try (InputStream in = new FileInputStream(path)) {
      int i = 0;
      for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in))
        trust.setCertificateEntry("ca" + i++, c);
    }
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, tmf.getTrustManagers(), null);
    HttpsURLConnection.setDefaultSSLSocketFactory(context.getSocketFactory());
  }
}
