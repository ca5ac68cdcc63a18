/**
 * Bundle sizes (min+gzip) of the kit: the main thread of a page using `<store-uploader>`, each chunk it loads lazily,
 * the worker, the wasm hasher and each public entry, with the issue 6 budgets (enforced) and targets. The figures
 * come from `scripts/check-size.ts`, which CI runs; its comment says what each line measures.
 */
import { BUDGETS, TARGETS, kB, measureBundles } from '../scripts/check-size.ts';
import { measureUpFrontWithVite } from '../scripts/size-with-vite.ts';
import type { BenchResult } from './types.ts';

export default async function bundleBench(): Promise<BenchResult> {
  console.error('bench bundle: building with esbuild');
  const report = await measureBundles();
  const metrics: Record<string, number> = {};
  for (const row of report.rows) {
    const key = row.key.replace(/[^a-z0-9/.]+/gi, '_');
    metrics[`${key}_min_bytes`] = row.minBytes;
    metrics[`${key}_gzip_bytes`] = row.gzipBytes;
  }
  metrics['kit_gzip_bytes'] = report.kitGzip;
  metrics['main_thread_up_front_gzip_bytes'] = report.mainThreadUpFrontGzip;
  const vite = await measureUpFrontWithVite();
  metrics['main_thread_up_front_vite_gzip_bytes'] = vite.gzipBytes;
  metrics['main_thread_up_front_vite_files'] = vite.files;
  metrics['hash_worker_gzip_bytes'] = report.hashWorkerGzip;
  const target = (budget: number, goal: number) => `< ${kB(budget)} enforced; issue 6 target < ${kB(goal)}`;
  return {
    name: 'bundle',
    metrics,
    targets: {
      kit_gzip_bytes: {
        value: report.kitGzip,
        target: target(BUDGETS.kit, TARGETS.kit),
        pass: report.kitGzip < TARGETS.kit,
      },
      main_thread_gzip_bytes: {
        value: report.mainThreadGzip,
        target: target(BUDGETS.mainThread, TARGETS.mainThread),
        pass: report.mainThreadGzip < TARGETS.mainThread,
      },
      // Issue 14: the main thread before a file is added at most 20 KiB.
      main_thread_up_front_gzip_bytes: {
        value: report.mainThreadUpFrontGzip,
        target: `≤ 20 KiB (${BUDGETS.mainThreadUpFront} bytes), issue 14's target, enforced`,
        pass: report.mainThreadUpFrontGzip <= TARGETS.mainThreadUpFront,
      },
      // Issue 14: the upload worker at most 15 KiB; the hash worker (started only when verifying) is reported apart.
      upload_worker_gzip_bytes: {
        value: report.workerGzip,
        target: `≤ ${kB(BUDGETS.worker)} (15 KiB), enforced`,
        pass: report.workerGzip <= BUDGETS.worker,
      },
    },
  };
}
