/**
 * Where the built-in languages other than English are: one chunk each, and the rules that pick one for a `lang`
 * tag. This module is itself loaded on demand, the first time an element finds itself under a `lang` that is not
 * English, so a page pays neither for the table nor for the tags before then (`languages.ts`).
 */
import type { BuiltInLanguageTag } from './built-in-languages.ts';
import type { StoreI18n } from './types.ts';

type Loaders = Readonly<Record<Exclude<BuiltInLanguageTag, 'en'>, () => Promise<StoreI18n>>>;

/** One loader per tag of `BUILT_IN_LANGUAGES` (its type rejects a missing or an extra one). */
const LOADERS: Loaders = {
  ar: () => import('./ar.ts').then((m) => m.ar),
  bg: () => import('./bg.ts').then((m) => m.bg),
  bn: () => import('./bn.ts').then((m) => m.bn),
  ca: () => import('./ca.ts').then((m) => m.ca),
  cs: () => import('./cs.ts').then((m) => m.cs),
  da: () => import('./da.ts').then((m) => m.da),
  de: () => import('./de.ts').then((m) => m.de),
  el: () => import('./el.ts').then((m) => m.el),
  es: () => import('./es.ts').then((m) => m.es),
  et: () => import('./et.ts').then((m) => m.et),
  eu: () => import('./eu.ts').then((m) => m.eu),
  fa: () => import('./fa.ts').then((m) => m.fa),
  fi: () => import('./fi.ts').then((m) => m.fi),
  fil: () => import('./fil.ts').then((m) => m.fil),
  fr: () => import('./fr.ts').then((m) => m.fr),
  gl: () => import('./gl.ts').then((m) => m.gl),
  he: () => import('./he.ts').then((m) => m.he),
  hi: () => import('./hi.ts').then((m) => m.hi),
  hr: () => import('./hr.ts').then((m) => m.hr),
  hu: () => import('./hu.ts').then((m) => m.hu),
  id: () => import('./id.ts').then((m) => m.id),
  it: () => import('./it.ts').then((m) => m.it),
  ja: () => import('./ja.ts').then((m) => m.ja),
  kk: () => import('./kk.ts').then((m) => m.kk),
  ko: () => import('./ko.ts').then((m) => m.ko),
  lt: () => import('./lt.ts').then((m) => m.lt),
  lv: () => import('./lv.ts').then((m) => m.lv),
  mr: () => import('./mr.ts').then((m) => m.mr),
  ms: () => import('./ms.ts').then((m) => m.ms),
  nb: () => import('./nb.ts').then((m) => m.nb),
  nl: () => import('./nl.ts').then((m) => m.nl),
  pl: () => import('./pl.ts').then((m) => m.pl),
  pt: () => import('./pt.ts').then((m) => m.pt),
  ro: () => import('./ro.ts').then((m) => m.ro),
  ru: () => import('./ru.ts').then((m) => m.ru),
  sk: () => import('./sk.ts').then((m) => m.sk),
  sl: () => import('./sl.ts').then((m) => m.sl),
  sr: () => import('./sr.ts').then((m) => m.sr),
  'sr-Latn': () => import('./sr-Latn.ts').then((m) => m.srLatn),
  sv: () => import('./sv.ts').then((m) => m.sv),
  sw: () => import('./sw.ts').then((m) => m.sw),
  ta: () => import('./ta.ts').then((m) => m.ta),
  te: () => import('./te.ts').then((m) => m.te),
  th: () => import('./th.ts').then((m) => m.th),
  tr: () => import('./tr.ts').then((m) => m.tr),
  uk: () => import('./uk.ts').then((m) => m.uk),
  ur: () => import('./ur.ts').then((m) => m.ur),
  vi: () => import('./vi.ts').then((m) => m.vi),
  zh: () => import('./zh.ts').then((m) => m.zh),
  'zh-TW': () => import('./zh-TW.ts').then((m) => m.zhTW),
};

/**
 * Languages known under another tag: Norwegian (`no`) and Nynorsk (`nn`) readers get Bokmål, Tagalog (`tl`)
 * Filipino, and the withdrawn codes of Hebrew (`iw`) and Indonesian (`in`) their languages.
 */
const ALIASES: Readonly<Record<string, keyof Loaders>> = { no: 'nb', nn: 'nb', tl: 'fil', iw: 'he', in: 'id' };

/** Script and region subtags written in Traditional characters: Taiwan, Hong Kong, Macao. */
const TRADITIONAL = new Set(['hant', 'tw', 'hk', 'mo']);

/**
 * The built-in language for a `lang` tag (any case), or `undefined` when none fits: the primary subtag decides
 * (`pt-BR` → `pt`, `nb-NO` → `nb`), except that Chinese follows its script, then its region (`zh-TW`, `zh-Hant`,
 * `zh-HK` → Traditional; `zh`, `zh-CN`, `zh-Hans-HK` → Simplified) and Serbian reads Latin script only when the tag
 * says `Latn` (Cyrillic is the script of `sr` in CLDR and the official one in Serbia).
 */
function builtInTagFor(tag: string): keyof Loaders | undefined {
  const [primary = '', ...rest] = tag.toLowerCase().split(/[-_]/);
  if (primary === 'zh') return !rest.includes('hans') && rest.some((s) => TRADITIONAL.has(s)) ? 'zh-TW' : 'zh';
  if (primary === 'sr') return rest.includes('latn') ? 'sr-Latn' : 'sr';
  const key = ALIASES[primary] ?? primary;
  return Object.hasOwn(LOADERS, key) ? key : undefined;
}

/** The words of the built-in language for `tag`, loaded on demand; `undefined` when no built-in language fits. */
export function loadBuiltIn(tag: string): Promise<StoreI18n | undefined> {
  const key = builtInTagFor(tag);
  return key ? LOADERS[key]() : Promise.resolve(undefined);
}
