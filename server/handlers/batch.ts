/** `POST /batch/store/v3` (spec §4.11): the batch endpoint, a thin route over {@link handleBatch}. */
import { BATCH_PATH } from 'store-upload-kit/protocol';
import { handleBatch } from '../batch/handle-batch.ts';
import type { Router } from '../router.ts';
import type { Service } from '../service-types.ts';

/**
 * Adds the batch route. Inner calls go through `svc.dispatch`, so each is routed, authenticated and filtered
 * exactly like a direct call. The route is public: authentication happens per inner call (an inner
 * `Authorization` overrides the outer one, so the outer request may carry none).
 */
export function registerBatchRoutes(router: Router, svc: Service): void {
  router.add('POST', BATCH_PATH, (ctx) => handleBatch(ctx.req, (req) => svc.dispatch(req), svc.commits), {
    public: true,
  });
}
