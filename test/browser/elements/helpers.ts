/// <reference types="mocha" />
/** Small typed helpers shared by the element tests. */
import '../../../src/elements/events.ts';

/** Resolves with the next `name` event fired at `target`, typed from `HTMLElementEventMap`. */
export function nextEvent<K extends keyof HTMLElementEventMap>(
  target: EventTarget,
  name: K,
): Promise<HTMLElementEventMap[K]> {
  return new Promise((resolve) =>
    target.addEventListener(name, (e) => resolve(e as HTMLElementEventMap[K]), { once: true }),
  );
}

/** A file of `size` zero bytes. */
export function makeFile(name: string, size: number, type = 'text/plain'): File {
  return new File([new Uint8Array(size)], name, { type });
}

/** Chooses `files` in a dropzone's file input (`folder` for "Browse folder"), as the browser's chooser does. */
export function chooseFiles(zone: Element, files: File[], inputId: 'files' | 'folder' = 'files'): void {
  const input = zone.shadowRoot!.getElementById(inputId) as HTMLInputElement;
  const dt = new DataTransfer();
  for (const f of files) dt.items.add(f);
  input.files = dt.files;
  input.dispatchEvent(new Event('change', { bubbles: true }));
}

/** Visible text of an element with runs of white space collapsed. */
export function text(node: Element | null | undefined): string {
  return (node?.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/**
 * "ResizeObserver loop completed with undelivered notifications" is the browser noting that it deferred some
 * resize notifications to the next frame (the virtualizer measures rows while laying them out); it is not a page
 * error, but mocha's global `onerror` would fail the running test on it. Every other error still fails tests.
 */
before(() => {
  // Mocha installs its own `onerror` when the run starts, so wrap it here rather than at import time.
  const mochaOnError = window.onerror;
  window.onerror = (message, ...rest) => {
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- an error event's message may be a string or an Event; either prints.
    if (String(message).includes('ResizeObserver loop')) return true;
    return mochaOnError ? mochaOnError.call(window, message, ...rest) : false;
  };
});
