import { plural } from './plural.ts';
import type { StoreI18nOverrides } from './types.ts';
import { DOCUMENT_MIME, PRESENTATION_MIME, SCRIPT_MIME, SPREADSHEET_MIME } from '../../protocol/index.ts';

/**
 * The English words the elements show before anyone adds a file: the drop area, its refusals, the empty list, the
 * live region's announcements (with the error words they quote), the conversion choices and the pending files. The
 * rest (`en-later.ts`) loads with the first row, the share step or the unfinished uploads, so a page pays for words
 * when it shows them. Together they are `en`.
 */
export const enUpFront = {
  locale: 'en',
  dropzone: {
    label: 'Upload files',
    prompt: 'Drop files or folders here, paste them, or',
    dragOver: 'Release to add the files',
    browse: 'Browse files',
    browseFolder: 'Browse folder',
    rejectedTitle: 'Not added',
    dismiss: 'Dismiss',
    reject: {
      type: (name) => `${name}: this type of file is not accepted.`,
      size: (name, limit) => `${name}: larger than the limit of ${limit}.`,
      count: (name, limit) => `${name}: at most ${limit} files can be added.`,
      multiple: (name) => `${name}: only one file can be added.`,
      'min-size': (name, limit) => `${name}: smaller than the minimum of ${limit}.`,
      'total-size': (name, limit) => `${name}: the files together would exceed the limit of ${limit}.`,
      skipped: (name) => `${name}: skipped by this page.`,
      'hook-error': (name, message) => `${name}: could not be prepared for upload (${message}).`,
    },
  },
  list: {
    label: 'Uploads',
    empty: 'No uploads yet.',
  },
  errors: {
    auth: 'You are not signed in, or your session ended.',
    forbidden: 'You are not allowed to upload here.',
    'not-found': 'The file or folder no longer exists.',
    'bad-request': 'The service refused the upload request.',
    'too-large': 'The file is too large for the service.',
    conversion: 'This file cannot be converted to the chosen kind.',
    integrity: 'The stored file does not match what was sent.',
    'retries-exhausted': 'The upload kept failing and was stopped.',
    'quota-exceeded': 'Your storage is full: this file does not fit in your quota.',
    offline: 'You are offline.',
    cancelled: 'The upload was cancelled.',
    'file-changed': 'The file changed on disk while it was uploading.',
    rejected: 'This file was refused before it was uploaded.',
    unknown: 'Something went wrong.',
  },
  announce: {
    start: (name) => `Uploading ${name}.`,
    milestone: (name, percent) => `${name}: ${percent}% uploaded.`,
    done: (name) => `${name} uploaded.`,
    failed: (name, reason) => `${name} failed: ${reason}`,
    many: (count) => `${plural('en', count, { one: '# upload', other: '# uploads' })} changed state.`,
  },
  conversion: {
    label: 'Store as',
    keep: 'Keep as is',
    kinds: {
      [DOCUMENT_MIME]: 'Document',
      [SPREADSHEET_MIME]: 'Spreadsheet',
      [PRESENTATION_MIME]: 'Presentation',
      [SCRIPT_MIME]: 'Script project',
    },
    ocrLanguage: 'Text recognition language',
    loading: 'Loading conversions…',
    unavailable: 'Conversions could not be loaded; files are kept as is.',
  },
  uploader: {
    convertAll: 'Convert files to native formats where possible',
    perFileTitle: 'Choose how each file is stored',
    uploadPending: (count) => `Upload ${plural('en', count, { one: '# file', other: '# files' })}`,
    clearPending: 'Clear',
    pendingValidity: 'Wait until the uploads have finished.',
    noUploader: 'No uploader: set base-url or the uploader property.',
  },
} satisfies StoreI18nOverrides;
