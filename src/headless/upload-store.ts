/**
 * The framework-free store every binding wraps: one uploader, its state as immutable snapshots for
 * `useSyncExternalStore`, `shallowRef`s, Svelte stores and signals, and the commands a UI's buttons call.
 */
import type { AddOptions, UploaderInput, Uploader, UploaderSnapshot, UploadTask } from '../uploader/index.ts';
import { EMPTY_UPLOADS, type TaskView, type UploadsSnapshot } from './task-view.ts';
import { UploadsFollower } from './uploads-follower.ts';
import { addOptionsOf, type PickedFile } from './intake/picked-file.ts';
import type { PickedAddOptions } from './intake/add-picked.ts';
import { loadedIntake, loadIntake } from './intake/lazy-intake.ts';
import { UploaderOwner } from './uploader-owner.ts';
import { holdingNavigation } from '../uploader/page/navigation-hold.ts';

/** Whether this code runs where an uploader can live: a browser page (not server rendering). */
export const inBrowser = (): boolean => typeof window !== 'undefined' && typeof document !== 'undefined';

/** The picture a UI draws, built once per change of the uploader's snapshot. */
function view(s: UploaderSnapshot): UploadsSnapshot {
  if (s.tasks.length === 0 && s.online) return EMPTY_UPLOADS;
  let active = 0;
  for (const t of s.tasks) if (t.state !== 'done' && t.state !== 'failed' && t.state !== 'cancelled') active++;
  return Object.freeze({
    tasks: s.tasks as readonly TaskView[],
    totalBytes: s.totalBytes,
    sentBytes: s.sentBytes,
    online: s.online,
    active,
  });
}

/**
 * One uploader and what a UI needs of it: the page's one store of the uploads (`UploadsFollower`, which the elements
 * stand on too), the uploader it follows created on first need in a browser (never on the server), and the commands a
 * UI's buttons call. `subscribe` and `getSnapshot` are bound (pass them as they are); the snapshot is the same object
 * until something changes. Leaving does not stop the uploads (`destroy()` does that).
 */
export class UploadStore {
  #options?: UploaderInput;
  /** Makes the uploader with the latest options' token getter and hook: a new getter each render is no new uploader. */
  readonly #owner = new UploaderOwner(() => {
    const options = this.#options;
    if (!options || !inBrowser()) return undefined;
    const latest = () => this.#options ?? options;
    const hook = options.beforeUpload;
    return {
      ...options,
      getAccessToken: () => {
        const { getAccessToken, client } = latest();
        return getAccessToken ? getAccessToken() : (client?.accessToken() ?? '');
      },
      beforeUpload: hook && ((file, context) => (latest().beforeUpload ?? hook)(file, context)),
    };
  });
  readonly #follower = new UploadsFollower();
  #snapshot = EMPTY_UPLOADS;
  /** The uploader's snapshot `#snapshot` was built from. */
  #seen: UploaderSnapshot | undefined;
  #onDestroy?: () => void;

  /**
   * `options` are the first; `setOptions` swaps them, so a new token getter each render is used, not a new uploader.
   * Given an `uploader` instead, the store follows that one and creates none.
   */
  constructor(options: UploaderInput | undefined, onDestroy?: () => void, uploader?: Uploader) {
    this.#options = options;
    this.#onDestroy = onDestroy;
    this.#follower.follow(uploader);
  }

  /** Keeps `options` as the latest: the uploader asks their `getAccessToken` (and `beforeUpload`) from now on. */
  setOptions(options: UploaderInput): void {
    const before = this.#options;
    this.#options = options;
    // The app's `account` changed and its client is given: the one call moves this store's uploader and the
    // client's watchers (without a client, another account is another store: `optionsKey`).
    if (options.client && before && before.account !== options.account)
      this.accountChange = options.client.accountChanged(options.account);
    // Awaiting it is the app's choice: a failure nobody awaits is not an unhandled rejection.
    this.accountChange.catch(() => undefined);
  }

  /** The latest account change made through the client; resolves once every part bound to it has moved. */
  accountChange: Promise<void> = Promise.resolve();

  /** The uploader, created on first use; `undefined` on the server. */
  get uploader(): Uploader | undefined {
    return this.#ensureUploader();
  }

  #ensureUploader(): Uploader | undefined {
    if (!this.#follower.uploader) this.#follower.follow(this.#owner.uploader);
    return this.#follower.uploader;
  }

  /** Adds a listener of changes; returns its removal. The first listener creates the uploader (in a browser). */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.#ensureUploader();
    return this.#follower.subscribe(listener);
  };

  /** The current snapshot: the same object until the uploader's changes. */
  readonly getSnapshot = (): UploadsSnapshot => {
    const current = this.#follower.snapshot;
    if (current !== this.#seen) {
      this.#seen = current;
      this.#snapshot = current ? view(current) : EMPTY_UPLOADS;
    }
    return this.#snapshot;
  };

  /** What the server renders, and the first render in the browser hydrates against: always the empty snapshot. */
  readonly getServerSnapshot = (): UploadsSnapshot => EMPTY_UPLOADS;

  /**
   * Adds files (a `FileList`, an array, one file) or picked files (a drop target's, with their folder paths and
   * handles); returns their tasks (none on the server). `options` apply to each, over what a picked file brings.
   */
  add(
    files: Iterable<File | Blob | PickedFile> | ArrayLike<File | Blob | PickedFile> | File | Blob,
    options?: AddOptions,
  ): UploadTask[] {
    const uploader = this.uploader;
    if (!uploader) return [];
    const list = files instanceof Blob ? [files] : Array.from(files as Iterable<File | Blob | PickedFile>);
    return list.map((item) =>
      item instanceof Blob
        ? uploader.add(item, options)
        : uploader.add(item.file, { ...addOptionsOf(item), ...options }),
    );
  }

  /**
   * Adds picked files as `<store-dropzone>` and `<store-uploader>` do (the intake's last step, loaded on first use):
   * with their folder paths and handles, a conversion target (one for all or chosen per file; a file's own, from a
   * `beforeUpload` hook, wins) and its OCR language, into `parentId`, beside a drop's empty `folders`, in slices so
   * that 10,000 files never make one long task; `onReject` hears of files the uploader's own `beforeUpload` refuses.
   * Resolves once every file is the uploader's (at once on the server, where nothing is added).
   */
  addPicked(files: readonly PickedFile[], options?: PickedAddOptions): Promise<void> {
    const uploader = this.uploader;
    // Leaving is confirmed from the choice until the files are the uploader's (`uploader/page/navigation-hold.ts`).
    const add = async () => uploader && (loadedIntake() ?? (await loadIntake())).addPicked(uploader, files, options);
    return holdingNavigation(add());
  }

  /** One task's commands, by ID; unknown IDs are ignored. */
  pause(id: string): void {
    this.uploader?.task(id)?.pause();
  }
  resume(id: string): void {
    this.uploader?.task(id)?.resume();
  }
  cancel(id: string): void {
    this.uploader?.task(id)?.cancel();
  }
  retry(id: string): void {
    this.uploader?.task(id)?.retry();
  }
  /** Drops an ended task from the list. */
  remove(id: string): void {
    this.uploader?.remove(id);
  }
  pauseAll(): void {
    this.uploader?.pauseAll();
  }
  resumeAll(): void {
    this.uploader?.resumeAll();
  }
  cancelAll(): void {
    this.uploader?.cancelAll();
  }
  retryFailed(): void {
    this.uploader?.retryFailed();
  }

  /** Ends the uploader (its page's part of the uploads) and forgets the store; the next use makes a new one. */
  destroy(): void {
    const uploader = this.#follower.uploader;
    const own = this.#owner.current;
    this.#follower.follow(undefined);
    this.#owner.destroy();
    // An uploader the store was given (`storeFor`) ends with it too.
    if (uploader !== own) uploader?.destroy();
    this.#onDestroy?.();
    this.#follower.notify();
  }
}
