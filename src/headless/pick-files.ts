/** The browser's file dialog as a promise, with no element of the page's own. */

/** What the dialog offers. */
export interface PickOptions {
  /** As `<input accept>`: `image/*,.pdf`. */
  accept?: string;
  /** Several files at once (default true). */
  multiple?: boolean;
}

/**
 * Opens the file dialog and resolves with the chosen files (none when it is closed without a choice). Call it inside
 * a click or key press: browsers open the dialog only for a user's gesture.
 */
export function pickFiles(options: PickOptions = {}): Promise<File[]> {
  const input = document.createElement('input');
  input.type = 'file';
  input.multiple = options.multiple ?? true;
  if (options.accept) input.accept = options.accept;
  return new Promise((resolve) => {
    input.addEventListener('change', () => resolve([...(input.files ?? [])]), { once: true });
    input.addEventListener('cancel', () => resolve([]), { once: true });
    input.click();
  });
}
