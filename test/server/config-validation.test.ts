/**
 * The service's config file (`server/config.ts` `parseConfig`): each bad value stops the start with a message that
 * names the key and what it must be; good values are kept as given.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { defaultConfig, loadConfigFile, parseConfig } from '../../server/config.ts';

/** The limits and timeouts that must be positive integers. */
const POSITIVE = [
  'maxJsonBytes',
  'maxHeaderSize',
  'sessionTtlMs',
  'headersTimeoutMs',
  'bodyIdleTimeoutMs',
  'keepAliveTimeoutMs',
  'maxConnectionsPerClient',
  'lingerMs',
  'lingerBytes',
] as const;

describe('the config file', () => {
  it('a token grant keeps serviceAccount as given, false when absent', () => {
    const config = parseConfig({
      tokens: {
        robot: { user: 'robot@example.com', client: 'backup', serviceAccount: true },
        person: { user: 'frank@example.com', client: 'backup' },
      },
    });
    assert.equal(config.tokens.robot?.serviceAccount, true);
    assert.equal(config.tokens.person?.serviceAccount, false);
  });

  it('a token grant whose serviceAccount is not a boolean is refused, naming it', () => {
    assert.throws(
      () => parseConfig({ tokens: { robot: { user: 'robot@example.com', client: 'backup', serviceAccount: 'yes' } } }),
      { message: 'config: tokens["robot"].serviceAccount must be a boolean' },
    );
  });

  it('registeredDomains that are not an array of strings are refused, naming the key', () => {
    assert.throws(() => parseConfig({ registeredDomains: 'https://a.example' }), {
      message: 'config: "registeredDomains" must be an array of strings',
    });
  });

  it('content that is not an s3:// URL is refused, whatever its type', () => {
    for (const content of ['http://bucket/prefix', '/srv/content', 42]) {
      assert.throws(() => parseConfig({ content }), {
        message: 'config: "content" must be an s3://BUCKET[/PREFIX] URL',
      });
    }
    assert.equal(parseConfig({ content: 's3://bucket/prefix' }).content, 's3://bucket/prefix');
  });

  it('a storage quota must be a byte count: 0 is one, -1 is not', () => {
    assert.equal(parseConfig({ storageQuotaBytes: 0 }).storageQuotaBytes, 0);
    assert.throws(() => parseConfig({ storageQuotaBytes: -1 }), {
      message: 'config: "storageQuotaBytes" must be a byte count (an integer ≥ 0)',
    });
  });

  it('a token grant without a string user and client is refused, naming the token', () => {
    for (const grant of [{ user: 5, client: 'c' }, { user: 'kim@example.com' }, null]) {
      assert.throws(() => parseConfig({ tokens: { t1: grant } }), {
        message: 'config: tokens["t1"] needs string "user" and "client"',
      });
    }
  });

  it('tokens that are not an object of grants are refused, saying what they must be', () => {
    for (const tokens of [5, null, ['dev-token-x'], 'dev-token-x']) {
      assert.throws(() => parseConfig({ tokens }), {
        message: 'config: "tokens" must be an object mapping token → {user, client, serviceAccount?}',
      });
    }
  });

  it('each limit and timeout is a positive integer: kept as given, the default when absent, refused by name otherwise', () => {
    const defaults = defaultConfig();
    const none = parseConfig({});
    for (const key of POSITIVE) {
      assert.equal(none[key], defaults[key], key);
      assert.equal(parseConfig({ [key]: 7 })[key], 7, key);
      for (const bad of [0, -1, 1.5, '30000', null]) {
        assert.throws(
          () => parseConfig({ [key]: bad }),
          { message: `config: "${key}" must be a positive integer` },
          `${key}: ${String(bad)}`,
        );
      }
    }
  });

  it('without a file the limits are the documented ones (server/README.md, "Limits and timeouts")', () => {
    for (const c of [defaultConfig(), parseConfig({})]) {
      assert.deepEqual(
        {
          gzipAnyUserAgent: c.gzipAnyUserAgent,
          maxJsonBytes: c.maxJsonBytes,
          maxHeaderSize: c.maxHeaderSize,
          sessionTtlMs: c.sessionTtlMs,
          headersTimeoutMs: c.headersTimeoutMs,
          bodyIdleTimeoutMs: c.bodyIdleTimeoutMs,
          keepAliveTimeoutMs: c.keepAliveTimeoutMs,
          maxConnectionsPerClient: c.maxConnectionsPerClient,
          lingerMs: c.lingerMs,
          lingerBytes: c.lingerBytes,
          storageQuotaBytes: c.storageQuotaBytes,
          database: c.database,
          content: c.content,
          verifiedDomains: c.verifiedDomains,
          registeredDomains: c.registeredDomains,
          trustCa: c.trustCa,
          crl: c.crl,
          extra: c.extra,
        },
        {
          gzipAnyUserAgent: false,
          maxJsonBytes: 1_048_576,
          maxHeaderSize: 16_384,
          sessionTtlMs: 604_800_000,
          headersTimeoutMs: 20_000,
          bodyIdleTimeoutMs: 30_000,
          keepAliveTimeoutMs: 5_000,
          maxConnectionsPerClient: 256,
          lingerMs: 30_000,
          lingerBytes: 67_108_864,
          storageQuotaBytes: undefined,
          database: undefined,
          content: undefined,
          verifiedDomains: [],
          registeredDomains: [],
          trustCa: [],
          crl: undefined,
          extra: {},
        },
      );
    }
  });

  it('without tokens the five development tokens of server/README.md are the grants', () => {
    assert.deepEqual(parseConfig({}).tokens, {
      'dev-token-alice': { user: 'alice@example.com', client: 'dev-client' },
      'dev-token-bob': { user: 'bob@example.com', client: 'dev-client' },
      'dev-token-carol': { user: 'carol@other.example', client: 'dev-client' },
      'dev-token-robot': { user: 'robot@dev-client.iam.example', client: 'dev-client', serviceAccount: true },
      'dev-token-mallory': { user: 'mallory@example.com', client: 'other-client' },
    });
  });

  it('a grant keeps its displayName; one without has none', () => {
    const { tokens } = parseConfig({
      tokens: {
        named: { user: 'ida@example.com', client: 'c', displayName: 'Ida Lindqvist' },
        plain: { user: 'jon@example.com', client: 'c' },
      },
    });
    assert.deepEqual(tokens.named, {
      user: 'ida@example.com',
      client: 'c',
      serviceAccount: false,
      displayName: 'Ida Lindqvist',
    });
    assert.deepEqual(tokens.plain, { user: 'jon@example.com', client: 'c', serviceAccount: false });
  });

  it('a file that is not a JSON object is refused as a whole', () => {
    for (const raw of [5, null, [], 'tokens']) {
      assert.throws(() => parseConfig(raw), { message: 'config: the file must hold a JSON object' }, String(raw));
    }
  });

  it('keys the service does not know are kept for the features that read them, known keys are not', () => {
    const c = parseConfig({ push: { relay: 'x' }, convert: false, maxJsonBytes: 10 });
    assert.deepEqual(c.extra, { push: { relay: 'x' }, convert: false });
  });

  it('each list of origins or CA files must be strings only, naming the key', () => {
    for (const key of ['verifiedDomains', 'registeredDomains', 'trustCa']) {
      assert.deepEqual(parseConfig({ [key]: ['a', 'b'] })[key as 'trustCa'], ['a', 'b'], key);
      for (const bad of [['a', 5], {}, 'a']) {
        assert.throws(() => parseConfig({ [key]: bad }), { message: `config: "${key}" must be an array of strings` });
      }
    }
  });

  it('crl is a path string and gzipAnyUserAgent a boolean, each kept as given', () => {
    const c = parseConfig({ crl: '/etc/crl.pem', gzipAnyUserAgent: true });
    assert.equal(c.crl, '/etc/crl.pem');
    assert.equal(c.gzipAnyUserAgent, true);
    assert.equal(parseConfig({ gzipAnyUserAgent: false }).gzipAnyUserAgent, false);
    assert.throws(() => parseConfig({ crl: 5 }), { message: 'config: "crl" must be a path string' });
    assert.throws(() => parseConfig({ gzipAnyUserAgent: 'yes' }), {
      message: 'config: "gzipAnyUserAgent" must be a boolean',
    });
  });

  it('a storage quota that is not a whole number of bytes is refused', () => {
    assert.equal(parseConfig({ storageQuotaBytes: 5 }).storageQuotaBytes, 5);
    for (const bad of [1.5, '5', null]) {
      assert.throws(() => parseConfig({ storageQuotaBytes: bad }), {
        message: 'config: "storageQuotaBytes" must be a byte count (an integer ≥ 0)',
      });
    }
  });

  it('database is a postgres:// or postgresql:// URL with no blank, nothing else', () => {
    for (const good of ['postgres://u:p@db:5432/store', 'postgresql://u@db/store']) {
      assert.equal(parseConfig({ database: good }).database, good);
    }
    for (const bad of [
      'mysql://u@db/store',
      'postgres://',
      'x-postgres://u@db/s',
      'postgres://u@db/a b',
      5,
      ['postgres://u@db/s'],
    ]) {
      assert.throws(
        () => parseConfig({ database: bad }),
        { message: 'config: "database" must be a postgres://USER:PASS@HOST:PORT/DB URL' },
        String(bad),
      );
    }
  });

  it('a config file that cannot be read, or is not JSON, is refused naming the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'config-file-'));
    try {
      const missing = join(dir, 'missing.json');
      assert.throws(
        () => loadConfigFile(missing),
        (e: Error) => e.message.startsWith(`config: cannot read ${missing}: ENOENT`),
      );
      const broken = join(dir, 'broken.json');
      writeFileSync(broken, '{ "maxJsonBytes": ');
      assert.throws(
        () => loadConfigFile(broken),
        (e: Error) => e.message.startsWith(`config: ${broken} is not valid JSON: `),
      );
      const good = join(dir, 'good.json');
      writeFileSync(good, '{ "maxJsonBytes": 9 }');
      assert.equal(loadConfigFile(good).maxJsonBytes, 9);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
