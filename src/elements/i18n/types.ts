import type { TaskState, UploadErrorCode, RetryInfo } from '../../uploader/index.ts';
import type { RejectReason } from '../events.ts';

/** Counts the summary line is built from. */
export interface SummaryCounts {
  total: number;
  done: number;
  failed: number;
  active: number;
  /** Already formatted byte amounts (`Intl`), so translators only place them. */
  sent: string;
  size: string;
}

/**
 * Every word the elements show. Functions receive already formatted numbers and names; an app passes a partial
 * object (`el.i18n = { actions: { pause: n => … } }`) that is merged over the defaults of the page's language.
 */
export interface StoreI18n {
  /** BCP 47 tag used for `Intl` number, size and duration formatting. */
  locale: string;
  dropzone: {
    label: string;
    prompt: string;
    dragOver: string;
    browse: string;
    browseFolder: string;
    rejectedTitle: string;
    dismiss: string;
    reject: Record<RejectReason, (name: string, limit: string) => string>;
  };
  list: {
    label: string;
    empty: string;
    summary: (c: SummaryCounts) => string;
    progressText: (percent: number, sent: string, size: string) => string;
    /** Accessible name of the bar of all uploads together, in the list's header. */
    totalProgress: string;
    /** The header's buttons that act on every upload of the list, and the name of their group. */
    bulk: {
      label: string;
      pauseAll: string;
      resumeAll: string;
      retryFailed: string;
      cancelAll: string;
      clearFinished: string;
    };
    /** Places a rate that already carries its unit and "per second" (`1.5 MB/s`, formatted by `Intl`). */
    speed: (rate: string) => string;
    timeLeft: (duration: string) => string;
    /** State text of a done task that was converted to a native kind (already translated). */
    converted: (kind: string) => string;
    /** Read for the size of an image resized before upload: the chosen file's size and the size sent (formatted). */
    resized: (original: string, sent: string) => string;
    /** Tooltip of a finished row's download button, whose accessible name is `download(name)`. */
    downloadButton: string;
    download: (name: string) => string;
    /** Accessible name of a converted file's "download as" choice; its first option reads `downloadAsPrompt`. */
    downloadAs: (name: string) => string;
    downloadAsPrompt: string;
    downloadFailed: (name: string) => string;
  };
  states: Record<TaskState, string>;
  retryCauses: Record<RetryInfo['cause'], string>;
  retrying: (cause: string, attempt: number, wait: string) => string;
  errors: Record<UploadErrorCode, string>;
  actions: {
    pause: (name: string) => string;
    resume: (name: string) => string;
    cancel: (name: string) => string;
    retry: (name: string) => string;
    remove: (name: string) => string;
    rechoose: (name: string) => string;
    discard: (name: string) => string;
  };
  /** Short visible button texts; each must appear inside the matching `actions` name (WCAG 2.5.3). */
  buttons: Record<'pause' | 'resume' | 'cancel' | 'retry' | 'remove' | 'rechoose' | 'discard', string>;
  announce: {
    start: (name: string) => string;
    milestone: (name: string, percent: number) => string;
    done: (name: string) => string;
    failed: (name: string, reason: string) => string;
    many: (count: number) => string;
  };
  conversion: {
    label: string;
    keep: string;
    kinds: Record<string, string>;
    ocrLanguage: string;
    loading: string;
    unavailable: string;
  };
  uploader: {
    convertAll: string;
    perFileTitle: string;
    uploadPending: (count: number) => string;
    clearPending: string;
    shareTitle: string;
    shareEmails: string;
    shareEmailsHint: string;
    shareRole: string;
    roles: { reader: string; writer: string };
    shareButton: (count: number) => string;
    shared: (count: number) => string;
    shareFailed: (failed: number) => string;
    shareInvalid: (value: string) => string;
    interruptedTitle: string;
    interruptedItem: (name: string, stored: string, size: string) => string;
    /** Resumes every unfinished upload whose file can be read again without a dialog. */
    resumeAll: string;
    /** An unfinished upload whose file is no longer the one it began with: not resumed. */
    fileChanged: (name: string) => string;
    pendingValidity: string;
    noUploader: string;
  };
}

/** A partial i18n object: any subset of keys at any depth. */
export type StoreI18nOverrides = DeepPartial<StoreI18n>;

/** Optional at every depth; functions are replaced whole. */
export type DeepPartial<T> = {
  [K in keyof T]?: T[K] extends (...args: never[]) => unknown ? T[K] : T[K] extends object ? DeepPartial<T[K]> : T[K];
};
