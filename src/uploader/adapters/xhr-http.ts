import type { HttpHooks, HttpPort, HttpRequest, HttpResponse } from '../contract/ports.ts';

// The worker's Resource Timing buffer holds 250 entries, then takes no more: a worker that outlives many pages would
// stop learning the protocol. Emptied when full, nothing but this adapter reads it.
globalThis.performance?.addEventListener?.('resourcetimingbufferfull', () => performance.clearResourceTimings());

/**
 * The HTTP port over `XMLHttpRequest`, for its upload progress events (fetch has none). Bodies go out as one Blob
 * built from the pieces, so a File slice is streamed by the browser, never read into the worker's memory.
 */
export const xhrHttp: HttpPort = {
  send(request: HttpRequest, hooks: HttpHooks): Promise<HttpResponse> {
    return new Promise((resolve, reject) => {
      if (hooks.signal.aborted) return reject(hooks.signal.reason);
      const xhr = new XMLHttpRequest();
      xhr.open(request.method, request.url);
      for (const [name, value] of Object.entries(request.headers)) xhr.setRequestHeader(name, value);
      const onAbort = () => xhr.abort();
      hooks.signal.addEventListener('abort', onAbort, { once: true });
      const cleanup = () => hooks.signal.removeEventListener('abort', onAbort);
      if (hooks.onProgress) {
        const report = hooks.onProgress;
        xhr.upload.onprogress = (event) => report(event.loaded);
      }
      xhr.onload = () => {
        cleanup();
        resolve({
          status: xhr.status,
          header: (name) => xhr.getResponseHeader(name),
          text: xhr.responseText,
          // Its Resource Timing entry is in the buffer when `load` fires (measured in Chromium); `''` where the browser
          // withholds it (another origin without `Timing-Allow-Origin`); where the entry is missing (just cleared), the
          // engine keeps the protocol it heard last.
          protocol: (performance.getEntriesByName(request.url).pop() as PerformanceResourceTiming | undefined)
            ?.nextHopProtocol,
        });
      };
      xhr.onerror = () => {
        cleanup();
        reject(new Error(`network error on ${request.method} ${request.url}`));
      };
      xhr.onabort = () => {
        cleanup();
        reject(hooks.signal.aborted ? hooks.signal.reason : new Error('request aborted'));
      };
      const pieces = request.body ?? [];
      if (pieces.length === 0) xhr.send();
      else if (pieces.length === 1 && typeof pieces[0] === 'string') xhr.send(pieces[0]);
      else xhr.send(pieces.length === 1 && pieces[0] instanceof Blob ? pieces[0] : new Blob(pieces as BlobPart[]));
    });
  },
};
