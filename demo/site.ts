/**
 * What every page of the demo site shares: the service it talks to, the site's navigation (links keep the query, so a
 * demo pointed at another service stays pointed at it), and its `<store-uploader id="uploader">`, configured alike on
 * every page so all of them attach to the one upload engine the site's shared worker runs: an upload started on one
 * page goes on, and shows, on the others.
 */
import '../src/elements/index.ts';
import type { StoreUploader } from '../src/elements/index.ts';
import { readDemoConfig, rememberToken, type DemoConfig } from './config.ts';

/** The element with `id`, or an error naming the page's missing piece. */
export function byId<T extends HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`${location.pathname} lacks #${id}`);
  return el as T;
}

/** Configures this page's uploader and navigation; returns the service config and the uploader. */
export function setUpSite(): { config: DemoConfig; uploader: StoreUploader } {
  const config = readDemoConfig();
  const uploader = byId<StoreUploader>('uploader');
  uploader.token = config.token;
  uploader.baseUrl = config.serviceUrl;
  linkSite();
  return { config, uploader };
}

/**
 * Signs this page in as `token`'s account: the config every getter reads, the address and links (`config.ts`), and the
 * uploader, whose list then shows that account's uploads only. The page's own parts (stored files, live feed) follow
 * after this.
 */
export function signIn(config: DemoConfig, uploader: StoreUploader, token: string): void {
  config.token = token;
  rememberToken(token);
  linkSite();
  // An uploader made with the app's client takes its token from there, and moves on the client's `accountChanged`.
  if (!uploader.client) uploader.token = token;
}

/** Points the site's navigation at this page's query (the service, relay and account), marking the current page. */
function linkSite(): void {
  for (const link of document.querySelectorAll<HTMLAnchorElement>('nav.site a')) {
    const target = new URL(link.href);
    target.search = location.search;
    link.href = target.href;
    if (
      target.pathname === location.pathname ||
      (target.pathname.endsWith('/') && location.pathname.endsWith('/index.html'))
    )
      link.setAttribute('aria-current', 'page');
  }
}
