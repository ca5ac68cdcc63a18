/**
 * Runs every `bench/*.bench.ts` module (or those whose name contains an argument: `npm run bench -- upload`),
 * prints a table, and writes `bench/results/latest.json`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BenchModule, BenchResult } from './types.ts';

/** A result as stored: the figures plus when and at what machine load they were measured. */
type RecordedResult = BenchResult & { run?: Record<string, unknown> };

const dir = import.meta.dirname;
// Other work on this shared machine skews every figure: record the load before and after.
const loadBefore = loadavg();
const filters = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();

/** The newest modification time of any file under `folder`, ms. */
function newest(folder: string): number {
  let latest = 0;
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) latest = Math.max(latest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  return latest;
}

// The benches that open Chromium load the browser bundle: a bare `npm run bench` builds it when it is missing or
// older than the kit's sources, once. Not under the Chromium lock: the benches that launch Chromium are run under it
// (`flock /tmp/chromium.lock npm run bench -- uploader`), and a second flock in the same run waited for itself.
const bundle = join(dir, '..', 'dist', 'browser', 'store-upload-kit.js');
const needsBundle = files.some((f) => /chromium/i.test(readFileSync(join(dir, f), 'utf8')));
if (needsBundle && (!existsSync(bundle) || statSync(bundle).mtimeMs < newest(join(dir, '..', 'src')))) {
  console.error('bench: building the browser bundle (npx vite build)');
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], {
    cwd: join(dir, '..'),
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

const results: BenchResult[] = [];
const failures: { file: string; error: string }[] = [];
for (const file of files) {
  console.error(`bench: running ${file}`);
  try {
    const mod = (await import(pathToFileURL(join(dir, file)).href)) as BenchModule;
    results.push(await mod.default());
  } catch (e) {
    console.error(`bench: ${file} failed:`, e);
    failures.push({ file, error: String((e as Error).stack ?? e) });
  }
}

// A missed hard limit fails the run like a bench that threw (the others are goals, reported in the table).
for (const r of results)
  for (const [figure, t] of Object.entries(r.targets))
    if (t.enforce && !t.pass) failures.push({ file: r.name, error: `${figure}: ${t.value}, limit ${t.target}` });

const rows = results.flatMap((r) =>
  Object.entries(r.targets).map(
    ([k, t]) => `| ${r.name} | ${k} | ${t.value} | ${t.target} | ${t.pass ? 'pass' : 'FAIL'} |`,
  ),
);
console.log(['| bench | figure | value | target | result |', '|---|---|---|---|---|', ...rows].join('\n'));
for (const r of results) console.log(`${r.name}: ${JSON.stringify(r.metrics)}`);

mkdirSync(join(dir, 'results'), { recursive: true });
// A partial run (`npm run bench -- push`) replaces only its own entries, so one file always holds the latest figure of
// every benchmark, each with the date and load it was measured at.
const latestPath = join(dir, 'results', 'latest.json');
const previous = existsSync(latestPath)
  ? (JSON.parse(readFileSync(latestPath, 'utf8')) as { results?: RecordedResult[] })
  : {};
const run = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: cpus().length,
  loadavgBefore: loadBefore,
  loadavgAfter: loadavg(),
};
const fresh: RecordedResult[] = results.map((r) => ({ ...r, run }));
const kept = (previous.results ?? []).filter((r) => !fresh.some((f) => f.name === r.name));
writeFileSync(
  latestPath,
  JSON.stringify(
    { ...run, results: [...kept, ...fresh].sort((a, b) => a.name.localeCompare(b.name)), failures },
    null,
    2,
  ) + '\n',
);
process.exitCode = failures.length > 0 ? 1 : 0;
