/**
 * Main thread: holds the page's navigation while a chosen file has not yet reached the engine. A file the user chose
 * lives in the page until the worker holds it; a link clicked or a form submitted in that instant would unload the
 * page and lose the file without a word. While anything is held, `beforeunload` asks the browser to confirm leaving
 * (the browser shows its own "leave site?" prompt, after a user gesture only, and automated browsers none). The elements
 * hold it from the pick or drop itself until the files are given to the uploader's `add`, which may still be loading;
 * from there the uploader posts them to its worker within a few microtasks (it does not wait for the worker's answer).
 */
let held = 0;

const confirmLeave = (event: BeforeUnloadEvent): void => {
  event.preventDefault();
};

/** Holds navigation until the returned function is called (calling it again does nothing). */
export function holdNavigation(): () => void {
  if (typeof addEventListener !== 'function') return () => undefined;
  if (held++ === 0) addEventListener('beforeunload', confirmLeave);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--held === 0) removeEventListener('beforeunload', confirmLeave);
  };
}

/** `work`, with navigation held until it settles. */
export function holdingNavigation<T>(work: Promise<T>): Promise<T> {
  const release = holdNavigation();
  return work.finally(release);
}
