/** The demo's "Files" page: what the service stores, refreshed as uploads (from any page of the site) finish. */
import { createStoreClient } from '../src/client/index.ts';
import { onSignInElsewhere } from './config.ts';
import { byId, setUpSite, signIn } from './site.ts';
import { StoredFiles } from './stored-files.ts';

const { config, uploader } = setUpSite();
const client = createStoreClient({ baseUrl: config.serviceUrl, getAccessToken: () => config.token });
uploader.client = client;
uploader.token = '';
const stored = new StoredFiles(client, byId('stored'), byId('stored-status'));
client.onAccountChange(() => stored.accountChanged());
void stored.refresh();
uploader.addEventListener('change', () => void stored.refresh());
byId('refresh').addEventListener('click', () => void stored.refresh());
// Another page of the site signed in as another account: this one follows.
onSignInElsewhere((token) => {
  signIn(config, uploader, token);
  void client.accountChanged(); // the one call: the uploader and the stored files move
});
