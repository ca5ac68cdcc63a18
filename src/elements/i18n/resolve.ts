import { englishWords, loadLanguage, loadedLanguage } from './languages.ts';
import { mergeI18n } from './merge.ts';
import type { DeepPartial, StoreI18n } from './types.ts';

/**
 * The words for an element: the built-in language of the nearest `lang` attribute (crossing shadow roots), English
 * when there is none or it is not built in, with the element's own overrides on top. A built-in language that is
 * not loaded yet starts loading and reads as English meanwhile; the elements wait for it before they render
 * (`languageLoading`), so users do not see the switch.
 */
export function resolveI18n(element: Element, overrides?: DeepPartial<StoreI18n>): StoreI18n {
  const lang = languageOf(element);
  void loadLanguage(lang);
  return mergeI18n(loadedLanguage(lang) ?? englishWords(), overrides);
}

/** The load an element must wait for before rendering in its page language, or `undefined` when its words are here. */
export function languageLoading(element: Element): Promise<void> | undefined {
  return loadLanguage(languageOf(element));
}

/** The nearest `lang` attribute, lower case (`zh-tw`); `''` without one. The whole tag: `zh-TW` is not `zh`. */
function languageOf(element: Element): string {
  return closestLang(element).toLowerCase();
}

function closestLang(element: Element): string {
  let node: Node | null = element;
  while (node) {
    if (node instanceof Element && node.hasAttribute('lang')) return node.getAttribute('lang') ?? '';
    node = node.parentNode ?? (node instanceof ShadowRoot ? node.host : null);
  }
  return '';
}
