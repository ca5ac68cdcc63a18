// What CONVENTIONS.md promises about the tree, checked: no import cycle, no source file over 400 lines, and tests
// that wait for events or states rather than for time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cycles, ROOT, sources } from './source-graph.ts';

const SOURCE_DIRS = ['src', 'server'];
const TEST_DIRS = ['test'];

test('no import cycle in src/ or server/', () => {
  const found = cycles(SOURCE_DIRS.flatMap(sources)).map((c) => c.join(' → '));
  assert.deepEqual(found, []);
});

test('no source file outside tests is over 400 lines', () => {
  const long = SOURCE_DIRS.flatMap(sources)
    .map((f) => ({ f, lines: readFileSync(join(ROOT, f), 'utf8').split('\n').length }))
    .filter(({ lines }) => lines > 400)
    .map(({ f, lines }) => `${f}: ${lines} lines`);
  assert.deepEqual(long, []);
});

// A fixed wait used to synchronise passes when the machine is fast and fails (or tests nothing) when it is slow.
// A wait that is the point of the test (a stall the service must notice, a timer under test) says so in a
// `// time-wait: <reason>` comment on its line or the line above. A zero-delay `setTimeout` yields one task turn
// (lets queued work run); it waits for no length of time and is not flagged.
const SLEEP = /waitForTimeout\(|\bsleep\(|new Promise\(\s*\(?\s*\w+\s*\)?\s*=>\s*setTimeout\(\s*\w+\s*,(?!\s*0\s*\))/;

/** The comment lines directly above line `i`, joined. */
function commentAbove(lines: readonly string[], i: number): string {
  const out: string[] = [];
  for (let j = i - 1; j >= 0 && /^\s*\/\//.test(lines[j]!); j--) out.push(lines[j]!);
  return out.join('\n');
}

test('tests wait for events and states, never for time (or say why beside the wait)', () => {
  const waits: string[] = [];
  for (const file of TEST_DIRS.flatMap(sources)) {
    if (file === 'test/repo/structure.test.ts') continue;
    const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (!SLEEP.test(line) || /^\s*(\*|\/\/)/.test(line)) return;
      if (/time-wait:/.test(line) || commentAbove(lines, i).includes('time-wait:')) return;
      waits.push(`${file}:${i + 1}: ${line.trim()}`);
    });
  }
  assert.deepEqual(waits, []);
});
