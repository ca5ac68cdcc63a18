/** The media type syntax of Content-Type, X-Upload-Content-Type and metadata mimeType (media-type.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bareMediaType, isMediaType } from '../../src/protocol/media-type.ts';

test('bareMediaType is the type/subtype of a header, lower-case, without parameters or white space', () => {
  assert.equal(bareMediaType(' Text/Plain ; charset=UTF-8'), 'text/plain');
  assert.equal(bareMediaType('IMAGE/PNG'), 'image/png');
  assert.equal(bareMediaType('\tapplication/json\t'), 'application/json');
  assert.equal(bareMediaType(' ; charset=utf-8'), '', 'parameters alone name no type');
  assert.equal(bareMediaType(''), '');
});

test('isMediaType takes a bare type/subtype of token characters, and the script import type', () => {
  for (const good of ['text/plain', 'application/vnd.ms-excel', "a!#$%&'*+.^_`|~0-9/b-z", 'X/Y']) {
    assert.equal(isMediaType(good), true, good);
  }
  assert.equal(isMediaType('application/vnd.svc-apps.script+text/plain'), true);
  assert.equal(isMediaType('Application/Vnd.Svc-Apps.Script+Text/Plain'), true, 'the script type in any case');
  for (const bad of [
    'text',
    'text/',
    '/plain',
    'text/plain; charset=utf-8',
    ' text/plain',
    'text/plain ',
    'a/b/c',
    'te xt/plain',
    '',
  ]) {
    assert.equal(isMediaType(bad), false, JSON.stringify(bad));
  }
});
