package org.jpir.service.keys;

/**
 * A key store's figures at one moment (for metrics): nothing about any client.
 *
 * @param heldBytes bytes of keys held in memory (wire and prepared)
 * @param heldKeys entries held in memory
 * @param evictions entries evicted to keep the memory bound, since the start
 * @param expirations keys expired (unused for longer than the time to live), since the start
 */
public record KeyStoreStats(long heldBytes, int heldKeys, long evictions, long expirations) {}
