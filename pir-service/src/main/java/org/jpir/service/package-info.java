/**
 * The network PIR service on the Spark driver: {@link org.jpir.service.PirNetworkServer} (gRPC
 * server, health, reflection) and {@link org.jpir.service.ServeMain} ({@code ./pir serve
 * --port}). Layers: keys and db &lt;- batch, admit &lt;- rpc, feed &lt;- this package.
 */
package org.jpir.service;
