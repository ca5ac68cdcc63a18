/**
 * The site's shared upload worker's composition root: every page and tab of the origin connects to this one worker
 * (started with the same name and options everywhere), and each connection gets a `UploadWorkerService` of its own
 * over the hubs they share, so pages with the same settings drive one engine. The page reports whether the browser
 * granted `extendedLifetime`; the worker cannot see it.
 */
import { expose } from 'comlink';
import { browserPorts } from './browser-ports.ts';
import { BUSY_LOCK } from '../contract/stored-sessions.ts';
import { EngineHubs, UploadWorkerService } from './worker-service.ts';

/** Held (shared mode) while any upload has not ended: a page that loads then attaches at once (`uploadsRunning`). */
let releaseBusy: (() => void) | undefined;
// MD5 in this thread: a nested worker started here can hang this thread in Firefox (see `browserPorts`).
const hubs = new EngineHubs(
  (settings) => browserPorts(settings, { nestedWorkers: false }),
  'shared',
  (busy) => {
    if (!busy) return releaseBusy?.();
    void navigator.locks?.request(
      BUSY_LOCK,
      { mode: 'shared' },
      () => new Promise<void>((release) => (releaseBusy = release)),
    );
  },
);

// Firefox: slices of a page's in-memory Blobs hang in this worker, so each page's service copies those first (issue
// 20); loaded there only. A port keeps its messages until comlink listens.
const copiesPageBlobs = /\bFirefox\//.test(navigator.userAgent);

(globalThis as unknown as { onconnect: ((event: MessageEvent) => void) | null }).onconnect = (event) => {
  for (const port of event.ports) {
    const service = new UploadWorkerService(hubs);
    if (copiesPageBlobs) void import('./readable-file.ts').then((lazy) => expose(lazy.readingCopies(service), port));
    else expose(service, port);
  }
};
