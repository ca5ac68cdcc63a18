/**
 * The demo site's "Upload" page: `<store-uploader>` against the reference service with a dev token, the list of
 * stored files (refreshed when uploads finish), and the live change feed when the push relay runs. The site's other
 * pages (`files.html`, `about.html`) show the same uploads (`site.ts`).
 */
import { BUILT_IN_LANGUAGES, languageDirection } from '../src/elements/index.ts';
import { createStoreClient } from '../src/client/index.ts';
import { StoredFiles } from './stored-files.ts';
import { startLiveFeed } from './live-feed.ts';
import { rerenderStoreElements } from './rerender.ts';
import { byId, setUpSite, signIn } from './site.ts';
import { onSignInElsewhere } from './config.ts';

const { config, uploader } = setUpSite();

byId('service-url').textContent = config.serviceUrl;
byId('token').textContent = config.token;

const client = createStoreClient({ baseUrl: config.serviceUrl, getAccessToken: () => config.token });
// The uploader is made with the client: its token is the client's, and the client's `accountChanged` moves it.
uploader.client = client;
uploader.token = '';
const stored = new StoredFiles(client, byId('stored'), byId('stored-status'));
void stored.refresh();
// The uploader's value (the uploaded file IDs) changes when an upload finishes.
uploader.addEventListener('change', () => void stored.refresh());
uploader.addEventListener('store-share-complete', () => void stored.refresh());
byId('refresh').addEventListener('click', () => void stored.refresh());

// Signing in as another account on this browser: the first one signs out — its uploads are cancelled with the
// service and forgotten here (`signOut()`, as on a shared computer) — then everything on the page follows the other
// through ONE call, `client.accountChanged()`: the client's getter gives its token from the next request on, and the
// parts bound to the client move before it resolves — the uploader lists its uploads, the live feed's watcher stops
// the first account's channel and opens the second's, the stored files are listed again. Every other page of the site
// follows (`config.ts`, `site.ts`). `data-signed-in` says when the switch is done.
client.onAccountChange(() => stored.accountChanged());
const account = byId<HTMLSelectElement>('account');
if (![...account.options].some((option) => option.value === config.token)) account.add(new Option(config.token));
account.value = config.token;
document.body.dataset['signedIn'] = config.token;
let switching: Promise<void> = Promise.resolve();
const switchTo = (token: string, signOut: boolean): Promise<void> =>
  (switching = switching.then(async () => {
    if (token === config.token) return;
    delete document.body.dataset['signedIn'];
    if (signOut) await uploader.signOut();
    signIn(config, uploader, token);
    account.value = token;
    byId('token').textContent = token;
    await client.accountChanged();
    document.body.dataset['signedIn'] = token;
  }));
account.addEventListener('change', () => void switchTo(account.value, true));
// Another tab switched: that page signed the first account out already.
onSignInElsewhere((token) => void switchTo(token, false));

// Light, dark, or the system's choice; the elements follow through their `color-scheme` attribute.
const scheme = byId<HTMLSelectElement>('scheme');
scheme.addEventListener('change', () => {
  const value = scheme.value;
  document.documentElement.dataset['scheme'] = value;
  if (value === 'light' || value === 'dark') uploader.setAttribute('color-scheme', value);
  else uploader.removeAttribute('color-scheme');
});

// The uploader's language and direction: from the query (`?lang=fr&dir=rtl`, so a reload keeps them), changed live
// by the selects without a reload. Every built-in language is offered under
// its own name (`Intl.DisplayNames` in that language: "فارسی", "한국어", "中文（台灣）"); picking one also picks the
// direction it is written in, which the direction select can still override.
const section = byId('upload-section');
const language = byId<HTMLSelectElement>('language');
const direction = byId<HTMLSelectElement>('direction');
for (const tag of BUILT_IN_LANGUAGES) {
  const name = new Intl.DisplayNames([tag], { type: 'language' }).of(tag) ?? tag;
  const option = new Option(name.charAt(0).toLocaleUpperCase(tag) + name.slice(1), tag);
  option.lang = tag;
  language.append(option);
}
const initial = new URLSearchParams(location.search);
const asked = initial.get('lang');
language.value = asked && (BUILT_IN_LANGUAGES as readonly string[]).includes(asked) ? asked : 'en';
direction.value = initial.get('dir') ?? languageDirection(language.value);
language.addEventListener('change', () => void (direction.value = languageDirection(language.value)));
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

startLiveFeed({
  client,
  relayUrl: config.relayUrl,
  list: byId('feed'),
  status: byId('feed-status'),
  onChange: () => void stored.refresh(),
});
