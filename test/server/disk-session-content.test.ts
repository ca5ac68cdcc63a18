/**
 * A resumable session's bytes on disk (`server/content/disk-session-content.ts`) where the running hash does not
 * line up with the size the session completes at (its MD5 is then read back from the part file), a session completed
 * with no bytes (an empty content file) or whose part cannot be moved into the content (the completion fails, the
 * part keeps its bytes), and moving a completed session's content back into its part (`reopen`). Also the small pieces beside it: the file writer's
 * position, the content key check and the too-large error.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { checkContentKey, sessionContentKey } from '../../server/content/content-keys.ts';
import { DiskContent } from '../../server/content/disk-content.ts';
import { DiskSessionContent } from '../../server/content/disk-session-content.ts';
import { FileWriter } from '../../server/content/file-writer.ts';
import { ContentTooLargeError } from '../../server/content/too-large.ts';

const scratch = mkdtempSync(join(tmpdir(), 'disk-session-content-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

const md5 = (s: string) => createHash('md5').update(s).digest('hex');

let n = 0;
function sessions(): { bytes: DiskSessionContent; data: string } {
  const data = join(scratch, `data-${++n}`);
  const files = {
    path: (key: string) => join(data, key),
    adopt: async (path: string, key: string) => {
      mkdirSync(dirname(join(data, key)), { recursive: true });
      await rename(path, join(data, key));
    },
  };
  return { bytes: new DiskSessionContent(join(data, 'sessions'), files), data };
}

async function* body(...parts: string[]): AsyncIterable<Uint8Array> {
  for (const p of parts) yield Buffer.from(p);
}

test('a session completing at fewer bytes than its last request sent takes the MD5 of those bytes', async () => {
  const { bytes, data } = sessions();
  const { received, tail } = await bytes.append('s1', 0, 0, body('hello', ' world!'));
  assert.equal(received, 12);
  const done = await bytes.complete('s1', 5, tail);
  assert.equal(done.key, sessionContentKey('s1'));
  assert.equal(done.md5, md5('hello'));
  assert.ok(existsSync(join(data, done.key)));
});

test('a session completing at zero bytes after a request that sent some has the MD5 of nothing', async () => {
  const { bytes } = sessions();
  const { tail } = await bytes.append('s2', 0, 0, body('not kept'));
  const done = await bytes.complete('s2', 0, tail);
  assert.equal(done.md5, md5(''));
});

test('a session completed without a tail after a restart hashes its part file', async () => {
  const first = sessions();
  const { tail } = await first.bytes.append('s3', 0, 0, body('restart-proof bytes'));
  await first.bytes.keep('s3', 19);
  assert.equal(tail.length > 0, true);
  // A new owner over the same directory: no running hash in memory.
  const files = {
    path: (key: string) => join(first.data, key),
    adopt: async (path: string, key: string) => {
      mkdirSync(dirname(join(first.data, key)), { recursive: true });
      await rename(path, join(first.data, key));
    },
  };
  const restarted = new DiskSessionContent(join(first.data, 'sessions'), files);
  const done = await restarted.complete('s3', 19);
  assert.equal(done.md5, md5('restart-proof bytes'));
  assert.equal(readFileSync(join(first.data, done.key), 'utf8'), 'restart-proof bytes');
});

test('reopen moves completed content back into the part file, says false when it is gone, throws otherwise', async () => {
  const { bytes, data } = sessions();
  const { tail } = await bytes.append('s4', 0, 0, body('reopened'));
  const done = await bytes.complete('s4', 8, tail);
  assert.equal(await bytes.reopen('s4', done.key), true);
  assert.equal(existsSync(join(data, done.key)), false);
  assert.equal(readFileSync(join(data, 'sessions', 's4.part'), 'utf8'), 'reopened');
  assert.equal(await bytes.stored('s4'), 0, 'a part shorter than a block stores no whole block');

  // The content is gone (a conversion consumed it).
  assert.equal(await bytes.reopen('s5', sessionContentKey('s5')), false);

  // Any other failure is not hidden: a directory stands where the part file would go.
  const key = sessionContentKey('s6');
  writeFileSync(join(data, key), 'content');
  mkdirSync(join(data, 'sessions', 's6.part', 'occupied'), { recursive: true });
  await assert.rejects(bytes.reopen('s6', key), (e: NodeJS.ErrnoException) => e.code !== 'ENOENT' && !!e.code);
});

test('a session completed with no bytes at all becomes an empty content file in the data folder', async () => {
  const data = join(scratch, `data-${++n}`);
  const content = new DiskContent(data);
  const done = await content.sessions.complete('s7', 0);
  assert.equal(done.md5, md5(''));
  assert.equal(readFileSync(content.path(done.key), 'utf8'), '');
});

test('a part file that cannot be moved into the content (another file system) fails the completion, leaving no empty content', async (t) => {
  // The content directory on another file system than the sessions' parts: a rename between them is EXDEV.
  const elsewhere = mkdtempSync('/dev/shm/disk-session-content-');
  t.after(() => rmSync(elsewhere, { recursive: true, force: true }));
  const data = join(scratch, `data-${++n}`);
  mkdirSync(data);
  symlinkSync(elsewhere, join(data, 'content'));
  assert.notEqual(statSync(elsewhere).dev, statSync(data).dev, 'the two folders are on different file systems');
  const content = new DiskContent(data);
  const { tail } = await content.sessions.append('s8', 0, 0, body('bytes that must not be lost'));
  await assert.rejects(content.sessions.complete('s8', 27, tail), { code: 'EXDEV' });
  assert.equal(existsSync(content.path(sessionContentKey('s8'))), false, 'no content file stands for the bytes');
  assert.equal(readFileSync(join(data, 'sessions', 's8.part'), 'utf8'), 'bytes that must not be lost');
});

test("the file writer's position counts what was pushed, written or still queued", async () => {
  const path = join(scratch, 'writer.bin');
  writeFileSync(path, 'abc');
  const fh = await open(path, 'r+');
  try {
    const writer = new FileWriter(fh, 3);
    assert.equal(writer.position, 3);
    await writer.push(Buffer.from('defg'));
    await writer.push(Buffer.from('hi'));
    assert.equal(writer.position, 9);
    await writer.finish();
    assert.equal(writer.position, 9);
    assert.equal(writer.written, 9);
  } finally {
    await fh.close();
  }
  assert.equal(readFileSync(path, 'utf8'), 'abcdefghi');
});

test('a key outside the content directories is refused, naming it; the too-large error names its limit', () => {
  assert.equal(checkContentKey('content/abc'), 'content/abc');
  assert.throws(() => checkContentKey('../store.db'), { message: 'not a content key: "../store.db"' });
  const tooLarge = new ContentTooLargeError(1024);
  assert.equal(tooLarge.message, 'the content exceeds 1024 bytes');
  assert.equal(tooLarge.limit, 1024);
});
