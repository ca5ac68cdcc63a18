// Adaptive concurrency in the browser (issue 21): the kit with its defaults on the plain upload page, against the
// service over HTTPS (HTTP/2 and HTTP/1.1 by ALPN; `--disable-http2` makes Chromium speak HTTP/1.1). Every multipart
// create is held at the service for a while (a delay fault), so the uploads the kit runs at once are there to count:
// over HTTP/2 they rise above the 6 an HTTP/1.1 browser can have, over HTTP/1.1 the kit runs at most 6, and each
// task's snapshot names the protocol. Not timed: the counts are read where the requests arrive. Every stored file is
// read back and compared byte for byte. Build first: `npx vite build`.
// The service runs in this process, to count requests as they are answered.
import { chromium, expect, test, type Browser, type Page } from '@playwright/test';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultConfig } from '../../server/config.ts';
import { parseFault } from '../../server/faults.ts';
import { ensureDevCertificates } from '../../server/http/dev-certificates.ts';
import { createHttpsServer } from '../../server/http/https-server.ts';
import { createService } from '../../server/service.ts';
import type { Service } from '../../server/service-types.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../browser/chromium.js';
import { startUploadPage, type UploadPage } from '../client/helpers/upload-page.ts';
import { randomBytes } from './demo-fixture.ts';

const FILES = 24;
const SIZE = 64 * 1024;
/** How long the service holds each create: long enough that the uploads the kit starts together overlap there. */
const HOLD_MS = 2000;

type Counted = {
  url: string;
  svc: Service;
  inFlight: number;
  most: number;
  versions: Set<string>;
  stop(): Promise<void>;
};

/** The service over HTTPS in this process, counting the multipart creates it is answering at once. */
async function countedService(dir: string): Promise<Counted> {
  const tls = await ensureDevCertificates(join(dir, 'tls'));
  const svc = await createService({ dataDir: join(dir, 'data'), config: defaultConfig(), admin: true });
  const server = createHttpsServer(svc, tls);
  const counted = { svc, inFlight: 0, most: 0, versions: new Set<string>() } as Counted;
  server.prependListener('request', (req, res) => {
    if (req.method !== 'POST' || !req.url?.includes('uploadType=multipart')) return;
    counted.versions.add(req.httpVersion);
    counted.most = Math.max(counted.most, ++counted.inFlight);
    res.once('close', () => counted.inFlight--);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  counted.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  counted.stop = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return counted;
}

/** The stored bytes of a file, read from the service (not through the browser). */
function stored(service: Counted, id: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    request(
      `${service.url}/store/v3/files/${id}?alt=media`,
      { headers: { authorization: 'Bearer dev-token-alice' }, rejectUnauthorized: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(Buffer.concat(chunks))
            : reject(new Error(`download ${id}: ${res.statusCode}`)),
        );
      },
    )
      .on('error', reject)
      .end();
  });
}

for (const protocol of ['h2', 'http/1.1'] as const) {
  test.describe(`over ${protocol}`, () => {
    let dir: string;
    let service: Counted;
    let pages: UploadPage;
    // A browser of its own: HTTP/1.1 needs Chromium started with `--disable-http2`, and the shared worker the dev
    // certificate trusted at launch (a context's `ignoreHTTPSErrors` does not reach it).
    let browser: Browser;
    let page: Page;
    test.beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'adaptive-concurrency-'));
      service = await countedService(dir);
      pages = await startUploadPage();
      browser = await chromium.launch({
        executablePath: CHROMIUM_PATH,
        args: [
          ...CHROMIUM_ARGS,
          '--ignore-certificate-errors',
          ...(protocol === 'http/1.1' ? ['--disable-http2'] : []),
        ],
      });
      page = await browser.newPage();
    });
    test.afterAll(async () => {
      await browser?.close();
      await pages?.stop();
      await service?.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    test(`the kit's defaults: ${protocol === 'h2' ? 'more than 6' : 'exactly 6'} uploads at once, the snapshot says ${protocol}, every file intact`, async () => {
      const files = Array.from({ length: FILES }, (_, i) => {
        const bytes = randomBytes(SIZE, 300 + i);
        const path = join(dir, `small-${i}.bin`);
        writeFileSync(path, bytes);
        return { path, name: `small-${i}.bin`, md5: createHash('md5').update(bytes).digest('hex'), bytes };
      });
      await service.svc.faults.add([
        parseFault({
          match: { method: 'POST', uploadType: 'multipart' },
          action: { type: 'delay', ms: HOLD_MS },
          times: FILES,
        }),
      ]);
      await page.goto(pages.url(service.url));
      await page.waitForFunction(() => 'kit' in globalThis);
      // The most tasks uploading at once, as the page's own snapshots show them.
      await page.evaluate(() => {
        const w = globalThis as unknown as { kit: { uploader: EventTarget }; mostUploading: number };
        w.mostUploading = 0;
        w.kit.uploader.addEventListener('change', (e) => {
          const tasks = (e as CustomEvent<{ tasks: { state: string }[] }>).detail.tasks;
          w.mostUploading = Math.max(w.mostUploading, tasks.filter((t) => t.state === 'uploading').length);
        });
      });
      await page.setInputFiles(
        '#file',
        files.map((f) => f.path),
      );
      const results = (await (
        await page.waitForFunction((n) => {
          const kit = (globalThis as unknown as { kit: { results: unknown[] } }).kit;
          return kit.results.length === n && kit.results;
        }, FILES)
      ).jsonValue()) as { ok: boolean; file?: { id: string; name: string; md5Checksum: string } }[];
      expect(results.filter((r) => !r.ok)).toEqual([]);

      const protocols = await page.evaluate(() =>
        (globalThis as unknown as { kit: { tasks: { snapshot: { protocol?: string } }[] } }).kit.tasks.map(
          (t) => t.snapshot.protocol,
        ),
      );
      expect(new Set(protocols)).toEqual(new Set([protocol]));
      expect([...service.versions]).toEqual([protocol === 'h2' ? '2.0' : '1.1']);
      const mostUploading = await page.evaluate(
        () => (globalThis as unknown as { mostUploading: number }).mostUploading,
      );
      test.info().annotations.push({
        type: 'at once',
        description: `${service.most} creates at the service, ${mostUploading} tasks uploading`,
      });
      if (protocol === 'h2') {
        expect(service.most).toBeGreaterThan(6);
        expect(mostUploading).toBeGreaterThan(6);
      } else {
        // Chromium itself opens at most 6 HTTP/1.1 connections a host, so what the service counts cannot show the kit's
        // own limit; the tasks the page sees uploading at once can: exactly the kit's HTTP/1.1 limit (6), no more.
        expect(mostUploading).toBe(6);
        expect(service.most).toBeLessThanOrEqual(6);
        expect(service.most).toBeGreaterThan(3); // more than the old fixed default of 3
      }

      for (const result of results) {
        const file = files.find((f) => f.name === result.file!.name)!;
        expect(result.file!.md5Checksum).toBe(file.md5);
        expect((await stored(service, result.file!.id)).equals(file.bytes)).toBe(true);
      }
    });
  });
}
