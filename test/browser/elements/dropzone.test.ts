/// <reference types="mocha" />
import { expect, fixture, html } from '@open-wc/testing';
import { chooseFiles, makeFile as file, nextEvent as oneEvent } from './helpers.ts';
import '../../../src/elements/dropzone/define.ts';
import type { StoreDropzone } from '../../../src/elements/dropzone/store-dropzone.ts';
import { collectFromHandle } from '../../../src/headless/intake/walk-folders.ts';
import { ScriptedUploader } from '../../fixtures/scripted-uploader.ts';
import type { AddOptions } from '../../../src/uploader/index.ts';

function dragEvent(type: string, files: File[] = []): DragEvent {
  const dt = new DataTransfer();
  for (const f of files) dt.items.add(f);
  return new DragEvent(type, { dataTransfer: dt, bubbles: true, composed: true, cancelable: true });
}

describe('<store-dropzone>', () => {
  it('renders a labelled group with two real buttons in tab order', async () => {
    const el = await fixture<StoreDropzone>(html`<store-dropzone></store-dropzone>`);
    const root = el.shadowRoot!;
    const group = root.querySelector('[part="base"]')!;
    expect(group.getAttribute('role')).to.equal('group');
    expect(group.getAttribute('aria-label')).to.equal('Upload files');
    const buttons = [...root.querySelectorAll('button')].map((b) => b.textContent.trim());
    expect(buttons).to.deep.equal(['Browse files', 'Browse folder']);
    root.querySelector<HTMLButtonElement>('[part="browse-button"]')!.focus();
    expect(root.activeElement?.getAttribute('part')).to.equal('browse-button');
    const inputs = [...root.querySelectorAll('input')];
    expect(inputs.every((i) => i.hidden && i.tabIndex === -1)).to.equal(true);
    expect(root.getElementById('folder')!.hasAttribute('webkitdirectory')).to.equal(true);
  });

  it('without the File System Access pickers, the browse buttons open the hidden file inputs', async () => {
    const el = await fixture<StoreDropzone>(html`<store-dropzone></store-dropzone>`);
    const w = window as unknown as Record<string, unknown>;
    const pickers = { showOpenFilePicker: w.showOpenFilePicker, showDirectoryPicker: w.showDirectoryPicker };
    delete w.showOpenFilePicker;
    delete w.showDirectoryPicker;
    try {
      let opened = 0;
      const bothOpened = new Promise<void>((resolve) => {
        el.shadowRoot!.getElementById('files')!.click = () => {
          if (++opened === 11) resolve();
        };
        el.shadowRoot!.getElementById('folder')!.click = () => {
          if ((opened += 10) === 11) resolve();
        };
      });
      el.shadowRoot!.querySelector<HTMLButtonElement>('[part="browse-button"]')!.click();
      el.shadowRoot!.querySelector<HTMLButtonElement>('[part="folder-button"]')!.click();
      await bothOpened;
      expect(opened).to.equal(11);
    } finally {
      Object.assign(w, pickers);
    }
  });

  it('"Browse files" uses showOpenFilePicker and hands the handles to the uploader; a cancel does nothing, a SecurityError falls back to the input', async () => {
    const root = await navigator.storage.getDirectory();
    const name = `picked-${crypto.randomUUID()}.txt`;
    const handle = await root.getFileHandle(name, { create: true });
    const writable = await handle.createWritable();
    await writable.write('picked bytes');
    await writable.close();
    const uploader = new ScriptedUploader();
    const el = await fixture<StoreDropzone>(
      html`<store-dropzone multiple accept=".txt,text/*" .uploader=${uploader}></store-dropzone>`,
    );
    const w = window as unknown as { showOpenFilePicker?: unknown };
    const original = w.showOpenFilePicker;
    const asked: unknown[] = [];
    let answer: () => Promise<FileSystemFileHandle[]> = async () => [handle];
    w.showOpenFilePicker = (options: unknown) => {
      asked.push(options);
      return answer();
    };
    const browse = () => el.shadowRoot!.querySelector<HTMLButtonElement>('[part="browse-button"]')!.click();
    try {
      const added = oneEvent(el, 'store-files-add');
      browse();
      const event = await added;
      expect(event.detail.files.map((f) => [f.relativePath, f.file.size, f.handle === handle])).to.deep.equal([
        [name, 12, true],
      ]);
      expect(asked).to.deep.equal([
        { multiple: true, types: [{ accept: { 'application/octet-stream': ['.txt'], 'text/*': [] } }] },
      ]);
      expect((uploader.calls.find((c) => c.method === 'add')?.options as AddOptions | undefined)?.handle).to.equal(
        handle,
      );

      // A cancel, then a SecurityError: only the second opens the input (the first one's answer is handled first).
      let inputOpened = 0;
      let opened!: () => void;
      const fellBack = new Promise<void>((resolve) => (opened = resolve));
      el.shadowRoot!.getElementById('files')!.click = () => {
        inputOpened++;
        opened();
      };
      answer = () => Promise.reject(new DOMException('The user aborted a request.', 'AbortError'));
      browse();
      answer = () => Promise.reject(new DOMException('Cross origin sub frames are not allowed', 'SecurityError'));
      browse();
      await fellBack;
      expect(inputOpened).to.equal(1);
      expect(uploader.calls.filter((c) => c.method === 'add')).to.have.length(1);
    } finally {
      w.showOpenFilePicker = original;
      await root.removeEntry(name);
    }
  });

  it('"Browse folder" uses showDirectoryPicker: files keep their paths and handles', async () => {
    const root = await navigator.storage.getDirectory();
    const top = `folder-${crypto.randomUUID()}`;
    const dir = await root.getDirectoryHandle(top, { create: true });
    const sub = await dir.getDirectoryHandle('2024', { create: true });
    for (const [parent, name] of [
      [dir, 'a.txt'],
      [sub, 'b.txt'],
    ] as const) {
      const w = await (await parent.getFileHandle(name, { create: true })).createWritable();
      await w.write(name);
      await w.close();
    }
    const uploader = new ScriptedUploader();
    const el = await fixture<StoreDropzone>(html`<store-dropzone multiple .uploader=${uploader}></store-dropzone>`);
    const w = window as unknown as { showDirectoryPicker?: unknown };
    const original = w.showDirectoryPicker;
    w.showDirectoryPicker = async () => dir;
    try {
      const added = oneEvent(el, 'store-files-add');
      el.shadowRoot!.querySelector<HTMLButtonElement>('[part="folder-button"]')!.click();
      const event = await added;
      expect(event.detail.files.map((f) => [f.relativePath, f.handle instanceof FileSystemFileHandle])).to.deep.equal([
        [`${top}/2024/b.txt`, true],
        [`${top}/a.txt`, true],
      ]);
    } finally {
      w.showDirectoryPicker = original;
      await root.removeEntry(top, { recursive: true });
    }
  });

  it('fires store-files-add with files and relative paths, then hands them to the uploader', async () => {
    const uploader = new ScriptedUploader();
    const el = await fixture<StoreDropzone>(html`<store-dropzone multiple .uploader=${uploader}></store-dropzone>`);
    const added = oneEvent(el, 'store-files-add');
    chooseFiles(el, [file('a.txt', 3), file('b.txt', 5)]);
    const event = await added;
    expect(event.bubbles && event.composed && event.cancelable).to.equal(true);
    expect(event.detail.files.map((f) => [f.relativePath, f.file.size])).to.deep.equal([
      ['a.txt', 3],
      ['b.txt', 5],
    ]);
    await el.updateComplete;
    expect(uploader.snapshot.tasks.map((t) => [t.name, t.total, t.state])).to.deep.equal([
      ['a.txt', 3, 'queued'],
      ['b.txt', 5, 'queued'],
    ]);
  });

  it('does not call the uploader when store-files-add is cancelled', async () => {
    const uploader = new ScriptedUploader();
    const el = await fixture<StoreDropzone>(html`<store-dropzone .uploader=${uploader}></store-dropzone>`);
    el.addEventListener('store-files-add', (e) => e.preventDefault());
    const added = oneEvent(el, 'store-files-add');
    chooseFiles(el, [file('a.txt', 1)]);
    await added;
    expect(uploader.calls.filter((c) => c.method === 'add')).to.have.length(0);
  });

  it('reports every refused file with its reason and lists it, not silently', async () => {
    const el = await fixture<StoreDropzone>(
      html`<store-dropzone multiple accept=".csv,image/*" max-file-size="10" max-files="2"></store-dropzone>`,
    );
    const rejected = oneEvent(el, 'store-files-reject');
    const added = oneEvent(el, 'store-files-add');
    chooseFiles(el, [
      file('ok.csv', 4, 'text/csv'),
      file('note.txt', 4),
      file('big.png', 11, 'image/png'),
      file('pic.png', 2, 'image/png'),
      file('third.csv', 1, 'text/csv'),
    ]);
    const event = await rejected;
    expect(event.detail.files.map((f) => [f.relativePath, f.reason])).to.deep.equal([
      ['note.txt', 'type'],
      ['big.png', 'size'],
      ['third.csv', 'count'],
    ]);
    expect((await added).detail.files.map((f) => f.relativePath)).to.deep.equal(['ok.csv', 'pic.png']);
    await el.updateComplete;
    const items = [...el.shadowRoot!.querySelectorAll('[part="rejections"] li')].map((li) => li.textContent);
    expect(items).to.deep.equal([
      'note.txt: this type of file is not accepted.',
      'big.png: larger than the limit of 10 bytes.',
      'third.csv: at most 2 files can be added.',
    ]);
    expect(el.shadowRoot!.querySelector('[part="rejections"]')!.getAttribute('role')).to.equal('status');
    el.shadowRoot!.querySelector<HTMLButtonElement>('.dismiss')!.click();
    await el.updateComplete;
    expect(el.shadowRoot!.querySelectorAll('[part="rejections"] li')).to.have.length(0);
  });

  it('without multiple, keeps the first file and refuses the others', async () => {
    const el = await fixture<StoreDropzone>(html`<store-dropzone></store-dropzone>`);
    const rejected = oneEvent(el, 'store-files-reject');
    chooseFiles(el, [file('one.txt', 1), file('two.txt', 1)]);
    expect((await rejected).detail.files.map((f) => [f.relativePath, f.reason])).to.deep.equal([
      ['two.txt', 'multiple'],
    ]);
  });

  it('keeps the drag-over state while the pointer crosses children, and clears it on leave and drop', async () => {
    const el = await fixture<StoreDropzone>(html`<store-dropzone multiple></store-dropzone>`);
    const child = el.shadowRoot!.querySelector('[part="browse-button"]')!;
    const enter = dragEvent('dragenter', [file('x.txt', 1)]);
    el.dispatchEvent(enter);
    expect(enter.defaultPrevented).to.equal(true);
    child.dispatchEvent(dragEvent('dragenter', [file('x.txt', 1)]));
    el.dispatchEvent(dragEvent('dragleave'));
    await el.updateComplete;
    expect(el.hasAttribute('drag-over')).to.equal(true);
    expect(el.matches(':state(drag-over)')).to.equal(true);
    expect(el.shadowRoot!.querySelector('[part="prompt"]')!.textContent).to.equal('Release to add the files');
    child.dispatchEvent(dragEvent('dragleave'));
    await el.updateComplete;
    expect(el.hasAttribute('drag-over')).to.equal(false);
    expect(el.matches(':state(drag-over)')).to.equal(false);

    el.dispatchEvent(dragEvent('dragenter', [file('x.txt', 1)]));
    const added = oneEvent(el, 'store-files-add');
    const drop = dragEvent('drop', [file('dropped.txt', 7)]);
    el.dispatchEvent(drop);
    expect(drop.defaultPrevented).to.equal(true);
    expect(el.hasAttribute('drag-over')).to.equal(false);
    expect((await added).detail.files.map((f) => [f.relativePath, f.file.size])).to.deep.equal([['dropped.txt', 7]]);
  });

  it('adds pasted files', async () => {
    const el = await fixture<StoreDropzone>(html`<store-dropzone></store-dropzone>`);
    const dt = new DataTransfer();
    dt.items.add(file('pasted.png', 9, 'image/png'));
    const added = oneEvent(el, 'store-files-add');
    const paste = new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, composed: true, cancelable: true });
    el.shadowRoot!.querySelector('[part="browse-button"]')!.dispatchEvent(paste);
    expect((await added).detail.files.map((f) => f.relativePath)).to.deep.equal(['pasted.png']);
  });

  it('walks a real directory handle recursively, keeping relative paths and file handles', async () => {
    const root = await navigator.storage.getDirectory();
    const dir = await root.getDirectoryHandle('photos', { create: true });
    const sub = await dir.getDirectoryHandle('2024', { create: true });
    for (const [parent, name, text] of [
      [dir, 'a.txt', 'aa'],
      [sub, 'b.txt', 'bbb'],
    ] as const) {
      const writable = await (await parent.getFileHandle(name, { create: true })).createWritable();
      await writable.write(text);
      await writable.close();
    }
    const picked = await collectFromHandle(dir);
    expect(picked.map((p) => [p.relativePath, p.file.size, p.handle?.kind])).to.deep.equal([
      ['photos/2024/b.txt', 3, 'file'],
      ['photos/a.txt', 2, 'file'],
    ]);
    await root.removeEntry('photos', { recursive: true });
  });

  it('uses the folder input with its relative paths and in French under lang="fr"', async () => {
    const el = await fixture<StoreDropzone>(html`<div lang="fr"><store-dropzone></store-dropzone></div>`).then((d) =>
      d.querySelector('store-dropzone')!,
    );
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[part="folder-button"]')!.textContent.trim()).to.equal('Parcourir un dossier');
  });

  it('is accessible (axe), idle and with rejections, light and dark', async () => {
    const el = await fixture<StoreDropzone>(html`<store-dropzone accept=".csv"></store-dropzone>`);
    await expect(el).to.be.accessible();
    chooseFiles(el, [file('x.txt', 1)]);
    await el.updateComplete;
    el.colorScheme = 'dark';
    await el.updateComplete;
    await expect(el).to.be.accessible();
  });
});
