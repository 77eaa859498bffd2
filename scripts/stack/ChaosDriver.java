// SPDX-License-Identifier: Apache-2.0
// The chaos side of scripts/chaos.sh: while the workload runs, at random
// intervals it moves regions between region servers, splits and merges
// regions, crashes or stops a region server (ClusterLauncher.java replaces
// it) and restarts a Thrift2 gateway (scripts/stack.sh restart-gateway).
// Every action is logged on stdout with a UTC timestamp, its outcome and
// its duration.
//
//   java -cp <stack classpath> ChaosDriver.java DURATION_S TABLE_REGEX CONTROL_DIR
//        STACK_SH GATEWAY_PORTS [SEED]
//
// DURATION_S   how long to cause trouble
// TABLE_REGEX  the tables whose regions are moved, split and merged
// CONTROL_DIR  ClusterLauncher's request directory
// STACK_SH     scripts/stack.sh (run with the caller's HBASE_GLIB_* settings)
// GATEWAY_PORTS  comma-separated gateway ports to restart
//
// Actions are drawn from a shuffled deck holding each kind once, refilled
// when empty, so every kind happens when the run is long enough for one
// deck.  After DURATION_S it waits until no region is in transition and
// every region of the tables is open (at most 180 s), prints a summary and
// exits 0 if every kind of action succeeded at least once, 1 otherwise.
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.util.Bytes;

public class ChaosDriver {
  enum Kind { MOVE, SPLIT, MERGE, CRASH_REGION_SERVER, STOP_REGION_SERVER, RESTART_GATEWAY }

  static final int MIN_REGIONS_PER_TABLE = 2;
  static final int MAX_REGIONS_PER_TABLE = 12;

  static void log(String message) {
    System.out.printf("%tFT%<tT.%<tLZ chaos: %s%n", System.currentTimeMillis(), message);
    System.out.flush();
  }

  final Random random;
  final Connection connection;
  final Admin admin;
  final Pattern tables;
  final Path control;
  final String stackSh;
  final String[] gatewayPorts;
  final Map<Kind, int[]> counts = new LinkedHashMap<>(); // kind -> {ok, failed, skipped}
  int requestNumber;

  ChaosDriver(Connection connection, Pattern tables, Path control, String stackSh,
              String[] gatewayPorts, long seed) throws Exception {
    this.random = new Random(seed);
    this.connection = connection;
    this.admin = connection.getAdmin();
    this.tables = tables;
    this.control = control;
    this.stackSh = stackSh;
    this.gatewayPorts = gatewayPorts;
    for (Kind kind : Kind.values()) {
      counts.put(kind, new int[3]);
    }
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 5 || args.length > 6) {
      System.err.println("usage: ChaosDriver DURATION_S TABLE_REGEX CONTROL_DIR STACK_SH GATEWAY_PORTS [SEED]");
      System.exit(2);
    }
    long duration = Long.parseLong(args[0]) * 1000;
    long seed = args.length == 6 ? Long.parseLong(args[5]) : System.nanoTime();
    Configuration conf = HBaseConfiguration.create();
    try (Connection connection = ConnectionFactory.createConnection(conf)) {
      ChaosDriver driver = new ChaosDriver(connection, Pattern.compile(args[1]), Path.of(args[2]),
                                           args[3], args[4].split(","), seed);
      log("seed " + seed + ", " + args[0] + " s, tables /" + args[1] + "/, gateways " + args[4]);
      driver.run(duration);
      driver.settle();
      System.exit(driver.summary() ? 0 : 1);
    }
  }

  void run(long duration) throws Exception {
    long end = System.currentTimeMillis() + duration;
    List<Kind> deck = new ArrayList<>();
    while (true) {
      long pause = 2000 + random.nextInt(4000);
      if (System.currentTimeMillis() + pause >= end) {
        break;
      }
      Thread.sleep(pause);
      if (deck.isEmpty()) {
        deck.addAll(Arrays.asList(Kind.values()));
        Collections.shuffle(deck, random);
      }
      Kind kind = deck.remove(0);
      long t0 = System.currentTimeMillis();
      String outcome;
      int slot;
      try {
        String what = act(kind);
        if (what == null) {
          outcome = "skipped (nothing to do)";
          slot = 2;
        } else {
          outcome = "ok: " + what;
          slot = 0;
        }
      } catch (Exception e) {
        outcome = "FAILED: " + e.toString().replace('\n', ' ');
        slot = 1;
      }
      counts.get(kind)[slot]++;
      log(name(kind) + " " + outcome + " (" + (System.currentTimeMillis() - t0) + " ms)");
    }
  }

  static String name(Kind kind) {
    return kind.name().toLowerCase().replace('_', '-');
  }

  // Does one action; returns what it did, or null when it had nothing to act on.
  String act(Kind kind) throws Exception {
    switch (kind) {
      case MOVE: return move();
      case SPLIT: return split();
      case MERGE: return merge();
      case CRASH_REGION_SERVER: return restartRegionServer("abort");
      case STOP_REGION_SERVER: return restartRegionServer("stop");
      case RESTART_GATEWAY: return restartGateway();
      default: throw new IllegalStateException();
    }
  }

  List<TableName> workloadTables() throws Exception {
    List<TableName> names = new ArrayList<>(Arrays.asList(admin.listTableNames(tables)));
    Collections.sort(names);
    return names;
  }

  List<ServerName> liveServers() throws Exception {
    List<ServerName> servers = new ArrayList<>(admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS))
                                               .getLiveServerMetrics().keySet());
    Collections.sort(servers);
    return servers;
  }

  List<HRegionLocation> locations(TableName table) throws Exception {
    try (RegionLocator locator = connection.getRegionLocator(table)) {
      List<HRegionLocation> all = new ArrayList<>(locator.getAllRegionLocations());
      all.removeIf(l -> l.getRegion().isSplit());
      all.sort((a, b) -> Bytes.compareTo(a.getRegion().getStartKey(), b.getRegion().getStartKey()));
      return all;
    }
  }

  <T> T pick(List<T> list) {
    return list.get(random.nextInt(list.size()));
  }

  String move() throws Exception {
    List<HRegionLocation> all = new ArrayList<>();
    for (TableName table : workloadTables()) {
      all.addAll(locations(table));
    }
    List<ServerName> servers = liveServers();
    if (all.isEmpty() || servers.size() < 2) {
      return null;
    }
    HRegionLocation location = pick(all);
    List<ServerName> others = new ArrayList<>(servers);
    others.removeIf(s -> s.equals(location.getServerName()));
    ServerName target = pick(others);
    admin.move(location.getRegion().getEncodedNameAsBytes(), target);
    return location.getRegion().getRegionNameAsString() + " from " + location.getServerName() + " to " + target;
  }

  String split() throws Exception {
    List<TableName> candidates = new ArrayList<>();
    for (TableName table : workloadTables()) {
      if (locations(table).size() < MAX_REGIONS_PER_TABLE) {
        candidates.add(table);
      }
    }
    Collections.shuffle(candidates, random);
    for (TableName table : candidates) {
      List<HRegionLocation> regions = locations(table);
      Collections.shuffle(regions, random);
      for (HRegionLocation location : regions) {
        byte[] point = splitPoint(table, location.getRegion());
        if (point == null) {
          continue;
        }
        admin.splitRegionAsync(location.getRegion().getRegionName(), point).get(120, TimeUnit.SECONDS);
        return location.getRegion().getRegionNameAsString() + " at '" + Bytes.toStringBinary(point) + "'";
      }
    }
    return null;
  }

  // The middle one of the first rows of a region (at least two of them),
  // or null: a split point inside the data the workload writes.
  byte[] splitPoint(TableName name, RegionInfo region) throws Exception {
    Scan scan = new Scan().withStartRow(region.getStartKey()).withStopRow(region.getEndKey())
      .setFilter(new FirstKeyOnlyFilter()).setLimit(200).setCaching(200);
    List<byte[]> rows = new ArrayList<>();
    try (Table table = connection.getTable(name); ResultScanner scanner = table.getScanner(scan)) {
      for (Result result : scanner) {
        rows.add(result.getRow());
      }
    }
    if (rows.size() < 2) {
      return null;
    }
    return rows.get(1 + random.nextInt(rows.size() - 1));
  }

  // Merges two adjacent regions of a table with more than the minimum.
  // HBase refuses to merge a region that still has reference files from a
  // split ("Skip merging ..."); then another pair is tried.
  String merge() throws Exception {
    List<RegionInfo[]> pairs = new ArrayList<>();
    for (TableName table : workloadTables()) {
      List<HRegionLocation> regions = locations(table);
      if (regions.size() <= MIN_REGIONS_PER_TABLE) {
        continue;
      }
      for (int i = 0; i + 1 < regions.size(); i++) {
        RegionInfo a = regions.get(i).getRegion();
        RegionInfo b = regions.get(i + 1).getRegion();
        if (Bytes.equals(a.getEndKey(), b.getStartKey())) {
          pairs.add(new RegionInfo[] { a, b });
        }
      }
    }
    Collections.shuffle(pairs, random);
    List<String> refused = new ArrayList<>();
    for (RegionInfo[] pair : pairs) {
      try {
        admin.mergeRegionsAsync(new byte[][] { pair[0].getEncodedNameAsBytes(), pair[1].getEncodedNameAsBytes() }, false)
          .get(120, TimeUnit.SECONDS);
      } catch (java.util.concurrent.ExecutionException e) {
        if (e.getCause() != null && String.valueOf(e.getCause().getMessage()).contains("Skip merging")) {
          refused.add(pair[0].getEncodedName() + "+" + pair[1].getEncodedName());
          continue;
        }
        throw e;
      }
      return pair[0].getRegionNameAsString() + " + " + pair[1].getEncodedName()
        + (refused.isEmpty() ? "" : " (refused before, regions with references: " + String.join(", ", refused) + ")");
    }
    return null;
  }

  String restartRegionServer(String how) throws Exception {
    List<ServerName> servers = liveServers();
    if (servers.isEmpty()) {
      return null;
    }
    ServerName victim = pick(servers);
    String base = "request-" + ProcessHandle.current().pid() + "-" + (++requestNumber);
    Path tmp = control.resolve(base + ".tmp");
    Files.writeString(tmp, how + " " + victim + "\n", StandardCharsets.UTF_8);
    Files.move(tmp, control.resolve(base + ".request"), StandardCopyOption.ATOMIC_MOVE);
    Path done = control.resolve(base + ".done");
    long deadline = System.currentTimeMillis() + 180_000;
    while (!Files.exists(done)) {
      if (System.currentTimeMillis() > deadline) {
        throw new IllegalStateException("the cluster launcher did not answer within 180 s (" + base + ")");
      }
      Thread.sleep(100);
    }
    String answer = Files.readString(done, StandardCharsets.UTF_8).trim();
    Files.delete(done);
    if (!answer.startsWith("ok ")) {
      throw new IllegalStateException(answer);
    }
    String[] words = answer.split(" ");
    return (how.equals("abort") ? "crashed " : "stopped ") + victim + ", replacement " + words[1]
      + " online after " + words[2] + " ms";
  }

  String restartGateway() throws Exception {
    String port = gatewayPorts[random.nextInt(gatewayPorts.length)];
    ProcessBuilder builder = new ProcessBuilder(stackSh, "restart-gateway", port);
    builder.redirectErrorStream(true);
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(300, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new IllegalStateException("stack.sh restart-gateway " + port + " failed: " + output.trim());
    }
    String last = output.trim().replaceAll("(?s).*\n", "");
    return "gateway " + port + " (" + last.replaceFirst("^stack: ", "") + ")";
  }

  // Waits until the cluster is calm: no region in transition, every region
  // of the tables on a live server.
  void settle() throws Exception {
    long t0 = System.currentTimeMillis();
    while (true) {
      int inTransition = admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.REGIONS_IN_TRANSITION))
        .getRegionStatesInTransition().size();
      List<ServerName> servers = liveServers();
      int unassigned = 0;
      int regions = 0;
      for (TableName table : workloadTables()) {
        for (HRegionLocation location : locations(table)) {
          regions++;
          if (location.getServerName() == null || !servers.contains(location.getServerName())) {
            unassigned++;
          }
        }
      }
      if (inTransition == 0 && unassigned == 0) {
        log("settled after " + (System.currentTimeMillis() - t0) + " ms: " + regions + " regions on "
            + servers.size() + " region servers");
        return;
      }
      if (System.currentTimeMillis() - t0 > 180_000) {
        log("NOT settled after 180 s: " + inTransition + " regions in transition, " + unassigned + " not on a live server");
        return;
      }
      Thread.sleep(500);
    }
  }

  boolean summary() {
    StringBuilder line = new StringBuilder("actions (ok/failed/skipped):");
    boolean everyKind = true;
    for (Map.Entry<Kind, int[]> entry : counts.entrySet()) {
      int[] c = entry.getValue();
      line.append(' ').append(name(entry.getKey())).append('=').append(c[0]).append('/').append(c[1]).append('/').append(c[2]);
      if (c[0] == 0) {
        everyKind = false;
      }
    }
    log(line.toString());
    if (!everyKind) {
      log("not every kind of action succeeded at least once");
    }
    return everyKind;
  }
}
