/**
 * The transport-independent core: route, authenticate, apply admin faults, run the handler, and turn every
 * failure into the spec's error answer. The Node adapter and the batch endpoint both call {@link dispatchRequest}.
 */
import { FieldsError, MultipartError } from 'store-upload-kit/protocol';
import type { Principal } from './access.ts';
import { loginRequired } from './auth/authenticator.ts';
import { createContext } from './context.ts';
import { checkedSelection } from './fields-cache.ts';
import { ApiError, supersededError } from './errors.ts';
import type { ApiRequest, ApiResponse } from './api-request.ts';
import { BadPathError, type Router } from './router.ts';
import { withStorageFaults } from './storage-faults.ts';
import { isStorageFailure, storageFailureError } from './store/storage-failure.ts';
import type { Service } from './service-types.ts';

/** Answers one API call. Never throws. */
export async function dispatchRequest(svc: Service, router: Router, req: ApiRequest): Promise<ApiResponse> {
  const failures = svc.commits.failures;
  const res = await answer(svc, router, req);
  // No answer before its change is durable: while a group commit is open (a batch), a change is only a savepoint.
  // A batch's inner answers are held by the batch itself, which waits once for all of them.
  if (req.inBatch === true) return res;
  if (svc.commits.isOpen) {
    try {
      await svc.commits.durable();
    } catch (e) {
      return errorResponse(e);
    }
  }
  if (svc.commits.failures !== failures)
    return errorResponse(new Error('a group commit this call may have joined failed'));
  return res;
}

async function answer(svc: Service, router: Router, req: ApiRequest): Promise<ApiResponse> {
  try {
    // An --admin node first takes what another node changed (a test's faults, tokens, clock), then its faults.
    const faulted = svc.admin ? await svc.faults.apply(req) : { request: req };
    if (faulted.response) return faulted.response;
    const match = router.match(req.method, req.path);
    if (match.kind === 'none') {
      throw new ApiError(404, 'notFound', `No API endpoint at ${req.path}.`, {
        where: { location: 'path', locationType: 'parameter' },
      });
    }
    if (match.kind === 'wrongMethod') {
      throw new ApiError(
        405,
        'methodNotAllowed',
        `Method ${req.method} is not allowed on ${req.path}; allowed: ${match.allow.join(', ')}.`,
        {
          headers: { Allow: match.allow.join(', ') },
        },
      );
    }
    const open = typeof match.options.public === 'function' ? match.options.public(req) : match.options.public === true;
    // Asked once per request, before any parameter is looked at; a public route (a session URI) asks nobody.
    let principal: Principal | undefined;
    if (!open) {
      principal = await svc.auth.authenticate(req.headers, { method: req.method, path: req.path });
      if (!principal) throw loginRequired();
    }
    const fields = req.query.get('fields');
    if (match.options.schema && fields !== null && fields !== '') checkedSelection(fields, match.options.schema);
    return await withStorageFaults(faulted.storage, () =>
      match.handler(createContext(faulted.request, match.params, svc, principal)),
    );
  } catch (e) {
    return errorResponse(e);
  }
}

/** Maps any thrown value to a response: API errors as given, codec errors as 400, the rest as 500. */
export function errorResponse(e: unknown): ApiResponse {
  if (e instanceof ApiError) return e.toResponse();
  if (e instanceof FieldsError) {
    return new ApiError(400, 'invalidParameter', e.message, {
      where: { location: 'fields', locationType: 'parameter' },
    }).toResponse();
  }
  if (e instanceof MultipartError) return new ApiError(400, 'badRequest', e.message).toResponse();
  if (e instanceof BadPathError) return new ApiError(400, 'badRequest', e.message).toResponse();
  if (e instanceof Error && e.name === 'UnstorableText') return new ApiError(400, 'badRequest', e.message).toResponse();
  if (isStorageFailure(e)) return storageFailureError(e).toResponse();
  // An older request on a session, ended by a newer one before it reached the session's lock.
  if (e instanceof Error && e.name === 'SupersededError') return supersededError().toResponse();
  if (isDisconnect(e)) {
    // The client went away mid-body: nobody will read this answer, and it is not a service fault.
    return new ApiError(400, 'badRequest', 'The request body was cut off.').toResponse();
  }
  console.error('store-service: internal error:', e);
  return new ApiError(500, 'backendError', 'Backend Error').toResponse();
}

function isDisconnect(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  const code = (e as NodeJS.ErrnoException).code;
  return (
    e.name === 'ConnectionCutError' ||
    e.name === 'BodyCutError' ||
    e.name === 'BodyIdleError' ||
    code === 'ECONNRESET' ||
    code === 'ERR_STREAM_PREMATURE_CLOSE' ||
    e.message === 'aborted'
  );
}
