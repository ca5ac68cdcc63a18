/**
 * Bundle sizes (min+gzip) of the whole kit, its main-thread part, the worker, the wasm hasher and each public
 * entry, with the issue 6 budgets as targets. The figures come from `scripts/check-size.ts`, which CI runs.
 */
import { BUDGETS, kB, measureBundles } from '../scripts/check-size.ts';
import type { BenchResult } from './types.ts';

export default async function bundleBench(): Promise<BenchResult> {
  console.error('bench bundle: building with esbuild');
  const report = await measureBundles();
  const metrics: Record<string, number> = {};
  for (const row of report.rows) {
    const key = row.name.replace(/ \(.*\)$/, '').replace(/^entry /, '').replace(/[^a-z0-9/.]+/gi, '_');
    metrics[`${key}_min_bytes`] = row.minBytes;
    metrics[`${key}_gzip_bytes`] = row.gzipBytes;
  }
  metrics['kit_gzip_bytes'] = report.kitGzip;
  return {
    name: 'bundle',
    metrics,
    targets: {
      kit_gzip_bytes: { value: report.kitGzip, target: `< ${kB(BUDGETS.kit)}`, pass: report.kitGzip < BUDGETS.kit },
      main_thread_gzip_bytes: { value: report.mainThreadGzip, target: `< ${kB(BUDGETS.mainThread)}`, pass: report.mainThreadGzip < BUDGETS.mainThread },
    },
  };
}
