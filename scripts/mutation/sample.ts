// The uniform sample of mutants and what a sample's score can say about the whole scope.
import { seededRandom } from '../../test/server/helpers/seeded-random.ts';

/** `size` items drawn uniformly without replacement (a partial Fisher–Yates shuffle, seeded: the same seed draws the same
 * sample on every machine), in the order drawn; a prefix of a draw is itself a uniform sample. */
export function draw<T>(items: readonly T[], size: number, seed: number): T[] {
  const pool = [...items];
  const random = seededRandom(seed);
  const n = Math.min(size, pool.length);
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(random() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, n);
}

/**
 * Half the width of the 95 % confidence interval of a proportion `p` measured on `n` of `population` (normal
 * approximation with the finite-population correction); 0 when the sample is the whole population.
 */
export function margin95(p: number, n: number, population: number): number {
  if (n === 0) return 1;
  if (n >= population) return 0;
  return 1.96 * Math.sqrt((p * (1 - p)) / n) * Math.sqrt((population - n) / (population - 1));
}
