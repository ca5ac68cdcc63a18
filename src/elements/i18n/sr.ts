import { DOCUMENT_MIME, PRESENTATION_MIME, SCRIPT_MIME, SPREADSHEET_MIME } from '../../protocol/index.ts';
import { plural } from './plural.ts';
import type { StoreI18n } from './types.ts';

/** Serbian has one (1, 21…), few (2–4, 22–24…) and other (0, 5–20, 25…). */
const n = (count: number, one: string, few: string, other: string): string => plural('sr', count, { one, few, other });
const percent = new Intl.NumberFormat('sr', { style: 'percent' });

/**
 * Serbian words in Cyrillic, the script of `sr` in CLDR and the official one in Serbia (chosen automatically under
 * `lang="sr"`; `sr-Latn` has the same words in Latin script, `sr-Latn.ts`).
 */
export const sr: StoreI18n = {
  locale: 'sr',
  dropzone: {
    label: 'Отпремање датотека',
    prompt: 'Превуците овде датотеке или фасцикле, налепите их или',
    dragOver: 'Пустите да бисте додали датотеке',
    browse: 'Прегледај датотеке',
    browseFolder: 'Изабери фасциклу',
    rejectedTitle: 'Није додато',
    dismiss: 'Затвори',
    reject: {
      type: (name) => `${name}: ова врста датотеке није прихваћена.`,
      size: (name, limit) => `${name}: већа од ограничења од ${limit}.`,
      count: (name, limit) => `${name}: премашен је највећи број датотека (${limit}).`,
      multiple: (name) => `${name}: може да се дода само једна датотека.`,
      'min-size': (name, limit) => `${name}: мања од минимума од ${limit}.`,
      'total-size': (name, limit) => `${name}: датотеке би заједно премашиле ограничење од ${limit}.`,
      skipped: (name) => `${name}: страница ју је прескочила.`,
      'hook-error': (name, message) => `${name}: није могла да се припреми за отпремање (${message}).`,
    },
  },
  list: {
    label: 'Отпремања',
    empty: 'Још нема отпремања.',
    summary: (c) =>
      `Отпремљено ${c.done} од ${c.total}, ${c.sent} од ${c.size}` +
      (c.active ? `, у току: ${c.active}` : '') +
      (c.failed ? `, неуспело: ${c.failed}` : ''),
    progressText: (p, sent, size) => `${percent.format(p / 100)} (${sent} од ${size})`,
    totalProgress: 'Укупан напредак',
    bulk: {
      label: 'Сва отпремања',
      pauseAll: 'Паузирај све',
      resumeAll: 'Настави све',
      retryFailed: 'Понови неуспела',
      cancelAll: 'Откажи све',
      clearFinished: 'Уклони завршена',
    },
    speed: (rate) => rate,
    timeLeft: (duration) => `још ${duration}`,
    converted: (kind) => `Отпремљено као ${kind}`,
    resized: (original, sent) => `${original}, смањено на ${sent}`,
    downloadButton: 'Преузми',
    download: (name) => `Преузми ${name}`,
    downloadAs: (name) => `Преузми ${name} као`,
    downloadAsPrompt: 'Преузми као…',
    downloadFailed: (name) => `${name} није могуће преузети.`,
  },
  states: {
    queued: 'Чека',
    uploading: 'Отпрема се',
    paused: 'Паузирано',
    retrying: 'Поновни покушај',
    verifying: 'Провера',
    done: 'Отпремљено',
    failed: 'Није успело',
    cancelled: 'Отказано',
    interrupted: 'Прекинуто',
  },
  retryCauses: {
    'server-error': 'услуга је пријавила грешку',
    network: 'веза је прекинута',
    stall: 'отпремање је заглављено',
    'rate-limit': 'било је превише захтева',
    offline: 'нисте повезани на мрежу',
    'session-expired': 'сесија отпремања је истекла',
    auth: 'у току је поновно пријављивање',
  },
  retrying: (cause, attempt, wait) => `Поновни покушај (${attempt}.) јер ${cause}${wait ? `, за ${wait}` : ''}`,
  errors: {
    auth: 'Нисте пријављени или је ваша сесија истекла.',
    forbidden: 'Немате дозволу да отпремате овде.',
    'not-found': 'Датотека или фасцикла више не постоји.',
    'bad-request': 'Услуга је одбила захтев за отпремање.',
    'too-large': 'Датотека је превелика за услугу.',
    conversion: 'Ова датотека не може да се конвертује у изабрани тип.',
    integrity: 'Сачувана датотека се не поклапа са послатом.',
    'retries-exhausted': 'Отпремање није успело више пута заредом и заустављено је.',
    offline: 'Нисте повезани на мрежу.',
    cancelled: 'Отпремање је отказано.',
    'file-changed': 'Датотека се променила на диску током отпремања.',
    rejected: 'Ова датотека је одбијена пре отпремања.',
    unknown: 'Дошло је до грешке.',
  },
  actions: {
    pause: (name) => `Паузирај ${name}`,
    resume: (name) => `Настави ${name}`,
    cancel: (name) => `Откажи ${name}`,
    retry: (name) => `Понови ${name}`,
    remove: (name) => `Уклони ${name} са листе`,
    rechoose: (name) => `Поново изабери датотеку за ${name}`,
    discard: (name) => `Одбаци ${name}`,
  },
  buttons: { pause: 'Паузирај', resume: 'Настави', cancel: 'Откажи', retry: 'Понови', remove: 'Уклони', rechoose: 'Поново изабери', discard: 'Одбаци' },
  announce: {
    start: (name) => `Отпрема се ${name}.`,
    milestone: (name, p) => `${name}: отпремљено ${percent.format(p / 100)}.`,
    done: (name) => `${name} је отпремљена.`,
    failed: (name, reason) => `${name} није успела: ${reason}`,
    many: (count) => `Стање је променило ${n(count, '# отпремање', '# отпремања', '# отпремања')}.`,
  },
  conversion: {
    label: 'Сачувај као',
    keep: 'Задржи како јесте',
    kinds: { [DOCUMENT_MIME]: 'Документ', [SPREADSHEET_MIME]: 'Табела', [PRESENTATION_MIME]: 'Презентација', [SCRIPT_MIME]: 'Пројекат скрипте' },
    ocrLanguage: 'Језик препознавања текста',
    loading: 'Учитавање конверзија…',
    unavailable: 'Конверзије нису могле да се учитају; датотеке остају какве јесу.',
  },
  uploader: {
    convertAll: 'Када је могуће, конвертуј датотеке у изворне формате',
    perFileTitle: 'Изаберите како да се сачува свака датотека',
    uploadPending: (count) => `Отпреми ${n(count, '# датотеку', '# датотеке', '# датотека')}`,
    clearPending: 'Обриши',
    shareTitle: 'Дели са',
    shareEmails: 'Имејл адресе или домени',
    shareEmailsHint: 'Више њих раздвојите зарезима.',
    shareRole: 'Приступ',
    roles: { reader: 'Може да прегледа', writer: 'Може да уређује' },
    shareButton: (count) => `Дели ${n(count, '# датотеку', '# датотеке', '# датотека')}`,
    shared: (count) => `Подељено са ${n(count, '# особом', '# особе', '# особа')}.`,
    shareFailed: (failed) => `Додељивање приступа није успело: ${failed}.`,
    shareInvalid: (value) => `„${value}“ није ни имејл адреса ни домен.`,
    interruptedTitle: 'Недовршена отпремања',
    interruptedItem: (name, stored, size) => `${name}: сачувано ${stored} од ${size}`,
    resumeAll: 'Настави све',
    fileChanged: (name) => `${name} се променила од почетка отпремања: поново је изаберите или је одбаците.`,
    pendingValidity: 'Сачекајте да се отпремања заврше.',
    noUploader: 'Нема алатке за отпремање: подесите base-url или својство uploader.',
  },
};
