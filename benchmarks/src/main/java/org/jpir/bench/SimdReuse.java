package org.jpir.bench;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Stream;

/**
 * {@code SimdStudy run --reuse DIR:job,job}: jobs measured by an earlier campaign copied into
 * this one's raw directory, with where they came from.
 */
final class SimdReuse {
  private SimdReuse() {}

  /**
   * {@code --reuse DIR:job,job}: copies those jobs' files (and the machine ceilings for job
   * {@code machine}) from an earlier raw directory of the same study, and describes where they
   * came from (that directory's revision, harness settings and time) for the report.
   */
  static JsonObject reuse(String spec, Path raw) throws IOException {
    List<String> jobs = reusedJobs(spec);
    Path from = Path.of(spec.substring(0, spec.lastIndexOf(':')));
    Path fromEnv = from.resolve("env.json");
    if (!Files.exists(fromEnv)) {
      throw new IllegalArgumentException("--reuse: no env.json in " + from);
    }
    JsonObject old = JsonParser.parseString(Files.readString(fromEnv)).getAsJsonObject();
    JsonObject out = new JsonObject();
    for (String job : jobs) {
      int copied = 0;
      try (Stream<Path> s = Files.list(from)) {
        for (Path f : s.toList()) {
          String n = f.getFileName().toString();
          if (n.contains("__" + job + ".json") || n.contains("__" + job + "__f")) {
            Files.copy(f, raw.resolve(n), StandardCopyOption.REPLACE_EXISTING);
            copied++;
          }
        }
      }
      if (copied == 0) {
        throw new IllegalArgumentException("--reuse: no files of job '" + job + "' in " + from);
      }
      out.addProperty(job, copied + " files from " + from.getFileName() + " (revision "
          + SimdData.str(old, "revision") + ", started " + SimdData.str(old, "started") + "; "
          + SimdData.str(old, "warmup") + ")");
    }
    return out;
  }

  /** The jobs of a {@code --reuse DIR:job[,job]} spec. */
  static List<String> reusedJobs(String spec) {
    int colon = spec.lastIndexOf(':');
    if (colon < 0) {
      throw new IllegalArgumentException("--reuse wants DIR:job[,job]: " + spec);
    }
    return List.of(spec.substring(colon + 1).split(","));
  }
}
