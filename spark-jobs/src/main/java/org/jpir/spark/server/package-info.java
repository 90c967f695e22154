/**
 * The distributed PIR server, Spark as transport of pir-core's batch-answer steps ({@link
 * org.jpir.core.server.BatchSteps}): column partitioning and placement, the prepared partitions
 * cached on executors and their versions, the broadcast of a batch's bytes and the tasks that
 * call the steps, the memory plan, batch metrics and Kryo registration. Reads records through
 * {@link org.jpir.spark.source.RecordSourceFactory}; knows nothing of the command line.
 */
package org.jpir.spark.server;
