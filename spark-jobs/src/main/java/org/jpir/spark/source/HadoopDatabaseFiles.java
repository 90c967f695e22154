package org.jpir.spark.source;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.jpir.datasets.store.DatabaseFiles;
import org.jpir.datasets.store.StoredDatabaseException;

/**
 * A stored database's files in a {@link Storage} directory on a file system other than the local
 * one (HDFS, object stores): written with {@code hsync}, published by a rename that fails when
 * the target exists.
 */
final class HadoopDatabaseFiles implements DatabaseFiles {
  private final Storage storage;
  private final FileSystem fs;
  private final Path dir;

  HadoopDatabaseFiles(Storage storage, FileSystem fs, Path dir) {
    this.storage = storage;
    this.fs = fs;
    this.dir = dir;
  }

  @Override
  public List<String> list() {
    return storage.list("");
  }

  @Override
  public long length(String name) {
    return storage.length(name);
  }

  @Override
  public byte[] read(String name, long maxBytes) {
    return storage.read(name, maxBytes, "database file");
  }

  private Path writeTemp(String name, byte[] bytes) throws IOException {
    Path tmp = new Path(dir, "." + name + ".tmp-" + UUID.randomUUID());
    try (FSDataOutputStream out = fs.create(tmp, false)) {
      out.write(bytes);
      out.hsync();
    }
    return tmp;
  }

  @Override
  public void writeDurable(String name, byte[] bytes) {
    Path target = new Path(dir, name);
    try {
      Path tmp = writeTemp(name, bytes);
      if (fs.exists(target)) {
        fs.delete(target, false); // a stale file of an unpublished version
      }
      if (!fs.rename(tmp, target)) {
        fs.delete(tmp, false);
        throw new IOException("cannot rename " + tmp + " to " + target);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + target, e);
    }
  }

  @Override
  public void publish(String name, byte[] bytes) {
    Path target = new Path(dir, name);
    try {
      if (fs.exists(target)) {
        throw new StoredDatabaseException(target + " already exists");
      }
      Path tmp = writeTemp(name, bytes);
      if (!fs.rename(tmp, target)) {
        fs.delete(tmp, false);
        throw new StoredDatabaseException("cannot rename " + tmp
            + " to " + target + " (it exists, or the file system refused)");
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot publish " + target, e);
    }
  }

  @Override
  public boolean createExclusive(String name, byte[] bytes) {
    try (FSDataOutputStream out = fs.create(new Path(dir, name), false)) {
      out.write(bytes);
      return true;
    } catch (FileAlreadyExistsException e) {
      return false;
    } catch (IOException e) {
      if (storage.exists(name)) {
        return false;
      }
      throw new UncheckedIOException("cannot create " + name + " in " + dir, e);
    }
  }

  @Override
  public void delete(String name) {
    storage.delete(name);
  }

  @Override
  public String describe() {
    return dir.toString();
  }
}
