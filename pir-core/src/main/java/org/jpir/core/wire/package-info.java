/**
 * What travels between client and server: the messages (classic {@link ClientQuery} and compact
 * {@link CompactQuery} queries, {@link EvaluationKeys}, {@link Answer}), their byte format
 * ({@link Wire}, also for secret keys and packing keys), size breakdowns ({@link Sizes}) and the
 * client's query ids. Uses {@code lwe} and {@code params}; the client and the server build on it.
 */
package org.jpir.core.wire;
