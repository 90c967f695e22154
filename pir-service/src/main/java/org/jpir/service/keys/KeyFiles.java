package org.jpir.service.keys;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.jpir.spark.source.Storage;

/**
 * The files of a persistent key store, through Hadoop's FileSystem API (any URI Hadoop reads:
 * {@code file:}, {@code hdfs:}, ...): one file per (client, preset and parameter revision) at
 * {@code <dir>/<preset id>.<revision hex>/k-<hash>.keys}, where {@code <hash>} is the hex
 * SHA-256 of the client id (so no client id, however hostile, makes a path: no separators, no
 * dots, no case collisions) and the file holds the client id, the evaluation keys and the
 * optional packing key. Writes are atomic (a temporary file, then a rename); reads check sizes
 * before allocating. A file's modification time is the keys' last use (set from the store's
 * clock). Thread-safe (no state but the directory).
 */
final class KeyFiles {
  private static final int MAGIC = 0x4a4b5331; // "JKS1"
  static final String SUFFIX = ".keys";

  private final Storage root;
  private final FileSystem fs;

  /** The store under the directory {@code uri} (created when absent). */
  KeyFiles(String uri) {
    this.root = Storage.at(uri);
    root.mkdirs();
    try {
      this.fs = root.dir().getFileSystem(Storage.hadoopConf());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the file system of " + uri, e);
    }
  }

  /** What one file holds. */
  record Stored(String clientId, byte[] evaluationKeys, byte[] packingKey, long lastUseMillis) {}

  /** The directory of a preset: its id (when a plain name) and revision, else their hash. */
  static String presetDir(String presetId, String revisionHex) {
    String n = presetId + "." + revisionHex;
    return n.matches("[A-Za-z0-9_][A-Za-z0-9._-]{0,127}") ? n : "p-" + sha256(n);
  }

  /** The file name of {@code clientId}'s keys: derived by hashing, never from the id's text. */
  static String fileName(String clientId) {
    return "k-" + sha256(clientId) + SUFFIX;
  }

  private static String sha256(String s) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
          .digest(s.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Writes the keys of {@code clientId} atomically with last use {@code nowMillis}. */
  void write(String preset, String clientId, byte[] evk, byte[] pack, long nowMillis) {
    ByteArrayOutputStream bo = new ByteArrayOutputStream(evk.length + pack.length + 96);
    try (DataOutputStream out = new DataOutputStream(bo)) {
      out.writeInt(MAGIC);
      out.writeUTF(clientId);
      out.writeInt(evk.length);
      out.write(evk);
      out.writeInt(pack.length);
      out.write(pack);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Storage dir = root.sub(preset);
    dir.mkdirs();
    dir.write(fileName(clientId), bo.toByteArray());
    touch(preset, clientId, nowMillis);
  }

  /**
   * The file of {@code clientId}, or null when there is none. Sizes are checked against {@code
   * maxEvk} and {@code maxPack} before anything is allocated. Without one, the evaluation keys
   * an operator put by hand at {@code <dir>/<presetId>/<clientId>.evk} (the directory flow's
   * layout; never expired or deleted here) are returned as used at {@code nowMillis}.
   *
   * @throws IllegalArgumentException when the file is not a valid one, or of another client
   */
  Stored read(String preset, String presetId, String clientId, long maxEvk, long maxPack,
      long nowMillis) {
    Storage dir = root.sub(preset);
    String name = fileName(clientId);
    long mtime = lastUse(preset, clientId);
    if (mtime < 0) {
      // the client id is [A-Za-z0-9._-]{1,64} (checked by the store): one plain file name
      Storage legacy = root.sub(presetId);
      if (!presetId.matches("[A-Za-z0-9_][A-Za-z0-9._-]{0,63}")
          || legacy.length(clientId + ".evk") < 0) {
        return null;
      }
      return new Stored(clientId, legacy.read(clientId + ".evk", maxEvk, "evaluation keys"),
          new byte[0], nowMillis);
    }
    byte[] b = dir.read(name, maxEvk + maxPack + 4 + 2 + 256 + 8, "key file");
    try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(b))) {
      if (in.readInt() != MAGIC) {
        throw new IllegalArgumentException("not a key file");
      }
      String id = in.readUTF();
      if (!id.equals(clientId)) {
        throw new IllegalArgumentException("key file of another client");
      }
      byte[] evk = bounded(in, maxEvk);
      byte[] pack = bounded(in, maxPack);
      return new Stored(id, evk, pack, mtime);
    } catch (IOException e) { // truncated
      throw new IllegalArgumentException("truncated key file", e);
    }
  }

  private static byte[] bounded(DataInputStream in, long max) throws IOException {
    int n = in.readInt();
    if (n < 0 || n > max || n > in.available()) {
      throw new IllegalArgumentException("key file declares " + n + " bytes");
    }
    byte[] b = new byte[n];
    in.readFully(b);
    return b;
  }

  /** The last use recorded for {@code clientId}'s file (its modification time), or -1. */
  long lastUse(String preset, String clientId) {
    try {
      FileStatus st = fs.getFileStatus(new Path(root.sub(preset).dir(), fileName(clientId)));
      return st.isFile() ? st.getModificationTime() : -1;
    } catch (FileNotFoundException e) {
      return -1;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot look at a key file", e);
    }
  }

  /** Records a use of {@code clientId}'s keys at {@code nowMillis} (when the file exists). */
  void touch(String preset, String clientId, long nowMillis) {
    try {
      fs.setTimes(new Path(root.sub(preset).dir(), fileName(clientId)), nowMillis, -1);
    } catch (FileNotFoundException e) {
      // deleted meanwhile: nothing to record
    } catch (IOException e) {
      throw new UncheckedIOException("cannot record the use of a key file", e);
    }
  }

  /** Deletes {@code clientId}'s file of {@code preset} when present. */
  void delete(String preset, String clientId) {
    root.sub(preset).delete(fileName(clientId));
  }

  /**
   * Deletes every key file under {@code preset} last used before {@code cutoffMillis}, except
   * those named in {@code keep}; returns how many.
   */
  int deleteUnusedSince(String preset, long cutoffMillis, Set<String> keep) {
    Path dir = root.sub(preset).dir();
    List<Path> old = new ArrayList<>();
    try {
      if (!fs.exists(dir)) {
        return 0;
      }
      for (FileStatus st : fs.listStatus(dir)) {
        if (st.isFile() && st.getPath().getName().endsWith(SUFFIX)
            && st.getModificationTime() < cutoffMillis
            && !keep.contains(st.getPath().getName())) {
          old.add(st.getPath());
        }
      }
      int n = 0;
      for (Path p : old) {
        if (fs.delete(p, false)) {
          n++;
        }
      }
      return n;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot sweep the key directory", e);
    }
  }
}
