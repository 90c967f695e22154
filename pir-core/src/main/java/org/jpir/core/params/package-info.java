/**
 * Parameters, the bottom layer of pir-core: the classic and compact presets ({@link Params},
 * {@link CompactParams}, {@link Presets}), the database geometry, the noise estimates, the
 * security check and the answer's modulus switch. Uses no other package of pir-core.
 */
package org.jpir.core.params;
