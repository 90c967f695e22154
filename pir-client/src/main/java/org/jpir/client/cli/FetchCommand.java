package org.jpir.client.cli;

import io.grpc.StatusRuntimeException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.jpir.api.v1.DatabaseConfig;
import org.jpir.api.v1.GetConfigResponse;
import org.jpir.client.net.NetworkPirClient;
import org.jpir.client.net.QueryFailedException;
import org.jpir.client.net.RemoteDatabase;
import org.jpir.client.net.RetryPolicy;
import org.jpir.datasets.cli.JpirVersion;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code client fetch --server host:port}: retrieves records from a jpir service over the network
 * ({@link NetworkPirClient}): by {@code --index} (printed as hex, or written to {@code --out}) or
 * by {@code --keyword} in a keyword table (the value printed, or "absent" with exit 3). The
 * database's preset and geometry come from the server's config; the secret key is fresh unless
 * {@code --key} names one (with {@code --evk}, the evaluation keys made from it earlier, so the
 * server's copy is reused). Without {@code --database}, the only database served.
 */
@Command(name = "fetch", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
    description = "Retrieve records from a jpir service over the network (--server host:port):"
    + " --index I[,J...] or --keyword K (a keyword table; 'absent' with exit 3).")
final class FetchCommand implements Callable<Integer> {
  @Option(names = "--server", required = true, description = "the service, host:port")
  String server;

  @Option(names = "--database", description = "the database's name (default: the only one"
      + " served)")
  String database;

  @Option(names = "--index", split = ",", description = "record indices")
  long[] index;

  @Option(names = "--keyword", description = "the key to look up in a keyword table")
  String keyword;

  @Option(names = "--client-id", description = "the client's id (default: a fresh random one)")
  String clientId;

  @Option(names = "--key", description = "the secret key file (default: a fresh key)")
  Path key;

  @Option(names = "--evk", description = "the evaluation keys made from --key (compact presets)")
  Path evk;

  @Option(names = "--out", description = "write the record(s), concatenated, to this file")
  Path out;

  @Option(names = "--attempts", description = "tries per call on UNAVAILABLE or"
      + " RESOURCE_EXHAUSTED (default: ${DEFAULT-VALUE})")
  int attempts = 8;

  @Option(names = "--token", description = "the bearer token (visible to other users in the"
      + " process list: prefer --token-file)")
  String token;

  @Option(names = "--token-file", description = "a file whose first line is the bearer token")
  Path tokenFile;

  @Option(names = "--tls-ca", description = "TLS: trust the CA certificates (PEM) in this file"
      + " (default: plaintext)")
  Path tlsCa;

  /** 0 when every record (or the key's value) was retrieved, 3 for an absent key. */
  @Override
  public Integer call() throws Exception {
    if ((index == null) == (keyword == null)) {
      throw new IllegalArgumentException("client fetch: give --index I[,J...] or --keyword K");
    }
    if (evk != null && key == null) {
      throw new IllegalArgumentException("client fetch: --evk needs the --key it was made from");
    }
    String id = clientId != null ? clientId
        : "c-" + HexFormat.of().formatHex(new SecureRandom().generateSeed(8));
    if (token != null && tokenFile != null) {
      throw new IllegalArgumentException("client fetch: --token or --token-file, not both");
    }
    String bearer = tokenFile == null ? token
        : Files.readAllLines(tokenFile, StandardCharsets.US_ASCII).stream().findFirst()
            .map(String::strip).orElseThrow(() -> new IllegalArgumentException(
                "client fetch: --token-file " + tokenFile + " is empty"));
    try (NetworkPirClient net = NetworkPirClient.connect(server, id,
        new RetryPolicy(Math.max(1, attempts), 100, 5000), bearer, tlsCa)) {
      RemoteDatabase db = net.database(name(net.config()),
          key == null ? null : Files.readAllBytes(key), evk == null ? null
              : Files.readAllBytes(evk));
      if (keyword != null) {
        Optional<byte[]> v = db.lookup(keyword.getBytes(StandardCharsets.UTF_8));
        System.out.println(v.map(b -> new String(b, StandardCharsets.UTF_8)).orElse("absent"));
        return v.isPresent() ? 0 : 3;
      }
      List<byte[]> recs = db.retrieve(index);
      if (out != null) {
        Files.write(out, concat(recs));
        System.out.println("client: " + recs.size() + " record(s) written to " + out);
      } else {
        for (int i = 0; i < recs.size(); i++) {
          System.out.println(index[i] + " " + HexFormat.of().formatHex(recs.get(i)));
        }
      }
      return 0;
    } catch (QueryFailedException e) {
      throw new IllegalStateException("the server refused the query (status " + e.code() + "): "
          + e.getMessage());
    } catch (StatusRuntimeException e) {
      throw new IllegalStateException("the call to " + server + " failed: " + e.getStatus());
    }
  }

  private String name(GetConfigResponse c) {
    if (database != null) {
      return database;
    }
    if (c.getDatabasesCount() != 1) {
      throw new IllegalArgumentException("the server serves " + c.getDatabasesCount()
          + " databases " + c.getDatabasesList().stream().map(DatabaseConfig::getName).toList()
          + ": name one with --database");
    }
    return c.getDatabases(0).getName();
  }

  private static byte[] concat(List<byte[]> parts) {
    int n = parts.stream().mapToInt(b -> b.length).sum();
    byte[] all = new byte[n];
    int off = 0;
    for (byte[] b : parts) {
      System.arraycopy(b, 0, all, off, b.length);
      off += b.length;
    }
    return all;
  }
}
