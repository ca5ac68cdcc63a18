/**
 * Reason phrases for the status lines written inside batch responses (`HTTP/1.1 <code> <reason>`). The wording is
 * RFC 9110's, plus the service's own `308 Resume Incomplete` and `499 Client Closed Request`.
 */
export const REASON_PHRASES: Readonly<Record<number, string>> = {
  100: 'Continue',
  102: 'Processing',
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  206: 'Partial Content',
  304: 'Not Modified',
  308: 'Resume Incomplete',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  411: 'Length Required',
  412: 'Precondition Failed',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  499: 'Client Closed Request',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** The reason phrase for a status code; codes outside the table get their class's generic phrase. */
export function reasonPhrase(status: number): string {
  const known = REASON_PHRASES[status];
  if (known) return known;
  if (status >= 500) return 'Server Error';
  if (status >= 400) return 'Client Error';
  if (status >= 300) return 'Redirection';
  if (status >= 200) return 'Success';
  return 'Informational';
}
