/**
 * What the WAN bench runs inside the upload page (test/client/helpers/upload-page.ts): the moment the page's file
 * input changes (the kit starts on that event), the kit's tasks awaited, and a hand-written raw client — a session
 * start and one PUT for a big file, one `multipart/related` request per small file with N in flight — reading its
 * files from an input of its own, as a page would.
 */

/** Runs before the page's own script: notes when a file input changes, before the kit's listener sees it. */
export const TIMING_INIT = `addEventListener('change', () => (window.__changedAt = performance.now()), true);`;

/** Installed after load: `window.wan`. */
export const PAGE_CLIENTS = `(() => {
  const auth = { authorization: 'Bearer dev-token-alice' };
  const raw = Object.assign(document.createElement('input'), { type: 'file', id: 'raw', multiple: true });
  document.body.append(raw);
  const file = (f) => ({ id: f.id, name: f.name, size: String(f.size), md5Checksum: f.md5Checksum });
  const wan = (window.wan = {});
  /** Every kit task of this page settled: time since the input changed, and the stored files. */
  wan.kitDone = async (count) => {
    while (window.kit.tasks.length < count) await new Promise((r) => setTimeout(r, 5));
    const settled = await Promise.allSettled(window.kit.tasks.map((t) => t.done));
    const ms = performance.now() - window.__changedAt;
    const failed = settled.filter((s) => s.status === 'rejected').map((s) => String(s.reason?.code ?? s.reason));
    if (failed.length) throw new Error('kit uploads failed: ' + failed.slice(0, 3).join(', '));
    return { ms, files: settled.map((s) => file(s.value)) };
  };
  /** Session start, then the whole file in one PUT. */
  wan.rawWhole = async (service) => {
    const t0 = window.__changedAt;
    const f = raw.files[0];
    const start = await fetch(service + '/upload/store/v3/files?uploadType=resumable', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json; charset=UTF-8', 'x-upload-content-length': String(f.size) },
      body: JSON.stringify({ name: f.name }),
    });
    const put = await fetch(start.headers.get('location'), { method: 'PUT', headers: auth, body: f });
    if (put.status !== 200) throw new Error('raw PUT ' + put.status);
    const stored = await put.json();
    return { ms: performance.now() - t0, files: [file(stored)] };
  };
  /** One multipart/related request per file, \`inFlight\` at a time. */
  wan.rawSmall = async (service, inFlight) => {
    const t0 = window.__changedAt;
    const queue = [...raw.files];
    const files = [];
    const one = async (f) => {
      const boundary = 'wan' + Math.random().toString(36).slice(2);
      const head = '--' + boundary + '\\r\\nContent-Type: application/json; charset=UTF-8\\r\\n\\r\\n' + JSON.stringify({ name: f.name }) +
        '\\r\\n--' + boundary + '\\r\\nContent-Type: application/octet-stream\\r\\n\\r\\n';
      const body = new Blob([head, f, '\\r\\n--' + boundary + '--\\r\\n']);
      const r = await fetch(service + '/upload/store/v3/files?uploadType=multipart', {
        method: 'POST',
        headers: { ...auth, 'content-type': 'multipart/related; boundary=' + boundary },
        body,
      });
      if (r.status !== 200) throw new Error('raw multipart ' + r.status);
      files.push(file(await r.json()));
    };
    await Promise.all(Array.from({ length: inFlight }, async () => { while (queue.length) await one(queue.shift()); }));
    return { ms: performance.now() - t0, files };
  };
  /** The protocol the page's own requests used (the kit's run in its worker, which the page cannot see). */
  wan.protocols = () => [...new Set(performance.getEntriesByType('resource').filter((e) => e.name.includes('/upload/')).map((e) => e.nextHopProtocol))];
})()`;
