// Self time by function from a V8 .cpuprofile (node --cpu-prof): node bench/profile-self.mjs FILE [top=30]
import { readFileSync } from 'node:fs';

const [file, top = '30'] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const ticks = new Map();
for (const id of profile.samples) ticks.set(id, (ticks.get(id) ?? 0) + 1);
const self = new Map();
for (const [id, n] of ticks) {
  const { functionName, url, lineNumber } = byId.get(id).callFrame;
  const key = `${functionName || '(anonymous)'} ${url.replace(/^.*node_modules\//, '')}:${lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + n);
}
const total = profile.samples.length;
const ms = (profile.endTime - profile.startTime) / 1000 / total;
for (const [key, n] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(top)))
  console.log(`${((100 * n) / total).toFixed(1).padStart(5)} %  ${((n * ms) / 1000).toFixed(2).padStart(7)} s  ${key}`);
