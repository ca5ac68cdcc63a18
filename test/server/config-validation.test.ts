/**
 * The service's config file (`server/config.ts` `parseConfig`): each bad value stops the start with a message that
 * names the key and what it must be; good values are kept as given.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultConfig, parseConfig } from '../../server/config.ts';

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
});
