import type { Uploader, UploaderEventMap } from '../contract/types.ts';

/** The detail an uploader event of type `K` carries. */
export type UploaderEventDetail<K extends keyof UploaderEventMap> =
  UploaderEventMap[K] extends CustomEvent<infer D> ? D : never;

/**
 * An `EventTarget` whose listeners and dispatches are typed by `UploaderEventMap`, the one list of the uploader's
 * event names and details (as the elements' `events.ts` is theirs): `emit('progress', snapshot)` cannot name an event
 * that does not exist or give it the wrong detail.
 */
export class UploaderEvents extends EventTarget {
  /** Dispatches the `type` event with `detail`. */
  protected emit<K extends keyof UploaderEventMap>(type: K, detail: UploaderEventDetail<K>): void {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }

  override addEventListener<K extends keyof UploaderEventMap>(
    type: K | string,
    listener: ((this: Uploader, event: UploaderEventMap[K]) => void) | EventListenerOrEventListenerObject | null,
    options?: boolean | AddEventListenerOptions,
  ): void {
    super.addEventListener(type, listener as EventListenerOrEventListenerObject | null, options);
  }

  override removeEventListener<K extends keyof UploaderEventMap>(
    type: K | string,
    listener: ((this: Uploader, event: UploaderEventMap[K]) => void) | EventListenerOrEventListenerObject | null,
    options?: boolean | EventListenerOptions,
  ): void {
    super.removeEventListener(type, listener as EventListenerOrEventListenerObject | null, options);
  }
}
