/**
 * The service's load harness ({@code ./pir bench-service}, {@link
 * org.jpir.service.load.LoadHarness}): concurrent clients against an in-process service, queries
 * made before and answers decoded after each measured window, alternating with the offline
 * {@code answer} job on the same prepared database, queries and keys.
 */
package org.jpir.service.load;
