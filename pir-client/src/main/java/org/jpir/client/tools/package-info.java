/**
 * Tools that act as a client for tests: {@link HostileQueries} writes the bad query files that
 * spark-jobs' tests and {@code deploy/cluster-test.sh} feed to the answer job; {@link FetchCheck}
 * runs concurrent network clients that check every record they fetch (the cluster test's service
 * run).
 */
package org.jpir.client.tools;
