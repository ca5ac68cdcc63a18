/// <reference types="mocha" />
// The parts of the elements that load on demand (issue 6, bundle size): the virtualizer past 200 rows, the French
// words under lang="fr", and the service client only once conversion is asked for. Each still behaves as if it
// had always been there.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../../src/elements/progress-list/define.ts';
import '../../../src/elements/uploader/define.ts';
import type { StoreProgressList } from '../../../src/elements/progress-list/store-progress-list.ts';
import type { StoreUploader } from '../../../src/elements/uploader/store-uploader.ts';
import { ScriptedUploader } from '../../fixtures/scripted-uploader.ts';
import { manyTasks } from '../../fixtures/many-tasks.ts';
import { serviceUrl, TOKEN } from '../uploader/helpers.ts';
import { makeFile, text } from './helpers.ts';

const rows = (el: StoreProgressList) => el.shadowRoot!.querySelectorAll('[role="listitem"]');
const aboutRequests = (baseUrl: string) =>
  performance.getEntriesByType('resource').filter((e) => e.name.startsWith(`${baseUrl}/store/v3/about`)).length;

describe('lazily loaded parts of the elements', () => {
  it('renders up to 200 rows plainly, then virtualizes once the list grows past 200', async () => {
    const uploader = new ScriptedUploader({ tasks: manyTasks(200) });
    const el = await fixture<StoreProgressList>(
      html`<store-progress-list .uploader=${uploader}></store-progress-list>`,
    );
    expect(rows(el)).to.have.length(200);
    expect(rows(el)[199].getAttribute('aria-posinset')).to.equal('200');
    uploader.add(makeFile('one-more.txt', 1));
    await waitUntil(() => rows(el).length > 0 && rows(el).length < 100, 'the list was not virtualized past 200 rows');
    expect(text(el.shadowRoot!.querySelector('[part="summary"]'))).to.match(/ of 201 uploaded/);
    expect(rows(el)[0].getAttribute('aria-setsize')).to.equal('201');
  });

  it('virtualizes from the first render when the list starts long, without an empty first render', async () => {
    const el = await fixture<StoreProgressList>(
      html`<store-progress-list .uploader=${new ScriptedUploader({ tasks: manyTasks(1000) })}></store-progress-list>`,
    );
    // `fixture` waited for `updateComplete`, which covers loading the virtualizer: rows are laid out next frame.
    await waitUntil(() => rows(el).length > 0, 'no rows');
    expect(rows(el).length).to.be.lessThan(100);
  });

  it('renders French from the first render under lang="fr" (its words load on demand)', async () => {
    const wrapper = await fixture(
      html`<div lang="fr-CA"><store-progress-list .uploader=${new ScriptedUploader()}></store-progress-list></div>`,
    );
    const el = wrapper.querySelector('store-progress-list')!;
    await el.updateComplete;
    expect(text(el.shadowRoot!.querySelector('[part="empty"]'))).to.equal('Aucun envoi pour l’instant.');
  });

  it('asks the service for its import formats only once conversion is switched on, and converts files dropped right away', async () => {
    const baseUrl = await serviceUrl();
    const uploader = new ScriptedUploader();
    const el = await fixture<StoreUploader>(
      html`<store-uploader base-url=${baseUrl} token=${TOKEN} .uploader=${uploader}></store-uploader>`,
    );
    await new Promise((r) => setTimeout(r, 0));
    expect(aboutRequests(baseUrl)).to.equal(0);
    el.shadowRoot!.querySelector<HTMLInputElement>('[part="conversion"] input[type="checkbox"]')!.click();
    // Dropped before the about resource has answered: the upload waits for the formats instead of skipping conversion.
    const zone = el.shadowRoot!.querySelector('store-dropzone')!;
    const input = zone.shadowRoot!.getElementById('files') as HTMLInputElement;
    const dt = new DataTransfer();
    dt.items.add(makeFile('table.csv', 5, 'text/csv'));
    dt.items.add(makeFile('notes.bin', 5, 'application/octet-stream'));
    input.files = dt.files;
    input.dispatchEvent(new Event('change'));
    const adds = () => uploader.calls.filter((c) => c.method === 'add');
    await waitUntil(() => adds().length === 2, 'the files were not added');
    expect(adds().map((c) => [(c.file as File).name, c.options])).to.deep.equal([
      ['table.csv', { convertTo: 'application/vnd.svc-apps.spreadsheet' }],
      ['notes.bin', {}],
    ]);
    expect(aboutRequests(baseUrl)).to.equal(1);
  });
});
