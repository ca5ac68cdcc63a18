/**
 * A development certificate authority: a real CA certificate (basicConstraints CA, keyCertSign) that signs leaf
 * certificates for local host names, and can revoke them with a CRL. The relay uses it for its `localhost`
 * certificate so the service can trust one CA file (`trustCa`) and still check host names; the push tests use it to
 * build trusted, untrusted, wrong-host and revoked receivers.
 */
import { webcrypto } from 'node:crypto';

type CryptoKey = webcrypto.CryptoKey;
import { isIP } from 'node:net';
import * as x509 from '@peculiar/x509';

const subtle = webcrypto.subtle;

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY_MS = 86_400_000;

/** A certificate and its private key, both PEM. */
export interface PemPair {
  /** Certificate, PEM. */
  cert: string;
  /** PKCS#8 private key, PEM. */
  key: string;
}

/** A CA able to sign leaves and CRLs. */
export interface DevCa extends PemPair {
  /** Issues a TLS server certificate for `hosts` (DNS names or IP addresses); returns it with its serial (hex). */
  issueLeaf(hosts: readonly string[], options?: { validDays?: number }): Promise<PemPair & { serial: string }>;
  /** A CRL signed by this CA listing the given serials (hex) as revoked. */
  createCrl(revokedSerials: readonly string[]): Promise<string>;
}

function randomSerial(): string {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0] & 0x7f) | 0x01; // positive and without a leading zero byte, as DER wants
  return Buffer.from(bytes).toString('hex');
}

async function exportKeyPem(key: CryptoKey): Promise<string> {
  const der = Buffer.from(await subtle.exportKey('pkcs8', key));
  return x509.PemConverter.encode(der, 'PRIVATE KEY');
}

async function importKeyPem(pem: string): Promise<CryptoKey> {
  const der = x509.PemConverter.decode(pem)[0];
  if (!der) throw new Error('No PEM block in the CA key');
  return subtle.importKey('pkcs8', der, ALGORITHM, true, ['sign']);
}

/** Creates a new CA with a random key, valid for `validDays` (default 3650). */
export async function createDevCa(commonName = 'store-upload-kit development CA', validDays = 3650): Promise<DevCa> {
  const keys = await subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerial(),
    name: `CN=${commonName}`,
    // Backdated an hour so a clock a little behind still accepts it.
    notBefore: new Date(Date.now() - 3_600_000),
    notAfter: new Date(Date.now() + validDays * DAY_MS),
    keys,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return loadDevCa({ cert: cert.toString('pem'), key: await exportKeyPem(keys.privateKey) });
}

/** Rebuilds a CA from its stored PEM certificate and key. */
export async function loadDevCa(pair: PemPair): Promise<DevCa> {
  const caCert = new x509.X509Certificate(pair.cert);
  const caKey = await importKeyPem(pair.key);
  const authorityKeyId = await x509.AuthorityKeyIdentifierExtension.create(caCert);
  return {
    ...pair,
    async issueLeaf(hosts, options = {}) {
      const keys = await subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
      const serial = randomSerial();
      const names = hosts.map((h) =>
        isIP(h) ? { type: 'ip' as const, value: h } : { type: 'dns' as const, value: h },
      );
      const cert = await x509.X509CertificateGenerator.create({
        serialNumber: serial,
        subject: `CN=${hosts[0] ?? 'localhost'}`,
        issuer: caCert.subject,
        notBefore: new Date(Date.now() - 3_600_000),
        notAfter: new Date(Date.now() + (options.validDays ?? 397) * DAY_MS),
        publicKey: keys.publicKey,
        signingKey: caKey,
        signingAlgorithm: ALGORITHM,
        extensions: [
          new x509.BasicConstraintsExtension(false, undefined, true),
          new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
          new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
          new x509.SubjectAlternativeNameExtension(names),
          authorityKeyId,
        ],
      });
      return { cert: cert.toString('pem'), key: await exportKeyPem(keys.privateKey), serial };
    },
    async createCrl(revokedSerials) {
      const crl = await x509.X509CrlGenerator.create({
        issuer: caCert.subject,
        signingKey: caKey,
        signingAlgorithm: ALGORITHM,
        thisUpdate: new Date(Date.now() - 3_600_000),
        nextUpdate: new Date(Date.now() + 30 * DAY_MS),
        entries: revokedSerials.map((serialNumber) => ({
          serialNumber,
          revocationDate: new Date(Date.now() - 60_000),
        })),
        extensions: [authorityKeyId],
      });
      // OpenSSL (and so Node's `tls` `crl` option) only reads the `X509 CRL` PEM label.
      return x509.PemConverter.encode(crl.rawData, 'X509 CRL');
    },
  };
}

/** Reads the expiry date of a PEM certificate (used to renew a stored leaf before it lapses). */
export function certificateNotAfter(pem: string): Date {
  return new x509.X509Certificate(pem).notAfter;
}
