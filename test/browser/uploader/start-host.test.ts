// The Web Lock a page holds while it lives (page/start-host.ts `holdPageLock`), which the page's attach waits for
// before it tells the engine its name: where Web Locks refuse the request (a document no longer fully active, an
// opaque origin), the name is known at once to be none, and nothing waits on it for ever.
import { expect } from '@open-wc/testing';

type StartHost = typeof import('../../../src/uploader/page/start-host.ts');

describe('holdPageLock', () => {
  it('where the lock request is refused (a detached frame’s document), the lock’s name resolves as none', async () => {
    const iframe = document.createElement('iframe');
    document.body.append(iframe);
    const frame = iframe.contentWindow as unknown as Window & { eval(code: string): Promise<StartHost> };
    // The module in the frame's own realm: its `navigator` and `crypto` are the frame's.
    const url = new URL('../../../src/uploader/page/start-host.ts', import.meta.url).href;
    const { holdPageLock } = await frame.eval(`import(${JSON.stringify(url)})`);
    // While the frame is attached its page lock is taken, under the kit's name (this also touches the frame's
    // `crypto` and `navigator.locks`, so that they are still there once it is not).
    const attached = holdPageLock();
    expect(await attached.name).to.match(/^store-upload-kit:page:/);
    attached.release();
    const locks = frame.navigator.locks;
    iframe.remove();
    // What the page's lock meets now: Web Locks are there, and refuse.
    let refused = '';
    await locks.request('store-upload-kit:probe', () => undefined).catch((e: Error) => (refused = e.name));
    expect(refused).to.equal('InvalidStateError');

    const held = holdPageLock();
    // Under the refusal the name settles at once; a name left pending would hold the page's attach for ever.
    expect(await held.name, 'the name resolved as none').to.equal(undefined);
    held.release();
  });
});
