/**
 * Issue 10, failures 8 and 9: JSON text is strict (a lone surrogate or invalid UTF-8 → 400 naming the position,
 * nothing stored), and multipart/related keeps every content byte whether it is framed with CRLF or bare LF
 * (Google's Python client), the framing decided by the opening delimiter line.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startService, type ServiceHandle } from './helpers/service.ts';

let svc: ServiceHandle;
before(async () => {
  svc = await startService();
});
after(() => svc.stop());

async function fileCount(): Promise<number> {
  return (await svc.api('GET', '/store/v3/files?fields=files(id)')).json().files.length;
}

for (const [what, body, where] of [
  ['a lone high surrogate escape', '{"name":"lone \\ud800"}', /lone surrogate.*position 14/],
  ['a lone low surrogate escape', '{"name":"x\\udc00y"}', /lone surrogate.*position 10/],
  ['a high surrogate followed by a non-surrogate escape', '{"name":"\\ud800\\u0041"}', /lone surrogate.*position 9/],
] as const) {
  test(`a metadata create with ${what} → 400 naming the position, nothing stored`, async () => {
    const before = await fileCount();
    const r = await svc.api('POST', '/store/v3/files', { body, headers: { 'Content-Type': 'application/json' } });
    assert.equal(r.status, 400, r.text);
    assert.equal(r.json().error.errors[0].reason, 'parseError');
    assert.match(r.json().error.message, where);
    assert.equal(await fileCount(), before);
  });
}

test('a proper surrogate pair is stored exactly', async () => {
  const r = await svc.api('POST', '/store/v3/files', {
    body: '{"name":"pair \\ud83d\\ude00 and \\\\ud800 as text"}',
    headers: { 'Content-Type': 'application/json' },
  });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json().name, 'pair \u{1f600} and \\ud800 as text');
});

test('invalid UTF-8 in a JSON body → 400 naming the byte offset', async () => {
  const body = Buffer.concat([Buffer.from('{"name":"ab'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
  const r = await svc.api('POST', '/store/v3/files', { body, headers: { 'Content-Type': 'application/json' } });
  assert.equal(r.status, 400);
  assert.match(r.json().error.message, /not valid UTF-8.*byte 11/);
});

test('a lone surrogate in multipart metadata → 400 naming the position', async () => {
  const r = await svc.api('POST', '/upload/store/v3/files?uploadType=multipart', {
    headers: { 'Content-Type': 'multipart/related; boundary=b' },
    body: '--b\r\nContent-Type: application/json\r\n\r\n{"name":"\\udfff"}\r\n--b\r\nContent-Type: text/plain\r\n\r\nhello\r\n--b--',
  });
  assert.equal(r.status, 400, r.text);
  assert.match(r.json().error.message, /lone surrogate.*position 9/);
});

test('a lone surrogate inside a batch part body → that part 400, the batch 200', async () => {
  const inner = '{"type":"user","role":"reader","emailAddress":"x\\ud800@example.com"}';
  const file = (await svc.api('POST', '/store/v3/files', { body: { name: 'b' } })).json().id;
  const body = `--x\r\nContent-Type: application/http\r\n\r\nPOST /store/v3/files/${file}/permissions\r\nContent-Type: application/json\r\n\r\n${inner}\r\n--x--`;
  const r = await svc.api('POST', '/batch/store/v3', {
    headers: { 'Content-Type': 'multipart/mixed; boundary=x' },
    body,
  });
  assert.equal(r.status, 200);
  assert.match(r.text, /HTTP\/1\.1 400[\s\S]*lone surrogate/);
});

const ENDINGS: Record<string, string> = { CR: '\r', LF: '\n', CRLF: '\r\n', dashes: '--' };

for (const nl of ['\r\n', '\n']) {
  const framing = nl === '\n' ? 'LF' : 'CRLF';
  for (const [name, ending] of Object.entries(ENDINGS)) {
    test(`${framing}-framed multipart: content ending in ${name} is stored byte for byte`, async () => {
      const content = Buffer.from(`12-byte file${ending}`, 'latin1');
      const body = Buffer.concat([
        Buffer.from(
          `--bnd${nl}Content-Type: application/json; charset=UTF-8${nl}${nl}{"name":"f"}${nl}--bnd${nl}Content-Type: application/octet-stream${nl}${nl}`,
        ),
        content,
        Buffer.from(`${nl}--bnd--${nl}`),
      ]);
      const r = await svc.api('POST', '/upload/store/v3/files?uploadType=multipart', {
        headers: { 'Content-Type': 'multipart/related; boundary=bnd' },
        body,
      });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json().size, String(content.length));
      const media = await svc.api('GET', `/store/v3/files/${r.json().id}?alt=media`);
      assert.deepEqual([...media.body], [...content]);
    });
  }
}

test('a CRLF-framed body keeps a bare "LF--boundary" inside the content as content', async () => {
  const content = Buffer.from('line\n--bnd but not a delimiter');
  const body = Buffer.concat([
    Buffer.from('--bnd\r\nContent-Type: application/json\r\n\r\n{}\r\n--bnd\r\nContent-Type: text/plain\r\n\r\n'),
    content,
    Buffer.from('\r\n--bnd--'),
  ]);
  const r = await svc.api('POST', '/upload/store/v3/files?uploadType=multipart', {
    headers: { 'Content-Type': 'multipart/related; boundary=bnd' },
    body,
  });
  assert.equal(r.status, 200, r.text);
  const media = await svc.api('GET', `/store/v3/files/${r.json().id}?alt=media`);
  assert.equal(media.text, content.toString());
});
