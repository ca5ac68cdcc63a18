/**
 * The dedicated upload worker's composition root: one page, one engine. The page's uploader starts it when the site's
 * shared worker cannot run (no `SharedWorker`, a script from another origin, `host: 'dedicated'`).
 */
import { expose } from 'comlink';
import { browserPorts } from './browser-ports.ts';
import { EngineHubs, UploadWorkerService } from './worker-service.ts';

expose(new UploadWorkerService(new EngineHubs(browserPorts, 'dedicated')));
