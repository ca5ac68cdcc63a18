// The committed custom-elements.json (Storybook's docs pages read it; scripts/build-kit.ts ships it) is what the
// analyzer makes of the elements' sources today: regenerated into a temporary folder and compared. On a difference,
// `npm run cem` rewrites it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('../../', import.meta.url));

test('custom-elements.json is what `npm run cem` makes of the sources', async () => {
  const out = mkdtempSync(join(tmpdir(), 'store-cem-'));
  try {
    // The project's own configuration, writing elsewhere (the analyzer joins outdir to the working folder).
    const base = pathToFileURL(join(root, 'custom-elements-manifest.config.mjs')).href;
    const config = join(out, 'cem.config.mjs');
    writeFileSync(
      config,
      `import base from ${JSON.stringify(base)};\nexport default { ...base, outdir: ${JSON.stringify(relative(root, out))} };\n`,
    );
    await promisify(execFile)(join(root, 'node_modules/.bin/cem'), ['analyze', '--config', config], { cwd: root });
    const made = readFileSync(join(out, 'custom-elements.json'), 'utf8');
    const committed = readFileSync(join(root, 'custom-elements.json'), 'utf8');
    if (made !== committed) {
      // Where they part, so that a CI log shows what changed (an order or a member) without a rerun.
      const madeLines = made.split('\n');
      const committedLines = committed.split('\n');
      const at = madeLines.findIndex((line, i) => line !== committedLines[i]);
      assert.fail(
        `custom-elements.json is out of date with src/elements (line ${at + 1}: made ${JSON.stringify(madeLines[at])}, ` +
          `committed ${JSON.stringify(committedLines[at])}): run \`npm run cem\` and commit it`,
      );
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
