/**
 * The client's side beyond {@code pir-core}'s {@link org.jpir.core.client.PirQueryClient}: the
 * database a client names ({@link ClientDatabase}), its files ({@link ClientFiles}, {@link
 * QueryFiles}) and private keyword lookup ({@link KeywordLookup}). Nothing here needs Spark,
 * Scala or Hadoop.
 */
package org.jpir.client;
