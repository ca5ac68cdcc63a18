// The repro's module worker (shared, or dedicated for comparison): reads a part of each Blob posted to it and answers
// with the bytes read, or TIMEOUT when the read has not settled within the time asked.
const KiB = 1024;
const parts = {
  whole: (b) => b,
  head: (b) => b.slice(0, 256 * KiB),
  mid: (b) => b.slice(b.size / 2, b.size / 2 + 256 * KiB),
  tail: (b) => b.slice(b.size - 256 * KiB),
};
const readers = {
  arrayBuffer: async (b) => (await b.arrayBuffer()).byteLength,
  stream: async (b) => {
    let n = 0;
    for (const reader = b.stream().getReader(); ;) {
      const { done, value } = await reader.read();
      if (done) return n;
      n += value.byteLength;
    }
  },
};

function serve(port) {
  port.onmessage = async ({ data: { id, blob, part, reader, timeout } }) => {
    let timer;
    const expired = new Promise((resolve) => (timer = setTimeout(() => resolve('TIMEOUT'), timeout)));
    const read = readers[reader](parts[part](blob)).catch((error) => String(error));
    port.postMessage({ id, answer: await Promise.race([read, expired]) });
    clearTimeout(timer);
  };
}
if ('onconnect' in self) self.onconnect = (event) => serve(event.ports[0]);
else serve(self);
