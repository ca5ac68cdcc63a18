/**
 * What the stories' `play` functions share. Testing Library's queries stop at shadow roots, so `shadow(host)` gives
 * the queries of one element's shadow root (by role and accessible name, as a user finds things); `ready` waits until
 * every `store-*` element of the story, nested ones included, has rendered what it loads lazily (its language, rows);
 * `focused` reads focus through shadow roots. Each waits for a state, never for time.
 */
import { expect, waitFor, within } from 'storybook/test';

type Rendering = HTMLElement & { updateComplete: Promise<unknown> };

function storeElements(root: ParentNode): Rendering[] {
  const found: Rendering[] = [];
  for (const el of root.querySelectorAll('*')) {
    if (el.localName.startsWith('store-')) found.push(el as Rendering);
    if (el.shadowRoot) found.push(...storeElements(el.shadowRoot));
  }
  return found;
}

/** Waits until every `store-*` element under `root` (through shadow roots) has finished its pending update. */
export async function settled(root: ParentNode): Promise<void> {
  // An update can load a part that renders another element (the rows, a share step): settle until none is pending.
  for (let seen = -1, all = storeElements(root); seen !== all.length; seen = all.length, all = storeElements(root)) {
    await Promise.all(all.map((el) => el.updateComplete));
  }
}

/** The story's first `tag` element, once it and everything inside it has rendered. */
export async function ready<T extends HTMLElement = HTMLElement>(canvas: HTMLElement, tag: string): Promise<T> {
  const el = canvas.querySelector<T>(tag);
  await expect(el, `<${tag}> in the story`).not.toBeNull();
  await settled(canvas);
  return el!;
}

/** Testing Library queries inside `host`'s shadow root. */
export function shadow(host: Element) {
  return within(host.shadowRoot as unknown as HTMLElement);
}

/** An element inside `host`'s shadow root by CSS selector (parts, ids); fails when it is not there. */
export function part<T extends Element = HTMLElement>(host: Element, selector: string): T {
  const found = host.shadowRoot?.querySelector<T>(selector);
  if (!found) throw new Error(`no ${selector} in <${host.localName}>`);
  return found;
}

/** The focused element, following focus into shadow roots. */
function focused(): Element | null {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

/** Waits until the element the user sees focused is `el`. */
export async function expectFocus(el: Element): Promise<void> {
  await waitFor(() => expect(focused()).toBe(el));
}

/** The scheme and direction the element is drawn in. */
export function drawn(el: Element): { scheme: string; direction: string } {
  const style = getComputedStyle(el);
  return { scheme: style.colorScheme, direction: style.direction };
}

/** Collects the events of `type` that `target` fires from now on. */
export function record<T extends Event = CustomEvent>(target: EventTarget, type: string): T[] {
  const seen: T[] = [];
  target.addEventListener(type, (event) => seen.push(event as T));
  return seen;
}

/** A `drop` of `files` onto `target`, as a user's drag from the desktop ends. */
export function dropFiles(target: Element, files: File[]): void {
  const data = new DataTransfer();
  for (const file of files) data.items.add(file);
  for (const type of ['dragenter', 'dragover', 'drop'])
    target.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, composed: true, cancelable: true }));
}

/**
 * Presses `key` on the focused element, through shadow roots, as the browser delivers a key press (Testing Library's
 * keyboard sends it to `document.activeElement`, the outermost shadow host). Fires keydown and keyup.
 */
export function press(key: string): void {
  const target = focused() ?? document.body;
  for (const type of ['keydown', 'keyup'])
    target.dispatchEvent(new KeyboardEvent(type, { key, bubbles: true, composed: true, cancelable: true }));
}
