/**
 * The network client of a jpir service ({@code jpir.v1.PirService} over gRPC): {@link
 * org.jpir.client.net.NetworkPirClient} (config, keys, calls with retries) and {@link
 * org.jpir.client.net.RemoteDatabase} (retrieval by index or keyword). No Spark.
 */
package org.jpir.client.net;
