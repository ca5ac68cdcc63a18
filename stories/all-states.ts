/** One task in every state the list shows, with one file of each kind: the rows every look-and-language story shares. */
import type { SeedTask } from '../test/fixtures/scripted-uploader.ts';

const MB = 1_000_000;

/** Ten rows: queued (40 kB, the size the locale stories check), uploading, paused, retrying, verifying, done, converted, failed, cancelled, interrupted. */
export const allStates: SeedTask[] = [
  { id: 'kb40', name: 'notes.txt', type: 'text/plain', total: 40_000 },
  {
    id: 'up',
    name: 'holiday.mov',
    type: 'video/quicktime',
    total: 80 * MB,
    state: 'uploading',
    bytesSent: 30 * MB,
    speed: 4 * MB,
    etaMs: 12_500,
  },
  {
    id: 'pa',
    name: 'song.mp3',
    type: 'audio/mpeg',
    total: 6 * MB,
    state: 'paused',
    bytesSent: 2 * MB,
    bytesAcknowledged: 2 * MB,
  },
  {
    id: 're',
    name: 'slides.pptx',
    total: 12 * MB,
    state: 'retrying',
    bytesAcknowledged: 4 * MB,
    retry: { attempt: 2, delayMs: 4000, cause: 'network' },
  },
  {
    id: 've',
    name: 'scan.pdf',
    type: 'application/pdf',
    total: 3 * MB,
    state: 'verifying',
    bytesSent: 3 * MB,
    bytesAcknowledged: 3 * MB,
  },
  {
    id: 'do',
    name: 'photo.jpg',
    type: 'image/jpeg',
    total: 4 * MB,
    state: 'done',
    bytesSent: 4 * MB,
    bytesAcknowledged: 4 * MB,
    file: { id: 'f1' },
  },
  {
    id: 'co',
    name: 'budget.csv',
    type: 'text/csv',
    total: 250_000,
    state: 'done',
    bytesSent: 250_000,
    bytesAcknowledged: 250_000,
    convertTo: 'application/vnd.svc-apps.spreadsheet',
    file: { id: 'f2' },
  },
  {
    id: 'fa',
    name: 'report.docx',
    total: 2 * MB,
    state: 'failed',
    bytesAcknowledged: MB,
    error: { code: 'integrity', message: '' },
  },
  { id: 'ca', name: 'archive.zip', type: 'application/zip', total: 50 * MB, state: 'cancelled' },
  { id: 'in', name: 'index.ts', total: 9_000, state: 'interrupted', bytesAcknowledged: 0 },
];
