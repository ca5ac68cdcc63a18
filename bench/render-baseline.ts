/**
 * The render bench's baseline: a page with a plain 10,000-row list built without the kit — every row in the DOM, one
 * fixed 3rem row height in a 24rem scroller (as `<store-progress-list>`), each row with what a kit row shows (an icon,
 * the name, the size, a progress bar, the state and two buttons) — and nothing uploading. It is scrolled and driven
 * by keyboard with the same steps as the kit's list (`render-steps.ts`): what a long task costs here at a given load
 * is the floor any page has on this machine. `RENDER_BASELINE=uploading` scrolls it while the same 10,000 files upload
 * through the kit's engine (no kit element on the page): the floor of a list beside those uploads.
 */
import { PAGE_STEPS } from './render-steps.ts';

const STYLE = `
  body { font: 14px system-ui, sans-serif; margin: 1rem; }
  .list { display: block; max-block-size: 24rem; overflow: auto; contain: strict; block-size: 24rem; border: 1px solid #ccc; border-radius: 0.5rem; }
  .pad { contain: strict; }
  .row { display: grid; grid-template-columns: 2rem minmax(0, 1fr) 6rem 8rem 7rem auto; align-items: center; gap: 0.5rem; block-size: 3rem; box-sizing: border-box; padding: 0 0.75rem; border-block-end: 1px solid #eee; contain: layout paint; }
  .row:focus { outline: 2px solid #36c; outline-offset: -2px; }
  .icon { inline-size: 1.5rem; block-size: 1.5rem; }
  .name { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
  .size, .state { color: #666; font-size: 0.8125rem; white-space: nowrap; }
  .track { display: flex; block-size: 0.375rem; background: #eee; border-radius: 999px; overflow: hidden; }
  .bar { background: #36c; }
  button { inline-size: 2rem; block-size: 2rem; border-radius: 999px; border: 0; background: transparent; }
`;

const ICON = `<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M6 2h9l5 5v15H6z" fill="none" stroke="currentColor" stroke-width="1.5"/></svg>`;

/** One row's markup (row i of n). */
const ROW = `'<div class="row" role="listitem" tabindex="-1" aria-posinset="' + (i + 1) + '" aria-setsize="' + n + '">${ICON}<span class="name"></span><span class="size"></span><span class="track" role="progressbar"><span class="bar"></span></span><span class="state"></span><span><button aria-label="Pause">⏸</button><button aria-label="Cancel">✕</button></span></div>'`;

/**
 * Runs in the page: builds the list (setup, not counted), then the same scroll and keyboard steps as the kit's. By
 * default the list is windowed by hand, as little as a page can do: the rows in view and four either side (17, as the
 * kit's) between two pads, their text and bar set again when a scroll moves the range. `all-rows` puts all 10,000
 * rows in the DOM instead (a naive page: each 25-screen jump then costs more main-thread CPU than the kit's).
 */
const PAGE_SCRIPT = `${PAGE_STEPS}
globalThis.runRenderBench = async ({ rows: n, baseline }) => {
  enter('setup');
  const list = document.querySelector('.list');
  const fill = (row, i) => {
    const done = i % 3 === 0;
    row.setAttribute('aria-posinset', i + 1);
    row.children[1].textContent = 'f' + String(i).padStart(5, '0') + '.txt';
    row.children[2].textContent = 7 + String(i).length + ' B';
    row.children[3].setAttribute('aria-valuenow', done ? 100 : 40);
    row.children[3].firstChild.style.inlineSize = (done ? 100 : 40) + '%';
    row.children[4].textContent = done ? 'Done' : 'Uploading';
  };
  const windowed = baseline !== 'all-rows';
  const all = [];
  for (let i = 0; i < (windowed ? 17 : n); i++) all.push(${ROW});
  list.innerHTML = (windowed ? '<div class="pad"></div>' : '') + all.join('') + (windowed ? '<div class="pad"></div>' : '');
  const rowEls = [...list.querySelectorAll('.row')];
  const rowHeight = rowEls[0].offsetHeight;
  let first = -1;
  const place = () => {
    const next = Math.max(0, Math.min(n - rowEls.length, Math.floor(list.scrollTop / rowHeight) - 4));
    if (next === first) return;
    first = next;
    list.firstChild.style.blockSize = first * rowHeight + 'px';
    list.lastChild.style.blockSize = (n - first - rowEls.length) * rowHeight + 'px';
    rowEls.forEach((row, k) => fill(row, first + k));
  };
  if (windowed) { place(); list.addEventListener('scroll', place); } else rowEls.forEach(fill);
  // The rows around the view: what the steps look at (10,000 rectangles a step would be the bench's own work).
  const near = () => { if (windowed) return rowEls; const i = Math.floor(list.scrollTop / rowHeight); return rowEls.slice(Math.max(0, i - 4), i + 13); };
  list.addEventListener('keydown', (e) => {
    if (e.key !== 'Home' && e.key !== 'End') return;
    e.preventDefault();
    list.scrollTop = e.key === 'Home' ? 0 : list.scrollHeight;
    if (windowed) place();
    (e.key === 'Home' ? near()[0] : near().at(-1)).focus();
  });
  // 'uploading': the same 10,000 small files go up through the kit's engine (no element of the kit on the page), so
  // the plain list scrolls beside the same uploads as the kit's list: the floor of that case.
  let uploader;
  let t0 = 0;
  if (baseline === 'uploading') {
    const { createUploader } = await import('/kit/store-upload-kit.js');
    uploader = createUploader({ baseUrl: location.origin, getAccessToken: () => 'dev-token-alice', concurrency: 6 });
    await uploader.interrupted();
    const files = Array.from({ length: n }, (_, i) => new File(['file ' + i + '\\n'], 'f' + String(i).padStart(5, '0') + '.txt', { type: 'text/plain' }));
    enter('add');
    t0 = performance.now();
    for (let i = 0; i < n; i += 100) { for (const f of files.slice(i, i + 100)) uploader.add(f); await frame(); }
  } else {
    await frame();
    await frame();
    await pause(1000);
  }
  enter('scroll');
  const { minVisibleRows, maxRenderedRows } = await scrollToEnd(list, near);
  enter('keyboard');
  await homeEnd(document, list, near, n);
  let allDoneMs = 0;
  if (uploader) {
    enter('upload');
    await until(() => uploader.snapshot.tasks.every((t) => t.state === 'done'), 'all done');
    allDoneMs = performance.now() - t0;
    uploader.destroy();
  }
  enter('end');
  await frame();
  await pause(200);
  return { addMs: 0, minVisibleRows, maxRenderedRows, lastRowFocused: true, allDoneMs, origin: performance.timeOrigin, longTasks, phases, frames, host: baseline === 'all-rows' ? 'none, all rows' : baseline === 'uploading' ? 'none, windowed, uploading through the kit' : 'none, windowed' };
};
`;

export const BASELINE_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>render bench baseline</title>
<style>${STYLE}</style></head><body><div class="list" role="list" tabindex="-1" aria-label="Uploads"></div>
<script>${PAGE_SCRIPT}</script></body></html>`;
