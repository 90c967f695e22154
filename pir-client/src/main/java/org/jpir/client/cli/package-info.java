/**
 * The client's commands, {@code ./pir client keygen|evk|query|decode|verify|lookup} ({@link
 * ClientCli}): everything that touches the secret key runs here, on the client's machine, with no
 * Spark on the class path.
 */
package org.jpir.client.cli;
