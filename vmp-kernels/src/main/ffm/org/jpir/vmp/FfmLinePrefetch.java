package org.jpir.vmp;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * {@link LinePrefetch} through the FFM API (Java 22+, compiled for release 22 and loaded by name
 * only on such JVMs; x86-64 Linux): a 22-byte function in a page of its own, mapped writable,
 * filled, then made read-and-execute only (never writable and executable at once), called as a
 * critical downcall on the array itself (no copy; the GC waits for the few nanoseconds of the
 * call):
 *
 * <pre>
 *   pf(rdi = base, rsi = byte offset, rdx = lines):
 *     lea  rdi, [rdi + rsi]      48 8d 3c 37
 *     test rdx, rdx              48 85 d2
 *     jle  done                  7e 0c
 *   next:
 *     prefetcht1 [rdi]           0f 18 17
 *     add  rdi, 64               48 83 c7 40
 *     dec  rdx                   48 ff ca
 *     jnz  next                  75 f4
 *   done:
 *     ret                        c3
 * </pre>
 *
 * {@code prefetcht1} (into L2, not L1): {@code prefetcht0} and {@code prefetchnta} evict the
 * kernels' L1 panels and made the pass slower than no prefetch, {@code prefetcht1} faster
 * (figures in {@code benchmarks/results/kernel-choices-20261204-06.md}). A prefetch never faults
 * and changes no architectural state; the lines are clamped to the array anyway ({@link
 * LinePrefetch#clamp}).
 */
final class FfmLinePrefetch implements LinePrefetch {
  private static final byte[] CODE = {
    0x48, (byte) 0x8d, 0x3c, 0x37,
    0x48, (byte) 0x85, (byte) 0xd2,
    0x7e, 0x0c,
    0x0f, 0x18, 0x17,
    0x48, (byte) 0x83, (byte) 0xc7, 0x40,
    0x48, (byte) 0xff, (byte) 0xca,
    0x75, (byte) 0xf4,
    (byte) 0xc3};

  private static final int PROT_READ = 1;
  private static final int PROT_WRITE = 2;
  private static final int PROT_EXEC = 4;
  private static final int MAP_PRIVATE = 0x02;
  private static final int MAP_ANONYMOUS = 0x20;
  private static final long PAGE = 4096;

  private static final MethodHandle PREFETCH = link();

  /** Public for the loader; fails (ExceptionInInitializerError) where the code cannot be mapped. */
  public FfmLinePrefetch() {}

  private static MethodHandle link() {
    try {
      Linker linker = Linker.nativeLinker();
      SymbolLookup libc = linker.defaultLookup();
      MethodHandle mmap = linker.downcallHandle(libc.find("mmap").orElseThrow(),
          FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG,
              ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
              ValueLayout.JAVA_LONG));
      MethodHandle mprotect = linker.downcallHandle(libc.find("mprotect").orElseThrow(),
          FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG,
              ValueLayout.JAVA_INT));
      MemorySegment page = (MemorySegment) mmap.invokeExact(MemorySegment.NULL, PAGE,
          PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0L);
      if (page.address() == -1L || page.address() == 0L) {
        throw new IllegalStateException("mmap of one page failed");
      }
      page = page.reinterpret(PAGE);
      MemorySegment.copy(CODE, 0, page, ValueLayout.JAVA_BYTE, 0, CODE.length);
      int rc = (int) mprotect.invokeExact(page, PAGE, PROT_READ | PROT_EXEC);
      if (rc != 0) {
        throw new IllegalStateException("mprotect(PROT_READ | PROT_EXEC) refused");
      }
      return linker.downcallHandle(page, FunctionDescriptor.ofVoid(ValueLayout.ADDRESS,
          ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG), Linker.Option.critical(true));
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new IllegalStateException(t);
    }
  }

  @Override
  public void lines(double[] a, int offset, int lines) {
    int n = LinePrefetch.clamp(a, offset, lines);
    if (n == 0) {
      return;
    }
    try {
      PREFETCH.invokeExact(MemorySegment.ofArray(a), 8L * offset, (long) n);
    } catch (Throwable t) {
      throw new IllegalStateException(t);
    }
  }
}
