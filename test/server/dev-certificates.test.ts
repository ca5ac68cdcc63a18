/**
 * The development CA and its certificate folder (`server/http/dev-ca.ts`, `dev-certificates.ts`): a stored file that
 * cannot be read stops the start naming it (never a new CA over it), and a CRL names the key that signed it.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import * as x509 from '@peculiar/x509';
import { createDevCa } from '../../server/http/dev-ca.ts';
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
