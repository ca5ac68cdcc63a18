// Shared bits of the uploader browser suites: the real service's URL, uploaders cleaned up after each test, files of
// random bytes, downloads, faults.
/// <reference types="mocha" />
import { createUploader } from '../../../src/uploader/index.ts';
import type { CreateUploaderOptions, Uploader } from '../../../src/uploader/index.ts';

/** The store-service started by web-test-runner.config.js. */
export async function serviceUrl(): Promise<string> {
  const res = await fetch('/__store-service');
  return ((await res.json()) as { url: string }).url;
}

export const TOKEN = 'dev-token-alice';

/** The test service's URL, asked once when a suite loads. */
export const baseUrl = await serviceUrl();

/**
 * The uploaders of one test file: each made against the test service with the test token and the file's `defaults`
 * (a test's own options on top); after each test every one made is destroyed and the service's faults are cleared, so
 * no test inherits another's workers or faults. Each runs an engine of its own in the site's shared worker (a
 * `shareKey` of its own, unless the test gives one); tests of "a next page life" ask for `host: 'dedicated'`, whose
 * engine stops with `destroy()` as a page's does when it goes.
 */
export function testUploaders(
  defaults: Partial<CreateUploaderOptions> = {},
): (options?: Partial<CreateUploaderOptions>) => Uploader {
  const made: Uploader[] = [];
  afterEach(async () => {
    for (const u of made.splice(0)) u.destroy();
    await clearFaults(baseUrl);
  });
  return (options = {}) => {
    const u = createUploader({
      baseUrl,
      getAccessToken: () => TOKEN,
      shareKey: crypto.randomUUID(),
      ...defaults,
      ...options,
    });
    made.push(u);
    return u;
  };
}

/** A File of random bytes with a unique name. */
export function randomFile(size: number, type = 'application/octet-stream'): File {
  const bytes = new Uint8Array(size);
  for (let at = 0; at < size; at += 65536) crypto.getRandomValues(bytes.subarray(at, Math.min(size, at + 65536)));
  return new File([bytes], `b-${crypto.randomUUID()}.bin`, { type, lastModified: 1_700_000_000_000 });
}

/** The stored bytes of a file. */
export async function download(baseUrl: string, fileId: string, token = TOKEN): Promise<Uint8Array> {
  const res = await fetch(`${baseUrl}/store/v3/files/${encodeURIComponent(fileId)}?alt=media`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (res.status !== 200) throw new Error(`download: ${res.status} ${await res.text()}`);
  return new Uint8Array(await res.arrayBuffer());
}

/** True when both hold exactly the same bytes. */
export async function sameBytes(file: Blob, stored: Uint8Array): Promise<boolean> {
  const sent = new Uint8Array(await file.arrayBuffer());
  if (sent.length !== stored.length) return false;
  for (let i = 0; i < sent.length; i++) if (sent[i] !== stored[i]) return false;
  return true;
}

export async function filesNamed(baseUrl: string, name: string): Promise<{ id: string }[]> {
  const q = encodeURIComponent(`name = '${name}'`);
  const res = await fetch(`${baseUrl}/store/v3/files?q=${q}&fields=files(id)`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  return ((await res.json()) as { files: { id: string }[] }).files;
}

export async function addFault(baseUrl: string, fault: unknown): Promise<void> {
  const res = await fetch(`${baseUrl}/__admin/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(fault),
  });
  if (!res.ok) throw new Error(`fault: ${res.status} ${await res.text()}`);
}

/** The injected faults that still have uses left (none once every one was met). */
export async function faultsLeft(baseUrl: string): Promise<unknown[]> {
  const res = await fetch(`${baseUrl}/__admin/faults`);
  if (!res.ok) throw new Error(`faults: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { faults: unknown[] }).faults;
}

export async function clearFaults(baseUrl: string): Promise<void> {
  await fetch(`${baseUrl}/__admin/faults`, { method: 'DELETE' });
}

/** Resolves with the detail of the first `type` event for which `accept` is true. */
export function nextEvent<T>(
  target: EventTarget,
  type: string,
  accept: (detail: T) => boolean = () => true,
): Promise<T> {
  return new Promise((resolve) => {
    const listener = (event: Event) => {
      const detail = (event as CustomEvent<T>).detail;
      if (!accept(detail)) return;
      target.removeEventListener(type, listener);
      resolve(detail);
    };
    target.addEventListener(type, listener);
  });
}

/**
 * The session records the uploader keeps in IndexedDB, read directly (the worker and the page share the origin),
 * each with the file copy kept beside it (its own database) as `file`.
 */
export async function storedRecords(): Promise<
  { id: string; name: string; sessionUri: string; updatedAt: number; handle?: unknown; file?: Blob }[]
> {
  const { createStore, entries, values } = await import('idb-keyval');
  const copies = new Map(await entries<string, Blob>(createStore('store-upload-kit-files', 'files')));
  const records = await values<{ id: string; name: string; sessionUri: string; updatedAt: number; handle?: unknown }>(
    createStore('store-upload-kit', 'sessions'),
  );
  return records.map((r) => (copies.has(r.id) ? { ...r, file: copies.get(r.id) } : r));
}

/** Waits until `check` holds (polling), or fails with `what` after `ms`. */
export async function eventually(check: () => boolean | Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    // eslint-disable-next-line no-restricted-syntax -- time-wait: the poll interval of a bounded state check.
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const FOLDER_MIME = 'application/vnd.svc-apps.folder';

async function api<T>(baseUrl: string, path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(baseUrl + path, {
    ...init,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', ...init.headers },
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** A fresh folder in the user's root, so that the tree under it is one test's alone. */
export async function newFolder(baseUrl: string): Promise<string> {
  const body = JSON.stringify({ name: `t-${crypto.randomUUID()}`, mimeType: FOLDER_MIME });
  return (await api<{ id: string }>(baseUrl, '/store/v3/files', { method: 'POST', body })).id;
}

/** Every path under `folderId` as the service lists it, folders ending in `/`, sorted (a twin folder shows twice). */
export async function folderTree(
  baseUrl: string,
  folderId: string,
  prefix = '',
  ids = new Map<string, string>(),
): Promise<{ paths: string[]; ids: Map<string, string> }> {
  const q = encodeURIComponent(`'${folderId}' in parents`);
  const { files } = await api<{ files: { id: string; name: string; mimeType: string }[] }>(
    baseUrl,
    `/store/v3/files?q=${q}&pageSize=1000&fields=files(id,name,mimeType)`,
  );
  const paths: string[] = [];
  for (const entry of files) {
    const folder = entry.mimeType === FOLDER_MIME;
    const path = prefix + entry.name + (folder ? '/' : '');
    paths.push(path);
    ids.set(path, entry.id);
    if (folder) paths.push(...(await folderTree(baseUrl, entry.id, path, ids)).paths);
  }
  return { paths: paths.sort(), ids };
}

/** The account the kit binds `token`'s uploads to (`worker/principals.ts`): `user:` and the service's permission ID. */
export async function principalOf(token = TOKEN): Promise<string> {
  const res = await fetch(`${baseUrl}/store/v3/about?fields=user(permissionId)`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return `user:${((await res.json()) as { user: { permissionId: string } }).user.permissionId}`;
}

/** How a remembered folder's key reads in IndexedDB: the account, then the engine's `[target, path]`. */
export function folderKey(principal: string, target: string, path: string): string {
  return JSON.stringify([principal, JSON.stringify([target, path])]);
}

/** Issues `token` for `user` at the service until it is revoked (a sign-in). */
export async function grantToken(token: string, user: string): Promise<void> {
  const res = await fetch(`${baseUrl}/__admin/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, user }),
  });
  if (res.status !== 201) throw new Error(`grant ${token}: ${res.status} ${await res.text()}`);
}

/** Revokes `token` at the service: every later request with it gets 401 (a sign-out). */
export async function revokeToken(token: string): Promise<void> {
  const res = await fetch(`${baseUrl}/__admin/tokens/${encodeURIComponent(token)}`, { method: 'DELETE' });
  if (res.status !== 204) throw new Error(`revoke ${token}: ${res.status} ${await res.text()}`);
}

/** Writes `text` at `path` under `dir` (an OPFS folder in the tests), making the folders on the way. */
export async function writeAt(dir: FileSystemDirectoryHandle, path: string, text: string): Promise<void> {
  const names = path.split('/');
  for (const name of names.slice(0, -1)) dir = await dir.getDirectoryHandle(name, { create: true });
  const writable = await (await dir.getFileHandle(names.at(-1)!, { create: true })).createWritable();
  await writable.write(text);
  await writable.close();
}
