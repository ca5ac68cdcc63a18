/** Header names used on the wire, lower-case as Node and `Headers` report them. */

export const H_AUTHORIZATION = 'authorization';

/** The `Authorization` value of a request made with an OAuth access token (spec §2). */
export function bearer(token: string): string {
  return `Bearer ${token}`;
}
export const H_CONTENT_TYPE = 'content-type';
export const H_CONTENT_LENGTH = 'content-length';
export const H_CONTENT_RANGE = 'content-range';
export const H_CONTENT_ENCODING = 'content-encoding';
export const H_ACCEPT_ENCODING = 'accept-encoding';
export const H_USER_AGENT = 'user-agent';
export const H_RANGE = 'range';
export const H_LOCATION = 'location';
export const H_ALLOW = 'allow';
export const H_CONTENT_ID = 'content-id';
/** MIME type of the bytes a resumable session will receive (spec §4.3). */
export const H_UPLOAD_CONTENT_TYPE = 'x-upload-content-type';
/** Byte count a resumable session will receive (spec §4.3). */
export const H_UPLOAD_CONTENT_LENGTH = 'x-upload-content-length';
/** The opaque upload id on a session-start response (supplement §1). */
export const H_SVC_UPLOAD_ID = 'x-svc-upload-id';

/** Push-message headers (spec §6.1). */
export const H_SVC_CHANNEL_ID = 'x-svc-channel-id';
export const H_SVC_MESSAGE_NUMBER = 'x-svc-message-number';
export const H_SVC_RESOURCE_ID = 'x-svc-resource-id';
export const H_SVC_RESOURCE_STATE = 'x-svc-resource-state';
export const H_SVC_RESOURCE_URI = 'x-svc-resource-uri';
export const H_SVC_CHANGED = 'x-svc-changed';
export const H_SVC_CHANNEL_EXPIRATION = 'x-svc-channel-expiration';
export const H_SVC_CHANNEL_TOKEN = 'x-svc-channel-token';

/** Response headers a browser client must be able to read (CORS `Access-Control-Expose-Headers`). */
export const EXPOSED_HEADERS: readonly string[] = [
  'Location',
  'Range',
  'X-Svc-Upload-Id',
  'Content-Length',
  'Content-Range',
  'Content-Type',
  'Content-Encoding',
  'Content-Disposition',
  'Accept-Ranges',
  'ETag',
  'Allow',
  'WWW-Authenticate',
];

/** JSON content type the service sends (supplement §7). */
export const JSON_CONTENT_TYPE = 'application/json; charset=UTF-8';
/** Plain-text content type of upload-protocol errors (supplement §1). */
export const TEXT_CONTENT_TYPE = 'text/plain; charset=utf-8';
/** The non-standard status a resumable upload answers while more bytes are needed. */
export const STATUS_RESUME_INCOMPLETE = 308;
/** The status a cancelled resumable session answers (supplement §1). */
export const STATUS_CLIENT_CLOSED = 499;
