/**
 * Admission: the checks every query passes on the driver before it may join a micro-batch,
 * shared by the gRPC calls and the query directory.
 */
package org.jpir.service.admit;
