/** The dropzone's `accept`, `multiple`, size and count rules as one pure function (loaded with `intake.ts`). */
import type { PickedFile, RejectedFile } from './picked-file.ts';

/** The rules; an unset (or 0) rule allows everything. */
export interface Restrictions {
  /** Same syntax as `<input accept>`: `.csv`, `image/*`, `application/pdf`, comma-separated. */
  accept?: string;
  multiple?: boolean;
  maxFileSize?: number;
  minFileSize?: number;
  /** Files allowed in total, counting `alreadyAdded`. */
  maxFiles?: number;
  alreadyAdded?: number;
  /** Bytes allowed in total, counting `alreadyAddedBytes`. */
  maxTotalSize?: number;
  alreadyAddedBytes?: number;
}

/**
 * Splits files into accepted and rejected; each rejection carries the first rule it broke. Files are taken in order:
 * once one would pass `maxTotalSize`, a later smaller one may still fit.
 */
export function applyRestrictions(
  files: readonly PickedFile[],
  rules: Restrictions,
): { accepted: PickedFile[]; rejected: RejectedFile[] } {
  const accepted: PickedFile[] = [];
  const rejected: RejectedFile[] = [];
  const patterns = (rules.accept ?? '')
    .split(',')
    .map((p) => p.trim().toLowerCase())
    .filter(Boolean);
  const room = limit(rules.maxFiles) - (rules.alreadyAdded ?? 0);
  let bytesLeft = limit(rules.maxTotalSize) - (rules.alreadyAddedBytes ?? 0);
  for (const picked of files) {
    const { size } = picked.file;
    if (patterns.length && !matchesAccept(picked.file, patterns)) rejected.push({ ...picked, reason: 'type' });
    else if (size > limit(rules.maxFileSize)) rejected.push({ ...picked, reason: 'size' });
    else if (rules.minFileSize && size < rules.minFileSize) rejected.push({ ...picked, reason: 'min-size' });
    else if (!rules.multiple && accepted.length >= 1) rejected.push({ ...picked, reason: 'multiple' });
    else if (accepted.length >= room) rejected.push({ ...picked, reason: 'count' });
    else if (size > bytesLeft) rejected.push({ ...picked, reason: 'total-size' });
    else {
      accepted.push(picked);
      bytesLeft -= size;
    }
  }
  return { accepted, rejected };
}

/** A positive limit, or no limit. */
function limit(value: number | undefined): number {
  return value !== undefined && value > 0 ? value : Infinity;
}

/** True when the file's name or MIME type matches one `accept` pattern. */
function matchesAccept(file: File, patterns: readonly string[]): boolean {
  const name = file.name.toLowerCase();
  const type = file.type.toLowerCase().split(';')[0].trim();
  return patterns.some((p) => {
    if (p.startsWith('.')) return name.endsWith(p);
    if (p.endsWith('/*')) return type.startsWith(p.slice(0, -1));
    return type === p;
  });
}
