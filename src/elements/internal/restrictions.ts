/** The dropzone's `accept`, `multiple`, `max-file-size` and `max-files` rules as one pure function. */
import type { PickedFile, RejectedFile } from '../events.ts';

/** The rules; an unset rule allows everything. */
export interface Restrictions {
  /** Same syntax as `<input accept>`: `.csv`, `image/*`, `application/pdf`, comma-separated. */
  accept?: string;
  multiple?: boolean;
  maxFileSize?: number;
  /** Files allowed in total, counting `alreadyAdded`. */
  maxFiles?: number;
  alreadyAdded?: number;
}

/** Splits files into accepted and rejected; each rejection carries the first rule it broke. */
export function applyRestrictions(files: readonly PickedFile[], rules: Restrictions): { accepted: PickedFile[]; rejected: RejectedFile[] } {
  const accepted: PickedFile[] = [];
  const rejected: RejectedFile[] = [];
  const patterns = (rules.accept ?? '').split(',').map((p) => p.trim().toLowerCase()).filter(Boolean);
  const room = rules.maxFiles !== undefined && rules.maxFiles > 0 ? Math.max(0, rules.maxFiles - (rules.alreadyAdded ?? 0)) : Infinity;
  for (const picked of files) {
    if (patterns.length && !matchesAccept(picked.file, patterns)) rejected.push({ ...picked, reason: 'type' });
    else if (rules.maxFileSize !== undefined && rules.maxFileSize > 0 && picked.file.size > rules.maxFileSize) rejected.push({ ...picked, reason: 'size' });
    else if (!rules.multiple && accepted.length >= 1) rejected.push({ ...picked, reason: 'multiple' });
    else if (accepted.length >= room) rejected.push({ ...picked, reason: 'count' });
    else accepted.push(picked);
  }
  return { accepted, rejected };
}

/** True when the file's name or MIME type matches one `accept` pattern. */
function matchesAccept(file: File, patterns: readonly string[]): boolean {
  const name = file.name.toLowerCase();
  const type = file.type.toLowerCase().split(';')[0]!.trim();
  return patterns.some((p) => {
    if (p.startsWith('.')) return name.endsWith(p);
    if (p.endsWith('/*')) return type.startsWith(p.slice(0, -1));
    return type === p;
  });
}
