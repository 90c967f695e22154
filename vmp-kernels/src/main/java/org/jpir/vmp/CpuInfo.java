package org.jpir.vmp;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Facts about the core this JVM runs on, read once at start-up and logged: the per-core L1 data
 * and L2 cache sizes (Linux sysfs {@code /sys/devices/system/cpu/cpu0/cache/index*}), the number
 * of vector registers the JIT may use (32 with AVX-512 or on AArch64, else 16) and the CPU model
 * and flags. Every value has a stated fallback when the source is missing, and says where it
 * came from ({@link #describe()}).
 */
public final class CpuInfo {
  /** L1d fallback when sysfs has no data cache entry: the smallest seen on x86 servers. */
  static final int FALLBACK_L1D = 32 * 1024;
  /** L2 fallback when sysfs has no level-2 entry: 512 KiB (AMD Zen 2/3). */
  static final int FALLBACK_L2 = 512 * 1024;

  /** The CPU flags that decide the kernels' paths, in the order {@link #kernelFlags} lists them. */
  private static final String[] KERNEL_FLAGS = {"avx512f", "avx2", "fma", "asimd", "sve"};
  private static final Logger LOG = LogManager.getLogger(CpuInfo.class);
  private static final CpuInfo INSTANCE = read(Path.of("/sys/devices/system/cpu/cpu0/cache"),
      Path.of("/proc/cpuinfo"));

  private final int l1d;
  private final int l2;
  private final int[] sysfsBytes;
  private final String cacheSource;
  private final int registers;
  private final String registerReason;
  private final String model;
  private final boolean avx512f;
  private final boolean avx2;
  private final String kernelFlags;
  private final String vendor;
  private final int family;

  CpuInfo(int[] sysfsBytes, int cpuinfoL2, String cacheSource, int registers,
      String registerReason, String model, String flags) {
    this(sysfsBytes, cpuinfoL2, cacheSource, registers, registerReason, model, flags, "", -1);
  }

  CpuInfo(int[] sysfsBytes, int cpuinfoL2, String cacheSource, int registers,
      String registerReason, String model, String flags, String vendor, int family) {
    this.vendor = vendor;
    this.family = family;
    this.sysfsBytes = sysfsBytes;
    this.l1d = sysfsBytes[1] > 0 ? sysfsBytes[1] : FALLBACK_L1D;
    this.l2 = sysfsBytes[2] > 0 ? sysfsBytes[2] : cpuinfoL2 > 0 ? cpuinfoL2 : FALLBACK_L2;
    this.cacheSource = cacheSource;
    this.registers = registers;
    this.registerReason = registerReason;
    this.model = model;
    this.avx512f = flags.contains(" avx512f ");
    this.avx2 = flags.contains(" avx2 ");
    StringBuilder sb = new StringBuilder();
    for (String x : KERNEL_FLAGS) {
      if (flags.contains(" " + x + " ")) {
        sb.append(sb.length() == 0 ? "" : " ").append(x);
      }
    }
    this.kernelFlags = flags.isEmpty() ? "unknown" : sb.length() == 0 ? "none" : sb.toString();
  }

  /** True when {@code osArch} (the {@code os.arch} property) names x86-64: amd64 or x86_64. */
  static boolean x86(String osArch) {
    return osArch.equals("amd64") || osArch.equals("x86_64");
  }

  /** The facts of this JVM's machine (read and logged on first use). */
  public static CpuInfo get() {
    return INSTANCE;
  }

  /** L1 data cache of one core, in bytes. */
  public int l1dBytes() {
    return l1d;
  }

  /** L2 cache of one core, in bytes. */
  public int l2Bytes() {
    return l2;
  }

  /** Vector registers the JIT can allocate: 32 (AVX-512, AArch64) or 16 (AVX/AVX2). */
  public int vectorRegisters() {
    return registers;
  }

  /** The CPU model name ({@code /proc/cpuinfo}), or "unknown". */
  public String model() {
    return model;
  }

  /** True when the CPU flags include avx512f (the JVM may still be limited by -XX:UseAVX). */
  public boolean avx512f() {
    return avx512f;
  }

  /** True when the CPU flags include avx2. */
  public boolean avx2() {
    return avx2;
  }

  /**
   * The flags among avx512f, avx2, fma, asimd and sve that the CPU has, space-separated; "none"
   * when it has none of them, "unknown" when its flags could not be read.
   */
  public String kernelFlags() {
    return kernelFlags;
  }

  /** The vendor_id of /proc/cpuinfo (e.g. "GenuineIntel", "AuthenticAMD"), "" when unknown. */
  public String vendor() {
    return vendor;
  }

  /**
   * The x86 "cpu family" of /proc/cpuinfo (AMD: 25 for Zen 3 and Zen 4, 26 for Zen 5; Intel
   * server cores: 6), or -1 when unknown (no such line, or not x86).
   */
  public int family() {
    return family;
  }

  /** Whether {@link #vendor} is AMD's. */
  public boolean amd() {
    return "AuthenticAMD".equals(vendor);
  }

  /** Whether {@link #vendor} is Intel's. */
  public boolean intel() {
    return "GenuineIntel".equals(vendor);
  }

  /** Where {@link #l1dBytes} and {@link #l2Bytes} came from: "sysfs", or the fallback used. */
  public String cacheSource() {
    return cacheSource;
  }

  /**
   * The level-{@code level} (1 to 3) data or unified cache of cpu0 as sysfs reports it, in bytes,
   * or -1 when sysfs does not (no fallback, unlike {@link #l1dBytes} and {@link #l2Bytes}).
   */
  public int sysfsCacheBytes(int level) {
    return level >= 1 && level < sysfsBytes.length ? sysfsBytes[level] : -1;
  }

  /** One line: model, flags, caches and registers, each with its source. */
  public String describe() {
    return String.format(Locale.ROOT,
        "%s%s; flags %s; L1d %d KiB, L2 %d KiB per core (%s); %d vector registers (%s)", model,
        family >= 0 ? " (family " + family + ")" : "",
        avx512f ? "avx512f avx2" : avx2 ? "avx2 (no avx512f)" : "no avx2", l1d >> 10, l2 >> 10,
        cacheSource, registers, registerReason);
  }

  static CpuInfo read(Path cacheDir, Path cpuinfo) {
    int[] sizes = {-1, -1, -1, -1}; // by level; index 0 unused
    for (int i = 0; i < 8; i++) {
      Path d = cacheDir.resolve("index" + i);
      if (!Files.isDirectory(d)) {
        continue;
      }
      try {
        int level = Integer.parseInt(Files.readString(d.resolve("level")).trim());
        String type = Files.readString(d.resolve("type")).trim();
        int size = parseSize(Files.readString(d.resolve("size")).trim());
        if (level >= 1 && level <= 3 && (type.equals("Data")
            || (level > 1 && type.equals("Unified")))) {
          sizes[level] = size;
        }
      } catch (IOException | RuntimeException e) {
        // unreadable entry: keep looking, fall back below
      }
    }
    String model = "unknown";
    String flags = "";
    String vendor = "";
    String cacheSize = "";
    int family = -1;
    try {
      for (String line : Files.readAllLines(cpuinfo)) {
        String value = line.substring(line.indexOf(':') + 1).trim();
        if (line.startsWith("model name") && model.equals("unknown")) {
          model = value;
        } else if ((line.startsWith("flags") || line.startsWith("Features")) && flags.isEmpty()) {
          flags = " " + value + " ";
        } else if (line.startsWith("vendor_id") && vendor.isEmpty()) {
          vendor = value;
        } else if (line.startsWith("cache size") && cacheSize.isEmpty()) {
          cacheSize = value;
        } else if (line.startsWith("cpu family") && family < 0) {
          family = parseFamily(value);
        }
      }
    } catch (IOException e) {
      // no /proc/cpuinfo: flags unknown
    }
    int l1d = sizes[1];
    int l2 = sizes[2];
    // On AMD, Linux's "cache size" is the per-core L2 (on Intel it is the shared L3: not used).
    int cpuinfoL2 = l2 > 0 || !vendor.equals("AuthenticAMD") ? -1 : parseCpuinfoSize(cacheSize);
    String source = l1d > 0 && l2 > 0 ? "sysfs" : "FALLBACK: " + cacheDir + " incomplete, using "
        + (l1d > 0 ? "" : "L1d " + (FALLBACK_L1D >> 10) + " KiB ")
        + (l2 > 0 ? "" : cpuinfoL2 > 0 ? "L2 " + (cpuinfoL2 >> 10) + " KiB from " + cpuinfo
            + " 'cache size' (AMD: per-core L2)" : "L2 " + (FALLBACK_L2 >> 10) + " KiB");
    boolean avx512f = flags.contains(" avx512f ");
    int regs;
    String why;
    String arch = System.getProperty("os.arch", "");
    if (arch.equals("aarch64")) {
      regs = 32;
      why = "aarch64: 32 NEON/SVE registers";
    } else {
      Integer useAvx = useAvx();
      if (useAvx != null) {
        regs = useAvx >= 3 ? 32 : 16;
        why = "-XX:UseAVX=" + useAvx + (useAvx >= 3 ? " (AVX-512)" : "");
      } else {
        regs = avx512f ? 32 : 16;
        why = "UseAVX not readable; cpu flags " + (avx512f ? "have" : "lack") + " avx512f";
      }
    }
    CpuInfo c = new CpuInfo(sizes, cpuinfoL2, source, regs, why, model, flags, vendor, family);
    if (cacheDir.toString().startsWith("/sys/")) {
      LOG.info("cpu: {}", c.describe());
    }
    return c;
  }

  /** A "cpu family" value (decimal, 0 .. 4095), or -1 when it is not one. */
  static int parseFamily(String value) {
    if (value.isEmpty() || value.length() > 4 || !value.chars().allMatch(Character::isDigit)) {
      return -1;
    }
    return Integer.parseInt(value);
  }

  /** The HotSpot flag UseAVX of this JVM, or null when it does not exist here. */
  static Integer useAvx() {
    try {
      com.sun.management.HotSpotDiagnosticMXBean b =
          ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
      return Integer.valueOf(b.getVMOption("UseAVX").getValue());
    } catch (RuntimeException | LinkageError e) {
      return null;
    }
  }

  /** {@code /proc/cpuinfo}'s "cache size" value such as {@code 1024 KB}, or -1 if unparsable. */
  static int parseCpuinfoSize(String s) {
    String t = s.trim().toUpperCase(Locale.ROOT);
    if (!t.endsWith(" KB")) {
      return -1;
    }
    try {
      return parseSize(t.substring(0, t.length() - 3).trim() + "K");
    } catch (IllegalArgumentException e) {
      return -1;
    }
  }

  /** Parses sysfs sizes such as {@code 48K}, {@code 2048K}, {@code 300M}, {@code 512}. */
  static int parseSize(String s) {
    String t = s.trim().toUpperCase(Locale.ROOT);
    long mult = 1;
    if (t.endsWith("K")) {
      mult = 1024;
      t = t.substring(0, t.length() - 1);
    } else if (t.endsWith("M")) {
      mult = 1024 * 1024;
      t = t.substring(0, t.length() - 1);
    }
    long v = Long.parseLong(t) * mult;
    if (v <= 0 || v > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("cache size '" + s + "' out of range");
    }
    return (int) v;
  }
}
