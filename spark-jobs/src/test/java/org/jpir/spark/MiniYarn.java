package org.jpir.spark;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;

/**
 * A real Hadoop cluster in one JVM for {@code deploy/yarn-test.sh}: HDFS ({@link MiniHdfs}: a
 * NameNode and a DataNode) and YARN (a ResourceManager and one NodeManager that launches containers as local
 * processes), with the client configuration written to {@code DIR/conf} for spark-submit's
 * {@code HADOOP_CONF_DIR}.
 *
 * <pre>
 *   MiniYarn start DIR [nmMemoryMb] [nmVcores]   runs until DIR/stop appears (DIR/ready: started)
 *   MiniYarn put CONF LOCAL REMOTE               copy a local file or folder into the cluster
 *   MiniYarn get CONF REMOTE LOCAL               copy a cluster file or folder out of it
 * </pre>
 */
public final class MiniYarn {
  private MiniYarn() {}

  /** Entry point; exit code 2 on a usage error. */
  public static void main(String[] args) throws Exception {
    if (args.length >= 2 && args[0].equals("start")) {
      try {
        start(Path.of(args[1]).toAbsolutePath(),
            args.length > 2 ? Integer.parseInt(args[2]) : 6144,
            args.length > 3 ? Integer.parseInt(args[3]) : 4);
      } catch (Exception | Error e) {
        e.printStackTrace();
        System.exit(1); // the daemons' threads would keep a failed JVM alive
      }
      System.exit(0);
    } else if (args.length == 4 && (args[0].equals("put") || args[0].equals("get"))) {
      Configuration conf = clientConf(Path.of(args[1]));
      FileSystem fs = FileSystem.get(conf);
      if (args[0].equals("put")) {
        fs.copyFromLocalFile(false, true, new org.apache.hadoop.fs.Path(Path.of(args[2])
            .toAbsolutePath().toUri()), new org.apache.hadoop.fs.Path(args[3]));
      } else {
        fs.copyToLocalFile(false, new org.apache.hadoop.fs.Path(args[2]),
            new org.apache.hadoop.fs.Path(Path.of(args[3]).toAbsolutePath().toUri()), true);
      }
    } else {
      System.err.println("usage: MiniYarn start DIR [nmMemoryMb] [nmVcores] | put CONF LOCAL"
          + " REMOTE | get CONF REMOTE LOCAL");
      System.exit(2);
    }
  }

  private static Configuration clientConf(Path confDir) {
    Configuration conf = new Configuration(false);
    for (String f : new String[] {"core-site.xml", "hdfs-site.xml", "yarn-site.xml"}) {
      conf.addResource(new org.apache.hadoop.fs.Path(confDir.resolve(f).toUri()));
    }
    return conf;
  }

  private static void start(Path dir, int nmMemoryMb, int nmVcores) throws Exception {
    Files.createDirectories(dir.resolve("conf"));
    Files.deleteIfExists(dir.resolve("ready"));
    Files.deleteIfExists(dir.resolve("stop"));
    MiniDFSCluster hdfs = MiniHdfs.start(dir);
    String fsUri = hdfs.getFileSystem().getUri().toString();

    YarnConfiguration yconf = new YarnConfiguration();
    yconf.set("fs.defaultFS", fsUri);
    // the capacity scheduler with one queue taking everything (no capacity-scheduler.xml here)
    yconf.set("yarn.scheduler.capacity.root.queues", "default");
    yconf.set("yarn.scheduler.capacity.root.default.capacity", "100");
    yconf.set("yarn.scheduler.capacity.root.default.maximum-capacity", "100");
    yconf.set("yarn.scheduler.capacity.maximum-am-resource-percent", "0.5");
    yconf.setInt(YarnConfiguration.NM_PMEM_MB, nmMemoryMb);
    yconf.setInt(YarnConfiguration.YARN_MINICLUSTER_NM_PMEM_MB, nmMemoryMb); // else 4096
    yconf.setInt(YarnConfiguration.NM_VCORES, nmVcores);
    yconf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 128);
    yconf.setInt(YarnConfiguration.RM_SCHEDULER_MAXIMUM_ALLOCATION_MB, nmMemoryMb);
    yconf.setInt(YarnConfiguration.RM_SCHEDULER_MAXIMUM_ALLOCATION_VCORES, nmVcores);
    // the containers are JVMs sized by Spark; YARN's memory policing would kill them for the
    // virtual memory a JVM reserves
    yconf.setBoolean(YarnConfiguration.NM_PMEM_CHECK_ENABLED, false);
    yconf.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
    yconf.setFloat(YarnConfiguration.NM_MAX_PER_DISK_UTILIZATION_PERCENTAGE, 100.0f);
    // local and log directories: MiniYARNCluster puts them under ./target/<name> of its cwd
    MiniYARNCluster yarn = new MiniYARNCluster("jpir-yarn", 1, 1, 1);
    yarn.init(yconf);
    yarn.start();
    // the ResourceManager's real port appears in the configuration once it is listening
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (yarn.getConfig().get(YarnConfiguration.RM_ADDRESS, ":0").endsWith(":0")) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the ResourceManager did not start within 60 s");
      }
      Thread.sleep(100);
    }
    Configuration out = new Configuration(yarn.getConfig());
    out.set("fs.defaultFS", fsUri);
    write(out, dir.resolve("conf/yarn-site.xml"));
    Configuration core = new Configuration(false);
    core.set("fs.defaultFS", fsUri);
    write(core, dir.resolve("conf/core-site.xml"));
    write(new Configuration(false), dir.resolve("conf/hdfs-site.xml"));
    Files.writeString(dir.resolve("ready"), fsUri + "\n" + out.get(YarnConfiguration.RM_ADDRESS)
        + "\n");
    System.out.println("mini-yarn: HDFS " + fsUri + ", ResourceManager "
        + out.get(YarnConfiguration.RM_ADDRESS) + ", NodeManager " + nmMemoryMb + " MB x "
        + nmVcores + " vcores; stop: touch " + dir.resolve("stop"));
    while (!Files.exists(dir.resolve("stop"))) {
      Thread.sleep(250);
    }
    yarn.stop();
    hdfs.shutdown(true);
    System.out.println("mini-yarn: stopped");
  }

  private static void write(Configuration c, Path file) throws IOException {
    try (OutputStream o = Files.newOutputStream(file)) {
      c.writeXml(o);
    }
  }
}
