/**
 * The first instant after a choice (issue 28): a file is chosen on a page holding `<store-uploader>` from the built
 * script-tag bundle, and the tab goes to another page of the site 0, 50, 150 or 300 ms later. The file must be stored
 * once, byte-identical: it reached the site's shared worker before the page left, or the page held the navigation
 * (`beforeunload`) until it had. The browser in these tests is a person who stays when a page asks (Playwright would
 * leave), and follows the link again. "Once" is judged after every upload the next page's uploader shows has ended
 * and no session for the file is open, and again after a reload of that page (which would offer or resume anything
 * left behind). Each run has a browser context of its own, so nothing of the kit is loaded or running before the
 * choice.
 *
 * Two runs make the slow moments of a loaded machine certain: the kit's code loaded after the page (the uploader's
 * chunks, its worker's script) is held back at the site until the page is asked to leave, so the choice comes before
 * the uploader exists; or only the worker's script is, so the file is posted to a worker that has not started. A page
 * that left then lost the file (measured): the hold must last from the choice until the worker has answered.
 */
import { expect, test, type Dialog, type Page } from '@playwright/test';
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { openSessionsNamed } from './acceptance-fixture.ts';
import { BUNDLE_DIR, startBundleServer, type BundleServer } from './bundle-server.ts';
import { randomBytes } from './demo-fixture.ts';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';

const TOKEN = 'dev-token-alice';
let service: ServiceHandle;
let site: BundleServer;
let dir: string;

/**
 * The kit's files asked for after a page loaded that the site holds back (the pattern), and the answers waiting;
 * `seen` settles at the first one asked for.
 */
interface Holding {
  pattern: RegExp;
  waiting: (() => void)[];
  /** Whether one was requested; `seen` settles then. */
  requested: boolean;
  seen: Promise<void>;
  saw: () => void;
}
let holding: Holding | undefined;

function holdBack(pattern: RegExp): Holding {
  let saw!: () => void;
  const seen = new Promise<void>((resolve) => (saw = resolve));
  holding = { pattern, waiting: [], requested: false, seen, saw };
  return holding;
}

/** Lets every held file go, and any asked for later. */
function letGo(): void {
  const held = holding;
  holding = undefined;
  for (const answer of held?.waiting ?? []) answer();
}

function serveKitFile(res: ServerResponse, path: string): void {
  res.writeHead(200, { 'content-type': 'text/javascript' });
  createReadStream(join(BUNDLE_DIR, path.replace(/^\/kit\//, '/')))
    .on('error', () => res.destroy())
    .pipe(res);
}

const html = (title: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
</head><body><h1>${title}</h1><a href="/next.html">next</a>
<store-uploader base-url="SERVICE" token="${TOKEN}"></store-uploader>
<script type="module" src="/kit/store-upload-kit-elements.js"></script>
</body></html>`;

test.beforeAll(async () => {
  service = await startService();
  site = await startBundleServer((_req, res, path) => {
    const name = /^\/(first|next)\.html$/.exec(path)?.[1];
    if (name) {
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
        .end(html(name).replace('SERVICE', service.url));
      return true;
    }
    if (!holding?.pattern.test(path)) return false;
    holding.requested = true;
    holding.saw();
    holding.waiting.push(() => serveKitFile(res, path));
    return true;
  });
  dir = mkdtempSync(join(tmpdir(), 'handoff-'));
});
test.afterEach(() => letGo());
test.afterAll(async () => {
  await site?.close();
  await service?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function stored(name: string): Promise<{ md5Checksum: string }[]> {
  const q = encodeURIComponent(`name = '${name}'`);
  const r = await service.api('GET', `/store/v3/files?q=${q}&fields=files(md5Checksum)`, { token: TOKEN });
  return (JSON.parse(r.text) as { files: { md5Checksum: string }[] }).files;
}

/**
 * Whether every upload the page's uploader shows (the site's shared worker's) has ended, and how many interrupted
 * uploads it offers.
 */
async function settled(page: Page): Promise<{ shown: number; ended: boolean; interrupted: number }> {
  return page.evaluate(async () => {
    const element = document.querySelector('store-uploader') as HTMLElement & {
      getUploader(): Promise<
        { snapshot: { tasks: { state: string }[] }; interrupted(): Promise<unknown[]> | unknown[] } | undefined
      >;
    };
    await customElements.whenDefined('store-uploader');
    const uploader = await element.getUploader();
    if (!uploader) return { shown: 0, ended: false, interrupted: -1 };
    const ended = uploader.snapshot.tasks.every((t) => ['done', 'failed', 'cancelled'].includes(t.state));
    return { shown: uploader.snapshot.tasks.length, ended, interrupted: (await uploader.interrupted()).length };
  });
}

/**
 * Follows the link to the next page as a person who stays each time the page asks, and tries again; `asked` hears of
 * each ask. Resolves with how many times the page asked.
 */
async function goNext(page: Page, asked: () => void): Promise<number> {
  let asks = 0;
  const stay = (dialog: Dialog) => {
    if (dialog.type() !== 'beforeunload') return;
    asks++;
    asked();
    void dialog.dismiss();
  };
  page.on('dialog', stay);
  try {
    await expect(() => page.goto(`${site.origin}/next.html`)).toPass({ intervals: [50, 100, 250], timeout: 60_000 });
  } finally {
    page.off('dialog', stay);
  }
  return asks;
}

/** Chooses a file of its own on a new page, goes to the next page `delay` ms later; checks it is stored once. */
async function chooseAndLeave(
  page: Page,
  { delay, label, held }: { delay: number; label: string; held?: { pattern: RegExp; ready: boolean } },
): Promise<void> {
  const name = `handoff-${label}-${randomUUID()}.bin`;
  const bytes = randomBytes(3 * 1024 * 1024 + delay, delay + 7);
  const path = join(dir, name);
  writeFileSync(path, bytes);
  await page.goto(`${site.origin}/first.html`);
  const holds = held && holdBack(held.pattern);
  // `ready`: the choice waits until the held file is asked for (a sign of intent loads the uploader).
  if (held?.ready) await page.getByRole('button', { name: 'Browse files' }).hover();
  if (held?.ready) await holds!.seen;
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Browse files' }).click();
  await (await chooser).setFiles(path);
  // eslint-disable-next-line no-restricted-syntax -- time-wait: the delay between the choice and the navigation is what is tested.
  if (delay) await page.waitForTimeout(delay);
  // What was held back goes once the page is asked to leave, or once it has left without asking.
  const asks = await goNext(page, letGo);
  letGo();
  // Held back until the page was asked to leave (or had left): only a hold kept the page for its file.
  if (holds) expect(holds.requested, 'the held file was requested').toBe(true);
  if (holds) expect(asks, 'the page asked before leaving').toBeGreaterThan(0);
  const md5 = createHash('md5').update(bytes).digest('hex');
  await expect.poll(async () => (await stored(name)).length, { timeout: 60_000 }).toBeGreaterThan(0);
  await expect.poll(() => settled(page), { timeout: 60_000 }).toMatchObject({ ended: true, interrupted: 0 });
  await expect.poll(() => openSessionsNamed(service, name)).toEqual([]);
  expect((await stored(name)).map((f) => f.md5Checksum)).toEqual([md5]);
  // Later: a new life of the page, whose uploader would resume or offer anything the handoff left behind.
  await page.reload();
  await expect.poll(() => settled(page), { timeout: 60_000 }).toMatchObject({ ended: true, interrupted: 0 });
  expect((await stored(name)).map((f) => f.md5Checksum)).toEqual([md5]);
  expect(await openSessionsNamed(service, name)).toEqual([]);
}

for (const delay of [0, 50, 150, 300]) {
  test(`a navigation ${delay} ms after the choice: the file is stored once, byte-identical`, async ({ browser }) => {
    const context = await browser.newContext();
    try {
      await chooseAndLeave(await context.newPage(), { delay, label: String(delay) });
    } finally {
      await context.close();
    }
  });
}

/** The kit's code held back at the site, and whose hold must keep the page: the dropzone's, the element's, the uploader's. */
const HELD = [
  { code: "the intake's code", pattern: /^\/kit\/intake-[\w-]+\.js$/, ready: false },
  { code: "the uploader's code", pattern: /^\/kit\/(uploader-facade|create-uploader)-[\w-]+\.js$/, ready: false },
  // The uploader is there (it asked for its worker), and posts the file to a worker that has not started.
  { code: "the site's worker's script", pattern: /^\/kit\/(assets\/)?shared-worker-[\w-]+\.js$/, ready: true },
];

for (const { code, pattern, ready } of HELD) {
  test(`a choice while ${code} loads: leaving is held until the worker has the file`, async ({ browser }) => {
    const context = await browser.newContext();
    try {
      await chooseAndLeave(await context.newPage(), { delay: 0, label: 'held', held: { pattern, ready } });
    } finally {
      await context.close();
    }
  });
}
