/**
 * The distributed PIR server and its executor side: column partitioning and placement, the
 * prepared partitions cached on executors, the batch broadcast, the executor tasks and fold, the
 * memory plan, batch metrics and Kryo registration. Reads records through {@link
 * org.jpir.spark.source.RecordSourceFactory}; knows nothing of the command line.
 */
package org.jpir.spark.server;
