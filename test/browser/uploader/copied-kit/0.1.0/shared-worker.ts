// The kit's shared worker as an app's copy of `dist/workers/` holds it (`workerBase`): copied-workers.test.ts.
import '../../../../../src/uploader/worker/shared-worker.ts';
