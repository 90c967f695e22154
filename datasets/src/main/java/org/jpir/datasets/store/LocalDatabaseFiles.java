package org.jpir.datasets.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

/**
 * {@link DatabaseFiles} of a local directory: fsync on every durable write, {@code rename(2)} to
 * publish (a hard link first, so that publishing never replaces an existing file).
 */
public final class LocalDatabaseFiles implements DatabaseFiles {
  private final Path dir;

  /** The files of the local directory {@code dir}. */
  public LocalDatabaseFiles(Path dir) {
    this.dir = dir.toAbsolutePath().normalize();
  }

  @Override
  public List<String> list() {
    List<String> out = new ArrayList<>();
    try (Stream<Path> s = Files.list(dir)) {
      s.forEach(p -> out.add(p.getFileName().toString()));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + dir, e);
    }
    return out;
  }

  @Override
  public long length(String name) {
    Path f = dir.resolve(name);
    try {
      return Files.isRegularFile(f) ? Files.size(f) : -1;
    } catch (IOException e) {
      return -1;
    }
  }

  @Override
  public byte[] read(String name, long maxBytes) {
    Path f = dir.resolve(name);
    long len = length(name);
    if (len < 0) {
      throw new StoredDatabaseException(dir + ": " + name + " is missing or not a regular file");
    }
    if (len > maxBytes) {
      throw new StoredDatabaseException(dir + ": " + name + " has " + len + " bytes, more than "
          + "the " + maxBytes + " expected");
    }
    try (InputStream in = Files.newInputStream(f)) {
      return in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, Math.min(maxBytes, len + 1)));
    } catch (IOException e) {
      throw new StoredDatabaseException(dir + ": cannot read " + name + ": " + e, e);
    }
  }

  private Path writeTemp(String name, byte[] bytes) throws IOException {
    Path tmp = dir.resolve("." + name + ".tmp-"
        + Long.toHexString(ThreadLocalRandom.current().nextLong()));
    try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW,
        StandardOpenOption.WRITE)) {
      ByteBuffer bb = ByteBuffer.wrap(bytes);
      while (bb.hasRemaining()) {
        ch.write(bb);
      }
      ch.force(true);
    }
    return tmp;
  }

  @Override
  public void writeDurable(String name, byte[] bytes) {
    Path tmp = null;
    try {
      tmp = writeTemp(name, bytes);
      Files.move(tmp, dir.resolve(name), StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
      StoredDatabaseWriter.fsyncDirectory(dir);
    } catch (IOException e) {
      deleteQuietly(tmp);
      throw new UncheckedIOException("cannot write " + name + " in " + dir, e);
    }
  }

  @Override
  public void publish(String name, byte[] bytes) {
    Path tmp = null;
    try {
      tmp = writeTemp(name, bytes);
      StoredDatabaseWriter.fsyncDirectory(dir);
      // link(2) fails when the name exists, unlike rename(2), which would replace it
      Files.createLink(dir.resolve(name), tmp);
      Files.delete(tmp);
      StoredDatabaseWriter.fsyncDirectory(dir);
    } catch (FileAlreadyExistsException e) {
      deleteQuietly(tmp);
      throw new StoredDatabaseException(dir + ": " + name + " already exists");
    } catch (IOException e) {
      deleteQuietly(tmp);
      throw new UncheckedIOException("cannot publish " + name + " in " + dir, e);
    }
  }

  @Override
  public boolean createExclusive(String name, byte[] bytes) {
    try (FileChannel ch = FileChannel.open(dir.resolve(name), StandardOpenOption.CREATE_NEW,
        StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.wrap(bytes));
      ch.force(true);
      return true;
    } catch (FileAlreadyExistsException e) {
      return false;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + name + " in " + dir, e);
    }
  }

  @Override
  public void delete(String name) {
    deleteQuietly(dir.resolve(name));
  }

  private static void deleteQuietly(Path p) {
    if (p == null) {
      return;
    }
    try {
      Files.deleteIfExists(p);
    } catch (IOException ignored) {
      // a hidden temporary name stays behind; no manifest names it
    }
  }

  @Override
  public String describe() {
    return dir.toString();
  }
}
