/**
 * Main thread: holds the page's navigation while a chosen file has not yet reached the engine. A file the user chose
 * lives in the page until the worker holds it; a link clicked or a form submitted in that instant would unload the
 * page and lose the file without a word. While anything is held, `beforeunload` asks the browser to confirm leaving
 * (the browser shows its own "leave site?" prompt, after a user gesture only; Playwright reports it as a dialog). The hold
 * runs from the choice to the engine's answer, in two overlapping parts: the elements (and the headless store's
 * `addPicked`) take it in the task of the pick, drop or paste and keep it until they have called the uploader's `add`
 * (their code, or the uploader itself, may still be loading); `add` takes it at once and keeps it until the engine
 * has answered for the file. Posting is not enough: a file posted to the site's shared worker while its script still
 * loads is lost when the page leaves first (`test/e2e/handoff.spec.ts` holds the script back to show it).
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
