/* SPDX-License-Identifier: Apache-2.0 */
// Probe of the kerberized stack (scripts/stack-secure.sh): real calls,
// authenticated with a keytab, against the Thrift2 gateways.  Run as a
// single-file program with the secure stack's classpath and
// -Djava.security.krb5.conf=<state>/secure/krb5.conf.  The client identity
// comes from HBASE_GLIB_PROBE_PRINCIPAL and HBASE_GLIB_PROBE_KEYTAB.
//
//   sasl HOST PORT SERVER_HOST QOP TIMEOUT_S
//       SASL GSSAPI (TSaslClientTransport, service "hbase" at SERVER_HOST)
//       offering QOP (authentication|integrity|privacy); retries until
//       getTableNamesByNamespace("hbase") names meta and tableExists(hbase:meta)
//       is true.  Prints the negotiated QOP.
//   http HOST PORT SERVER_HOST TIMEOUT_S [DOAS]
//       THttpClient with a fresh "Authorization: Negotiate" token (SPNEGO for
//       HTTP@SERVER_HOST) on every request, and a doAs header if DOAS is given.
//   https HOST PORT SERVER_HOST TIMEOUT_S [DOAS]
//       the same over https://, trusting the CA certificates of the PEM file
//       named by HBASE_GLIB_PROBE_CA_FILE (HOST must be a name in the
//       gateway's certificate).
//   ready HOST SERVER_HOST TIMEOUT_S PORT:QOP...
//       the readiness check of start-secure and status, in one JVM: each
//       PORT:QOP (QOP authentication|integrity|privacy, http or https) as by the
//       sasl and http modes, one "ready:" line each; all within TIMEOUT_S
//   sasl-refused HOST PORT SERVER_HOST QOP       expects the negotiation to fail
//   http-refused HOST PORT SERVER_HOST DOAS      expects the doAs call to fail
//   http-replay HOST PORT SERVER_HOST   two calls carrying the same token:
//                       prints how each ended; exits 0 if the first answered
//                       and the second was refused (the replay cache)
//   http-challenge HOST PORT    a POST without Authorization: expects 401 and
//                               "WWW-Authenticate: Negotiate"; prints the head
//   plain HOST PORT [WAIT_S]  an unauthenticated binary getTableNamesByNamespace on a
//                       raw socket: prints what comes back (hex), how the
//                       connection ends within WAIT_S (default 20) and how
//                       long it took; exits 0 if the call got no Thrift reply
// Exit status: 0 as expected, 1 not, 2 usage.
import java.io.ByteArrayOutputStream;
import java.io.FileInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.PrivilegedExceptionAction;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import javax.security.auth.Subject;
import javax.security.auth.login.AppConfigurationEntry;
import javax.security.auth.login.Configuration;
import javax.security.auth.login.LoginContext;
import javax.security.sasl.Sasl;
import org.apache.hadoop.hbase.thrift2.generated.THBaseService;
import org.apache.hadoop.hbase.thrift2.generated.TTableName;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TMemoryBuffer;
import org.apache.thrift.transport.THttpClient;
import org.apache.thrift.transport.TSaslClientTransport;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.ietf.jgss.GSSContext;
import org.ietf.jgss.GSSManager;
import org.ietf.jgss.GSSName;
import org.ietf.jgss.Oid;

public class SecureProbe {
  static final Oid SPNEGO = oid("1.3.6.1.5.5.2");

  static Oid oid(String s) {
    try { return new Oid(s); } catch (Exception e) { throw new RuntimeException(e); }
  }

  static String saslQop(String qop) {
    switch (qop) {
      case "authentication": return "auth";
      case "integrity": return "auth-int";
      case "privacy": return "auth-conf";
      default: throw new IllegalArgumentException("QOP must be authentication|integrity|privacy, not " + qop);
    }
  }

  static Subject login() throws Exception {
    String principal = System.getenv("HBASE_GLIB_PROBE_PRINCIPAL");
    String keytab = System.getenv("HBASE_GLIB_PROBE_KEYTAB");
    if (principal == null || keytab == null)
      throw new IllegalStateException("set HBASE_GLIB_PROBE_PRINCIPAL and HBASE_GLIB_PROBE_KEYTAB");
    Map<String, String> options = new HashMap<>();
    options.put("useKeyTab", "true");
    options.put("keyTab", keytab);
    options.put("principal", principal);
    options.put("storeKey", "false");
    options.put("doNotPrompt", "true");
    options.put("refreshKrb5Config", "true");
    Configuration config = new Configuration() {
      @Override public AppConfigurationEntry[] getAppConfigurationEntry(String name) {
        return new AppConfigurationEntry[] {new AppConfigurationEntry(
            "com.sun.security.auth.module.Krb5LoginModule",
            AppConfigurationEntry.LoginModuleControlFlag.REQUIRED, options)};
      }
    };
    LoginContext lc = new LoginContext("probe", new Subject(), null, config);
    lc.login();
    return lc.getSubject();
  }

  // The two calls every readiness check makes.
  static void calls(THBaseService.Client client) throws Exception {
    List<TTableName> names = client.getTableNamesByNamespace("hbase");
    boolean meta = false;
    for (TTableName n : names)
      if ("meta".equals(new String(n.getQualifier(), StandardCharsets.UTF_8))) meta = true;
    if (!meta) throw new Exception("getTableNamesByNamespace(hbase) has no meta yet: " + names.size() + " tables");
    TTableName t = new TTableName(ByteBuffer.wrap("meta".getBytes(StandardCharsets.UTF_8)));
    t.setNs("hbase".getBytes(StandardCharsets.UTF_8));
    if (!client.tableExists(t)) throw new Exception("tableExists(hbase:meta) is false");
  }

  static String sasl(Subject subject, String host, int port, String serverHost, String qop) throws Exception {
    return Subject.doAs(subject, (PrivilegedExceptionAction<String>) () -> {
      Map<String, String> props = new HashMap<>();
      props.put(Sasl.QOP, saslQop(qop));
      props.put(Sasl.SERVER_AUTH, "true");
      TSaslClientTransport t = new TSaslClientTransport("GSSAPI", null, "hbase", serverHost, props, null,
          new TSocket(new TConfiguration(), host, port, 10000));
      try {
        t.open();
        calls(new THBaseService.Client(new TBinaryProtocol(t)));
        return "negotiated QOP " + t.getSaslClient().getNegotiatedProperty(Sasl.QOP);
      } finally {
        t.close();
      }
    });
  }

  static String negotiate(Subject subject, String serverHost) throws Exception {
    return Subject.doAs(subject, (PrivilegedExceptionAction<String>) () -> {
      GSSManager m = GSSManager.getInstance();
      GSSName server = m.createName("HTTP@" + serverHost, GSSName.NT_HOSTBASED_SERVICE);
      GSSContext ctx = m.createContext(server, SPNEGO, null, GSSContext.DEFAULT_LIFETIME);
      ctx.requestMutualAuth(false);
      byte[] token = ctx.initSecContext(new byte[0], 0, 0);
      ctx.dispose();
      return "Negotiate " + Base64.getEncoder().encodeToString(token);
    });
  }

  // https: THttpClient opens an HttpsURLConnection, which takes the default
  // socket factory: one trusting only the test CA (as StackProbe does).
  static synchronized void trustCaFile() throws Exception {
    String path = System.getenv("HBASE_GLIB_PROBE_CA_FILE");
    if (path == null) throw new IllegalStateException("set HBASE_GLIB_PROBE_CA_FILE for https");
    KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
    trust.load(null, null);
    try (java.io.InputStream in = new FileInputStream(path)) {
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

  static String http(Subject subject, String host, int port, String serverHost, String doAs) throws Exception {
    return http(subject, "http", host, port, serverHost, doAs);
  }

  static String http(Subject subject, String scheme, String host, int port, String serverHost, String doAs) throws Exception {
    if (scheme.equals("https")) trustCaFile();
    THttpClient t = new THttpClient(new TConfiguration(), scheme + "://" + host + ":" + port + "/");
    t.setConnectTimeout(10000);
    t.setReadTimeout(30000);
    if (doAs != null) t.setCustomHeader("doAs", doAs);
    // THttpClient posts once per flush, i.e. once per call: a fresh token
    // before each call (the servlet authenticates every request anew).
    THBaseService.Client client = new THBaseService.Client(new TBinaryProtocol(t) {
      @Override public void writeMessageBegin(org.apache.thrift.protocol.TMessage m) throws org.apache.thrift.TException {
        try { t.setCustomHeader("Authorization", negotiate(subject, serverHost)); }
        catch (Exception e) { throw new org.apache.thrift.TException(e); }
        super.writeMessageBegin(m);
      }
    });
    try {
      t.open();
      calls(client);
      return (scheme.equals("https") ? "TLS, " : "") + "SPNEGO" + (doAs != null ? ", doAs " + doAs : "");
    } finally {
      t.close();
    }
  }

  static String hex(byte[] b, int n) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < n && i < 64; i++) s.append(String.format("%02x", b[i]));
    if (n > 64) s.append("...");
    return s.toString();
  }

  static String printable(byte[] b, int n) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < n && i < 200; i++) s.append(b[i] >= 32 && b[i] < 127 ? (char) b[i] : '.');
    return s.toString();
  }

  // Unauthenticated binary call; returns a description, exits 1 if it was answered.
  static int plain(String host, int port, int waitS) throws Exception {
    TMemoryBuffer buf = new TMemoryBuffer(256);
    new THBaseService.Client(new TBinaryProtocol(buf)).send_getTableNamesByNamespace("hbase");
    byte[] req = java.util.Arrays.copyOf(buf.getArray(), buf.length());
    long t0 = System.nanoTime();
    try (Socket s = new Socket(host, port)) {
      s.setSoTimeout(waitS * 1000);
      OutputStream out = s.getOutputStream();
      out.write(req);
      out.flush();
      InputStream in = s.getInputStream();
      ByteArrayOutputStream got = new ByteArrayOutputStream();
      byte[] b = new byte[4096];
      String end;
      try {
        int n;
        while ((n = in.read(b)) >= 0) got.write(b, 0, n);
        end = "EOF (server closed)";
      } catch (SocketTimeoutException e) {
        end = "no EOF within " + waitS + " s (hang)";
      } catch (java.io.IOException e) {
        end = "error: " + e;
      }
      long ms = (System.nanoTime() - t0) / 1_000_000;
      byte[] r = got.toByteArray();
      System.out.println("plain call: sent " + req.length + " bytes; got " + r.length + " bytes: " + hex(r, r.length)
          + " \"" + printable(r, r.length) + "\"; then " + end + " after " + ms + " ms");
      // A Thrift reply would start 80 01 00 02 (version 1, REPLY).
      boolean answered = r.length >= 4 && (r[0] & 0xff) == 0x80 && r[1] == 1;
      return answered ? 1 : 0;
    }
  }

  // Each target in a thread of its own: a gateway's first call opens its
  // HBase connection (seconds each), so checking them one after the other
  // added up.  Lines are printed in the order of the targets.
  static int ready(String host, String serverHost, long timeoutS, String[] targets) throws Exception {
    long deadline = System.nanoTime() + timeoutS * 1_000_000_000L;
    Subject subject = login();
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(targets.length);
    List<java.util.concurrent.Future<String>> results = new java.util.ArrayList<>();
    for (String target : targets) {
      results.add(pool.submit(() -> {
        String[] pq = target.split(":", 2);
        int port = Integer.parseInt(pq[0]);
        String last = "no attempt made";
        // at least one attempt per target, even past the deadline
        do {
          try {
            String r = pq[1].startsWith("http") ? http(subject, pq[1], host, port, serverHost, null) : sasl(subject, host, port, serverHost, pq[1]);
            return "ready: " + host + ":" + port + " " + r;
          } catch (Exception e) {
            last = e + " (root: " + root(e) + ")";
            if (System.nanoTime() < deadline) Thread.sleep(1000);
          }
        } while (System.nanoTime() < deadline);
        return "not ready: " + host + ":" + port + ": " + last;
      }));
    }
    int rc = 0;
    for (java.util.concurrent.Future<String> f : results) {
      String line = f.get();
      System.out.println(line);
      if (!line.startsWith("ready: ")) rc = 1;
    }
    pool.shutdown();
    return rc;
  }

  static void usage() {
    System.err.println("usage: SecureProbe sasl HOST PORT SERVER_HOST QOP TIMEOUT_S | http|https HOST PORT SERVER_HOST TIMEOUT_S [DOAS]\n"
        + "       | ready HOST SERVER_HOST TIMEOUT_S PORT:QOP...\n"
        + "       | sasl-refused HOST PORT SERVER_HOST QOP | http-refused HOST PORT SERVER_HOST DOAS\n"
        + "       | http-replay HOST PORT SERVER_HOST | http-challenge HOST PORT | plain HOST PORT [WAIT_S]");
    System.exit(2);
  }

  static Throwable root(Throwable e) {
    while (e.getCause() != null && e.getCause() != e) e = e.getCause();
    return e;
  }

  public static void main(String[] a) throws Exception {
    if (a.length < 3) usage();
    if (a[0].equals("ready")) {
      if (a.length < 5) usage();
      System.exit(ready(a[1], a[2], Long.parseLong(a[3]), java.util.Arrays.copyOfRange(a, 4, a.length)));
    }
    String mode = a[0], host = a[1];
    int port = Integer.parseInt(a[2]);
    switch (mode) {
      case "plain":
        System.exit(plain(host, port, a.length > 3 ? Integer.parseInt(a[3]) : 20));
      case "http-replay": {
        if (a.length != 4) usage();
        Subject subject = login();
        String token = negotiate(subject, a[3]);
        String[] outcome = new String[2];
        for (int i = 0; i < 2; i++) {
          THttpClient t = new THttpClient(new TConfiguration(), "http://" + host + ":" + port + "/");
          t.setCustomHeader("Authorization", token);
          try {
            t.open();
            new THBaseService.Client(new TBinaryProtocol(t)).getTableNamesByNamespace("hbase");
            outcome[i] = "answered";
          } catch (Exception e) {
            outcome[i] = "refused: " + e;
          } finally {
            t.close();
          }
        }
        System.out.println("same token twice: first " + outcome[0] + "; second " + outcome[1]);
        System.exit(outcome[0].equals("answered") && outcome[1].startsWith("refused") ? 0 : 1);
      }
      case "http-challenge": {
        try (Socket s = new Socket(host, port)) {
          s.setSoTimeout(20000);
          String req = "POST / HTTP/1.1\r\nHost: " + host + ":" + port
              + "\r\nContent-Type: application/x-thrift\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
          s.getOutputStream().write(req.getBytes(StandardCharsets.US_ASCII));
          String resp = new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
          String head = resp.split("\r\n\r\n", 2)[0];
          System.out.println(head.replace("\r\n", " | "));
          boolean ok = head.startsWith("HTTP/1.1 401") && head.matches("(?is).*\r\nWWW-Authenticate: Negotiate\\s*(\r\n.*)?");
          System.exit(ok ? 0 : 1);
        }
      }
      case "sasl-refused":
      case "http-refused": {
        if (a.length != 5) usage();
        long t0 = System.nanoTime();
        try {
          Subject subject = login();
          String r = mode.equals("sasl-refused") ? sasl(subject, host, port, a[3], a[4]) : http(subject, host, port, a[3], a[4]);
          System.out.println("unexpectedly answered: " + r);
          System.exit(1);
        } catch (Exception e) {
          System.out.println("refused after " + (System.nanoTime() - t0) / 1_000_000 + " ms: " + e + " (root: " + root(e) + ")");
          System.exit(0);
        }
      }
      case "sasl":
      case "http":
      case "https": {
        boolean isSasl = mode.equals("sasl");
        if (isSasl ? a.length != 6 : (a.length != 5 && a.length != 6)) usage();
        long deadline = System.nanoTime() + Long.parseLong(a[isSasl ? 5 : 4]) * 1_000_000_000L;
        Subject subject = login();
        String last = "no attempt made";
        while (System.nanoTime() < deadline) {
          try {
            String r = isSasl ? sasl(subject, host, port, a[3], a[4]) : http(subject, mode, host, port, a[3], a.length == 6 ? a[5] : null);
            System.out.println("ready: " + host + ":" + port + " " + r);
            return;
          } catch (Exception e) {
            last = e + " (root: " + root(e) + ")";
          }
          Thread.sleep(1000);
        }
        System.err.println("not ready: " + host + ":" + port + ": " + last);
        System.exit(1);
      }
      default:
        usage();
    }
  }
}
