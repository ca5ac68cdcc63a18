/** The hash worker: MD5 of uploads in a thread of its own, started by the upload worker when it first verifies. */
import { expose } from 'comlink';
import { HashWorkerService } from './hash-worker-service.ts';

expose(new HashWorkerService());
