package org.jpir.vmp;

/** The scalar reference kernels ({@link RefFft}, {@link RefVmp}, {@link RefZnx}). */
final class RefKernelProvider extends KernelProvider {

  RefKernelProvider(KernelProvider.Choice choice) {
    super(choice, new RefFft(), new RefVmp(), new RefZnx());
  }

  @Override
  FftKernel fftVariant(String name) {
    throw new IllegalStateException("the reference provider has no Vector API kernel " + name);
  }

  @Override
  VmpKernel vmpVariant(VmpBlock block) {
    throw new IllegalStateException("the reference provider has no Vector API block " + block);
  }
}
