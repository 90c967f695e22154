package org.jpir.datasets.bench;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.jpir.datasets.KeyValueList;
import org.jpir.datasets.cli.JpirVersion;
import org.jpir.datasets.keyword.KeywordTable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * Measures how often cuckoo placement needs the stash: builds {@code trials} tables of {@code n}
 * keys at {@code load} (3 choices, 1 slot) with seeds 1..trials and prints the stash sizes.
 */
@Command(name = "CuckooStats", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
    description = "Stash sizes of cuckoo tables over seeds 1..trials.")
public final class CuckooStats implements Runnable {
  @Parameters(index = "0", arity = "0..1", description = "keys (default: ${DEFAULT-VALUE})")
  int n = 100_000;

  @Parameters(index = "1", arity = "0..1", description = "tables (default: ${DEFAULT-VALUE})")
  int trials = 20;

  @Parameters(index = "2", arity = "0..1", description = "load (default: ${DEFAULT-VALUE})")
  double load = 0.85;

  public static void main(String[] args) {
    System.exit(new CommandLine(new CuckooStats()).execute(args));
  }

  @Override
  public void run() {
    List<byte[]> k = new ArrayList<>(n);
    List<byte[]> v = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      k.add(("key-" + i).getBytes(StandardCharsets.UTF_8));
      v.add(new byte[0]);
    }
    KeyValueList kv = new KeyValueList(k, v);
    int max = 0;
    int nonEmpty = 0;
    for (int s = 1; s <= trials; s++) {
      KeywordTable t = KeywordTable.build(kv, new KeywordTable.Options(3, 1, load, 0, false,
          s * 1000L, 8));
      int st = t.stashSize();
      max = Math.max(max, st);
      nonEmpty += st > 0 ? 1 : 0;
      if (t.params().seed() != s * 1000L) {
        System.out.println("seed " + s * 1000L + " overflowed the stash; rebuilt with seed "
            + t.params().seed());
      }
    }
    System.out.printf("%d tables of %d keys at load %.3f: %d with a non-empty stash, max stash %d"
        + "%n", trials, n, load, nonEmpty, max);
  }
}
