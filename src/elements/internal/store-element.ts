import { LitElement } from 'lit';
import type { PropertyDeclarations } from 'lit';
import { languageLoading, resolveI18n } from '../i18n/resolve.ts';
import type { StoreI18n, StoreI18nOverrides } from '../i18n/types.ts';

/**
 * What every `store-*` element shares: the `i18n` overrides merged over the page language's words, and the
 * `color-scheme` attribute that forces light or dark instead of following `prefers-color-scheme`.
 *
 * Reactive properties are declared with `static properties` and `declare` fields (no decorators, no field
 * initialisers), so the elements behave the same under any compiler's decorator and class-field settings.
 */
export class StoreElement extends LitElement {
  static override properties: PropertyDeclarations = {
    i18n: { attribute: false },
    colorScheme: { attribute: 'color-scheme', reflect: true },
  };

  /** Words to replace, merged over the built-in language picked by the nearest `lang` attribute. */
  declare i18n: StoreI18nOverrides | undefined;

  /** `light` or `dark` to force a scheme; unset follows the user's preference. */
  declare colorScheme: 'light' | 'dark' | undefined;

  /** The resolved words for this render. */
  protected get t(): StoreI18n {
    return resolveI18n(this, this.i18n);
  }

  /**
   * Waits for the lazily loaded parts the next render needs (its language, and `pendingLoad`) before rendering, so
   * the first render is already right (French words, not English ones for a frame) and `updateComplete` covers the
   * load. A failed load still renders, with what is there.
   */
  // eslint-disable-next-line @typescript-eslint/no-invalid-void-type -- Lit's own signature for scheduleUpdate.
  protected override scheduleUpdate(): void | Promise<unknown> {
    const loads = [languageLoading(this), this.pendingLoad()].filter((load) => load !== undefined);
    if (loads.length === 0) return super.scheduleUpdate();
    return Promise.all(loads).then(
      () => super.scheduleUpdate(),
      () => super.scheduleUpdate(),
    );
  }

  /** An element's own lazily loaded part the next render waits for, or `undefined` (its language is awaited anyway). */
  protected pendingLoad(): Promise<unknown> | undefined {
    return undefined;
  }
}
