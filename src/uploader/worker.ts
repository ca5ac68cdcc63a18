/** The upload worker: a composition root that exposes one `UploaderService` to the main thread. */
import { expose } from 'comlink';
import { UploaderService } from './worker-service.ts';

expose(new UploaderService());
