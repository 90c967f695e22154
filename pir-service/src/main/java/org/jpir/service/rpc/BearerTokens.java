package org.jpir.service.rpc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jpir.core.wire.EvaluationKeys;

/**
 * The bearer tokens of {@code --tokens FILE}: one {@code token client-id} line each (blank lines
 * and lines starting with {@code #} ignored; a token is 16 to 256 visible ASCII characters, a
 * client id as everywhere). Only the tokens' SHA-256 hashes are kept, and a presented token is
 * compared with every entry in constant time ({@link MessageDigest#isEqual}, no early exit), so
 * neither the time taken nor a message reveals a token; no method returns or prints one.
 * Immutable and thread-safe.
 */
public final class BearerTokens {
  /** The largest tokens file read. */
  static final long MAX_FILE_BYTES = 16L << 20;
  private static final String TOKEN = "[\\x21-\\x7e]{16,256}";

  private record Entry(byte[] hash, String clientId) {}

  private final List<Entry> entries;

  private BearerTokens(List<Entry> entries) {
    this.entries = List.copyOf(entries);
  }

  /**
   * The tokens of {@code file}.
   *
   * @throws IllegalArgumentException naming the line (never its token) when a line is malformed
   *     or a token appears twice
   */
  public static BearerTokens read(Path file) {
    try {
      if (Files.size(file) > MAX_FILE_BYTES) {
        throw new IllegalArgumentException("tokens file " + file + " is larger than "
            + MAX_FILE_BYTES + " bytes");
      }
      return parse(Files.readAllLines(file, StandardCharsets.US_ASCII));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the tokens file " + file, e);
    }
  }

  /** The tokens of {@code lines} (as {@link #read}). */
  public static BearerTokens parse(List<String> lines) {
    List<Entry> out = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String l = lines.get(i).strip();
      if (l.isEmpty() || l.startsWith("#")) {
        continue;
      }
      String[] f = l.split("\\s+");
      if (f.length != 2 || !f[0].matches(TOKEN)) {
        throw new IllegalArgumentException("tokens file line " + (i + 1) + ": expected"
            + " 'token client-id', the token 16 to 256 visible ASCII characters");
      }
      try {
        EvaluationKeys.checkClientId(f[1]);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("tokens file line " + (i + 1) + ": " + e.getMessage());
      }
      byte[] h = hash(f[0]);
      if (out.stream().anyMatch(e -> MessageDigest.isEqual(e.hash(), h))) {
        throw new IllegalArgumentException("tokens file line " + (i + 1) + ": a token given"
            + " twice");
      }
      out.add(new Entry(h, f[1]));
    }
    return new BearerTokens(out);
  }

  private static byte[] hash(String token) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** How many tokens are held. */
  public int size() {
    return entries.size();
  }

  /** The client id of {@code token}, or empty when it is none of these (null included). */
  public Optional<String> clientOf(String token) {
    if (token == null || token.length() > 256) {
      return Optional.empty();
    }
    byte[] h = hash(token);
    String found = null;
    for (Entry e : entries) { // every entry compared: the time does not depend on which
      if (MessageDigest.isEqual(e.hash(), h)) {
        found = e.clientId();
      }
    }
    return Optional.ofNullable(found);
  }
}
