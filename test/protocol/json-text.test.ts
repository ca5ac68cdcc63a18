/** Strict JSON text checks: the first invalid UTF-8 byte and the first lone surrogate, by position. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { invalidUtf8At, loneSurrogateAt } from '../../src/protocol/index.ts';

test('invalidUtf8At agrees with a fatal TextDecoder on any bytes', () => {
  const fatal = new TextDecoder('utf-8', { fatal: true });
  const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
  console.log(`fast-check seed ${seed}`);
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
      let ok = true;
      try {
        fatal.decode(bytes);
      } catch {
        ok = false;
      }
      assert.equal(invalidUtf8At(bytes) === -1, ok);
    }),
    { seed, numRuns: 2000 },
  );
  assert.equal(invalidUtf8At(Buffer.from('abc\xc3\x28', 'latin1')), 3);
  assert.equal(invalidUtf8At(Buffer.from([0xed, 0xa0, 0x80])), 0, 'an encoded surrogate');
  assert.equal(invalidUtf8At(Buffer.from([0xe2, 0x82])), 0, 'cut off at the end');
  assert.equal(invalidUtf8At(Buffer.from([0x84, 0x80, 0x80, 0x80])), 0, 'a continuation byte cannot lead');
  // The random bytes above rarely hold a lead byte at the edge of its range: U+0800, the first three-byte character.
  assert.equal(invalidUtf8At(Buffer.from('a\u0800', 'utf8')), -1, 'E0 A0 80 is valid');
  // The edges of the ranges a decoder refuses: the surrogates (U+D800–U+DFFF) and past U+10FFFF.
  const edges: [number[], number][] = [
    [[0xed, 0x9f, 0xbf], -1], // U+D7FF, the last before the surrogates
    [[0xed, 0xbf, 0xbf], 0], // U+DFFF, the last surrogate
    [[0xee, 0x80, 0x80], -1], // U+E000, the first after them
    [[0xf4, 0x8f, 0xbf, 0xbf], -1], // U+10FFFF, the last code point
    [[0xf4, 0x90, 0x80, 0x80], 0], // U+110000, past it
  ];
  for (const [bytes, at] of edges) {
    assert.equal(invalidUtf8At(Uint8Array.from(bytes)), at, Buffer.from(bytes).toString('hex'));
    assert.equal(
      at === -1,
      (() => {
        try {
          fatal.decode(Uint8Array.from(bytes));
          return true;
        } catch {
          return false;
        }
      })(),
    );
  }
});

test('loneSurrogateAt finds escaped and raw lone surrogates in strings only', () => {
  assert.equal(loneSurrogateAt('{"a":"lone \\ud800"}'), 11);
  assert.equal(loneSurrogateAt('{"a":"\\ud83d\\ude00"}'), -1);
  assert.equal(loneSurrogateAt('{"a":"\\\\ud800"}'), -1, 'an escaped backslash then text');
  assert.equal(loneSurrogateAt('{"a":"\\ude00"}'), 6);
  assert.equal(loneSurrogateAt('{"a":"x\ud800"}'), 7);
  assert.equal(loneSurrogateAt('{"a":"\ud83d\ude00"}'), -1);
  assert.equal(loneSurrogateAt('{"a":"x"} \\ud800'), -1, 'after a closing quote the text is not scanned');
});

test('loneSurrogateAt reads on right after a short escape: a lone surrogate just behind \\" or \\n is found', () => {
  // A short escape is two characters; what follows it is still inside the string and still scanned.
  assert.equal(loneSurrogateAt('{"a":"\\"\\ud800"}'), 8, 'an escaped lone surrogate after \\"');
  assert.equal(loneSurrogateAt('{"a":"\\n\ud800"}'), 8, 'a raw lone surrogate after \\n');
  assert.equal(loneSurrogateAt('{"a":"\\\\\\ude00x"}'), 8, 'an escaped low surrogate after \\\\');
  assert.equal(loneSurrogateAt('{"a":"\\t\\ud83d\\ude00"}'), -1, 'a pair after \\t is no lone surrogate');
});
