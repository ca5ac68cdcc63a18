import { plural } from './plural.ts';
import type { StoreI18nOverrides } from './types.ts';

/**
 * The English words of rows, their header, the share step and the unfinished uploads: loaded with the first of
 * them (`loadEnglishLater`), not with the page. `en-up-front.ts` holds the rest; together they are `en`.
 */
export const enLater = {
  list: {
    summary: (c) =>
      `${c.done} of ${c.total} uploaded, ${c.sent} of ${c.size}` +
      (c.active ? `, ${c.active} in progress` : '') +
      (c.failed ? `, ${c.failed} failed` : ''),
    progressText: (percent, sent, size) => `${percent}% (${sent} of ${size})`,
    speed: (rate) => rate,
    totalProgress: 'Total progress',
    bulk: {
      label: 'All uploads',
      pauseAll: 'Pause all',
      resumeAll: 'Resume all',
      retryFailed: 'Retry failed',
      cancelAll: 'Cancel all',
      clearFinished: 'Clear finished',
    },
    timeLeft: (duration) => `${duration} left`,
    converted: (kind) => `Uploaded as ${kind}`,
    resized: (original, sent) => `${original}, resized to ${sent}`,
    downloadButton: 'Download',
    download: (name) => `Download ${name}`,
    downloadAs: (name) => `Download ${name} as`,
    downloadAsPrompt: 'Download as…',
    downloadFailed: (name) => `${name} could not be downloaded.`,
  },
  states: {
    queued: 'Waiting',
    uploading: 'Uploading',
    paused: 'Paused',
    retrying: 'Retrying',
    verifying: 'Verifying',
    done: 'Uploaded',
    failed: 'Failed',
    cancelled: 'Cancelled',
    interrupted: 'Interrupted',
  },
  retryCauses: {
    'server-error': 'the service had an error',
    network: 'the connection dropped',
    stall: 'the upload stalled',
    'rate-limit': 'too many requests',
    offline: 'you are offline',
    'session-expired': 'the upload session expired',
    auth: 'signing in again',
  },
  retrying: (cause, attempt, wait) => `Retrying (try ${attempt}) because ${cause}${wait ? `, in ${wait}` : ''}`,
  actions: {
    pause: (name) => `Pause ${name}`,
    resume: (name) => `Resume ${name}`,
    cancel: (name) => `Cancel ${name}`,
    retry: (name) => `Retry ${name}`,
    remove: (name) => `Remove ${name} from the list`,
    rechoose: (name) => `Choose file again for ${name}`,
    discard: (name) => `Discard ${name}`,
  },
  buttons: {
    pause: 'Pause',
    resume: 'Resume',
    cancel: 'Cancel',
    retry: 'Retry',
    remove: 'Remove',
    rechoose: 'Choose file',
    discard: 'Discard',
  },
  uploader: {
    shareTitle: 'Share with',
    shareEmails: 'E-mail addresses or domains',
    shareEmailsHint: 'Separate several with commas.',
    shareRole: 'Access',
    roles: { reader: 'Can view', writer: 'Can edit' },
    shareButton: (count) => `Share ${plural('en', count, { one: '# file', other: '# files' })}`,
    shared: (count) => `Shared with ${plural('en', count, { one: '# person', other: '# people' })}.`,
    shareFailed: (failed) => `${plural('en', failed, { one: '# grant', other: '# grants' })} failed.`,
    shareInvalid: (value) => `"${value}" is neither an e-mail address nor a domain.`,
    interruptedTitle: 'Unfinished uploads',
    interruptedItem: (name, stored, size) => `${name}: ${stored} of ${size} stored`,
    resumeAll: 'Resume all',
    fileChanged: (name) => `${name} changed since its upload began: choose it again or discard it.`,
  },
} satisfies StoreI18nOverrides;
