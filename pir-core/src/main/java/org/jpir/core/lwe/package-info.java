/**
 * Lattice cryptography on the ring: the secret key, the PRG, GLWE / GGSW ciphertexts (seeded and
 * prepared), their operations ({@link GlweOps}: encryption, external product, CMux), the
 * plaintext codec, b-part rounding and the plane-packing key switch ({@link PlanePacking}).
 * Built on {@code params} and vmp-kernels; it knows nothing of queries, answers or their bytes.
 */
package org.jpir.core.lwe;
