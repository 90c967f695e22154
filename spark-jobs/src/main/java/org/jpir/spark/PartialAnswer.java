package org.jpir.spark;

import org.jpir.core.Glwe;

/**
 * What one partition returns for a batch: for each query and plane, the CMux-tree node covering
 * its column range; plus the partition's phase and expansion times (nanoseconds) and where it
 * ran.
 */
public record PartialAnswer(int partition, Glwe[][] nodes, long phase1Nanos, long phase2Nanos,
    long expandNanos, String executor) {}
