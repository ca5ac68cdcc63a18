/**
 * The built-in languages as the elements load them. English is the default and the base every override merges over:
 * the words shown before a file is added are always here, the rest loads with the first row, share step or list of
 * unfinished uploads (`loadEnglishLater`). Every other language is a chunk of its own, fetched the first time an
 * element finds itself under that `lang`, so English-only pages never download words they do not show; so is the
 * table of those chunks (`catalogue.ts`), so that fifty languages cost an English page no more than one.
 */
import { enUpFront } from './en-up-front.ts';
import { mergeI18n } from './merge.ts';
import type { StoreI18n } from './types.ts';

/**
 * English as far as it is loaded. Until `loadEnglishLater` has settled it holds only `enUpFront`, which is every
 * word the elements read before they show a row, the share step or unfinished uploads; those wait for the rest.
 */
let english = enUpFront as unknown as StoreI18n;
let englishLater: Promise<void> | undefined;

/** English as far as it is loaded: see `english`. */
export function englishWords(): StoreI18n {
  return english;
}

/**
 * Loads the rest of English (once; a failed load is tried again by the next caller). The loaders of the rows, the
 * share step and the unfinished uploads wait for it beside their own code, whatever the page's language: English is
 * the base that an app's partial overrides, and a language that failed to load, fall back on.
 */
export function loadEnglishLater(): Promise<void> {
  return (englishLater ??= import('./en-later.ts').then(
    (m) => void (english = mergeI18n(english, m.enLater)),
    (error: unknown) => {
      englishLater = undefined;
      throw error;
    },
  ));
}

/** `module` once it and the rest of English are both loaded: for the lazily loaded parts that show those words. */
export function withEnglishLater<M>(module: Promise<M>): Promise<M> {
  return Promise.all([module, loadEnglishLater()]).then(([m]) => m);
}

/**
 * The words of a built-in language for a `lang` tag (`'ja'`, `'pt-BR'`, `'zh-TW'`), loaded on demand; `undefined`
 * when no built-in language fits: a start for an app's own translation or overrides, without bundling every language.
 */
export async function builtInLanguage(tag: string): Promise<StoreI18n | undefined> {
  if (isEnglish(tag)) return loadEnglishLater().then(englishWords);
  return import('./catalogue.ts').then((c) => c.loadBuiltIn(tag));
}

/** `''` (no `lang` at all) reads English too. */
function isEnglish(tag: string): boolean {
  return !tag || tag.toLowerCase().split('-')[0] === 'en';
}

const loaded = new Map<string, StoreI18n>();
const loading = new Map<string, Promise<void>>();
/** Tags that read English for the rest of the page life: no built-in language fits, or it failed to load (offline). */
const readEnglish = new Set<string>();

/** The words loaded for a `lang` tag other than English, else `undefined` (English, unknown, loading, failed). */
export function loadedLanguage(tag: string): StoreI18n | undefined {
  return loaded.get(tag);
}

/**
 * Starts loading the built-in language of a `lang` tag and returns the promise to wait for; `undefined` when there
 * is nothing to wait for (English, already loaded, or settled as English). Which language a tag means is decided in
 * `catalogue.ts`, loaded with the first tag that is not English. A language that fails to load (offline) is not
 * retried in this page life: the elements stay in English rather than fetching on every render.
 */
export function loadLanguage(tag: string): Promise<void> | undefined {
  if (isEnglish(tag) || loaded.has(tag) || readEnglish.has(tag)) return undefined;
  let pending = loading.get(tag);
  if (!pending) {
    pending = import('./catalogue.ts')
      .then((c) => c.loadBuiltIn(tag))
      .then(
        (words) => {
          if (words) loaded.set(tag, words);
          else readEnglish.add(tag);
        },
        () => void readEnglish.add(tag),
      );
    loading.set(tag, pending);
  }
  return pending;
}
