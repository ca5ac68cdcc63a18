import { loadImportFormats } from '../conversion-picker/import-formats.ts';
import type { ImportFormats } from '../conversion-picker/import-formats.ts';

/** What the loader needs from its element, read at the time of each call. */
export interface FormatsSource {
  importFormats(): ImportFormats | undefined;
  baseUrl(): string;
  token(): string | Promise<string>;
  /** The formats arrived: render again. */
  loaded(): void;
}

/**
 * The service's import formats for `<store-uploader>`'s conversions: the ones given, or the about resource of the
 * base URL, fetched once per base URL and only once conversion is asked for (a page whose users never convert
 * never loads the service client). A failure is forgotten, so the next need tries again.
 */
export class ImportFormatsLoader {
  readonly #source: FormatsSource;
  #formats: ImportFormats | undefined;
  #load: Promise<ImportFormats | undefined> | undefined;

  constructor(source: FormatsSource) {
    this.#source = source;
  }

  /** The formats available now: given, or loaded; `undefined` before they arrive. */
  get now(): ImportFormats | undefined {
    return this.#source.importFormats() ?? this.#formats;
  }

  /** Forgets what was loaded (the base URL changed). */
  reset(): void {
    this.#formats = undefined;
    this.#load = undefined;
  }

  /** Loads the formats once per base URL; `undefined` when given, unavailable or failed. */
  load(): Promise<ImportFormats | undefined> {
    const source = this.#source;
    const given = source.importFormats();
    if (given || !source.baseUrl()) return Promise.resolve(given);
    const baseUrl = source.baseUrl();
    this.#load ??= loadImportFormats(baseUrl, () => source.token()).then(
      (formats) => {
        if (baseUrl !== source.baseUrl()) return undefined;
        this.#formats = formats;
        source.loaded();
        return formats;
      },
      () => {
        if (baseUrl === source.baseUrl()) this.#load = undefined;
        return undefined;
      },
    );
    return this.#load;
  }
}
