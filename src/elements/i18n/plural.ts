/**
 * Plural forms through `Intl.PluralRules`, in the language's own categories (Arabic has six, Japanese one), with
 * `#` standing for the count formatted by `Intl.NumberFormat` in the same locale.
 */
type Forms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

const rules = new Map<string, [Intl.PluralRules, Intl.NumberFormat]>();

/** `plural('en', 3, { one: '# file', other: '# files' })` → `3 files`. */
export function plural(locale: string, count: number, forms: Forms): string {
  let pair = rules.get(locale);
  if (!pair) rules.set(locale, (pair = [new Intl.PluralRules(locale), new Intl.NumberFormat(locale)]));
  const form = forms[pair[0].select(count)] ?? forms.other;
  return form.replace('#', pair[1].format(count));
}
