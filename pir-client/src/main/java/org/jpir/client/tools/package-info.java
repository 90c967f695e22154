/**
 * Tools that act as a client for tests: {@link HostileQueries} writes the bad query files that
 * spark-jobs' tests and {@code deploy/cluster-test.sh} feed to the answer job.
 */
package org.jpir.client.tools;
