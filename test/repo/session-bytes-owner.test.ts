// Issue 22, "one owner, one name": a resumable session's bytes on disk have one owner, `server/content/disk-session-content.ts`.
// Checked on the source text: only it names a part file or touches the file system for one; the rows-and-locks
// module does not know it, and the upload handlers reach a session (rows and bytes) only through its one door,
// `server/store/resumable-sessions.ts`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, sources, specifiers } from './source-graph.ts';

const OWNER = 'server/content/disk-session-content.ts';

/** The file's code without its comments (a comment may speak of "the part file"). */
function code(file: string): string {
  return readFileSync(join(ROOT, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
}

test('only session-bytes.ts names a part file (`.part`) in the service', () => {
  const naming = sources('server').filter((f) => /\.part\b/.test(code(f)));
  assert.deepEqual(naming, [OWNER]);
});

test('the session rows and the request handlers do not touch the file system', () => {
  const files = ['server/store/sessions.ts', ...sources('server/handlers')];
  const withFs = files.filter((f) => specifiers(f).some((s) => s === 'node:fs' || s === 'node:fs/promises'));
  assert.deepEqual(withFs, []);
});

test('the session rows do not know the bytes owner, and the bytes owner does not know the rows', () => {
  assert.ok(!specifiers('server/store/sessions.ts').some((s) => s.includes('session-bytes')));
  assert.ok(!specifiers(OWNER).some((s) => s.includes('sessions.ts')));
});

test('the upload handlers reach sessions only through store/resumable-sessions.ts', () => {
  const reaching = sources('server')
    .filter((f) => f !== 'server/service.ts' && !f.startsWith('server/store/'))
    .filter((f) => specifiers(f).some((s) => /store\/(session-bytes|sessions)\.ts$/.test(s)));
  assert.deepEqual(reaching, []);
  const handler = code('server/handlers/resumable-put.ts');
  assert.ok(!/sessionBytes|\.sessions\./.test(handler), 'resumable-put.ts asks the session store, not its parts');
});
