package org.jpir.service.keys;

/**
 * What the service holds of one client's evaluation keys for one compact preset.
 *
 * @param clientId the client
 * @param presetId the compact preset's id
 * @param present whether keys are held
 * @param fingerprint the fingerprint of the keys held (the one compact queries name); 0 when
 *     none are held
 * @param expiresAtMillis when they expire (milliseconds since the epoch); 0: never
 */
public record KeyInfo(String clientId, String presetId, boolean present, long fingerprint,
    long expiresAtMillis) {

  /** No keys held for {@code clientId} under {@code presetId}. */
  public static KeyInfo missing(String clientId, String presetId) {
    return new KeyInfo(clientId, presetId, false, 0, 0);
  }
}
