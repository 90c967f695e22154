/**
 * Where records come from: the serializable {@link org.jpir.spark.source.RecordSourceFactory} and
 * its synthetic, local stored and Hadoop stored implementations, the {@code --db} spec that picks
 * one, and {@link org.jpir.spark.source.Storage}, the stored directory on any Hadoop file system.
 * Depends on no other package of this module.
 */
package org.jpir.spark.source;
