/**
 * The WAN bench's peers, as a page would use them: tus-js-client and Uppy (@uppy/core + @uppy/tus) bundled with
 * esbuild into one script the bench adds to the upload page (`window.peers`), uploading the files of the page's raw
 * input into the tus server (`tus-server.ts`); and the check that what the tus server stored is the files' bytes.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { DiskFile } from './browser-cases.ts';

const ENTRY = `
import * as tus from 'tus-js-client';
import Uppy from '@uppy/core';
import Tus from '@uppy/tus';
const raw = () => [...document.getElementById('raw').files];
const tusOne = (endpoint, file, options) => new Promise((resolve, reject) => {
  const upload = new tus.Upload(file, {
    endpoint, metadata: { filename: file.name, filetype: file.type }, retryDelays: null, storeFingerprintForResuming: false, ...options,
    onSuccess: () => resolve(upload.url), onError: reject,
  });
  upload.start();
});
window.peers = {
  /** tus-js-client, N files at a time (one, for the big file); options: chunkSize, uploadDataDuringCreation. */
  async tus(endpoint, inFlight, options) {
    const t0 = window.__changedAt;
    const queue = raw();
    const urls = [];
    await Promise.all(Array.from({ length: inFlight }, async () => { while (queue.length) urls.push(await tusOne(endpoint, queue.shift(), options)); }));
    return { ms: performance.now() - t0, urls };
  },
  /** Uppy with its tus plugin (limit: files at a time). */
  async uppy(endpoint, limit, options) {
    const t0 = window.__changedAt;
    const uppy = new Uppy({ autoProceed: false }).use(Tus, { endpoint, limit, retryDelays: null, storeFingerprintForResuming: false, ...options });
    for (const file of raw()) uppy.addFile({ name: file.name, type: file.type || 'application/octet-stream', data: file });
    const result = await uppy.upload();
    if (result.failed.length) throw new Error('uppy: ' + result.failed.length + ' failed: ' + result.failed[0].error);
    const ms = performance.now() - t0;
    uppy.destroy();
    return { ms, urls: result.successful.map((f) => f.uploadURL ?? f.response?.uploadURL) };
  },
};
`;

/** The peers' script (an IIFE defining `window.peers`). */
export async function buildPeerScript(): Promise<string> {
  const { build } = await import('esbuild');
  const out = await build({
    stdin: { contents: ENTRY, resolveDir: resolve(import.meta.dirname, '../..'), loader: 'js' },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    minify: true,
    write: false,
    logLevel: 'error',
  });
  return out.outputFiles[0].text;
}

/** Checks each upload (its URL ends in the tus id) against the file of the same name, in the tus server's folder. */
export function checkTusStored(tusDir: string, urls: string[], files: DiskFile[]): void {
  if (urls.length !== files.length) throw new Error(`${urls.length} tus uploads, ${files.length} files`);
  const byName = new Map(files.map((f) => [f.name, f]));
  for (const url of urls) {
    const id = url.split('/').pop()!;
    const info = JSON.parse(readFileSync(join(tusDir, `${id}.json`), 'utf8')) as { metadata?: { filename?: string } };
    const want = byName.get(info.metadata?.filename ?? '');
    const bytes = readFileSync(join(tusDir, id));
    if (!want || bytes.length !== want.size || createHash('md5').update(bytes).digest('hex') !== want.md5)
      throw new Error(`tus upload ${id} differs from ${want?.path}`);
  }
}
