/** The contract between `bench/run.ts` and each `bench/*.bench.ts` module. */

/** One figure compared with its target. */
export interface BenchTarget {
  readonly value: number;
  /** Human-readable target, e.g. "≥ 0.8" or "< 150 MiB". */
  readonly target: string;
  readonly pass: boolean;
  /** A hard limit: `npm run bench` exits non-zero when it is missed (other targets are reported only). */
  readonly enforce?: boolean;
}

/** What a benchmark module returns. */
export interface BenchResult {
  /** Short name, e.g. "upload". */
  readonly name: string;
  /** Raw figures (seconds, MiB/s, MiB, counts…), named with their unit. */
  readonly metrics: Readonly<Record<string, number | string>>;
  /** The figures that have targets. */
  readonly targets: Readonly<Record<string, BenchTarget>>;
}

/** A benchmark module: `export default async function (): Promise<BenchResult>`. Log progress to stderr. */
export type BenchModule = { default: () => Promise<BenchResult> };
