/** Typed in-process events fired after every committed file mutation (push delivery subscribes). */
import { EventEmitter } from 'node:events';

/** What kind of change happened to a file (spec §6.2 file states). */
export type FileEventType = 'add' | 'remove' | 'update' | 'trash' | 'untrash';
/** What changed (spec §6.3; `children` is derived by subscribers from `parentIds`). */
export type FileChange = 'content' | 'properties' | 'parents' | 'permissions';

/** One committed mutation. */
export interface FileEvent {
  readonly type: FileEventType;
  readonly fileId: string;
  readonly changed: readonly FileChange[];
  /** Parents before and after the change, deduplicated (a folder's watchers get `children`). */
  readonly parentIds: readonly string[];
  /** E-mail of the user who made the change. */
  readonly byUser: string;
  /** Change-log sequence number recorded for this mutation. */
  readonly seq: number;
}

/** A listener; errors it throws are reported to stderr and never break the mutation. */
export type FileEventListener = (event: FileEvent) => void;

/** The emitter: `on` returns an unsubscribe function. */
export class FileEvents {
  readonly #emitter = new EventEmitter();

  constructor() {
    this.#emitter.setMaxListeners(0);
  }

  /** Subscribes; returns a function that unsubscribes. */
  on(listener: FileEventListener): () => void {
    const wrapped = (event: FileEvent) => {
      try {
        listener(event);
      } catch (e) {
        console.error('store-service: file event listener failed:', e);
      }
    };
    this.#emitter.on('file', wrapped);
    return () => this.#emitter.off('file', wrapped);
  }

  /** Fires an event; call only after the mutation is committed. */
  emit(event: FileEvent): void {
    this.#emitter.emit('file', event);
  }
}
