package org.jpir.spark.server;

import org.apache.spark.broadcast.Broadcast;

/** A batch's value as its tasks read it; {@link #destroy} once the batch is done. */
abstract class Shared<T> implements java.io.Serializable {
  private static final long serialVersionUID = 1L;

  /** The value (on an executor or, in local mode, in the driver's JVM). */
  abstract T value();

  /** Releases the value; tasks started later fail. */
  abstract void destroy();

  /** A Spark broadcast: serialized into pieces that every executor fetches once. */
  static final class Broadcasted<T> extends Shared<T> {
    private static final long serialVersionUID = 1L;
    private final Broadcast<T> b;

    Broadcasted(Broadcast<T> b) {
      this.b = b;
    }

    @Override
    T value() {
      return b.value();
    }

    @Override
    void destroy() {
      b.destroy();
    }
  }

  /**
   * The driver's object by reference (local mode: the tasks run in the driver's JVM); only an id
   * travels in the task closure.
   */
  static final class Local<T> extends Shared<T> {
    private static final long serialVersionUID = 1L;
    private static final java.util.concurrent.ConcurrentHashMap<Long, Object> VALUES =
        new java.util.concurrent.ConcurrentHashMap<>();
    private static final java.util.concurrent.atomic.AtomicLong IDS =
        new java.util.concurrent.atomic.AtomicLong();
    private final long id;

    Local(T value) {
      this.id = IDS.incrementAndGet();
      VALUES.put(id, value);
    }

    private Local(java.util.function.Supplier<T> value, boolean lazy) {
      this.id = IDS.incrementAndGet();
      VALUES.put(id, new Lazy(value));
    }

    /** A value computed by the first task that reads it ({@code value} must be thread-safe). */
    static <T> Local<T> lazy(java.util.function.Supplier<T> value) {
      return new Local<>(value, true);
    }

    /** The marker of a lazily computed value. */
    private record Lazy(java.util.function.Supplier<?> supplier) {}

    @Override
    @SuppressWarnings("unchecked")
    T value() {
      Object v = VALUES.get(id);
      if (v == null) {
        throw new IllegalStateException("batch value " + id + " is not in this JVM: local"
            + " hand-off works only in Spark local mode and during its batch");
      }
      return (T) (v instanceof Lazy l ? l.supplier().get() : v);
    }

    @Override
    void destroy() {
      VALUES.remove(id);
    }

    /** Values held now (tests: none after a batch). */
    static int held() {
      return VALUES.size();
    }
  }
}
