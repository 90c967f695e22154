/**
 * The server's computation over a database: record sources, column encoding and preparation
 * ({@link PreparedDatabase}), {@link PirServer}'s two phases that turn prepared queries
 * ({@code query}) into answers ({@code wire}), the shape of the CMux tree over column spans
 * ({@link ColumnTree}), and the one batch-answer path ({@link BatchSteps} over a {@link QueryBatch}) that
 * the library and the Spark server (spark-jobs, as transport) both run.
 */
package org.jpir.core.server;
