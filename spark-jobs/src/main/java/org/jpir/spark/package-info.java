/**
 * The server's command line and the jobs: {@link org.jpir.spark.PirJob} and its subcommands (demo,
 * answer, serve, setup, update, import), the Spark configuration they share and the version watch
 * of a serving job (the client's commands are the pir-client module's). Builds on {@link org.jpir.spark.server} and {@link org.jpir.spark.source}.
 */
package org.jpir.spark;
