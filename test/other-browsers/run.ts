/**
 * Smoke suite in browsers other than Chromium: `node --import tsx test/other-browsers/run.ts <firefox|webkit>`.
 * One browser per process (scripts/test-other-browsers.sh runs each under the machine's browser lock, WebKit inside
 * xvfb-run). Against a real store-service and the built bundle served by page-server.ts, it checks the elements,
 * uploads through the element and through createUploader (MD5 verification on, stored bytes compared), a reload
 * that resumes from a Blob kept in IndexedDB, and the page under a strict CSP. Every check also asserts that the page
 * saw no error. Prints one line per check, and appends `<browser> <passed> <failed>` to $SMOKE_RESULTS. No check is
 * skipped: one that cannot pass in a browser fails there.
 */
import { appendFileSync } from 'node:fs';
import { createHash, randomUUID } from 'node:crypto';
import { startService, type ServiceHandle } from '../server/helpers/service.ts';
import { launchFirefox, launchWebKit, type BrowserDriver } from './drivers.ts';
import { startPageServer, type PageServer, type Variant } from './page-server.ts';

const KiB = 1024;
const MiB = 1024 * KiB;

interface Ctx {
  driver: BrowserDriver;
  service: ServiceHandle;
  pages: PageServer;
}

interface StoredFile {
  id: string;
  name: string;
  size?: string;
  md5Checksum?: string;
}

interface Result {
  ok: boolean;
  file?: StoredFile;
  code?: string;
  message?: string;
}

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

/** Polls `probe` until `done` holds for its value, or fails after `timeout` ms naming what it waited for. */
async function until<T>(
  what: string,
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  timeout = 30_000,
): Promise<T> {
  const start = Date.now();
  let last: T | undefined;
  let lastError: unknown;
  for (let wait = 25; ; wait = Math.min(250, wait * 2)) {
    try {
      last = await probe();
      if (done(last)) return last;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() - start > timeout) {
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the last error is whatever the driver threw; it prints as it can.
      const lastErrorText = lastError ? `; last error: ${String(lastError)}` : '';
      throw new Error(
        `timed out after ${timeout} ms waiting for ${what}; last seen: ${JSON.stringify(last)}${lastErrorText}`,
      );
    }
    // eslint-disable-next-line no-restricted-syntax -- time-wait: the back-off of a bounded poll of page state (the drivers offer no event for it).
    await new Promise((r) => setTimeout(r, wait));
  }
}

const js = (value: unknown) => JSON.stringify(value);

async function open(ctx: Ctx, variant: Variant): Promise<void> {
  await ctx.driver.goto(ctx.pages.url(variant, ctx.service.url));
  await until(
    'the harness module',
    () => ctx.driver.evaluate<boolean>("typeof window.h === 'object' && window.h.ready === true"),
    Boolean,
    15_000,
  );
}

/** Everything the page (and, in Firefox, the driver) reported as an error since the last call. */
async function pageErrors(ctx: Ctx): Promise<string[]> {
  const inPage = await ctx.driver.evaluate<string[]>('window.__smokeErrors ? window.__smokeErrors.splice(0) : []');
  return [...inPage, ...ctx.driver.takeDriverErrors()];
}

async function expectNoErrors(ctx: Ctx, when: string): Promise<void> {
  const errors = await pageErrors(ctx);
  assert(errors.length === 0, `errors ${when}:\n  ${errors.join('\n  ')}`);
}

/** The stored bytes equal the page's file (SHA-256), and the service's md5Checksum and size are those of those bytes. */
async function expectStored(
  ctx: Ctx,
  file: StoredFile | undefined,
  name: string,
  sha256: string,
  size: number,
): Promise<void> {
  assert(file?.id, `no stored file for ${name}`);
  assert(file.name === name, `stored name ${file.name}, expected ${name}`);
  const stored = await ctx.service.api('GET', `/store/v3/files/${encodeURIComponent(file.id)}?alt=media`);
  assert(stored.status === 200, `GET ?alt=media answered ${stored.status}`);
  assert(stored.body.length === size, `stored ${stored.body.length} bytes, sent ${size}`);
  assert(
    createHash('sha256').update(stored.body).digest('hex') === sha256,
    `stored bytes of ${name} differ from the page's file`,
  );
  const meta = (
    await ctx.service.api('GET', `/store/v3/files/${encodeURIComponent(file.id)}?fields=id,size,md5Checksum`)
  ).json<StoredFile>();
  assert(
    meta.md5Checksum === createHash('md5').update(stored.body).digest('hex'),
    `service md5Checksum ${meta.md5Checksum} is not the MD5 of the stored bytes`,
  );
  assert(meta.size === String(size), `service size ${meta.size}, expected ${size}`);
  if (file.md5Checksum !== undefined)
    assert(
      file.md5Checksum === meta.md5Checksum,
      `the task's file has md5Checksum ${file.md5Checksum}, the service ${meta.md5Checksum}`,
    );
}

async function makeFile(
  ctx: Ctx,
  prefix: string,
  size: number,
  seed: number,
): Promise<{ name: string; sha256: string }> {
  const name = `${prefix}-${randomUUID()}.bin`;
  const made = await ctx.driver.evaluate<number>(`h.makeFile(${js(name)}, ${size}, ${seed})`);
  assert(made === size, `made a file of ${made} bytes, wanted ${size}`);
  return { name, sha256: await ctx.driver.evaluate<string>(`h.sha256(${js(name)})`) };
}

async function waitResult(ctx: Ctx, taskId: string, timeout = 60_000): Promise<Result> {
  return until(
    `task ${taskId} to settle`,
    () => ctx.driver.evaluate<Result | null>(`h.result(${js(taskId)})`),
    (r) => r !== null,
    timeout,
  ) as Promise<Result>;
}

async function uploadWithCreateUploader(ctx: Ctx, size: number, seed: number, options: object = {}): Promise<void> {
  // A boolean back: WebKitWebDriver serializes a returned object, calling toJSON on the comlink proxy inside the uploader.
  await ctx.driver.evaluate(`Boolean(h.uploader || h.create(${js(options)}))`);
  const { name, sha256 } = await makeFile(ctx, `create-${size}`, size, seed);
  const id = await ctx.driver.evaluate<string>(`h.add(${js(name)})`);
  const result = await waitResult(ctx, id);
  assert(result.ok, `upload of ${size} bytes failed: ${result.code}: ${result.message}`);
  await expectStored(ctx, result.file, name, sha256, size);
}

/**
 * Whether this page may compile and instantiate WebAssembly (its CSP may refuse it; WebKit refuses only at
 * instantiation); the worker has the same policy.
 */
async function wasmAllowed(ctx: Ctx): Promise<boolean> {
  return ctx.driver.evaluate<boolean>(
    'WebAssembly.instantiate(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])).then(() => true, () => false)',
  );
}

interface Rendered {
  upgraded: boolean;
  dropzone: boolean;
  list: boolean;
  width: number;
  height: number;
  text: string;
}

async function expectRendered(ctx: Ctx): Promise<Rendered> {
  return until(
    'the element to render (dropzone with its file input, progress list, a size)',
    () => ctx.driver.evaluate<Rendered>('h.rendered()'),
    (r) => r.upgraded && r.dropzone && r.list && r.width > 0 && r.height > 0 && r.text.trim().length > 0,
    15_000,
  );
}

interface ElementState {
  value: string[];
  tasks: { name: string; state: string; error: string | null; file: StoredFile | null }[];
  text: string;
}

const checks: { name: string; run(ctx: Ctx): Promise<void> }[] = [
  {
    name: 'elements are defined and render',
    async run(ctx) {
      await open(ctx, 'plain');
      const defined = await ctx.driver.evaluate<string[]>('h.defined()');
      assert(defined.length === 4, `defined elements: ${defined.join(', ')}`);
      await ctx.driver.evaluate('h.mount(true)');
      await expectRendered(ctx);
      const features = await ctx.driver.evaluate<{ showOpenFilePicker: boolean }>('h.features()');
      console.log(`    features: ${js(features)}`);
      await expectNoErrors(ctx, 'while rendering');
    },
  },
  {
    name: 'upload through <store-uploader> (file set on its input in the shadow root), MD5 verified, byte-identical',
    async run(ctx) {
      await open(ctx, 'plain');
      const size = 1 * MiB + 77;
      const { name, sha256 } = await makeFile(ctx, 'element', size, 11);
      await ctx.driver.evaluate('h.mount(true)');
      await expectRendered(ctx);
      const picked = await ctx.driver.evaluate<number>(`h.pickInElement(${js(name)})`);
      assert(picked === 1, `the input holds ${picked} files`);
      const state = await until(
        'the element to finish the upload',
        () => ctx.driver.evaluate<ElementState>('h.elementState()'),
        (s) => s.value.length === 1 || s.tasks.some((t) => ['failed', 'cancelled'].includes(t.state)),
        60_000,
      );
      const task = state.tasks.find((t) => t.name === name);
      assert(state.value.length === 1 && task?.state === 'done', `element state: ${js(state.tasks)}`);
      assert(task.file?.id === state.value[0], `value ${state.value[0]} is not the task's file ${task.file?.id}`);
      await expectStored(ctx, task.file, name, sha256, size);
      await until(
        'the progress list to show the file',
        () => ctx.driver.evaluate<ElementState>('h.elementState()'),
        (s) => s.text.includes(name),
        10_000,
      );
      await expectNoErrors(ctx, 'during the element upload');
    },
  },
  {
    name: 'createUploader: 3 MiB and 12 MiB files made in the page, MD5 verified, byte-identical',
    async run(ctx) {
      await open(ctx, 'plain');
      await uploadWithCreateUploader(ctx, 3 * MiB + 5, 3);
      await uploadWithCreateUploader(ctx, 12 * MiB + 9, 12);
      await expectNoErrors(ctx, 'during the uploads');
    },
  },
  {
    name: "shared host: a second document of the site lists the first one's upload, live, and cancels it for both",
    async run(ctx) {
      await open(ctx, 'plain');
      const options = { chunkSize: 256 * KiB, resumableThreshold: 0 };
      await ctx.driver.evaluate(`h.create(${js(options)})`);
      // Asked before any upload starts: a failed check must leave no session behind for the next one.
      await ctx.driver.evaluate('h.uploader.interrupted().then(() => true)');
      const host = await until(
        'the uploader to say which worker runs it',
        () => ctx.driver.evaluate<string | null>('h.host()'),
        Boolean,
        15_000,
      );
      assert(host === 'shared' || host === 'shared-extended', `uploader.host is ${host}`);
      console.log(`    host: ${host}`);
      const fault = await ctx.service.api('POST', '/__admin/faults', {
        token: null,
        body: { match: { method: 'PUT', uploadType: 'resumable' }, action: { type: 'delay', ms: 200 }, times: 10_000 },
      });
      assert(fault.status === 200, `fault injection answered ${fault.status}`);
      try {
        const { name } = await makeFile(ctx, 'two-pages', 6 * MiB, 5);
        const id = await ctx.driver.evaluate<string>(`h.add(${js(name)})`);
        await ctx.driver.evaluate(`h.second(${js(options)})`);
        type Listed = { id: string; name: string; state: string; bytesSent: number; host: string | null };
        const first = await until(
          'the second document to list the upload',
          () => ctx.driver.evaluate<Listed[]>('h.secondTasks()'),
          (l) => l.some((t) => t.id === id && t.bytesSent > 0),
          30_000,
        );
        const seen = first.find((t) => t.id === id)!;
        assert(seen.name === name, `listed as ${seen.name}`);
        await until(
          'its progress to advance in the second document',
          () => ctx.driver.evaluate<Listed[]>('h.secondTasks()'),
          (l) => (l.find((t) => t.id === id)?.bytesSent ?? 0) > seen.bytesSent,
          30_000,
        );
        await ctx.driver.evaluate(`h.cancelInSecond(${js(id)})`);
        const result = await waitResult(ctx, id);
        assert(!result.ok && result.code === 'cancelled', `the first document's task ended ${js(result)}`);
        const listed = await ctx.service.api(
          'GET',
          `/store/v3/files?q=${encodeURIComponent(`name = '${name}'`)}&fields=files(id)`,
        );
        assert(listed.json<{ files: unknown[] }>().files.length === 0, 'a cancelled upload was stored');
        await expectNoErrors(ctx, 'with two documents');
      } finally {
        await ctx.service.api('DELETE', '/__admin/faults', { token: null });
      }
    },
  },
  {
    name: 'shared host: two accounts in two documents at once: each lists only its own upload, each file lands in its own drive',
    async run(ctx) {
      await open(ctx, 'plain');
      const options = { chunkSize: 256 * KiB, resumableThreshold: 0 };
      await ctx.driver.evaluate(`h.create(${js(options)})`);
      await ctx.driver.evaluate(`h.second(${js({ ...options, token: 'dev-token-bob' })})`);
      const alice = await makeFile(ctx, 'alice', 2 * MiB + 3, 6);
      const bob = await makeFile(ctx, 'bob', 2 * MiB + 4, 7);
      const idA = await ctx.driver.evaluate<string>(`h.add(${js(alice.name)})`);
      const idB = await ctx.driver.evaluate<string>(`h.addInSecond(${js(bob.name)})`);
      type Listed = { id: string; name: string; state: string };
      await until(
        "the second document's upload to end",
        () => ctx.driver.evaluate<Listed[]>('h.secondTasks()'),
        (l) => l.some((t) => t.id === idB && ['done', 'failed', 'cancelled'].includes(t.state)),
        60_000,
      );
      const result = await waitResult(ctx, idA);
      assert(result.ok, `the first document's upload ended ${js(result)}`);
      const first = await ctx.driver.evaluate<Listed[]>('h.tasks()');
      const second = await ctx.driver.evaluate<Listed[]>('h.secondTasks()');
      assert(second.find((t) => t.id === idB)?.state === 'done', `second document: ${js(second)}`);
      assert(!first.some((t) => t.name === bob.name), `the first document lists Bob's upload: ${js(first)}`);
      assert(!second.some((t) => t.name === alice.name), `the second document lists Alice's upload: ${js(second)}`);
      const named = async (token: string, name: string) =>
        (
          await ctx.service.api('GET', `/store/v3/files?q=${encodeURIComponent(`name = '${name}'`)}&fields=files(id)`, {
            token,
          })
        ).json<{ files: unknown[] }>().files.length;
      assert((await named('dev-token-alice', alice.name)) === 1, "Alice's file is not in her drive");
      assert((await named('dev-token-bob', bob.name)) === 1, "Bob's file is not in his drive");
      assert((await named('dev-token-bob', alice.name)) === 0, "Alice's file landed in Bob's drive");
      assert((await named('dev-token-alice', bob.name)) === 0, "Bob's file landed in Alice's drive");
      await expectNoErrors(ctx, 'with two accounts');
    },
  },
  ...([true, false] as const).map((quota) => ({
    name: `reload mid-upload: <store-uploader> offers the interrupted upload, it resumes to identical bytes (${quota ? 'persist.blobQuotaBytes' : 'file chosen again'})`,
    async run(ctx: Ctx) {
      const options = { chunkSize: 256 * KiB, resumableThreshold: 0, persist: { blobQuotaBytes: quota ? 8 * MiB : 0 } };
      const size = 6 * MiB + 333;
      const seed = 6;
      await open(ctx, 'plain');
      // Without showOpenFilePicker (both browsers), a file resumes after a reload from the Blob kept in IndexedDB
      // within blobQuotaBytes; where the browser refuses Blobs in IndexedDB, by choosing the file again.
      const blobAllowed = await ctx.driver.evaluate<boolean>('h.blobInIndexedDb()');
      if (quota) console.log(`    Blob in IndexedDB: ${blobAllowed ? 'allowed' : 'refused by this browser'}`);
      const blobKept = quota && blobAllowed;
      await ctx.driver.evaluate(`h.create(${js(options)}) && h.mount(false)`);
      // Each chunk PUT waits at the service, so the reload lands with the upload well under way.
      const fault = await ctx.service.api('POST', '/__admin/faults', {
        token: null,
        body: { match: { method: 'PUT', uploadType: 'resumable' }, action: { type: 'delay', ms: 200 }, times: 10_000 },
      });
      assert(fault.status === 200, `fault injection answered ${fault.status}`);
      try {
        const { name, sha256 } = await makeFile(ctx, 'reload', size, seed);
        const id = await ctx.driver.evaluate<string>(`h.add(${js(name)})`);
        type Snap = {
          state: string;
          bytesSent: number;
          bytesAcknowledged: number;
          error?: { code: string; message: string };
        };
        const before = (await until(
          '1 MiB acknowledged',
          () => ctx.driver.evaluate<Snap | null>(`h.snapshot(${js(id)})`),
          (s) => (s?.bytesAcknowledged ?? 0) >= 1 * MiB || s?.state === 'failed',
          60_000,
        ))!;
        // Where the browser refuses a Blob in IndexedDB, the session record is kept without it: the upload goes on.
        assert(before.state !== 'failed', `the upload failed before the reload: ${js(before)}`);
        assert(before.bytesAcknowledged < size, `the upload ended before the reload (${js(before)})`);
        await expectNoErrors(ctx, 'before the reload');
        await ctx.driver.reload();
        await until(
          'the harness module after the reload',
          () => ctx.driver.evaluate<boolean>("typeof window.h === 'object'"),
          Boolean,
          15_000,
        );
        await ctx.driver.evaluate(`h.create(${js(options)}) && h.mount(false)`);
        const listed = await until(
          'the uploader to list the interrupted upload',
          () =>
            ctx.driver.evaluate<
              { id: string; name: string; bytesAcknowledged: number; canResumeWithoutFile: boolean }[]
            >('h.interrupted()'),
          (l) => l.length > 0,
          15_000,
        );
        assert(listed.length === 1 && listed[0].name === name, `interrupted: ${js(listed)}`);
        assert(
          listed[0].canResumeWithoutFile === blobKept,
          `canResumeWithoutFile is ${listed[0].canResumeWithoutFile}, the Blob was ${blobKept ? '' : 'not '}kept`,
        );
        assert(
          listed[0].bytesAcknowledged >= 1 * MiB,
          `acknowledged before the reload: ${listed[0].bytesAcknowledged}`,
        );
        const action = blobKept ? 'resume' : 'rechoose';
        const offered = await until(
          'the element to offer it',
          () => ctx.driver.evaluate<{ id: string; text: string; actions: string[] }[]>('h.offered()'),
          (o) => o.length === 1,
          15_000,
        );
        assert(
          offered[0].id === listed[0].id && offered[0].text.includes(name) && offered[0].actions.includes(action),
          `offered (wanted ${action}): ${js(offered)}`,
        );
        await ctx.service.api('DELETE', '/__admin/faults', { token: null });
        if (blobKept) await ctx.driver.evaluate(`h.clickOffered(${js(offered[0].id)}, 'resume')`);
        else {
          // The same bytes, name and lastModified as before the reload (the file is rebuilt from its seed).
          await ctx.driver.evaluate(`h.makeFile(${js(name)}, ${size}, ${seed})`);
          await ctx.driver.evaluate(`h.resumeWith(${js(offered[0].id)}, ${js(name)})`);
        }
        // With what the uploader and the element show, so that a timeout says where the resume stopped.
        const settled = await until(
          'the resumed upload to settle',
          () => ctx.driver.evaluate<{ results: Result[] }>('h.resumeState()'),
          (r) => r.results.length > 0,
          60_000,
        );
        const result = settled.results[0];
        assert(result.ok, `resumed upload failed: ${result.code}: ${result.message}`);
        await expectStored(ctx, result.file, name, sha256, size);
        await until(
          'the interrupted list to empty',
          () => ctx.driver.evaluate<unknown[]>('h.interrupted()'),
          (l) => l.length === 0,
          10_000,
        );
        if (blobKept)
          await until(
            'the element to stop offering it',
            () => ctx.driver.evaluate<unknown[]>('h.offered()'),
            (o) => o.length === 0,
            10_000,
          );
        await expectNoErrors(ctx, 'after the reload');
      } finally {
        await ctx.service.api('DELETE', '/__admin/faults', { token: null });
      }
    },
  })),
  ...(['csp-wasm', 'csp-strict'] as const).map((variant) => ({
    name: `strict CSP${variant === 'csp-wasm' ? " + 'wasm-unsafe-eval'" : ' without wasm-unsafe-eval'}: element renders, upload MD5 verified, byte-identical`,
    async run(ctx: Ctx) {
      await open(ctx, variant);
      await ctx.driver.evaluate('h.create({}) && h.mount(false)');
      await expectRendered(ctx);
      const { name, sha256 } = await makeFile(ctx, variant, 2 * MiB + 1, 21);
      const id = await ctx.driver.evaluate<string>(`h.add(${js(name)})`);
      const result = await waitResult(ctx, id);
      // Without 'wasm-unsafe-eval' the MD5 runs in the JavaScript fallback: the upload must be verified all the same.
      if (variant === 'csp-strict') console.log(`    WebAssembly: ${(await wasmAllowed(ctx)) ? 'allowed' : 'refused'}`);
      assert(result.ok, `upload failed: ${result.code}: ${result.message}`);
      await expectStored(ctx, result.file, name, sha256, 2 * MiB + 1);
      await until(
        'the progress list to show the file',
        () => ctx.driver.evaluate<ElementState>('h.elementState()'),
        (s) => s.text.includes(name),
        10_000,
      );
      // Every report counts, style-src-attr too: the rows' widths go through CSSOM, never a template style attribute.
      // One is expected: without 'wasm-unsafe-eval' the kit's try of WebAssembly before its JavaScript MD5 is
      // refused, and Firefox reports that refusal (WebKit does not).
      const errors = await pageErrors(ctx);
      const wasmRefused = (e: string) =>
        e === 'CSP violation: script-src wasm-eval' ||
        (e.startsWith('page error: Content-Security-Policy:') && e.includes('blocked WebAssembly'));
      const unexpected = variant === 'csp-strict' ? errors.filter((e) => !wasmRefused(e)) : errors;
      assert(unexpected.length === 0, `errors under ${variant}:\n  ${errors.join('\n  ')}`);
    },
  })),
];

async function main(): Promise<void> {
  const which = process.argv[2];
  if (which !== 'firefox' && which !== 'webkit') throw new Error('usage: run.ts firefox|webkit');
  // SMOKE_ONLY=<part of a check's name> runs the checks so named; SMOKE_REPEAT=<n> runs them n times (a flaky one).
  const only = process.env.SMOKE_ONLY;
  const repeat = Math.max(1, Number(process.env.SMOKE_REPEAT) || 1);
  const chosen = checks.filter((check) => !only || check.name.includes(only));
  if (chosen.length === 0) {
    // A filter that matches nothing would report "0 passed, 0 failed": a run that checked nothing fails.
    console.log(`  FAIL  ${which}: no check's name contains SMOKE_ONLY=${js(only)}`);
    if (process.env.SMOKE_RESULTS) appendFileSync(process.env.SMOKE_RESULTS, `${which} 0 1\n`);
    process.exitCode = 1;
    return;
  }
  const started = Date.now();
  const service = await startService();
  const pages = await startPageServer();
  let driver: BrowserDriver | undefined;
  let passed = 0;
  let failed = 0;
  try {
    driver = which === 'firefox' ? await launchFirefox() : await launchWebKit({ headless: false });
    console.log(`${which}: ${driver.version}`);
    const ctx: Ctx = { driver, service, pages };
    for (const check of Array.from({ length: repeat }, () => chosen).flat()) {
      const t0 = Date.now();
      try {
        await check.run(ctx);
        passed++;
        console.log(`  ok    ${which}: ${check.name} (${Date.now() - t0} ms)`);
      } catch (error) {
        failed++;
        console.log(
          `  FAIL  ${which}: ${check.name} (${Date.now() - t0} ms)\n        ${String((error as Error).stack ?? error).replace(/\n/g, '\n        ')}`,
        );
        // Where a stuck upload waits: the engine's tasks, the Web Locks, whether IndexedDB answers.
        console.log(`        diagnosis: ${js(await driver.evaluate('h.diag()').catch((e: unknown) => String(e)))}`);
        await pageErrors(ctx).catch(() => []); // a failed check's errors are not the next one's
      }
    }
  } catch (error) {
    failed++;
    console.log(`  FAIL  ${which}: could not start the browser: ${String((error as Error).stack ?? error)}`);
  } finally {
    await driver?.close().catch(() => undefined);
    await pages.stop();
    await service.stop().catch((error: unknown) => {
      failed++;
      console.log(`  FAIL  ${which}: the service: ${String(error)}`);
    });
  }
  console.log(`${which}: ${passed} passed, ${failed} failed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (process.env.SMOKE_RESULTS) appendFileSync(process.env.SMOKE_RESULTS, `${which} ${passed} ${failed}\n`);
  process.exitCode = failed > 0 ? 1 : 0;
}

await main();
