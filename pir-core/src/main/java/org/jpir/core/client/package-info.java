/**
 * What a client runs, behind one interface ({@link PirQueryClient}, made by {@link
 * PirQueryClients}): from its secret key it builds queries ({@link PirClient} classic, {@link
 * CompactClient} compact), evaluation keys and plane-packing keys, and decodes answers to records.
 * The secret key stays here; everything it sends is a {@code wire} message.
 */
package org.jpir.core.client;
