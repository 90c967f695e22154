/** The gRPC calls of {@code jpir.v1.PirService}: limits, the client-id seam. */
package org.jpir.service.rpc;
