/** The query-directory front door: query files into the service's micro-batcher. */
package org.jpir.service.feed;
