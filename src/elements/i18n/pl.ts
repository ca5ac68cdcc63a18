import { DOCUMENT_MIME, PRESENTATION_MIME, SCRIPT_MIME, SPREADSHEET_MIME } from '../../protocol/index.ts';
import { plural } from './plural.ts';
import type { StoreI18n } from './types.ts';

/** Polish has one, few (2–4, 22–24…) and many (5–21, 25…) forms. */
const n = (count: number, one: string, few: string, many: string): string => plural('pl', count, { one, few, many, other: few });

/** Polish words of every element (chosen automatically under `lang="pl"`). */
export const pl: StoreI18n = {
  locale: 'pl',
  dropzone: {
    label: 'Prześlij pliki',
    prompt: 'Upuść tutaj pliki lub foldery, wklej je albo',
    dragOver: 'Puść, aby dodać pliki',
    browse: 'Wybierz pliki',
    browseFolder: 'Wybierz folder',
    rejectedTitle: 'Nie dodano',
    dismiss: 'Zamknij',
    reject: {
      type: (name) => `${name}: ten typ pliku nie jest akceptowany.`,
      size: (name, limit) => `${name}: przekracza limit ${limit}.`,
      count: (name, limit) => `${name}: można dodać najwyżej ${limit} plików.`,
      multiple: (name) => `${name}: można dodać tylko jeden plik.`,
    },
  },
  list: {
    label: 'Przesyłanie',
    empty: 'Nic jeszcze nie przesłano.',
    summary: (c) =>
      `Przesłano ${c.done} z ${c.total}, ${c.sent} z ${c.size}` +
      (c.active ? `, w toku: ${c.active}` : '') +
      (c.failed ? `, nieudane: ${c.failed}` : ''),
    progressText: (percent, sent, size) => `${percent}% (${sent} z ${size})`,
    totalProgress: 'Postęp całkowity',
    speed: (rate) => rate,
    timeLeft: (duration) => `zostało ${duration}`,
    converted: (kind) => `Przesłano jako ${kind}`,
  },
  states: {
    queued: 'Oczekuje',
    uploading: 'Przesyłanie',
    paused: 'Wstrzymano',
    retrying: 'Ponawianie',
    verifying: 'Sprawdzanie',
    done: 'Przesłano',
    failed: 'Błąd',
    cancelled: 'Anulowano',
    interrupted: 'Przerwano',
  },
  retryCauses: {
    'server-error': 'usługa zgłosiła błąd',
    network: 'połączenie zostało zerwane',
    stall: 'przesyłanie utknęło',
    'rate-limit': 'było zbyt wiele żądań',
    offline: 'jesteś offline',
    'session-expired': 'sesja przesyłania wygasła',
    auth: 'trwa ponowne logowanie',
  },
  retrying: (cause, attempt, wait) => `Ponawianie (próba ${attempt}), bo ${cause}${wait ? `, za ${wait}` : ''}`,
  errors: {
    auth: 'Nie jesteś zalogowany albo sesja wygasła.',
    forbidden: 'Nie masz uprawnień do przesyłania tutaj.',
    'not-found': 'Plik lub folder już nie istnieje.',
    'bad-request': 'Usługa odrzuciła żądanie przesłania.',
    'too-large': 'Plik jest za duży dla usługi.',
    conversion: 'Tego pliku nie można przekonwertować na wybrany typ.',
    integrity: 'Zapisany plik nie zgadza się z wysłanym.',
    'retries-exhausted': 'Przesyłanie wielokrotnie się nie udało i zostało zatrzymane.',
    offline: 'Jesteś offline.',
    cancelled: 'Przesyłanie anulowano.',
    'file-changed': 'Plik zmienił się na dysku podczas przesyłania.',
    unknown: 'Coś poszło nie tak.',
  },
  actions: {
    pause: (name) => `Wstrzymaj ${name}`,
    resume: (name) => `Wznów ${name}`,
    cancel: (name) => `Anuluj ${name}`,
    retry: (name) => `Ponów ${name}`,
    remove: (name) => `Usuń ${name} z listy`,
    rechoose: (name) => `Wybierz ponownie plik dla ${name}`,
    discard: (name) => `Odrzuć ${name}`,
  },
  buttons: { pause: 'Wstrzymaj', resume: 'Wznów', cancel: 'Anuluj', retry: 'Ponów', remove: 'Usuń', rechoose: 'Wybierz plik', discard: 'Odrzuć' },
  announce: {
    start: (name) => `Przesyłanie ${name}.`,
    milestone: (name, percent) => `${name}: przesłano ${percent}%.`,
    done: (name) => `Przesłano ${name}.`,
    failed: (name, reason) => `Błąd ${name}: ${reason}`,
    many: (count) => `Stan zmieniło ${n(count, '# przesyłanie', '# przesyłania', '# przesyłań')}.`,
  },
  conversion: {
    label: 'Zapisz jako',
    keep: 'Pozostaw bez zmian',
    kinds: { [DOCUMENT_MIME]: 'Dokument', [SPREADSHEET_MIME]: 'Arkusz kalkulacyjny', [PRESENTATION_MIME]: 'Prezentacja', [SCRIPT_MIME]: 'Projekt skryptu' },
    ocrLanguage: 'Język rozpoznawania tekstu',
    loading: 'Wczytywanie konwersji…',
    unavailable: 'Nie udało się wczytać konwersji; pliki zostaną zapisane bez zmian.',
  },
  uploader: {
    convertAll: 'W miarę możliwości konwertuj pliki do formatów natywnych',
    perFileTitle: 'Wybierz, jak zapisać każdy plik',
    uploadPending: (count) => `Prześlij ${n(count, '# plik', '# pliki', '# plików')}`,
    clearPending: 'Wyczyść',
    shareTitle: 'Udostępnij',
    shareEmails: 'Adresy e-mail lub domeny',
    shareEmailsHint: 'Oddziel je przecinkami.',
    shareRole: 'Dostęp',
    roles: { reader: 'Może wyświetlać', writer: 'Może edytować' },
    shareButton: (count) => `Udostępnij ${n(count, '# plik', '# pliki', '# plików')}`,
    shared: (count) => `Udostępniono ${n(count, '# osobie', '# osobom', '# osobom')}.`,
    shareFailed: (failed) => `Nie udało się: ${n(failed, '# uprawnienie', '# uprawnienia', '# uprawnień')}.`,
    shareInvalid: (value) => `„${value}” nie jest adresem e-mail ani domeną.`,
    interruptedTitle: 'Niedokończone przesyłanie',
    interruptedItem: (name, stored, size) => `${name}: zapisano ${stored} z ${size}`,
    pendingValidity: 'Poczekaj na zakończenie przesyłania.',
    noUploader: 'Brak modułu przesyłania: ustaw base-url lub właściwość uploader.',
  },
};
