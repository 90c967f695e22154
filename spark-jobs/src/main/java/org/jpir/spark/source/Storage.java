package org.jpir.spark.source;

import java.io.File;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.deploy.SparkHadoopUtil;
import org.jpir.core.wire.Wire;
import org.jpir.datasets.store.DatabaseFiles;
import org.jpir.datasets.store.LocalDatabaseFiles;

/**
 * One directory of the job's storage (queries, answers, keys, a stored database) through
 * Hadoop's {@link FileSystem}: {@code file://}, {@code hdfs://}, {@code s3a://} or whatever the
 * class path supports; a path without a scheme lives on {@code fs.defaultFS} (the local file
 * system unless configured). Reads are bounded: a file is refused unread unless it is a regular
 * file no larger than the caller's limit (on the local file system through {@link Wire#readFile},
 * which also refuses FIFOs and devices), and at most limit + 1 bytes are read. Writes are atomic
 * where the file system allows: a temporary file in the same directory, then a rename (an
 * existing target is replaced: atomically on the local file system, by delete and rename
 * elsewhere).
 */
public final class Storage {
  private final FileSystem fs;
  private final Path dir;

  private Storage(FileSystem fs, Path dir) {
    this.fs = fs;
    this.dir = dir;
  }

  /** The directory {@code uri} with the job's Hadoop configuration ({@link #hadoopConf}). */
  public static Storage at(String uri) {
    return at(uri, hadoopConf());
  }

  /** The directory {@code uri} under {@code conf}. */
  public static Storage at(String uri, Configuration conf) {
    try {
      Path p = new Path(uri);
      FileSystem fs = p.getFileSystem(conf);
      return new Storage(fs, fs.makeQualified(p));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the file system of " + uri, e);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("cannot open the file system of " + uri + ": "
          + e.getMessage(), e);
    }
  }

  /**
   * Hadoop's configuration with Spark's {@code spark.hadoop.*} settings applied: the running
   * Spark environment's (driver or executor), else the one spark-submit passed in system
   * properties.
   */
  public static Configuration hadoopConf() {
    SparkEnv env = SparkEnv.get();
    return SparkHadoopUtil.get().newConfiguration(env != null ? env.conf() : new SparkConf());
  }

  /** True for a path written with a scheme ({@code hdfs://...}, {@code file:/...}). */
  public static boolean hasScheme(String spec) {
    return spec.matches("^[A-Za-z][A-Za-z0-9+.-]*:/.*");
  }

  /** The qualified directory. */
  public Path dir() {
    return dir;
  }

  /** The directory {@code name} below this one. */
  public Storage sub(String name) {
    return new Storage(fs, new Path(dir, name));
  }

  /** Creates the directory (and its parents) when absent. */
  public void mkdirs() {
    try {
      fs.mkdirs(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + dir, e);
    }
  }

  /** True when {@code dir} is a directory. */
  public boolean isDirectory() {
    try {
      return fs.getFileStatus(dir).isDirectory();
    } catch (FileNotFoundException e) {
      return false;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot look at " + dir, e);
    }
  }

  /** Names of the entries of the directory ending with one of {@code suffixes}, sorted. */
  public List<String> list(String... suffixes) {
    List<String> out = new ArrayList<>();
    try {
      for (FileStatus st : fs.listStatus(dir)) {
        String n = st.getPath().getName();
        for (String s : suffixes) {
          if (n.endsWith(s)) {
            out.add(n);
            break;
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + dir, e);
    }
    out.sort(null);
    return out;
  }

  /**
   * An entry of a directory listing: its name as the file system gives it (untrusted: it may
   * hold any character the file system allows) and whether it is a regular file.
   */
  public record Entry(String name, boolean regularFile) {}

  /**
   * The directory's entries, sorted by name. On the local file system the names come from
   * {@code java.nio} (never through a Hadoop {@link Path}) and links are not followed (a link is
   * not a regular file); elsewhere from the file system's listing.
   */
  public List<Entry> entries() {
    List<Entry> out = new ArrayList<>();
    if (local()) {
      java.nio.file.Path d = localFile(dir).toPath();
      try (DirectoryStream<java.nio.file.Path> s = Files.newDirectoryStream(d)) {
        for (java.nio.file.Path e : s) {
          boolean regular;
          try {
            regular = Files.readAttributes(e, BasicFileAttributes.class,
                LinkOption.NOFOLLOW_LINKS).isRegularFile();
          } catch (IOException gone) {
            regular = false;
          }
          out.add(new Entry(e.getFileName().toString(), regular));
        }
      } catch (IOException | DirectoryIteratorException e) {
        throw new UncheckedIOException("cannot list " + dir, e instanceof IOException io ? io
            : ((DirectoryIteratorException) e).getCause());
      }
    } else {
      try {
        for (FileStatus st : fs.listStatus(dir)) {
          out.add(new Entry(st.getPath().getName(), st.isFile()));
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot list " + dir, e);
      }
    }
    out.sort(Comparator.comparing(Entry::name));
    return out;
  }

  /** The directory as a local path when it lies on the local file system, else empty. */
  public Optional<java.nio.file.Path> localDirectory() {
    return local() ? Optional.of(localFile(dir).toPath()) : Optional.empty();
  }

  /** True when the entry {@code name} exists. */
  public boolean exists(String name) {
    try {
      return fs.exists(new Path(dir, name));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot look at " + name + " in " + dir, e);
    }
  }

  /** Length of the regular file {@code name}, or -1 when it is absent or not a regular file. */
  public long length(String name) {
    try {
      FileStatus st = fs.getFileStatus(new Path(dir, name));
      return st.isFile() ? st.getLen() : -1;
    } catch (FileNotFoundException e) {
      return -1;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot look at " + name + " in " + dir, e);
    }
  }

  /**
   * The bytes of the regular file {@code name}, refused unread when it is not one or holds more
   * than {@code maxBytes}.
   *
   * @throws IllegalArgumentException naming the file and the limit
   * @throws UncheckedIOException when it cannot be read
   */
  public byte[] read(String name, long maxBytes, String what) {
    Path f = new Path(dir, name);
    if (local()) {
      return Wire.readFile(localFile(f).toPath(), maxBytes, what);
    }
    try {
      FileStatus st;
      try {
        st = fs.getFileStatus(f);
      } catch (FileNotFoundException e) {
        throw new IllegalArgumentException(what + " " + name + " does not exist");
      }
      if (!st.isFile()) {
        throw new IllegalArgumentException(what + " " + name + " is not a regular file");
      }
      if (st.getLen() > maxBytes) {
        throw new IllegalArgumentException(what + " " + name + " has " + st.getLen()
            + " bytes, more than the largest valid " + maxBytes);
      }
      try (InputStream in = fs.open(f)) {
        return Wire.readBounded(in, maxBytes, what + " " + name);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + what + " " + name + " in " + dir, e);
    }
  }

  /**
   * Reads exactly {@code expected} bytes of the regular file {@code name} (a stored chunk whose
   * length the manifest fixes), checking its length before allocating.
   *
   * @throws IllegalStateException naming the file when its length differs
   */
  public byte[] readExactly(String name, long expected, String what) {
    if (expected < 0 || expected > Integer.MAX_VALUE - 16) {
      throw new IllegalStateException(what + " " + name + ": " + expected + " bytes cannot be"
          + " held in one array");
    }
    long len = length(name);
    if (len != expected) {
      throw new IllegalStateException(what + " " + name + " in " + dir + " is " + (len < 0
          ? "missing or not a regular file" : len + " bytes") + ", expected " + expected);
    }
    byte[] b = new byte[(int) expected];
    try (FSDataInputStream in = fs.open(new Path(dir, name))) {
      in.readFully(0, b);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + what + " " + name + " in " + dir, e);
    }
    return b;
  }

  /** Writes {@code name} atomically (see the class comment), replacing an existing one. */
  public void write(String name, byte[] bytes) {
    Path target = new Path(dir, name);
    if (local()) {
      writeLocal(localFile(target).toPath(), bytes);
      return;
    }
    Path tmp = new Path(dir, "." + name + "." + UUID.randomUUID() + ".tmp");
    try {
      try (FSDataOutputStream out = fs.create(tmp, false)) {
        out.write(bytes);
      }
      if (fs.exists(target) && !fs.delete(target, false)) {
        throw new IOException("cannot replace " + target);
      }
      if (!fs.rename(tmp, target)) {
        throw new IOException("cannot rename " + tmp + " to " + target);
      }
    } catch (IOException e) {
      try {
        fs.delete(tmp, false);
      } catch (IOException ignored) {
        // the temporary file stays; its name starts with a dot
      }
      throw new UncheckedIOException("cannot write " + target, e);
    }
  }

  /**
   * Copies the local directory {@code local} (and everything below it) to the new entry {@code
   * name} of this directory: into a hidden sibling {@code .name.tmp-RANDOM} first, then one rename
   * (atomic on HDFS and the local file system), so {@code name} never holds a partial copy.
   *
   * @throws IllegalArgumentException when {@code name} already exists
   */
  public void putDirectory(java.nio.file.Path local, String name) {
    Path target = new Path(dir, name);
    Path tmp = new Path(dir, "." + name + ".tmp-" + UUID.randomUUID());
    try {
      if (fs.exists(target)) {
        throw new IllegalArgumentException(target + " already exists; choose a new directory");
      }
      fs.mkdirs(dir);
      fs.copyFromLocalFile(false, false, new Path(local.toAbsolutePath().toUri()), tmp);
      if (!fs.rename(tmp, target)) {
        throw new IOException("cannot rename " + tmp + " to " + target);
      }
    } catch (IOException e) {
      try {
        fs.delete(tmp, true);
      } catch (IOException ignored) {
        // the partial copy stays under its hidden name
      }
      throw new UncheckedIOException("cannot copy " + local + " to " + target, e);
    }
  }

  /** Deletes the file {@code name} when present. */
  public void delete(String name) {
    try {
      fs.delete(new Path(dir, name), false);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + name + " in " + dir, e);
    }
  }

  /**
   * This directory as the {@link org.jpir.datasets.store.DatabaseFiles} of a stored database
   * (updates): on the local file system with fsync and link-then-unlink publishing; elsewhere
   * {@link HadoopDatabaseFiles}, written with {@code hsync}, published by a rename that fails
   * when the target exists (HDFS).
   */
  public DatabaseFiles databaseFiles() {
    if (local()) {
      return new LocalDatabaseFiles(localFile(dir).toPath());
    }
    return new HadoopDatabaseFiles(this, fs, dir);
  }

  private boolean local() {
    return fs instanceof LocalFileSystem || fs instanceof RawLocalFileSystem;
  }

  private File localFile(Path p) {
    return new File(p.toUri());
  }

  @Override
  public String toString() {
    return dir.toString();
  }

  /** Writes a local file atomically: a temporary file in the same directory, then a rename. */
  public static void writeLocal(java.nio.file.Path target, byte[] bytes) {
    try {
      java.nio.file.Path tmp =
          Files.createTempFile(target.getParent(), "." + target.getFileName(), ".tmp");
      try {
        Files.write(tmp, bytes);
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING,
            StandardCopyOption.ATOMIC_MOVE);
      } finally {
        Files.deleteIfExists(tmp);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + target, e);
    }
  }
}
