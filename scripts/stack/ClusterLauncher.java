// SPDX-License-Identifier: Apache-2.0
// A standalone HBase with several region servers in one JVM whose region
// servers can be crashed or stopped on request and are then replaced, for
// the chaos run (scripts/chaos.sh).  scripts/stack.sh starts it instead of
// HMaster when HBASE_GLIB_REGIONSERVERS is set.
//
//   java -cp <stack classpath> ClusterLauncher.java REGIONSERVERS CONTROL_DIR
//
// It does what "HMaster start" does in standalone mode (an embedded
// ZooKeeper on hbase.zookeeper.property.clientPort, then a LocalHBaseCluster
// of one master and REGIONSERVERS region servers on random ports), and then
// keeps REGIONSERVERS region servers alive: a region server thread that
// ended (crashed, stopped through Admin.stopRegionServer or through a
// request) is replaced by a new one.
//
// Requests are files dropped into CONTROL_DIR (written elsewhere, then
// renamed in, so they are read whole):
//   NAME.request   one line "abort SERVERNAME" (a crash: no flush, the master
//                  splits its WAL) or "stop SERVERNAME" (a clean stop),
//                  SERVERNAME as host,port,startcode
// The answer is NAME.done: "ok <new server name> <milliseconds>" once the
// replacement is online, or "error <reason>".
//
// Where the servers are (their ports are random), for clients that speak
// HBase's own RPC: CONTROL_DIR/bootstrap-servers holds the master's
// "127.0.0.1:PORT" once the cluster is up, CONTROL_DIR/region-server-ports
// the live region servers' ports (space-separated), rewritten whenever one
// is replaced.
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.LocalHBaseCluster;
import org.apache.hadoop.hbase.master.HMaster;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hadoop.hbase.util.JVMClusterUtil.RegionServerThread;
import org.apache.hadoop.hbase.zookeeper.MiniZooKeeperCluster;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;

public class ClusterLauncher {
  static void log(String message) {
    System.out.printf("%tFT%<tT.%<tLZ cluster: %s%n", System.currentTimeMillis(), message);
    System.out.flush();
  }

  static LocalHBaseCluster cluster;
  static MiniZooKeeperCluster zookeeper;
  static volatile boolean stopping;

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: ClusterLauncher REGIONSERVERS CONTROL_DIR");
      System.exit(2);
    }
    int wanted = Integer.parseInt(args[0]);
    Path control = Path.of(args[1]);
    Files.createDirectories(control);

    Configuration conf = HBaseConfiguration.create();
    if (!LocalHBaseCluster.isLocal(conf)) {
      throw new IllegalStateException("hbase.cluster.distributed must be false");
    }
    int zkPort = conf.getInt("hbase.zookeeper.property.clientPort", 0);
    if (zkPort <= 0) {
      throw new IllegalStateException("hbase.zookeeper.property.clientPort is not set");
    }
    // Several region servers register metrics sources under one name, as
    // HMasterCommandLine allows in standalone mode.
    DefaultMetricsSystem.setMiniClusterMode(true);
    zookeeper = new MiniZooKeeperCluster(conf);
    zookeeper.setDefaultClientPort(zkPort);
    conf.setInt("zookeeper.session.timeout", conf.getInt("zookeeper.session.timeout.localHBaseCluster", 10000));
    int started = zookeeper.startup(new File(conf.get("hbase.zookeeper.property.dataDir")));
    if (started != zkPort) {
      zookeeper.shutdown();
      throw new IOException("ZooKeeper started on port " + started + ", not " + zkPort + " (port taken?)");
    }
    log("ZooKeeper on 127.0.0.1:" + zkPort);

    // Several region servers in one JVM cannot share the default ports.
    conf.setBoolean(LocalHBaseCluster.ASSIGN_RANDOM_PORTS, true);
    conf.setIfUnset("hbase.master.start.timeout.localHBaseCluster", "300000");
    cluster = new LocalHBaseCluster(conf, 1, wanted, HMaster.class, HRegionServer.class);
    Runtime.getRuntime().addShutdownHook(new Thread(ClusterLauncher::shutdown, "cluster-shutdown"));
    cluster.startup();
    log("master and " + wanted + " region servers started");
    writeAddresses(control);

    while (!stopping) {
      HMaster master = cluster.getActiveMaster();
      if (master == null && cluster.getLiveMasters().isEmpty()) {
        log("the master ended; exiting");
        break;
      }
      handleRequests(control);
      replaceEnded(wanted);
      writeAddresses(control);
      Thread.sleep(200);
    }
    shutdown();
  }

  // Region server threads that ended are removed and replaced until
  // `wanted` run.  Returns the name of the last replacement started.
  static synchronized String replaceEnded(int wanted) throws IOException {
    String name = null;
    for (RegionServerThread rst : new ArrayList<>(cluster.getRegionServers())) {
      if (!rst.isAlive()) {
        log("region server " + rst.getRegionServer().getServerName() + " ended");
        cluster.waitOnRegionServer(rst);
      }
    }
    while (!stopping && cluster.getRegionServers().size() < wanted) {
      RegionServerThread rst = cluster.addRegionServer();
      rst.start();
      rst.waitForServerOnline();
      name = rst.getRegionServer().getServerName().toString();
      log("region server " + name + " started as a replacement");
    }
    return name;
  }

  static String lastMaster = "";
  static String lastPorts = "";

  // bootstrap-servers and region-server-ports (see the top) when they
  // changed, each written elsewhere and renamed in so that it is read whole.
  static synchronized void writeAddresses(Path control) throws IOException {
    HMaster master = cluster.getActiveMaster();
    if (master != null) {
      String address = "127.0.0.1:" + master.getServerName().getPort();
      if (!address.equals(lastMaster)) {
        writeWhole(control, "bootstrap-servers", address);
        lastMaster = address;
      }
    }
    StringBuilder ports = new StringBuilder();
    for (RegionServerThread rst : cluster.getLiveRegionServers()) {
      ports.append(ports.length() > 0 ? " " : "").append(rst.getRegionServer().getServerName().getPort());
    }
    if (!ports.toString().equals(lastPorts)) {
      writeWhole(control, "region-server-ports", ports.toString());
      lastPorts = ports.toString();
    }
  }

  static void writeWhole(Path control, String name, String line) throws IOException {
    Path tmp = control.resolve(name + ".tmp");
    Files.writeString(tmp, line + "\n", StandardCharsets.UTF_8);
    Files.move(tmp, control.resolve(name), StandardCopyOption.ATOMIC_MOVE);
  }

  static void handleRequests(Path control) throws IOException {
    List<Path> requests = new ArrayList<>();
    try (var stream = Files.newDirectoryStream(control, "*.request")) {
      stream.forEach(requests::add);
    }
    for (Path request : requests) {
      String line = Files.readString(request, StandardCharsets.UTF_8).trim();
      Files.delete(request);
      String answer;
      try {
        answer = handle(line);
      } catch (Exception e) {
        answer = "error " + e;
      }
      log("request '" + line + "': " + answer);
      String base = request.getFileName().toString().replaceAll("\\.request$", "");
      Path tmp = control.resolve(base + ".tmp");
      Files.writeString(tmp, answer + "\n", StandardCharsets.UTF_8);
      Files.move(tmp, control.resolve(base + ".done"), StandardCopyOption.ATOMIC_MOVE);
    }
  }

  static String handle(String line) throws Exception {
    String[] words = line.split("\\s+");
    if (words.length != 2 || !(words[0].equals("abort") || words[0].equals("stop"))) {
      return "error expected 'abort SERVERNAME' or 'stop SERVERNAME', got '" + line + "'";
    }
    RegionServerThread target = null;
    for (RegionServerThread rst : cluster.getRegionServers()) {
      if (rst.isAlive() && rst.getRegionServer().getServerName().toString().equals(words[1])) {
        target = rst;
      }
    }
    if (target == null) {
      return "error no live region server " + words[1];
    }
    long t0 = System.currentTimeMillis();
    int wanted = cluster.getRegionServers().size();
    if (words[0].equals("abort")) {
      target.getRegionServer().abort("crashed on request (chaos run)");
    } else {
      target.getRegionServer().stop("stopped on request (chaos run)");
    }
    target.join(120_000);
    if (target.isAlive()) {
      return "error " + words[1] + " did not end within 120 s";
    }
    String replacement = replaceEnded(wanted);
    return "ok " + replacement + " " + (System.currentTimeMillis() - t0);
  }

  static synchronized void shutdown() {
    if (stopping) {
      return;
    }
    stopping = true;
    log("shutting down");
    try {
      cluster.shutdown();
      cluster.join();
    } catch (RuntimeException e) {
      log("cluster shutdown: " + e);
    }
    try {
      zookeeper.shutdown();
    } catch (IOException e) {
      log("ZooKeeper shutdown: " + e);
    }
  }
}
