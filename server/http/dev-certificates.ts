/**
 * Development certificates, created on first start and kept in a folder: a CA (`ca.pem`, which a client trusts)
 * and a certificate for localhost signed by it. The relay keeps its own (the service trusts that CA through its
 * `trustCa` setting); `store-service --https` keeps one in its data directory.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { certificateNotAfter, createDevCa, loadDevCa } from './dev-ca.ts';

/** Where the certificates live and what they are. */
export interface DevCertificates {
  /** Absolute path of the CA certificate to trust. */
  caPath: string;
  /** Server certificate (PEM) for localhost, 127.0.0.1 and ::1. */
  cert: string;
  /** Its private key (PEM). */
  key: string;
  /** True when this call created the CA. */
  createdCa: boolean;
}

/** The host names the development certificate covers. */
const CERT_HOSTS = ['localhost', '127.0.0.1', '::1'] as const;

const RENEW_BEFORE_MS = 30 * 86_400_000;

async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`cannot read ${path}: ${(error as Error).message}`);
  }
}

/** Expiry of a stored leaf; a leaf that does not parse counts as expired, so a new one is issued. */
function notAfterMs(pem: string): number {
  try {
    return certificateNotAfter(pem).getTime();
  } catch {
    return 0;
  }
}

/** Loads the certificates from `certDir`, creating the CA and/or a fresh leaf when missing or near expiry. */
export async function ensureDevCertificates(certDir: string): Promise<DevCertificates> {
  const dir = resolve(certDir);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const paths = {
    ca: join(dir, 'ca.pem'),
    caKey: join(dir, 'ca-key.pem'),
    cert: join(dir, 'localhost.pem'),
    key: join(dir, 'localhost-key.pem'),
  };
  const [caPem, caKeyPem, certPem, keyPem] = await Promise.all(
    [paths.ca, paths.caKey, paths.cert, paths.key].map(readIfExists),
  );
  let createdCa = false;
  let ca;
  try {
    ca = caPem && caKeyPem ? await loadDevCa({ cert: caPem, key: caKeyPem }) : await createDevCa();
  } catch (error) {
    throw new Error(
      `the CA in ${paths.ca} / ${paths.caKey} cannot be used (${(error as Error).message}); delete both to create a new one`,
    );
  }
  if (!(caPem && caKeyPem)) {
    createdCa = true;
    await writeFile(paths.caKey, ca.key, { mode: 0o600 });
    await writeFile(paths.ca, ca.cert);
  }
  const leafFresh = !createdCa && certPem && keyPem && notAfterMs(certPem) - Date.now() > RENEW_BEFORE_MS;
  if (leafFresh) return { caPath: paths.ca, cert: certPem, key: keyPem, createdCa };
  const leaf = await ca.issueLeaf(CERT_HOSTS);
  await writeFile(paths.key, leaf.key, { mode: 0o600 });
  await writeFile(paths.cert, leaf.cert);
  return { caPath: paths.ca, cert: leaf.cert, key: leaf.key, createdCa };
}
