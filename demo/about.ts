/** The demo's "About" page: text, and the site's uploads, which go on while you read. */
import { onSignInElsewhere } from './config.ts';
import { setUpSite, signIn } from './site.ts';

const { config, uploader } = setUpSite();
// Another page of the site signed in as another account: this one's uploader follows.
onSignInElsewhere((token) => signIn(config, uploader, token));
