/**
 * The raw client's variants of issue 40 (the uploader bench's `rawWhole…` contenders): the same whole-file PUT of the
 * chosen file as `rawWhole`, changed in one way each, to find which difference between the kit's PUT and the raw one
 * costs Chromium's network service more CPU. `progress`: an `xhr.upload.onprogress` listener (the kit registers one;
 * with it Chromium reports upload progress from the network service). `worker`: the PUT sent from a dedicated worker
 * of the page; `sharedWorker`: from a shared worker the page started (`extendedLifetime`, as the kit's host), in the
 * page's process, so the file still goes by its path. Installed after the uploader bench's page setup.
 */

/** The variants, named as the bench's contenders. */
export const RAW_PUT_VARIANTS = {
  rawWholeProgress: { progress: true },
  rawWholeWorker: { host: 'worker' },
  rawWholeSharedWorker: { host: 'sharedWorker' },
  rawWholeSharedWorkerProgress: { host: 'sharedWorker', progress: true },
} as const;
export type RawPutVariant = keyof typeof RAW_PUT_VARIANTS;

/**
 * The XHR every variant sends, as worker source too: resolves with the status and body; with progress, the reports
 * counted and the time from the last byte sent (the upload's `load`) to the answer.
 */
const PUT_SOURCE = `
  const put = (d) => new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', d.location);
    let reports = 0;
    let sentAt;
    if (d.progress) {
      xhr.upload.onprogress = () => { reports++; };
      xhr.upload.onload = () => { sentAt = performance.now(); };
    }
    xhr.onload = () => resolve({ status: xhr.status, text: xhr.responseText, reports, answerMs: performance.now() - sentAt });
    xhr.onerror = () => resolve({ status: 0, text: 'network error', reports });
    xhr.send(d.body);
  });`;

const DEDICATED = `${PUT_SOURCE}
  onmessage = async (e) => postMessage(await put(e.data));`;

const SHARED = `${PUT_SOURCE}
  onconnect = (c) => { const port = c.ports[0]; port.onmessage = async (e) => port.postMessage(await put(e.data)); };`;

/** Page-side setup: `bench.rawPutVariant(service, how)`, answered in the shape of an upload. */
export const RAW_PUT_PAGE_SETUP = `(() => {
  const bench = window.bench;
  ${PUT_SOURCE}
  const script = (source) => URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  const dedicated = new Worker(script(${JSON.stringify(DEDICATED)}));
  const shared = new SharedWorker(script(${JSON.stringify(SHARED)}), { extendedLifetime: true });
  shared.port.start();
  const ask = (target, listener, data) => new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('raw PUT variant: no answer in 10 minutes')), 600000);
    listener.onmessage = (e) => { clearTimeout(timer); resolve(e.data); };
    target.postMessage(data);
  });
  bench.rawPutVariant = async (service, how) => {
    const t0 = performance.now();
    const location = await bench.startSession(service, 'raw-variant.bin');
    const data = { location, body: bench.file, progress: !!how.progress };
    const res = how.host === 'worker' ? await ask(dedicated, dedicated, data)
      : how.host === 'sharedWorker' ? await ask(shared.port, shared.port, data)
      : await put(data);
    if (res.status !== 200 && res.status !== 201) throw new Error('raw PUT variant ' + JSON.stringify(how) + ': ' + res.status + ' ' + res.text);
    const ms = performance.now() - t0;
    return { ms, file: JSON.parse(res.text), progressReports: res.reports, sentMs: ms - res.answerMs, answeredMs: ms };
  };
})()`;
