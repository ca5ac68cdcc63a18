// Preloaded into every process of a coverage run (NODE_OPTIONS, so the services a test spawns load it too): at exit it
// writes which mutants the process reached, from the counters StrykerJS's instrumented code keeps in
// `globalThis.__stryker__`. Plain JavaScript: it loads before tsx.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';

const dir = process.env.MUTATION_COVERAGE_DIR;
if (dir) {
  process.on('exit', () => {
    const coverage = globalThis.__stryker__?.mutantCoverage;
    if (!coverage) return;
    const ids = new Set(Object.keys(coverage.static));
    for (const perTest of Object.values(coverage.perTest)) for (const id of Object.keys(perTest)) ids.add(id);
    writeFileSync(join(dir, `${process.pid}-${threadId}.json`), JSON.stringify([...ids]));
  });
}
