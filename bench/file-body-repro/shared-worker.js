// The site's one shared worker of the repro: it keeps the files pages post to it and PUTs one when asked, as the
// body itself ('file'), as a slice of every byte ('slice'), or through fetch ('fetch-file'), and answers what the
// request saw. Plain JS, no kit code: the question is Chromium's, not the kit's.
const files = new Map();

function put(url, body, how) {
  const began = performance.now();
  if (how === 'fetch-file') {
    return fetch(url, { method: 'PUT', body }).then(
      async (r) => ({
        status: r.status,
        error: null,
        text: (await r.text()).slice(0, 80),
        ms: performance.now() - began,
      }),
      (e) => ({ status: 0, error: String(e), ms: performance.now() - began }),
    );
  }
  return new Promise((done) => {
    const xhr = new XMLHttpRequest();
    let uploaded = 0;
    xhr.upload.onprogress = (e) => (uploaded = e.loaded);
    xhr.onload = () => done({ status: xhr.status, error: null, uploaded, ms: performance.now() - began });
    xhr.onerror = () => done({ status: xhr.status, error: 'error event', uploaded, ms: performance.now() - began });
    xhr.onabort = () => done({ status: xhr.status, error: 'abort event', uploaded, ms: performance.now() - began });
    xhr.open('PUT', url);
    xhr.send(body);
  });
}

addEventListener('connect', (event) => {
  const port = event.ports[0];
  port.onmessage = async ({ data }) => {
    if (data.kind === 'keep') {
      files.set(data.id, data.file);
      port.postMessage({ kind: 'kept', id: data.id, size: data.file.size });
    } else if (data.kind === 'put') {
      const file = files.get(data.id);
      const body = data.how === 'slice' ? file.slice(0, file.size) : file;
      port.postMessage({ kind: 'done', id: data.id, ...(await put(data.url, body, data.how)) });
    }
  };
});
