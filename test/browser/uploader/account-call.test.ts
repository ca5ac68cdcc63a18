// The one account-change call in the browser (issue 37): an uploader made with the app's client takes its base URL
// and token from it, and `client.accountChanged()` moves it — with the first account's upload running, the list
// shows the second account's uploads only once the call resolves, and the second account's file is stored as theirs.
// A destroyed uploader is unbound. Real worker, real service.
import { expect } from '@open-wc/testing';
import { createStoreClient } from '../../../src/client/index.ts';
import { createUploader, type Uploader } from '../../../src/uploader/index.ts';
import { addFault, baseUrl, clearFaults, download, randomFile, sameBytes, TOKEN } from './helpers.ts';

const BOB = 'dev-token-bob';
const KiB = 1024;

describe('client.accountChanged, the one call', () => {
  let made: Uploader[] = [];
  afterEach(async () => {
    for (const u of made) u.destroy();
    made = [];
    await clearFaults(baseUrl);
  });

  it("moves an uploader made with the client: the first account's running upload leaves the list, the second's is stored as theirs", async () => {
    let token = TOKEN;
    const client = createStoreClient({ baseUrl, getAccessToken: () => token });
    const uploader = createUploader({
      client,
      shareKey: crypto.randomUUID(),
      chunkSize: 256 * KiB,
      resumableThreshold: 0,
    });
    made.push(uploader);
    // Alice's upload stays in flight: every chunk waits at the service.
    await addFault(baseUrl, {
      match: { method: 'PUT', uploadType: 'resumable' },
      action: { type: 'delay', ms: 400 },
      times: 40,
    });
    const alices = uploader.add(randomFile(2 * 1024 * KiB + 3));
    await new Promise<void>((resolve) => {
      const seen = () => {
        if (uploader.snapshot.tasks.some((t) => t.id === alices.id && t.bytesAcknowledged > 0)) {
          uploader.removeEventListener('change', seen);
          resolve();
        }
      };
      uploader.addEventListener('change', seen);
    });

    token = BOB;
    await client.accountChanged();
    expect(uploader.snapshot.tasks.map((t) => t.id)).to.not.include(alices.id);

    await clearFaults(baseUrl);
    const file = randomFile(300 * KiB + 1);
    const bobs = uploader.add(file);
    const stored = await bobs.done;
    expect(await sameBytes(file, await download(baseUrl, stored.id, BOB))).to.equal(true);
    const meta = await fetch(`${baseUrl}/store/v3/files/${stored.id}?fields=owners`, {
      headers: { authorization: `Bearer ${BOB}` },
    });
    expect(((await meta.json()) as { owners: { emailAddress: string }[] }).owners[0].emailAddress).to.equal(
      'bob@example.com',
    );
    expect(uploader.snapshot.tasks.map((t) => t.id)).to.deep.equal([bobs.id]);
  });

  it('a destroyed uploader is no longer moved by the call', async () => {
    let token = TOKEN;
    const client = createStoreClient({ baseUrl, getAccessToken: () => token });
    const uploader = createUploader({ client, shareKey: crypto.randomUUID() });
    let moved = 0;
    const original = uploader.accountChanged.bind(uploader);
    uploader.accountChanged = (account?: string) => {
      moved++;
      return original(account);
    };
    uploader.destroy();
    token = BOB;
    await client.accountChanged();
    expect(moved).to.equal(0);
  });
});
