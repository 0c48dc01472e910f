// MOSIP's Java side of the VER_R2 layout (ABIS.md (c)), with JCE only (keymanager CryptoCore /
// CryptomanagerServiceImpl), compiled and run by test/integration/java-interop.test.ts:
//   java CryptoInterop encrypt <certificate.pem>                  plaintext on stdin -> base64url VER_R2 on stdout
//   java CryptoInterop decrypt <private-key.pem> [<certificate.pem>]
//                                                                 base64url VER_R2 on stdin -> plaintext on stdout;
//                                                                 with the certificate, the thumbprint must be its own
// Layout: VER_R2 | SHA-256(cert DER) (32) | RSA-OAEP(AES key) | #KEY_SPLITTER# | AAD (32; IV = its first 12) | GCM ciphertext+tag.
// Failures go to stderr with exit status 1.
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.MGF1ParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.KeyGenerator;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.OAEPParameterSpec;
import javax.crypto.spec.PSource;
import javax.crypto.spec.SecretKeySpec;

public class CryptoInterop {
  static final byte[] VERSION = "VER_R2".getBytes(StandardCharsets.US_ASCII);
  static final byte[] SPLITTER = "#KEY_SPLITTER#".getBytes(StandardCharsets.US_ASCII);
  static final int THUMBPRINT = 32;
  static final int AAD = 32;
  static final int IV = 12;
  static final int TAG_BITS = 128;
  static final OAEPParameterSpec OAEP = new OAEPParameterSpec("SHA-256", "MGF1", MGF1ParameterSpec.SHA256, PSource.PSpecified.DEFAULT);

  public static void main(String[] args) {
    try {
      if (args.length < 2) throw new IllegalArgumentException("usage: encrypt <certificate.pem> | decrypt <private-key.pem> [<certificate.pem>]");
      byte[] input = System.in.readAllBytes();
      byte[] output = switch (args[0]) {
        case "encrypt" -> Base64.getUrlEncoder().encode(encrypt(certificate(Path.of(args[1])), input));
        case "decrypt" -> decrypt(privateKey(Path.of(args[1])), args.length > 2 ? certificate(Path.of(args[2])) : null,
            Base64.getUrlDecoder().decode(new String(input, StandardCharsets.US_ASCII).trim()));
        default -> throw new IllegalArgumentException("unknown command " + args[0] + " (encrypt|decrypt)");
      };
      System.out.write(output);
      System.out.flush();
    } catch (Exception e) {
      System.err.println("CryptoInterop: " + e);
      System.exit(1);
    }
  }

  static X509Certificate certificate(Path file) throws Exception {
    return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(Files.readAllBytes(file)));
  }

  /** A PKCS#8 PEM ("BEGIN PRIVATE KEY", as openssl req -nodes writes it). */
  static PrivateKey privateKey(Path file) throws Exception {
    String pem = Files.readString(file);
    if (!pem.contains("BEGIN PRIVATE KEY")) throw new IllegalArgumentException(file + " is not a PKCS#8 PEM private key");
    String body = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
    return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(body)));
  }

  static byte[] thumbprint(X509Certificate certificate) throws Exception {
    return MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded());
  }

  static byte[] encrypt(X509Certificate certificate, byte[] data) throws Exception {
    KeyGenerator generator = KeyGenerator.getInstance("AES");
    generator.init(256);
    SecretKey key = generator.generateKey();
    Cipher rsa = Cipher.getInstance("RSA/ECB/OAEPWithSHA-256AndMGF1Padding");
    rsa.init(Cipher.ENCRYPT_MODE, certificate.getPublicKey(), OAEP);
    byte[] wrapped = rsa.doFinal(key.getEncoded());
    byte[] aad = new byte[AAD];
    new SecureRandom().nextBytes(aad);
    Cipher aes = Cipher.getInstance("AES/GCM/NoPadding");
    aes.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, Arrays.copyOfRange(aad, 0, IV)));
    aes.updateAAD(aad);
    byte[] sealed = aes.doFinal(data);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(VERSION);
    out.write(thumbprint(certificate));
    out.write(wrapped);
    out.write(SPLITTER);
    out.write(aad);
    out.write(sealed);
    return out.toByteArray();
  }

  static byte[] decrypt(PrivateKey privateKey, X509Certificate certificate, byte[] data) throws Exception {
    if (!Arrays.equals(Arrays.copyOfRange(data, 0, Math.min(data.length, VERSION.length)), VERSION)) throw new IllegalArgumentException("data does not start with VER_R2");
    int at = indexOf(data, SPLITTER);
    int keyStart = VERSION.length + THUMBPRINT;
    if (at <= keyStart) throw new IllegalArgumentException("no key block before the splitter");
    if (certificate != null && !Arrays.equals(Arrays.copyOfRange(data, VERSION.length, keyStart), thumbprint(certificate))) {
      throw new IllegalArgumentException("the thumbprint is not the certificate's");
    }
    Cipher rsa = Cipher.getInstance("RSA/ECB/OAEPWithSHA-256AndMGF1Padding");
    rsa.init(Cipher.DECRYPT_MODE, privateKey, OAEP);
    SecretKey key = new SecretKeySpec(rsa.doFinal(Arrays.copyOfRange(data, keyStart, at)), "AES");
    int dataStart = at + SPLITTER.length;
    if (data.length < dataStart + AAD + TAG_BITS / 8) throw new IllegalArgumentException("data block too short");
    byte[] aad = Arrays.copyOfRange(data, dataStart, dataStart + AAD);
    Cipher aes = Cipher.getInstance("AES/GCM/NoPadding");
    aes.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, Arrays.copyOfRange(aad, 0, IV)));
    aes.updateAAD(aad);
    return aes.doFinal(Arrays.copyOfRange(data, dataStart + AAD, data.length));
  }

  /** The first occurrence, as MOSIP's CryptoUtil does. */
  static int indexOf(byte[] data, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= data.length; i++) {
      for (int j = 0; j < needle.length; j++) if (data[i + j] != needle[j]) continue outer;
      return i;
    }
    throw new IllegalArgumentException("no key splitter");
  }
}
