import { emit } from '../events.ts';
import type { StoreI18n } from '../i18n/types.ts';
import type { ShareFunction } from './share.ts';
import type { ShareStepHost } from './share-step.ts';

/** What the share step reads and writes on `<store-uploader>`, as live readers. */
export interface ShareSource {
  words(): StoreI18n['uploader'];
  fileIds(): string[];
  shareFiles(): ShareFunction | undefined;
  baseUrl(): string;
  token(): string | Promise<string>;
  /** The current error and message. */
  shown(): { error: string; message: string };
  show(error: string, message: string): void;
}

/** The share step's view of an uploader element: live reads of its state, and where results go. */
export function shareHostOf(element: HTMLElement, source: ShareSource): ShareStepHost {
  return {
    get words() {
      return source.words();
    },
    get error() {
      return source.shown().error;
    },
    get message() {
      return source.shown().message;
    },
    get fileIds() {
      return source.fileIds();
    },
    get shareFiles() {
      return source.shareFiles();
    },
    get baseUrl() {
      return source.baseUrl();
    },
    getAccessToken: () => source.token(),
    show: (error, message) => source.show(error, message),
    complete: (detail) => void emit(element, 'store-share-complete', detail),
  };
}
