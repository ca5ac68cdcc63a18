// The Angular binding in Chromium against the real service (issue 31): many components (injectors) that provide the
// same options, each with a new token getter, share one store, one uploader and one subscription to it; the store's
// commands pause and resume an upload every signal follows; destroying every component mid-upload cancels nothing,
// and one made afterwards reads the finished upload from its signal's first value, stored byte-identical.
import { expect } from '@open-wc/testing';
import { Injector, runInInjectionContext } from '@angular/core';
import { injectUploader, injectUploads, provideUploader } from '../../../src/angular/index.ts';
import type { CreateUploaderOptions } from '../../../src/uploader/index.ts';
import { baseUrl, download, eventually, randomFile, sameBytes, TOKEN } from '../uploader/helpers.ts';
import { countChangeListeners, freshOptions, MiB, slowPuts, snapshotWhere, testStores } from './helpers.ts';

const store = testStores();

/** A component's injector as Angular makes it for `providers: [provideUploader(…)]`, and what it injects. */
function component(options: CreateUploaderOptions) {
  const injector = Injector.create({ providers: [provideUploader({ ...options, getAccessToken: () => TOKEN })] });
  const view = runInInjectionContext(injector, () => ({ store: injectUploader(), uploads: injectUploads() }));
  return { ...view, destroy: () => (injector as Injector & { destroy(): void }).destroy() };
}

describe('Angular signals', () => {
  it('many components share one uploader and one subscription; destroying them mid-upload cancels nothing', async () => {
    await slowPuts(80);
    const options = freshOptions();
    const s = store(options);
    const listeners = countChangeListeners(s.uploader!);
    const components = [component(options), component(options), component(options)];
    expect(new Set(components.map((c) => c.store)).size).to.equal(1);
    expect(components[0].store).to.equal(s);
    expect(listeners()).to.equal(1);

    const file = randomFile(2 * MiB);
    const [task] = components[0].store.add(file);
    const stateIn = (i: number) => components[i].uploads().tasks[0]?.state;
    await eventually(() => components.every((_, i) => stateIn(i) === 'uploading'), 'every signal uploading');
    components[1].store.pause(task.id);
    await eventually(() => components.every((_, i) => stateIn(i) === 'paused'), 'every signal paused');
    components[2].store.resume(task.id);
    await eventually(() => components.every((_, i) => stateIn(i) === 'uploading'), 'every signal uploading again');

    for (const c of components) c.destroy();
    expect(listeners()).to.equal(0);
    const done = await snapshotWhere(s, (x) => x.tasks[0]?.state === 'done');
    const finished = done.tasks[0];
    if (finished.state !== 'done') throw new Error('not done');
    expect(await sameBytes(file, await download(baseUrl, finished.file.id))).to.equal(true);

    const later = component(options);
    expect(later.uploads().tasks.map((t) => [t.name, t.state])).to.deep.equal([[file.name, 'done']]);
    later.destroy();
  });
});
