/**
 * What the dropzone does with files once they arrive, as one chunk that loads at the first sign of intent on a
 * dropzone (pointer, focus, drag) or with the first files, not with the page: walking dropped folders, checking the
 * restrictions, and handing files to the uploader in slices. It imports nothing the page's first chunk holds, so a
 * bundler keeps it one file.
 */
export { applyRestrictions } from './restrictions.ts';
export { collectFromHandle, walkGrabbed } from './walk-folders.ts';
export { addPicked } from './add-picked.ts';
export { throughHook } from './through-hook.ts';
