import type { runBeforeUpload } from './before-upload.ts';

/**
 * Loads the `beforeUpload` runner (`runBeforeUpload`) on first use: the facade and the elements share this one
 * chunk, which pages without a hook never download.
 */
export function loadBeforeUpload(): Promise<typeof runBeforeUpload> {
  return import('./before-upload.ts').then((m) => m.runBeforeUpload);
}
