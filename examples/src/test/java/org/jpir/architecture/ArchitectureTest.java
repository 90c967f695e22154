package org.jpir.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module and package graph of docs/architecture.md ("Modules"), checked on the main classes
 * of every module on this class path (vmp-kernels, pir-core, datasets, pir-api, pir-client,
 * spark-jobs, pir-service and this module's examples; benchmarks is a leaf no module can depend
 * on, which Maven keeps so).
 * Every rule lists what a package may use; the exceptions are named, with the reason, in the
 * rule that carries them.
 */
class ArchitectureTest {
  /** The packages of each module, by module; a class of org.jpir outside them fails a test. */
  static final String[] KERNELS = {"org.jpir.vmp.."};
  static final String[] CORE = {"org.jpir.core.params..", "org.jpir.core.lwe..",
      "org.jpir.core.wire..", "org.jpir.core.client..", "org.jpir.core.query..",
      "org.jpir.core.server.."};
  static final String[] DATASETS = {"org.jpir.datasets", "org.jpir.datasets.source..",
      "org.jpir.datasets.keyword..", "org.jpir.datasets.store..", "org.jpir.datasets.progress..",
      "org.jpir.datasets.cli.."};
  /** pir-api: the generated jpir.v1 messages and gRPC service. */
  static final String[] API = {"org.jpir.api.."};
  static final String[] CLIENT = {"org.jpir.client.."};
  static final String[] SPARK = {"org.jpir.spark", "org.jpir.spark.server..",
      "org.jpir.spark.source.."};
  static final String[] SERVICE = {"org.jpir.service.."};
  static final String[] EXAMPLES = {"org.jpir.core.demo..", "org.jpir.datasets.bench..",
      "org.jpir.spark.bench.."};
  /** What "no Spark" means on a class path: Spark, Scala and Hadoop. */
  static final String[] SPARK_WORLD = {"org.apache.spark..", "scala..", "org.apache.hadoop.."};

  private static JavaClasses main;

  @BeforeAll
  static void importMainClasses() {
    main = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("org.jpir");
  }

  @Test
  void everyModuleIsOnTheClassPathAndEveryPackageBelongsToOne() {
    for (String[] module : new String[][] {KERNELS, CORE, DATASETS, API, CLIENT, SPARK, SERVICE,
        EXAMPLES}) {
      assertTrue(main.stream().anyMatch(c -> Arrays.stream(module).anyMatch(p ->
          c.getPackageName().equals(p.replace("..", ""))
              || c.getPackageName().startsWith(p.replace("..", ".")))),
          "no main class of " + Arrays.toString(module) + " on the class path");
    }
    classes().should().resideInAnyPackage(concat(KERNELS, CORE, DATASETS, API, CLIENT, SPARK,
        SERVICE, EXAMPLES))
        .because("every package belongs to a module of docs/architecture.md; add a new one there"
            + " and here")
        .check(main);
  }

  /**
   * vmp-kernels <- pir-core <- datasets <- {pir-client, spark-jobs}; spark-jobs <- examples;
   * pir-api (generated, uses no other module) <- pir-client; {spark-jobs, pir-api} <-
   * pir-service, which no module uses.
   */
  @Test
  void modulesDependOneWay() {
    layeredArchitecture().consideringOnlyDependenciesInLayers()
        .layer("vmp-kernels").definedBy(KERNELS)
        .layer("pir-core").definedBy(CORE)
        .layer("datasets").definedBy(DATASETS)
        .layer("pir-api").definedBy(API)
        .layer("pir-client").definedBy(CLIENT)
        .layer("spark-jobs").definedBy(SPARK)
        .layer("pir-service").definedBy(SERVICE)
        .layer("examples").definedBy(EXAMPLES)
        .whereLayer("vmp-kernels").mayNotAccessAnyLayer()
        .whereLayer("pir-core").mayOnlyAccessLayers("vmp-kernels")
        .whereLayer("datasets").mayOnlyAccessLayers("vmp-kernels", "pir-core")
        .whereLayer("pir-api").mayNotAccessAnyLayer()
        .whereLayer("pir-client")
        .mayOnlyAccessLayers("vmp-kernels", "pir-core", "datasets", "pir-api")
        .whereLayer("spark-jobs").mayOnlyAccessLayers("vmp-kernels", "pir-core", "datasets")
        .whereLayer("pir-service")
        .mayOnlyAccessLayers("vmp-kernels", "pir-core", "datasets", "pir-api", "spark-jobs")
        .whereLayer("examples")
        .mayOnlyAccessLayers("vmp-kernels", "pir-core", "datasets", "spark-jobs")
        .check(main);
  }

  /**
   * pir-core by layer: params <- lwe <- wire <- {client, query} <- server; client and query
   * both stop at wire, and the server never uses the client.
   */
  @Test
  void pirCorePackagesAreLayered() {
    layeredArchitecture().consideringOnlyDependenciesInLayers()
        .layer("params").definedBy("org.jpir.core.params..")
        .layer("lwe").definedBy("org.jpir.core.lwe..")
        .layer("wire").definedBy("org.jpir.core.wire..")
        .layer("client").definedBy("org.jpir.core.client..")
        .layer("query").definedBy("org.jpir.core.query..")
        .layer("server").definedBy("org.jpir.core.server..")
        .whereLayer("params").mayNotAccessAnyLayer()
        .whereLayer("lwe").mayOnlyAccessLayers("params")
        .whereLayer("wire").mayOnlyAccessLayers("params", "lwe")
        .whereLayer("client").mayOnlyAccessLayers("params", "lwe", "wire")
        .whereLayer("query").mayOnlyAccessLayers("params", "lwe", "wire")
        .whereLayer("server").mayOnlyAccessLayers("params", "lwe", "wire", "query")
        .check(main);
  }

  /** datasets: the base package (record types) <- source, keyword, store, progress <- cli. */
  @Test
  void datasetsPackagesAreLayered() {
    layeredArchitecture().consideringOnlyDependenciesInLayers()
        .layer("base").definedBy("org.jpir.datasets")
        .layer("source").definedBy("org.jpir.datasets.source..")
        .layer("keyword").definedBy("org.jpir.datasets.keyword..")
        .layer("store").definedBy("org.jpir.datasets.store..")
        .layer("progress").definedBy("org.jpir.datasets.progress..")
        .layer("cli").definedBy("org.jpir.datasets.cli..")
        .whereLayer("base").mayNotAccessAnyLayer()
        .whereLayer("source").mayOnlyAccessLayers("base")
        .whereLayer("keyword").mayOnlyAccessLayers("base")
        .whereLayer("store").mayOnlyAccessLayers("base")
        .whereLayer("progress").mayNotAccessAnyLayer()
        .whereLayer("cli").mayOnlyAccessLayers("base", "source", "keyword", "store", "progress")
        .check(main);
  }

  /**
   * pir-client: org.jpir.client <- net <- tools <- cli (cli also uses net): the test clients of
   * tools include a network one ({@code FetchCheck}).
   */
  @Test
  void pirClientPackagesAreLayered() {
    layeredArchitecture().consideringOnlyDependenciesInLayers()
        .layer("client").definedBy("org.jpir.client")
        .layer("tools").definedBy("org.jpir.client.tools..")
        .layer("net").definedBy("org.jpir.client.net..")
        .layer("cli").definedBy("org.jpir.client.cli..")
        .whereLayer("client").mayNotAccessAnyLayer()
        .whereLayer("tools").mayOnlyAccessLayers("client", "net")
        .whereLayer("net").mayOnlyAccessLayers("client")
        .whereLayer("cli").mayOnlyAccessLayers("client", "tools", "net")
        .check(main);
  }

  /**
   * pir-service: {keys, db} <- {batch (db only), admit} <- {rpc, feed} (the two front doors,
   * which do not use each other) <- org.jpir.service (the server and its command).
   */
  @Test
  void pirServicePackagesAreLayered() {
    layeredArchitecture().consideringOnlyDependenciesInLayers()
        .layer("keys").definedBy("org.jpir.service.keys..")
        .layer("db").definedBy("org.jpir.service.db..")
        .layer("batch").definedBy("org.jpir.service.batch..")
        .layer("admit").definedBy("org.jpir.service.admit..")
        .layer("rpc").definedBy("org.jpir.service.rpc..")
        .layer("feed").definedBy("org.jpir.service.feed..")
        .layer("service").definedBy("org.jpir.service")
        .whereLayer("keys").mayNotAccessAnyLayer()
        .whereLayer("db").mayNotAccessAnyLayer()
        .whereLayer("batch").mayOnlyAccessLayers("db")
        .whereLayer("admit").mayOnlyAccessLayers("keys", "db")
        .whereLayer("rpc").mayOnlyAccessLayers("keys", "db", "batch", "admit")
        .whereLayer("feed").mayOnlyAccessLayers("db", "batch", "admit")
        .whereLayer("service")
        .mayOnlyAccessLayers("keys", "db", "batch", "admit", "rpc", "feed")
        .check(main);
  }

  /** spark-jobs: source (where records come from) <- server (transport) <- the jobs. */
  @Test
  void sparkJobsPackagesAreLayered() {
    layeredArchitecture().consideringOnlyDependenciesInLayers()
        .layer("source").definedBy("org.jpir.spark.source..")
        .layer("server").definedBy("org.jpir.spark.server..")
        .layer("jobs").definedBy("org.jpir.spark")
        .whereLayer("source").mayNotAccessAnyLayer()
        .whereLayer("server").mayOnlyAccessLayers("source")
        .whereLayer("jobs").mayOnlyAccessLayers("source", "server")
        .check(main);
  }

  /** vmp-kernels: no crypto (no JCA, no pir-core) and no Spark. */
  @Test
  void kernelsHoldNoCryptoAndNoSpark() {
    noClasses().that().resideInAnyPackage(KERNELS).should().dependOnClassesThat()
        .resideInAnyPackage(concat(SPARK_WORLD, new String[] {"javax.crypto..", "java.security.."}))
        .check(main);
  }

  /** pir-core, datasets, pir-api and pir-client: no Spark, Scala or Hadoop type. */
  @Test
  void onlySparkJobsServiceAndExamplesNameSpark() {
    noClasses().that().resideInAnyPackage(concat(CORE, DATASETS, API, CLIENT)).should()
        .dependOnClassesThat().resideInAnyPackage(SPARK_WORLD)
        .check(main);
  }

  /** No two packages of org.jpir use each other, directly or around a cycle. */
  @Test
  void packagesAreFreeOfCycles() {
    slices().matching("org.jpir.(**)").should().beFreeOfCycles()
        .check(main);
  }

  static String[] concat(String[]... parts) {
    return Arrays.stream(parts).flatMap(Arrays::stream).toArray(String[]::new);
  }
}
