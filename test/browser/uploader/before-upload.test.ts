// createUploader({ beforeUpload }) in headless Chromium against the real service: the hook runs on the main thread
// before the file reaches the worker, and what it decides is what the service stores.
import { expect } from '@open-wc/testing';
import { createUploader } from '../../../src/uploader/index.ts';
import type { BeforeUpload, RejectedUpload, Uploader, UploadError } from '../../../src/uploader/index.ts';
import { baseUrl, download, filesNamed, nextEvent, randomFile, sameBytes, testUploaders, TOKEN } from './helpers.ts';

const make = testUploaders();
const uploader = (beforeUpload: BeforeUpload): Uploader => make({ beforeUpload });

/** The stored file's metadata, read back from the service. */
async function stored(id: string): Promise<{ name: string; description?: string; size: string; mimeType: string }> {
  const res = await fetch(`${baseUrl}/store/v3/files/${id}?fields=name,description,size,mimeType`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  return res.json();
}

describe('createUploader beforeUpload', () => {
  it('skips a file: a reject event, done rejects with code rejected, the task leaves the list, nothing stored', async () => {
    const u = uploader((file) => !file.name.startsWith('skip-'));
    const file = new File(['never sent'], `skip-${crypto.randomUUID()}.txt`, { type: 'text/plain' });
    const rejected = nextEvent<RejectedUpload>(u, 'reject');
    const task = u.add(file, { relativePath: `folder/${file.name}` });
    expect(task.state).to.equal('queued');
    const error = (await task.done.then(
      () => undefined,
      (e: UploadError) => e,
    ))!;
    expect([error.name, error.code, error.reason]).to.deep.equal(['UploadError', 'rejected', 'skipped']);
    expect(await rejected).to.deep.equal({
      taskId: task.id,
      name: file.name,
      relativePath: `folder/${file.name}`,
      reason: 'skipped',
      message: 'skipped by beforeUpload',
    });
    expect(u.snapshot.tasks).to.deep.equal([]);
    expect(await filesNamed(baseUrl, file.name)).to.deep.equal([]);
  });

  it('renames, describes and replaces (async hook): the service stores the new name, description and bytes', async () => {
    const replacement = randomFile(3000, 'application/octet-stream');
    const u = uploader(async (file, { relativePath }) => {
      const first = await file.text();
      if (first === 'replace me') return replacement;
      return { name: `renamed-${first}.txt`, metadata: { description: `from ${relativePath}` } };
    });
    const tag = crypto.randomUUID();
    const renamed = u.add(new File([tag], 'original.txt', { type: 'text/plain' }), {
      relativePath: 'docs/original.txt',
    });
    const replaced = u.add(new File(['replace me'], 'photo.bin', { type: 'application/octet-stream' }));
    const [a, b] = await Promise.all([renamed.done, replaced.done]);
    expect(await stored(a.id)).to.deep.include({
      name: `renamed-${tag}.txt`,
      description: 'from docs/original.txt',
      size: String(tag.length),
    });
    expect([renamed.snapshot.name, renamed.snapshot.relativePath]).to.deep.equal([
      `renamed-${tag}.txt`,
      `docs/renamed-${tag}.txt`,
    ]);
    // A File replacement brings its own name; its bytes are what the service keeps.
    expect(b.name).to.equal(replacement.name);
    expect(await sameBytes(replacement, await download(baseUrl, b.id))).to.equal(true);
    expect(replaced.snapshot.total).to.equal(3000);
  });

  it('a Blob replacement keeps the file name; a throwing hook rejects with its message as a hook-error', async () => {
    const u = uploader((file) => {
      if (file.name.startsWith('bad-')) throw new Error('files named bad- are not allowed');
      return new Blob(['converted text'], { type: 'text/plain' });
    });
    const name = `kept-${crypto.randomUUID()}.md`;
    const kept = u.add(new File(['# original'], name, { type: 'text/markdown' }));
    const rejected = nextEvent<RejectedUpload>(u, 'reject');
    const bad = u.add(new File(['x'], 'bad-one.txt'));
    const result = await kept.done;
    expect([result.name, result.mimeType]).to.deep.equal([name, 'text/plain']);
    expect(new TextDecoder().decode(await download(baseUrl, result.id))).to.equal('converted text');
    const refusal = await rejected;
    expect([refusal.taskId, refusal.reason, refusal.message]).to.deep.equal([
      bad.id,
      'hook-error',
      'files named bad- are not allowed',
    ]);
    const error = await bad.done.catch((e: UploadError) => e);
    expect((error as UploadError).code).to.equal('rejected');
  });

  it('refuses a function-less beforeUpload at createUploader', () => {
    expect(() =>
      createUploader({ baseUrl, getAccessToken: () => TOKEN, beforeUpload: 'no' as unknown as BeforeUpload }),
    ).to.throw(/beforeUpload must be a function/);
  });
});
