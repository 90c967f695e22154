package org.jpir.client.cli;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.jpir.client.ClientDatabase;
import org.jpir.client.KeywordLookup;
import org.jpir.client.QueryFiles;
import org.jpir.core.client.PirQueryClient;
import org.jpir.core.wire.QueryIdMap;
import org.jpir.core.wire.Wire;
import org.jpir.datasets.cli.JpirVersion;
import org.jpir.datasets.keyword.KeywordParams;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code client lookup}: private keyword lookup in a keyword database (a cuckoo table; {@code
 * setup tsv ... --keyword}) through {@link KeywordLookup}. With {@code --out q}, one query per
 * candidate bucket of {@code --keyword} (always all of them) named by random ids recorded in
 * {@code --ids}; with {@code --answers a}, decodes those buckets' answers and prints the value
 * (exit 0) or "absent" (exit 3).
 */
@Command(name = "lookup", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
    description = "Private keyword lookup: --out writes the queries of"
    + " every candidate bucket, --answers decodes them (the value, or 'absent' with exit 3).")
final class LookupCommand implements Callable<Integer> {
  @Mixin
  KeyOptions k;

  @Mixin
  IdsOption ids;

  @Option(names = "--keyword", required = true, description = "the key to look up")
  String keyword;

  @Option(names = "--out", description = "write the queries into this directory")
  Path out;

  @Option(names = "--answers", description = "decode the answers in this directory")
  Path answers;

  @Override
  public Integer call() throws Exception {
    ClientDatabase db = ClientDatabase.parse(k.db);
    KeywordParams table = db.keywordParams().orElseThrow(() -> new IllegalArgumentException(
        k.db + " is not a keyword database (import it with --keyword)"));
    SecureRandom random = new SecureRandom();
    PirQueryClient client = k.client(db, random);
    KeywordLookup lookup = new KeywordLookup(client, table);
    if ((out == null) == (answers == null)) {
      throw new IllegalArgumentException("client lookup: give --out DIR (write the queries)"
          + " or --answers DIR (decode the answers)");
    }
    byte[] key = keyword.getBytes(StandardCharsets.UTF_8);
    if (out != null) {
      k.requireQueryKeys(client);
      Path dir = out.toAbsolutePath();
      long[] buckets = lookup.buckets(key);
      QueryFiles.write(client, buckets, dir, ids.ids, random);
      System.out.println("client: " + buckets.length + " queries (one per candidate bucket,"
          + " as for every key) written to " + dir + "; their ids are in " + ids.ids);
      return 0;
    }
    Optional<byte[]> v = lookup.value(key, answers(client, lookup.buckets(key)));
    System.out.println(v.map(b -> new String(b, StandardCharsets.UTF_8)).orElse("absent"));
    return v.isPresent() ? 0 : 3;
  }

  /** The answers (wire form) to the buckets' queries, found through the map, in bucket order. */
  private List<byte[]> answers(PirQueryClient client, long[] buckets) {
    QueryIdMap map = QueryIdMap.load(ids.ids, false);
    List<byte[]> got = new ArrayList<>();
    for (int j = 0; j < buckets.length; j++) {
      byte[] answer = null;
      for (Map.Entry<String, Long> e : map.entries().entrySet()) {
        Path f = answers.resolve(e.getKey() + ".answer");
        if (e.getValue() == buckets[j] && Files.exists(f)) {
          answer = Wire.readFile(f, client.maxAnswerBytes(), "answer");
          break;
        }
      }
      if (answer == null) {
        throw new IllegalArgumentException("client lookup: no answer in " + answers + " for"
            + " candidate bucket " + (j + 1) + " of " + buckets.length + " (were the queries"
            + " of this keyword written with --ids " + ids.ids + " and answered?)");
      }
      got.add(answer);
    }
    return got;
  }
}
