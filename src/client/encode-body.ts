/** How the client turns a call's body into what `fetch` sends (shared by single calls and batch parts). */
import { JSON_CONTENT_TYPE } from '../protocol/headers.ts';

/** What `fetch` accepts as a body, named without the DOM-only `BodyInit` so Node-side code typechecks too. */
type RequestBody = NonNullable<RequestInit['body']>;

/** Plain objects and arrays go as JSON; strings, bytes and Blobs as they are. */
export function encodeBody(body: unknown): { body?: RequestBody; contentType?: string } {
  if (body === undefined || body === null) return {};
  if (typeof body === 'string' || body instanceof Uint8Array || body instanceof ArrayBuffer)
    return { body: body as RequestBody };
  if (typeof Blob !== 'undefined' && body instanceof Blob) return { body };
  return { body: JSON.stringify(body), contentType: JSON_CONTENT_TYPE };
}
