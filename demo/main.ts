/**
 * The demo site's "Upload" page: `<store-uploader>` against the reference service with a dev token, the list of
 * stored files (refreshed when uploads finish), and the live change feed when the push relay runs. The site's other
 * pages (`files.html`, `about.html`) show the same uploads (`site.ts`).
 */
import { createStoreClient } from '../src/client/index.ts';
import { StoredFiles } from './stored-files.ts';
import { startLiveFeed } from './live-feed.ts';
import { rerenderStoreElements } from './rerender.ts';
import { byId, setUpSite } from './site.ts';

const { config, uploader } = setUpSite();

byId('service-url').textContent = config.serviceUrl;
byId('token').textContent = config.token;

const client = createStoreClient({ baseUrl: config.serviceUrl, getAccessToken: () => config.token });
const stored = new StoredFiles(client, byId('stored'), byId('stored-status'));
void stored.refresh();
// The uploader's value (the uploaded file IDs) changes when an upload finishes.
uploader.addEventListener('change', () => void stored.refresh());
uploader.addEventListener('store-share-complete', () => void stored.refresh());
byId('refresh').addEventListener('click', () => void stored.refresh());

// Light, dark, or the system's choice; the elements follow through their `color-scheme` attribute.
const scheme = byId<HTMLSelectElement>('scheme');
scheme.addEventListener('change', () => {
  const value = scheme.value;
  document.documentElement.dataset['scheme'] = value;
  if (value === 'light' || value === 'dark') uploader.setAttribute('color-scheme', value);
  else uploader.removeAttribute('color-scheme');
});

// The uploader's language and direction: from the query (`?lang=fr&dir=rtl`, so a reload keeps them), changed live
// by the selects without a reload, which would interrupt running uploads.
const section = byId('upload-section');
const language = byId<HTMLSelectElement>('language');
const direction = byId<HTMLSelectElement>('direction');
const initial = new URLSearchParams(location.search);
language.value = initial.get('lang') === 'fr' ? 'fr' : 'en';
direction.value = initial.get('dir') === 'rtl' ? 'rtl' : 'ltr';
const applyLocale = (): void => {
  section.lang = language.value;
  section.dir = direction.value;
  rerenderStoreElements(section);
  const query = new URLSearchParams(location.search);
  query.set('lang', language.value);
  query.set('dir', direction.value);
  history.replaceState(null, '', `?${query}`);
};
section.lang = language.value;
section.dir = direction.value;
language.addEventListener('change', applyLocale);
direction.addEventListener('change', applyLocale);

startLiveFeed({ client, relayUrl: config.relayUrl, list: byId('feed'), status: byId('feed-status'), onChange: () => void stored.refresh() });
