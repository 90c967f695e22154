package org.jpir.service;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A self-signed certificate for 127.0.0.1 and localhost, made by the JDK's {@code keytool}, as
 * the PEM files a server takes: the certificate and its PKCS#8 private key.
 */
final class SelfSigned {
  private SelfSigned() {}

  /** Makes them in {@code dir}; returns {certificate PEM, key PEM}. */
  static Path[] make(Path dir) throws Exception {
    Path ks = dir.resolve("server.p12");
    char[] pass = "changeit".toCharArray();
    Process p = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin",
        "keytool").toString(), "-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname",
        "secp256r1", "-dname", "CN=localhost", "-ext", "SAN=ip:127.0.0.1,dns:localhost",
        "-validity", "2", "-keystore", ks.toString(), "-storetype", "PKCS12", "-storepass",
        "changeit", "-keypass", "changeit")).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IllegalStateException("keytool failed: " + out);
    }
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(ks)) {
      store.load(in, pass);
    }
    PrivateKey key = (PrivateKey) store.getKey("server", pass);
    Path cert = dir.resolve("server.crt");
    Path keyFile = dir.resolve("server.key");
    Files.writeString(cert, pem("CERTIFICATE", store.getCertificate("server").getEncoded()));
    Files.writeString(keyFile, pem("PRIVATE KEY", key.getEncoded()));
    return new Path[] {cert, keyFile};
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'})
        .encodeToString(der) + "\n-----END " + type + "-----\n";
  }
}
