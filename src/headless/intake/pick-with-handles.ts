/**
 * "Browse files" and "Browse folder" through the File System Access pickers where the browser has them, so each
 * file comes with a `FileSystemFileHandle` the uploader keeps with its session: after a reload the upload resumes
 * without the user choosing the file again.
 */
import type { PickedFile } from './picked-file.ts';
import { loadIntake } from './lazy-intake.ts';

/** The pickers, which TypeScript's DOM lib does not declare. */
interface PickerWindow {
  showOpenFilePicker?: (options: {
    multiple?: boolean;
    types?: { accept: Record<string, string[]> }[];
  }) => Promise<FileSystemFileHandle[]>;
  showDirectoryPicker?: (options?: { mode?: 'read' }) => Promise<FileSystemDirectoryHandle>;
}

/** What a picker gave: the files, nothing (the user cancelled), or `fallback` (no picker here: use the input). */
export type PickOutcome = PickedFile[] | 'cancelled' | 'fallback';

/**
 * Opens the browser's picker; call it straight from the click, before awaiting anything (it needs the gesture).
 * Falls back (`fallback`) where there is no picker, and when it fails for any reason but the user's cancel — a
 * `SecurityError` in a cross-origin frame, a `TypeError` for an `accept` it cannot express, or Chromium refusing
 * pickers while automation intercepts file choosers (its `AbortError` says "Intercepted"): the input's chooser
 * still works there (its activation outlives the refusal).
 */
export async function pickWithHandles(
  kind: 'files' | 'folder',
  options: { multiple: boolean; accept: string },
): Promise<PickOutcome> {
  const w = globalThis as PickerWindow;
  const picker = kind === 'files' ? w.showOpenFilePicker : w.showDirectoryPicker;
  if (typeof picker !== 'function') return 'fallback';
  try {
    if (kind === 'folder') {
      const folder = await w.showDirectoryPicker!({ mode: 'read' });
      return await (await loadIntake()).collectFromHandle(folder);
    }
    const types = pickerTypes(options.accept);
    const handles = await w.showOpenFilePicker!({ multiple: options.multiple, ...(types && { types }) });
    return await Promise.all(
      handles.map(async (handle) => {
        const file = await handle.getFile();
        return { file, relativePath: file.name, handle };
      }),
    );
  } catch (error) {
    const e = error as Error;
    return e?.name === 'AbortError' && !/intercept/i.test(e.message) ? 'cancelled' : 'fallback';
  }
}

/**
 * `accept` (`.csv,image/*`) as the picker's types: MIME types as they are, extensions under a generic type. A token
 * the picker cannot take makes it throw a `TypeError`, and the input opens instead. The picker keeps its "all files"
 * choice, and the dropzone checks `accept` again on what comes back.
 */
function pickerTypes(accept: string): { accept: Record<string, string[]> }[] | undefined {
  const map: Record<string, string[]> = {};
  for (const token of accept.toLowerCase().split(',')) {
    const t = token.trim();
    if (t[0] === '.') (map['application/octet-stream'] ??= []).push(t);
    else if (t.includes('/')) map[t] = [];
  }
  return Object.keys(map).length ? [{ accept: map }] : undefined;
}
