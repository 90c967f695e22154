package org.jpir.datasets;

/** A value does not fit its record and the user did not choose truncation. */
public final class ValueTooLargeException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public ValueTooLargeException(String message) {
    super(message);
  }
}
