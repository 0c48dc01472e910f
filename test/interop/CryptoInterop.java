// MOSIP's Java side of the VER_R2 layout, with JCE only (keymanager CryptoCore / CryptomanagerServiceImpl):
//   java CryptoInterop encrypt <certificate.pem>   plaintext on stdin -> base64url VER_R2 on stdout
//   java CryptoInterop decrypt <private-key.pem>   base64url VER_R2 on stdin -> plaintext on stdout
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
  static final OAEPParameterSpec OAEP = new OAEPParameterSpec("SHA-256", "MGF1", MGF1ParameterSpec.SHA256, PSource.PSpecified.DEFAULT);

  public static void main(String[] args) throws Exception {
    byte[] input = System.in.readAllBytes();
    byte[] output = switch (args[0]) {
      case "encrypt" -> Base64.getUrlEncoder().encode(encrypt(Path.of(args[1]), input));
      case "decrypt" -> decrypt(Path.of(args[1]), Base64.getUrlDecoder().decode(new String(input, StandardCharsets.US_ASCII).trim()));
      default -> throw new IllegalArgumentException("encrypt|decrypt");
    };
    System.out.write(output);
    System.out.flush();
  }

  static byte[] encrypt(Path certificateFile, byte[] data) throws Exception {
    X509Certificate certificate = (X509Certificate) CertificateFactory.getInstance("X.509")
        .generateCertificate(new ByteArrayInputStream(Files.readAllBytes(certificateFile)));
    KeyGenerator generator = KeyGenerator.getInstance("AES");
    generator.init(256);
    SecretKey key = generator.generateKey();
    Cipher rsa = Cipher.getInstance("RSA/ECB/OAEPWithSHA-256AndMGF1Padding");
    rsa.init(Cipher.ENCRYPT_MODE, certificate.getPublicKey(), OAEP);
    byte[] wrapped = rsa.doFinal(key.getEncoded());
    byte[] aad = new byte[32];
    new SecureRandom().nextBytes(aad);
    Cipher aes = Cipher.getInstance("AES/GCM/NoPadding");
    aes.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, Arrays.copyOfRange(aad, 0, 12)));
    aes.updateAAD(aad);
    byte[] sealed = aes.doFinal(data);
    byte[] thumbprint = MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(VERSION);
    out.write(thumbprint);
    out.write(wrapped);
    out.write(SPLITTER);
    out.write(aad);
    out.write(sealed);
    return out.toByteArray();
  }

  static byte[] decrypt(Path privateKeyFile, byte[] data) throws Exception {
    String pem = Files.readString(privateKeyFile).replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
    PrivateKey privateKey = KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(pem)));
    int at = indexOf(data, SPLITTER);
    int keyStart = startsWith(data, VERSION) ? VERSION.length + 32 : 32;
    Cipher rsa = Cipher.getInstance("RSA/ECB/OAEPWithSHA-256AndMGF1Padding");
    rsa.init(Cipher.DECRYPT_MODE, privateKey, OAEP);
    SecretKey key = new SecretKeySpec(rsa.doFinal(Arrays.copyOfRange(data, keyStart, at)), "AES");
    byte[] rest = Arrays.copyOfRange(data, at + SPLITTER.length, data.length);
    byte[] aad = Arrays.copyOfRange(rest, 0, 32);
    Cipher aes = Cipher.getInstance("AES/GCM/NoPadding");
    aes.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(128, Arrays.copyOfRange(aad, 0, 12)));
    aes.updateAAD(aad);
    return aes.doFinal(Arrays.copyOfRange(rest, 32, rest.length));
  }

  static boolean startsWith(byte[] data, byte[] prefix) {
    return data.length >= prefix.length && Arrays.equals(Arrays.copyOfRange(data, 0, prefix.length), prefix);
  }

  static int indexOf(byte[] data, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= data.length; i++) {
      for (int j = 0; j < needle.length; j++) if (data[i + j] != needle[j]) continue outer;
      return i;
    }
    throw new IllegalArgumentException("no key splitter");
  }
}
