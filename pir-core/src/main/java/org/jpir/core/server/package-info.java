/**
 * The server's computation over a database: record sources, column encoding and preparation
 * ({@link PreparedDatabase}), and {@link PirServer}'s two phases that turn prepared queries
 * ({@code query}) into answers ({@code wire}). Spark partitions it in the spark-jobs module.
 */
package org.jpir.core.server;
