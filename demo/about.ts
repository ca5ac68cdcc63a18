/** The demo's "About" page: text, and the site's uploads, which go on while you read. */
import { setUpSite } from './site.ts';

setUpSite();
