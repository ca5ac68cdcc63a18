/**
 * The direction a language is written in, from `Intl` (`'fa'`, `'ur'`, `'ar'`, `'he'` → `'rtl'`), for a page that
 * sets `dir` beside `lang`: the elements follow the page's direction and never set one themselves, since a page may
 * lay itself out left to right around right-to-left words. `'ltr'` where the browser cannot tell.
 */
export function languageDirection(tag: string): 'ltr' | 'rtl' {
  // `getTextInfo()` is the current name (Chromium 130+); `textInfo`, the getter it replaced, is what older engines have.
  const locale = new Intl.Locale(tag) as Intl.Locale & {
    getTextInfo?: () => { direction?: string };
    textInfo?: { direction?: string };
  };
  return (locale.getTextInfo?.() ?? locale.textInfo)?.direction === 'rtl' ? 'rtl' : 'ltr';
}
