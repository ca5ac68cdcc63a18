/**
 * What every fixture app reads from its URL (`?service=<base url>&token=<token>`), and how it reports to the test:
 * each uploaded file's ID is written into `<output id="ids">`, space-separated.
 */
export interface PageConfig {
  readonly serviceUrl: string;
  readonly token: string;
}

/** The service and token the test put in the page's URL. */
export function pageConfig(): PageConfig {
  const params = new URLSearchParams(location.search);
  return { serviceUrl: params.get('service') ?? 'http://127.0.0.1:8080', token: params.get('token') ?? 'dev-token-alice' };
}

/** Shows the uploaded IDs where the test reads them. */
export function reportIds(ids: readonly string[]): void {
  document.getElementById('ids')!.textContent = ids.join(' ');
}
