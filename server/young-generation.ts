/**
 * A small young generation, swept as request bodies stream through, so a node's RSS during a 1 GiB upload stays flat
 * (measured with `bench/cluster.bench.ts`). Two things grow it otherwise:
 * - V8 doubles the new space under allocation up to 2 × 16 MiB and keeps it; module loading alone gets it there.
 *   The semi-space *size* flags act only when the process starts (`node --max-semi-space-size`, which launchers would
 *   each have to pass); the growth factor is read when the space grows, so setting it to 1 here, before the
 *   service's modules load (`cli.ts` imports `young-generation-cli.ts` first), keeps the new space at its first size.
 * - A socket's 64 KiB read buffers are dead once copied out, but their JS wrappers are small: the young generation
 *   fills (and a scavenge frees the buffers) only after hundreds of MiB of them, and V8's own trigger on external
 *   memory lets some 30 MiB pile up first. {@link bodyBytesSeen} runs a minor collection every 2 MiB of body instead
 *   (about 0.2 ms each here: the young generation holds little that is alive).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const EVERY = 2 * 1024 * 1024;
let since = 0;
let collect: ((options: { type: 'minor' | 'major' }) => void) | undefined;

/**
 * Turns the rule on for this process. Only `store-service`'s own entry calls it (through `young-generation-cli.ts`,
 * its first import): the V8 flags are process-wide, and a team's own server that mounts the handler keeps its own
 * heap settings and its own collections — there {@link bodyBytesSeen} does nothing.
 */
export function keepYoungGenerationSmall(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
  // `gc` is only handed to a context made while the flag is on; the service's own context never sees it.
  setFlagsFromString('--expose-gc');
  collect = runInNewContext('gc') as typeof collect;
  setFlagsFromString('--no-expose-gc');
}

/** Counts body bytes a request delivered (and that are already copied out); every 2 MiB, a minor collection. */
export function bodyBytesSeen(bytes: number): void {
  if (!collect) return;
  since += bytes;
  if (since < EVERY) return;
  since = 0;
  collect({ type: 'minor' });
}
