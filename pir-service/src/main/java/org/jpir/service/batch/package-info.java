/** Micro-batches across calls and clients over spark-jobs' one answer path. */
package org.jpir.service.batch;
