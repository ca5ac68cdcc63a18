// The native kinds' export formats named as files: one table for the elements' "Download as" and the demo.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { exportExtension } from '../../src/protocol/index.ts';

test('export formats get their usual extensions, others the last word of their subtype', () => {
  assert.equal(exportExtension('text/csv'), 'csv');
  assert.equal(exportExtension('text/plain'), 'txt');
  assert.equal(exportExtension('text/tab-separated-values'), 'tsv');
  assert.equal(exportExtension('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'), 'xlsx');
  assert.equal(exportExtension('application/vnd.oasis.opendocument.spreadsheet'), 'ods');
  assert.equal(exportExtension('application/vnd.oasis.opendocument.text'), 'odt');
  assert.equal(exportExtension('application/vnd.oasis.opendocument.presentation'), 'odp');
  assert.equal(exportExtension('application/vnd.openxmlformats-officedocument.presentationml.presentation'), 'pptx');
  assert.equal(exportExtension('text/markdown'), 'md');
  assert.equal(exportExtension('application/vnd.svc-apps.script+json'), 'json');
  assert.equal(exportExtension('text/html; charset=utf-8'), 'html');
  assert.equal(exportExtension('nonsense'), 'bin', 'a type without a subtype');
});
