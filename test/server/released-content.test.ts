/**
 * Bytes no file names any more leave the disk while the service runs: a deleted file's content, and the old content
 * of a file whose bytes were replaced — not only at the next start's sweep. Read from the data directory's
 * `content/` folder of a real service; each wait is for the file to go, bounded only to fail instead of hanging. A
 * file that had no content releases nothing when it gets some: the service logs no failed removal.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type ServiceHandle, startService } from './helpers/service.ts';

let svc: ServiceHandle;
before(async () => {
  svc = await startService();
});
after(() => svc.stop());

/** The names of the content files on disk. */
function contentFiles(): string[] {
  const dir = join(svc.dataDir, 'content');
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

/** Waits until `name` is no longer in the content folder (at most 20 s). */
async function gone(name: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (contentFiles().includes(name)) {
    assert.ok(Date.now() < deadline, `${name} is still on disk`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

async function upload(text: string): Promise<string> {
  const r = await svc.api('POST', '/upload/store/v3/files?uploadType=media&fields=id', {
    body: text,
    headers: { 'Content-Type': 'text/plain' },
  });
  assert.equal(r.status, 200, r.text);
  return (r.json() as { id: string }).id;
}

describe('released content', () => {
  it("a deleted file's bytes are removed from the disk", async () => {
    const before = contentFiles();
    const id = await upload('bytes that will be deleted\n');
    const added = contentFiles().filter((f) => !before.includes(f));
    assert.equal(added.length, 1, `one content file for the upload: ${added.join(', ')}`);
    const removed = await svc.api('DELETE', `/store/v3/files/${id}`);
    assert.equal(removed.status, 204, removed.text);
    await gone(added[0] as string);
  });

  it("a file's old bytes are removed once new ones replace them", async () => {
    const before = contentFiles();
    const id = await upload('the first bytes\n');
    const [first, ...more] = contentFiles().filter((f) => !before.includes(f));
    assert.ok(first !== undefined && more.length === 0, 'one content file for the upload');
    const replaced = await svc.api('PATCH', `/upload/store/v3/files/${id}?uploadType=media`, {
      body: 'the second bytes\n',
      headers: { 'Content-Type': 'text/plain' },
    });
    assert.equal(replaced.status, 200, replaced.text);
    await gone(first);
    const media = await svc.api('GET', `/store/v3/files/${id}?alt=media`);
    assert.equal(media.text, 'the second bytes\n');
  });

  it('the first bytes of a file made without content release nothing: no removal fails in the log', async () => {
    const made = await svc.api('POST', '/store/v3/files?fields=id', { body: { name: 'empty-at-first.txt' } });
    assert.equal(made.status, 200, made.text);
    const { id } = made.json() as { id: string };
    const before = contentFiles();
    const put = (text: string) =>
      svc.api('PATCH', `/upload/store/v3/files/${id}?uploadType=media`, {
        body: text,
        headers: { 'Content-Type': 'text/plain' },
      });
    const first = await put('the first bytes it ever had\n');
    assert.equal(first.status, 200, first.text);
    const [firstContent] = contentFiles().filter((f) => !before.includes(f));
    assert.ok(firstContent !== undefined, 'a content file for the first bytes');
    // A second replacement releases the first bytes; once they are gone, what the first commit released is done.
    const second = await put('the second bytes\n');
    assert.equal(second.status, 200, second.text);
    await gone(firstContent);
    assert.doesNotMatch(svc.stderr, /could not remove content/);
  });
});
