// An Express app with the store service inside it, as server/README.md ("Inside your own server") shows: the
// service's API below /api/store, signed in by the app's own cookie, and a page whose uploader talks to it.
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import express from 'express';
import { createStoreHandler } from '@store-upload-kit/service/handler';

const store = await createStoreHandler({
  dataDir: process.env.STORE_DATA ?? mkdtempSync(join(tmpdir(), 'express-store-')),
  basePath: '/api/store',
  // The app's own sign-in: here a cookie set by /login (a real app would look its session up).
  authenticate: ({ headers }) => {
    const session = /(?:^|;\s*)session=([^;]+)/.exec(headers.get('cookie') ?? '')?.[1];
    return session ? { email: decodeURIComponent(session) } : undefined;
  },
});

const app = express();
app.use(store.node); // before any body parser: the service reads its bodies itself, streamed
app.use(express.json()); // the app's own JSON routes, after it

app.get('/login', (req, res) => {
  res.cookie('session', 'alice@example.com', { httpOnly: true, sameSite: 'lax' }).redirect('/');
});
// The kit's browser build, served by the app (a bundler would do this for a built page).
const kit = dirname(createRequire(import.meta.url).resolve('store-upload-kit/package.json'));
app.use('/kit', express.static(join(kit, 'dist/browser')));
app.get('/', (req, res) => {
  res.type('html').send(`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Express with the store inside</title>
    <script type="module" src="/kit/store-upload-kit.js"></script>
  </head>
  <body>
    <store-uploader token="signed-in-by-cookie"></store-uploader>
    <p>Uploaded: <output id="ids"></output></p>
    <script type="module">
      const element = document.querySelector('store-uploader');
      await customElements.whenDefined('store-uploader');
      element.setAttribute('base-url', location.origin + '/api/store');
      element.addEventListener('change', () => (document.getElementById('ids').textContent = element.value.join(' ')));
    </script>
  </body>
</html>`);
});

const server = app.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? '127.0.0.1');
process.on('SIGTERM', () => server.close(() => void store.close()));
