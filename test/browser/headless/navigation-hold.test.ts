// Leaving a page is confirmed (`beforeunload`) from the choice of a file until the engine has answered for it
// (`uploader/page/navigation-hold.ts`): a file posted to a worker still starting dies with the page. The engine here is
// the real one in the page, whose answer to the page's add waits at a gate the test opens; the upload goes to the
// real service. Leaving is asked as the browser asks it, with a cancelable `beforeunload` event.
import { expect } from '@open-wc/testing';
import { MemoryLocks } from '../../../src/uploader/adapters/memory-locks.ts';
import { MemorySessionStore } from '../../../src/uploader/adapters/memory-session-store.ts';
import { systemClock } from '../../../src/uploader/adapters/system-clock.ts';
import { xhrHttp } from '../../../src/uploader/adapters/xhr-http.ts';
import { UploadWorkerService } from '../../../src/uploader/index.ts';
import type { AddAnswer, AddRequest } from '../../../src/uploader/contract/worker-contract.ts';
import { baseUrl, eventually, filesNamed } from '../uploader/helpers.ts';
import { testStores } from './helpers.ts';

/** The real engine, whose answers to the page's adds wait until `open` (and says when it has answered). */
class GatedService extends UploadWorkerService {
  #open!: () => void;
  readonly #gate = new Promise<void>((resolve) => (this.#open = resolve));
  #answer!: () => void;
  /** Settles once the engine has answered the first add. */
  readonly answered = new Promise<void>((resolve) => (this.#answer = resolve));

  open(): void {
    this.#open();
  }

  override async addMany(requests: readonly AddRequest[]): Promise<AddAnswer[]> {
    await this.#gate;
    const answers = await super.addMany(requests);
    this.#answer();
    return answers;
  }
}

const gated = () =>
  new GatedService(() => ({
    http: xhrHttp,
    store: new MemorySessionStore(),
    clock: systemClock,
    locks: new MemoryLocks(),
  }));

/** Whether leaving the page now would be confirmed. */
function leavingAsked(): boolean {
  const event = new Event('beforeunload', { cancelable: true });
  dispatchEvent(event);
  return event.defaultPrevented;
}

const store = testStores();
const picked = (name: string) => ({
  file: new File([`held ${name}`], name, { type: 'text/plain' }),
  relativePath: name,
});

describe('leaving is confirmed from the choice until the engine has the file', () => {
  it('from store.addPicked, through the intake and the add, until the engine answers; then not', async () => {
    const service = gated();
    const s = store({ service, persist: false });
    expect(leavingAsked(), 'before the choice').to.equal(false);
    const name = `hold-${crypto.randomUUID()}.txt`;
    const added = s.addPicked([picked(name)]);
    expect(leavingAsked(), 'in the task of the choice').to.equal(true);
    await added;
    expect(s.getSnapshot().tasks.map((t) => t.name)).to.deep.equal([name]);
    expect(leavingAsked(), 'added, but the engine has not answered').to.equal(true);
    service.open();
    await service.answered;
    // The release follows the answer by a few microtasks.
    await eventually(() => !leavingAsked(), 'leaving no longer asked once the engine has the file');
    await eventually(() => s.getSnapshot().tasks[0]?.state === 'done', 'the upload done');
    expect(await filesNamed(baseUrl, name)).to.have.length(1);
  });

  it('no longer once the uploader is destroyed with the engine still silent', async () => {
    const service = gated();
    const s = store({ service, persist: false });
    s.add(new File(['x'], `gone-${crypto.randomUUID()}.txt`));
    expect(leavingAsked(), 'added, the engine silent').to.equal(true);
    s.destroy();
    await eventually(() => !leavingAsked(), 'leaving no longer asked once the uploader is destroyed');
  });
});
