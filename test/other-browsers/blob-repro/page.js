// The repro's page: posts Blobs to its worker and asks for a part of each to be read there.
let next = 0;
const pending = new Map();
const input = document.body.appendChild(Object.assign(document.createElement('input'), { type: 'file' }));
window.repro = {
  connect(shared) {
    const worker = shared
      ? new SharedWorker('/worker.js', { type: 'module', name: 'blob-repro' })
      : new Worker('/worker.js', { type: 'module' });
    this.port = shared ? worker.port : worker;
    this.port.onmessage = ({ data }) => pending.get(data.id)(data.answer);
    return true;
  },
  /** `kind`: `memory` (a Blob made here of `size` bytes) or `input` (the file set on the page's input). */
  read(kind, size, part, reader, timeout) {
    const blob = kind === 'input' ? input.files[0] : new Blob([new Uint8Array(size)]);
    const id = ++next;
    return new Promise((resolve) => {
      pending.set(id, resolve);
      this.port.postMessage({ id, blob, part, reader, timeout });
    });
  },
};
