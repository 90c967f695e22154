package org.jpir.spark;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/** The tests' real HDFS: one NameNode and one DataNode under a temporary folder. */
final class MiniHdfs {
  private MiniHdfs() {}

  /** A started cluster with its data under {@code base}; shut it down after the tests. */
  static MiniDFSCluster start(Path base) throws IOException {
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, base.resolve("hdfs").toString());
    // small blocks, so a chunk spans several blocks and reads cross block boundaries
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 4096);
    conf.setLong("dfs.blocksize", 64 * 1024);
    conf.setInt("dfs.bytes-per-checksum", 512);
    // a file is closed once its last block is committed (not after the DataNode's report) and
    // the DataNode reports every second: writing many small files takes seconds, not minutes
    conf.setInt("dfs.namenode.file.close.num-committed-allowed", 1);
    conf.setLong("dfs.heartbeat.interval", 1);
    MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).format(true)
        .build();
    cluster.waitActive();
    return cluster;
  }
}
