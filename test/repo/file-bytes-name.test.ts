// Issue 38, "one name per thing": the file's bytes are `file` from the page to the request (ARCHITECTURE.md, "Names
// along the way"). Checked on the uploader's source text, comments left out: whatever a value of type `Blob` is
// declared as (a parameter, a field, a tuple slot) is `file` unless it is another blob listed here, no code names
// the bytes `blob` but the reader of records written before the rename, and no module is named after a blob.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, sources } from './source-graph.ts';

/** The image code makes blobs of its own (thumbnails, a resized image), which are not the file the app gave. */
const uploader = sources('src/uploader').filter((file) => !file.startsWith('src/uploader/worker/images/'));
/** The one reader of the old name (records and engines from before the rename). */
const OLD_NAMES = 'src/uploader/engine/old-names.ts';

/** Declarations typed `Blob` that are other blobs than the file's bytes, as `file: name`. */
const OTHER_BLOBS = [
  // A request body: the file itself or one of its slices, compared with the file to tell which.
  'src/uploader/engine/by-path.ts: body',
];

function code(file: string): string {
  return readFileSync(join(ROOT, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*$/gm, '');
}

test('every value declared as a `Blob` in the uploader is `file`, but the other blobs listed', () => {
  const named = uploader
    .filter((file) => file !== OLD_NAMES)
    .flatMap((file) => [...code(file).matchAll(/\b(\w+)\??: Blob\b/g)].map((m) => `${file}: ${m[1]}`))
    .filter((declared) => !declared.endsWith(': file'));
  assert.deepEqual(named, OTHER_BLOBS);
});

test('no code of the uploader names the file `blob`, but the reader of records from before the rename', () => {
  const naming = uploader
    .filter((file) => file !== OLD_NAMES)
    // `resized.blob`: the image code's own name for the image it made (which is then sent as `file`).
    .filter((file) => /(?<!resized\.)\b(blob|keepBlob|source)\b/.test(withoutStrings(code(file))));
  assert.deepEqual(naming, []);
  assert.match(code(OLD_NAMES), /\bblob\b/, 'old-names.ts reads the old name');
});

test('no module of the uploader is named after a blob', () => {
  assert.deepEqual(
    uploader.filter((file) => /blob/i.test(file)),
    [],
  );
});

/** The text without its string literals: module paths name other things (`token-source.ts`). */
function withoutStrings(text: string): string {
  return text.replace(/'[^'\n]*'/g, "''");
}
