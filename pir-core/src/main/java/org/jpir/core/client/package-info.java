/**
 * What a client runs: from its secret key it builds queries ({@link PirClient}, {@link
 * CompactClient}), evaluation keys and plane-packing keys, and decodes answers to records. The
 * secret key stays here; everything it sends is a {@code wire} message.
 */
package org.jpir.core.client;
