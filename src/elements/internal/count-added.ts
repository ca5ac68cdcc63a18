import type { PickedFile } from '../events.ts';
import type { TaskSnapshot } from '../../uploader/index.ts';

/**
 * What `maxFiles` and `maxTotalSize` count as already added: the listed uploads that are not cancelled (for files,
 * not failed either), plus files waiting to be uploaded.
 */
export function countAdded(
  tasks: readonly TaskSnapshot[],
  pending: readonly PickedFile[] = [],
): { files: number; bytes: number } {
  const listed = tasks.filter((t) => t.state !== 'cancelled');
  const sum = (sizes: number[]) => sizes.reduce((total, n) => total + n, 0);
  return {
    files: listed.filter((t) => t.state !== 'failed').length + pending.length,
    bytes: sum(listed.map((t) => t.total)) + sum(pending.map((p) => p.file.size)),
  };
}
