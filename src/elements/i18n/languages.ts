/**
 * The built-in languages as the elements load them: English is always here (it is the default and the base every
 * override merges over); every other language is a chunk of its own, fetched the first time an element finds
 * itself under that `lang`, so English-only pages never download words they do not show.
 */
import { en } from './en.ts';
import type { StoreI18n } from './types.ts';

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

/** Primary language subtags of the built-in languages (English included). */
export const BUILT_IN_LANGUAGES: readonly string[] = ['en', ...Object.keys(LOADERS)];

/**
 * The words of a built-in language, loaded on demand (`undefined` for a language that is not built in): a start
 * for an app's own translation or overrides, without bundling every language.
 */
export async function builtInLanguage(subtag: string): Promise<StoreI18n | undefined> {
  if (subtag === 'en') return en;
  const loader = LOADERS[subtag];
  return loader ? loader() : undefined;
}

const loaded = new Map<string, StoreI18n>([['en', en]]);
const loading = new Map<string, Promise<void>>();

/** The words of a built-in language if they are loaded, else `undefined` (unknown, or still loading). */
export function loadedLanguage(subtag: string): StoreI18n | undefined {
  return loaded.get(subtag);
}

/**
 * Starts loading a built-in language and returns the promise to wait for; `undefined` when there is nothing to
 * wait for (already loaded, or not a built-in language). A language that fails to load (offline) is not retried
 * in this page life: the elements stay in English rather than fetching on every render.
 */
export function loadLanguage(subtag: string): Promise<void> | undefined {
  if (loaded.has(subtag)) return undefined;
  const loader = LOADERS[subtag];
  if (!loader) return undefined;
  let pending = loading.get(subtag);
  if (!pending) {
    pending = loader().then(
      (words) => void loaded.set(subtag, words),
      () => void loaded.set(subtag, en),
    );
    loading.set(subtag, pending);
  }
  return pending;
}
