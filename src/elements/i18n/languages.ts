/**
 * The built-in languages as the elements load them. English is the default and the base every override merges over:
 * the words shown before a file is added are always here, the rest loads with the first row, share step or list of
 * unfinished uploads (`loadEnglishLater`). Every other language is a chunk of its own, fetched the first time an
 * element finds itself under that `lang`, so English-only pages never download words they do not show.
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

/** Loaders of the languages that are not built into the main bundle, by primary language subtag. */
const LOADERS: Readonly<Record<string, () => Promise<StoreI18n>>> = {
  ar: () => import('./ar.ts').then((m) => m.ar),
  de: () => import('./de.ts').then((m) => m.de),
  es: () => import('./es.ts').then((m) => m.es),
  fr: () => import('./fr.ts').then((m) => m.fr),
  he: () => import('./he.ts').then((m) => m.he),
  it: () => import('./it.ts').then((m) => m.it),
  ja: () => import('./ja.ts').then((m) => m.ja),
  nl: () => import('./nl.ts').then((m) => m.nl),
  pl: () => import('./pl.ts').then((m) => m.pl),
  pt: () => import('./pt.ts').then((m) => m.pt),
  zh: () => import('./zh.ts').then((m) => m.zh),
};

/** `module` once it and the rest of English are both loaded: for the lazily loaded parts that show those words. */
export function withEnglishLater<M>(module: Promise<M>): Promise<M> {
  return Promise.all([module, loadEnglishLater()]).then(([m]) => m);
}

/** Primary language subtags of the built-in languages (English included). */
export const BUILT_IN_LANGUAGES: readonly string[] = ['en', ...Object.keys(LOADERS)];

/**
 * The words of a built-in language, loaded on demand (`undefined` for a language that is not built in): a start
 * for an app's own translation or overrides, without bundling every language.
 */
export async function builtInLanguage(subtag: string): Promise<StoreI18n | undefined> {
  if (subtag === 'en') return loadEnglishLater().then(englishWords);
  const loader = LOADERS[subtag];
  return loader ? loader() : undefined;
}

const loaded = new Map<string, StoreI18n>();
const loading = new Map<string, Promise<void>>();
/** Languages that failed to load (offline): their elements read English for the rest of the page life. */
const failed = new Set<string>();

/** The words of a built-in language other than English if loaded, else `undefined` (English, unknown, loading, failed). */
export function loadedLanguage(subtag: string): StoreI18n | undefined {
  return loaded.get(subtag);
}

/**
 * Starts loading a built-in language and returns the promise to wait for; `undefined` when there is nothing to
 * wait for (already loaded, or not a built-in language). A language that fails to load (offline) is not retried
 * in this page life: the elements stay in English rather than fetching on every render.
 */
export function loadLanguage(subtag: string): Promise<void> | undefined {
  if (loaded.has(subtag) || failed.has(subtag)) return undefined;
  const loader = LOADERS[subtag];
  if (!loader) return undefined;
  let pending = loading.get(subtag);
  if (!pending) {
    pending = loader().then(
      (words) => void loaded.set(subtag, words),
      () => void failed.add(subtag),
    );
    loading.set(subtag, pending);
  }
  return pending;
}
