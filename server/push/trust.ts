/**
 * Which receivers the delivery engine trusts: Node's CA store plus configured CA files, minus certificates revoked
 * by configured CRLs.
 *
 * Revocation is checked here rather than with Node's `tls` `crl` option: that option makes OpenSSL demand a CRL
 * for every certificate in every chain (CRL_CHECK_ALL), so one configured CRL would reject every receiver whose CA
 * has none, e.g. any public receiver. Here a certificate is refused when a configured CRL, signed by a trusted CA,
 * lists its issuer and serial number.
 */
import { readFile } from 'node:fs/promises';
import { rootCertificates, checkServerIdentity, type PeerCertificate, type DetailedPeerCertificate } from 'node:tls';
import * as x509 from '@peculiar/x509';

/** TLS settings for outgoing push requests. */
export interface PushTrust {
  /** Every trusted root: Node's store plus the configured ones (PEM). */
  ca: string[];
  /** Host-name check plus revocation check, for `tls.connect`'s `checkServerIdentity`. */
  checkServerIdentity: (host: string, cert: PeerCertificate) => Error | undefined;
}

/** Configured extra trust, as PEM text. */
export interface PushTrustPem {
  /** Extra CA certificates (PEM; a string may hold several). */
  trustCa?: readonly string[];
  /** CRLs (PEM, `X509 CRL`). A CRL whose signer is not among the trusted CAs is ignored with a warning. */
  crl?: readonly string[];
}

function normalizeSerial(hex: string): string {
  return hex
    .replace(/[^0-9a-f]/gi, '')
    .toLowerCase()
    .replace(/^0+(?=.)/, '');
}

function splitPem(pem: string, label: string): string[] {
  const re = new RegExp(`-----BEGIN ${label}-----[\\s\\S]*?-----END ${label}-----`, 'g');
  return pem.match(re) ?? [];
}

/** Why push trust could not be built from the configured files; the message names the file and the setting. */
export class PushTrustError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PushTrustError';
  }
}

async function readPemFile(path: string, setting: 'trustCa' | 'crl', label: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new PushTrustError(`cannot read ${setting} file ${path}: ${(error as Error).message}`);
  }
  // A file without the expected block would otherwise be ignored silently, and trust would quietly be weaker.
  if (splitPem(text, label).length === 0) {
    throw new PushTrustError(`${setting} file ${path} holds no PEM "${label}" block`);
  }
  return text;
}

/**
 * Reads the configured CA and CRL files and builds the trust. Rejects with a {@link PushTrustError} naming the file
 * when one cannot be read, holds no PEM block of the right kind, or does not parse.
 */
export async function loadPushTrust(
  files: { trustCa?: readonly string[]; crl?: string | undefined },
  warn?: (message: string) => void,
): Promise<PushTrust> {
  const trustCa = await Promise.all((files.trustCa ?? []).map((p) => readPemFile(p, 'trustCa', 'CERTIFICATE')));
  (files.trustCa ?? []).forEach((path, i) => {
    for (const block of splitPem(trustCa[i], 'CERTIFICATE')) {
      try {
        new x509.X509Certificate(block);
      } catch (error) {
        throw new PushTrustError(
          `trustCa file ${path} holds a certificate that does not parse: ${(error as Error).message}`,
        );
      }
    }
  });
  const crl = files.crl === undefined ? [] : [await readPemFile(files.crl, 'crl', 'X509 CRL')];
  try {
    return await createPushTrust({ trustCa, crl }, warn);
  } catch (error) {
    throw new PushTrustError(`cannot use the trustCa/crl files: ${(error as Error).message}`);
  }
}

/** Builds the trust used for push delivery; `warn` hears about CRLs that cannot be used. */
export async function createPushTrust(
  pem: PushTrustPem = {},
  warn: (message: string) => void = (m) => console.warn(m),
): Promise<PushTrust> {
  const extraCa = (pem.trustCa ?? []).flatMap((p) => splitPem(p, 'CERTIFICATE'));
  const crlPems = (pem.crl ?? []).flatMap((p) => splitPem(p, 'X509 CRL'));
  // Parsing the whole root store costs time; only a CRL needs it (to find the CRL's signer).
  const caCerts = crlPems.length ? [...rootCertificates, ...extraCa].map((p) => new x509.X509Certificate(p)) : [];
  const revoked = new Set<string>();
  for (const crlPem of crlPems) {
    const crl = new x509.X509Crl(crlPem);
    let signer: x509.X509Certificate | undefined;
    for (const ca of caCerts) {
      if (ca.subject === crl.issuer && (await crl.verify({ publicKey: ca }))) signer = ca;
    }
    if (!signer) {
      warn(`push: ignoring CRL of "${crl.issuer}": not signed by a trusted CA`);
      continue;
    }
    for (const entry of crl.entries) revoked.add(`${crl.issuer}|${normalizeSerial(entry.serialNumber)}`);
  }

  const isRevoked = (cert: PeerCertificate): boolean => {
    if (!cert.raw || revoked.size === 0) return false;
    const parsed = new x509.X509Certificate(cert.raw);
    return revoked.has(`${parsed.issuer}|${normalizeSerial(parsed.serialNumber)}`);
  };

  return {
    ca: [...rootCertificates, ...extraCa],
    checkServerIdentity(host, cert) {
      const hostError = checkServerIdentity(host, cert);
      if (hostError) return hostError;
      // Node hands over the detailed chain here; walk it up to the self-issued root.
      let current: PeerCertificate | undefined = cert;
      const seen = new Set<string>();
      while (current && current.fingerprint256 && !seen.has(current.fingerprint256)) {
        seen.add(current.fingerprint256);
        if (isRevoked(current)) {
          return Object.assign(new Error(`certificate ${current.serialNumber} of ${host} is revoked`), {
            code: 'CERT_REVOKED',
          });
        }
        current = (current as DetailedPeerCertificate).issuerCertificate;
      }
      return undefined;
    },
  };
}
