/**
 * The development CA and its certificate folder (`server/http/dev-ca.ts`, `dev-certificates.ts`): a stored file that
 * cannot be read stops the start naming it (never a new CA over it), and a CRL names the key that signed it; a stored
 * leaf is kept while it is whole, its CA's and far from expiry, and replaced otherwise.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import * as x509 from '@peculiar/x509';
import { createDevCa, loadDevCa } from '../../server/http/dev-ca.ts';
import { ensureDevCertificates } from '../../server/http/dev-certificates.ts';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the development CA', () => {
  it('a stored CA file that cannot be read stops the start, naming the file and why', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dev-certs-'));
    dirs.push(dir);
    // A directory where the CA certificate should be: reading it fails with EISDIR, not ENOENT.
    mkdirSync(join(dir, 'ca.pem'));
    await assert.rejects(ensureDevCertificates(dir), (error: Error) => {
      assert.match(error.message, /^cannot read .*ca\.pem: EISDIR/);
      return true;
    });
  });

  it('a new CA is named as the kit’s development CA, so a trust store shows whose it is', async () => {
    const ca = new x509.X509Certificate((await createDevCa()).cert);
    assert.equal(ca.subject, 'CN=store-upload-kit development CA');
    assert.equal(ca.issuer, ca.subject);
  });

  it('a CRL carries the CA key identifier of its issuer, as RFC 5280 §5.2.1 requires', async () => {
    const ca = await createDevCa();
    const crl = new x509.X509Crl(await ca.createCrl(['7f01']));
    const caKeyId = new x509.X509Certificate(ca.cert).getExtension(x509.SubjectKeyIdentifierExtension)?.keyId;
    assert.ok(caKeyId, 'the CA certificate has a subject key identifier');
    const authority = crl.getExtension(x509.AuthorityKeyIdentifierExtension);
    assert.ok(authority, 'the CRL has an authority key identifier');
    assert.equal(authority.keyId, caKeyId);
  });
});

/** Whether the certificate `leafPem` was signed by the CA certificate `caPem`. */
async function signedBy(leafPem: string, caPem: string): Promise<boolean> {
  const ca = new x509.X509Certificate(caPem);
  return new x509.X509Certificate(leafPem).verify({ publicKey: ca.publicKey, signatureOnly: true });
}

describe('the certificate folder', () => {
  const folder = () => {
    const dir = mkdtempSync(join(tmpdir(), 'dev-certs-'));
    dirs.push(dir);
    return dir;
  };

  it('keeps a stored leaf that is whole and far from expiry', async () => {
    const dir = folder();
    const first = await ensureDevCertificates(dir);
    const again = await ensureDevCertificates(dir);
    assert.equal(again.createdCa, false);
    assert.equal(again.cert, first.cert);
    assert.equal(again.key, first.key);
  });

  it('replaces a stored leaf that does not parse with a new one its CA signed', async () => {
    const dir = folder();
    const first = await ensureDevCertificates(dir);
    writeFileSync(join(dir, 'localhost.pem'), 'not a certificate');
    const again = await ensureDevCertificates(dir);
    assert.equal(again.createdCa, false);
    assert.notEqual(again.cert, 'not a certificate');
    assert.equal(readFileSync(join(dir, 'localhost.pem'), 'utf8'), again.cert);
    assert.equal(await signedBy(again.cert, readFileSync(first.caPath, 'utf8')), true);
  });

  it('replaces a stored leaf that expires within 30 days', async () => {
    const dir = folder();
    const first = await ensureDevCertificates(dir);
    const ca = await loadDevCa({
      cert: readFileSync(first.caPath, 'utf8'),
      key: readFileSync(join(dir, 'ca-key.pem'), 'utf8'),
    });
    const soon = await ca.issueLeaf(['localhost'], { validDays: 10 });
    writeFileSync(join(dir, 'localhost.pem'), soon.cert);
    writeFileSync(join(dir, 'localhost-key.pem'), soon.key);
    const again = await ensureDevCertificates(dir);
    assert.notEqual(again.cert, soon.cert);
    assert.ok(new x509.X509Certificate(again.cert).notAfter.getTime() - Date.now() > 300 * 86_400_000);
  });

  it('gives a new CA a new leaf: the one the old CA signed is not kept', async () => {
    const dir = folder();
    const first = await ensureDevCertificates(dir);
    rmSync(join(dir, 'ca.pem'));
    rmSync(join(dir, 'ca-key.pem'));
    const again = await ensureDevCertificates(dir);
    assert.equal(again.createdCa, true);
    assert.notEqual(again.cert, first.cert);
    assert.equal(await signedBy(again.cert, readFileSync(again.caPath, 'utf8')), true);
  });
});
