// The store service inside this Next.js app, as server/README.md ("Inside your own server") shows: one handler for
// the process, created on first use, signed in by the app's own cookie (set by /login).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStoreHandler, type StoreHandler } from '@store-upload-kit/service/handler';

const shared = globalThis as typeof globalThis & { storeHandler?: Promise<StoreHandler> };

export function storeHandler(): Promise<StoreHandler> {
  shared.storeHandler ??= createStoreHandler({
    dataDir: process.env.STORE_DATA ?? mkdtempSync(join(tmpdir(), 'next-store-')),
    basePath: '/api/store',
    authenticate: ({ headers }) => {
      const session = /(?:^|;\s*)session=([^;]+)/.exec(headers.get('cookie') ?? '')?.[1];
      return session ? { email: decodeURIComponent(session) } : undefined;
    },
  });
  return shared.storeHandler;
}
