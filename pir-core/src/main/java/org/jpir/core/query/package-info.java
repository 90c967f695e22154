/**
 * The server's side of queries: the query kinds ({@link QueryKind}: classic, compact) that decode
 * and accept a query's bytes on the driver, the clients' evaluation-key store, and the expansion
 * of a query (with its client's keys) into the {@link PreparedQuery} the server computes with.
 * Uses {@code wire}, {@code lwe} and {@code params}.
 */
package org.jpir.core.query;
