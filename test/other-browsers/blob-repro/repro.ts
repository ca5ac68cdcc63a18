/**
 * Firefox's shared worker and a page's in-memory Blobs (issue 20), alone: `flock /tmp/chromium.lock node --import tsx
 * test/other-browsers/blob-repro/repro.ts`. A page posts Blobs to a module worker, which reads a part of each. In
 * Firefox ESR 153 a shared worker's slice of a Blob made in the page's memory (over about 1 MiB) that does not start
 * at 0 never settles; whole reads and the head do, and a dedicated worker or a file from <input> reads every part.
 * Prints the table; exits 1 once that slice reads (Firefox fixed it: src/uploader/worker/readable-file.ts can go).
 */
import { writeFileSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type ElementHandle } from 'puppeteer-core';
import { FIREFOX_PATH } from '../drivers.ts';

const MiB = 1024 * 1024;
const SIZE = 16 * MiB;
const TIMEOUT = 3_000;

const server = createServer((req, res) => {
  const file = { '/worker.js': 'worker.js', '/page.js': 'page.js' }[new URL(req.url ?? '/', 'http://x').pathname];
  res.writeHead(200, { 'content-type': file ? 'text/javascript' : 'text/html' });
  res.end(
    file
      ? readFileSync(join(import.meta.dirname, file))
      : '<!doctype html><meta charset="utf-8"><body><script type="module" src="/page.js"></script></body>',
  );
});
await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
const browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX_PATH, headless: true });
const onDisk = join(tmpdir(), `blob-repro-${process.pid}.bin`);
writeFileSync(onDisk, Buffer.alloc(SIZE, 7));
let hangs = false;
try {
  console.log(await browser.version());
  for (const shared of [true, false]) {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${(server.address() as { port: number }).port}/`);
    await page.waitForFunction('window.repro !== undefined');
    await page.evaluate(`repro.connect(${shared})`);
    await ((await page.$('input')) as ElementHandle<HTMLInputElement>).uploadFile(onDisk);
    for (const kind of ['memory', 'input'])
      for (const reader of ['arrayBuffer', 'stream']) {
        const row: string[] = [];
        for (const part of ['whole', 'head', 'mid', 'tail']) {
          const answer = await page.evaluate(`repro.read('${kind}', ${SIZE}, '${part}', '${reader}', ${TIMEOUT})`);
          row.push(`${part}=${String(answer)}`);
          if (shared && kind === 'memory' && part !== 'whole' && part !== 'head') hangs ||= answer === 'TIMEOUT';
        }
        console.log(
          `${shared ? 'shared' : 'dedicated'} worker, ${kind} Blob of ${SIZE / MiB} MiB, ${reader}: ${row.join(' ')}`,
        );
      }
    await page.close();
  }
} finally {
  await browser.close();
  server.close();
  rmSync(onDisk, { force: true });
}
console.log(
  hangs
    ? "still there: a shared worker's slices of a page's in-memory Blob hang (the kit copies such Blobs first)"
    : 'gone: every slice read; src/uploader/worker/readable-file.ts and its use in shared-worker.ts can go',
);
process.exitCode = hangs ? 0 : 1;
