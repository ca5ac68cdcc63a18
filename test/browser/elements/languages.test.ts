/// <reference types="mocha" />
// The 51 built-in languages (issue 23), as a page gets them: each complete at run time (every word of English, of the
// same kind, saying something for sample arguments), its plural forms picked by Intl.PluralRules for sample counts,
// the lang tag resolved to the right language (zh-TW is not zh, sr-Latn is not sr, pt-BR is pt), and an element
// under each tag rendering its words. Right-to-left languages are told apart by `languageDirection`.
import { expect, fixture, html } from '@open-wc/testing';
import '../../../src/elements/progress-list/define.ts';
import '../../../src/elements/dropzone/define.ts';
import { builtInLanguage } from '../../../src/elements/i18n/languages.ts';
import { BUILT_IN_LANGUAGES } from '../../../src/elements/i18n/built-in-languages.ts';
import { languageDirection } from '../../../src/elements/i18n/direction.ts';
import { plural } from '../../../src/elements/i18n/plural.ts';
import type { StoreI18n } from '../../../src/elements/i18n/types.ts';
import { ScriptedUploader } from '../../fixtures/scripted-uploader.ts';
import { text } from './helpers.ts';

const words = async (tag: string): Promise<StoreI18n> => {
  const found = await builtInLanguage(tag);
  if (!found) throw new Error(`${tag} is not built in`);
  return found;
};

/** Calls every function leaf with sample arguments; returns `path → text` for every leaf, so two languages compare. */
function leaves(value: unknown, path = ''): Map<string, string> {
  const out = new Map<string, string>();
  if (typeof value === 'string') out.set(path, value);
  else if (typeof value === 'function') {
    const f = value as (...args: unknown[]) => string;
    const counts = { total: 10, done: 3, failed: 2, active: 4, sent: '30 MB', size: '80 MB' };
    const samples: Record<string, unknown[]> = {
      'list.summary': [counts],
      'list.progressText': [40, '30 MB', '80 MB'],
      'announce.milestone': ['NAME.txt', 40],
      retrying: ['CAUSE', 2, '4 s'],
    };
    // Counts go to the words that take one (`uploadPending(5)`); the rest get a file name and a limit.
    const args =
      samples[path] ??
      (f.length === 1 && /many|Pending|share(Button|d|Failed)$/.test(path) ? [5] : ['NAME.txt', '5', '7']);
    out.set(path, f(...args));
  } else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value))
      for (const [p, t] of leaves(child, path ? `${path}.${key}` : key)) out.set(p, t);
  }
  return out;
}

describe('built-in languages', () => {
  it('are 51 tags, each loading a complete StoreI18n whose words all say something', async () => {
    expect(BUILT_IN_LANGUAGES.length).to.equal(51);
    expect(new Set(BUILT_IN_LANGUAGES).size, 'no tag twice').to.equal(51);
    const english = leaves(await words('en'));
    const unlabelled: string[] = [];
    for (const tag of BUILT_IN_LANGUAGES) {
      const t = await words(tag);
      expect(Intl.getCanonicalLocales(t.locale), tag).to.have.length(1);
      const own = leaves(t);
      expect([...own.keys()].sort(), `${tag} has every word of English and no other`).to.deep.equal(
        [...english.keys()].sort(),
      );
      for (const [path, said] of own) {
        expect(said.trim(), `${tag} ${path}`).not.to.equal('');
        expect(said, `${tag} ${path}`).not.to.match(/undefined|NaN|\[object/);
        // A word that names a file says which (the name, its placeholder in `leaves`, is never dropped).
        if (english.get(path)!.includes('NAME.txt'))
          expect(said, `${tag} ${path} names the file`).to.include('NAME.txt');
      }
      // Only the words of a language are its own: no English left behind in the languages added by issue 23.
      if (!['en', 'ar', 'de', 'es', 'fr', 'he', 'it', 'ja', 'nl', 'pl', 'pt', 'zh'].includes(tag)) {
        expect(t.dropzone.browse, tag).not.to.equal('Browse files');
        expect(t.states.paused, tag).not.to.equal('Paused');
        // Each visible button text is part of the button's accessible name (WCAG 2.5.3, label in name).
        for (const key of Object.keys(t.buttons) as (keyof StoreI18n['buttons'])[]) {
          const name = t.actions[key]('NAME.txt');
          if (!name.toLocaleLowerCase(t.locale).includes(t.buttons[key].toLocaleLowerCase(t.locale)))
            unlabelled.push(`${tag} ${key}: "${t.buttons[key]}" not in "${name}"`);
        }
      }
    }
    expect(unlabelled).to.deep.equal([]);
  });

  it('pick the plural form Intl.PluralRules gives each sample count', async () => {
    const pending = async (tag: string, counts: number[]) => {
      const t = await words(tag);
      return counts.map((c) => t.uploader.uploadPending(c));
    };
    const counts = [1, 2, 5, 21, 22, 25];
    // one, few, many, one, few, many
    expect(await pending('ru', counts)).to.deep.equal([
      'Загрузить 1 файл',
      'Загрузить 2 файла',
      'Загрузить 5 файлов',
      'Загрузить 21 файл',
      'Загрузить 22 файла',
      'Загрузить 25 файлов',
    ]);
    expect(await pending('uk', counts)).to.deep.equal([
      'Завантажити 1 файл',
      'Завантажити 2 файли',
      'Завантажити 5 файлів',
      'Завантажити 21 файл',
      'Завантажити 22 файли',
      'Завантажити 25 файлів',
    ]);
    // Czech and Slovak: 21 is "other", not "one".
    expect(await pending('cs', counts)).to.deep.equal([
      'Nahrát 1 soubor',
      'Nahrát 2 soubory',
      'Nahrát 5 souborů',
      'Nahrát 21 souborů',
      'Nahrát 22 souborů',
      'Nahrát 25 souborů',
    ]);
    expect(await pending('sk', [1, 3, 5])).to.deep.equal(['Nahrať 1 súbor', 'Nahrať 3 súbory', 'Nahrať 5 súborov']);
    // Croatian and Serbian: one, few, other, one, few, other.
    expect(await pending('hr', counts)).to.deep.equal([
      'Prenesi 1 datoteku',
      'Prenesi 2 datoteke',
      'Prenesi 5 datoteka',
      'Prenesi 21 datoteku',
      'Prenesi 22 datoteke',
      'Prenesi 25 datoteka',
    ]);
    expect(await pending('sr', [1, 2, 5])).to.deep.equal([
      'Отпреми 1 датотеку',
      'Отпреми 2 датотеке',
      'Отпреми 5 датотека',
    ]);
    // Slovenian has a dual; Lithuanian counts 2–9 as few and 10–20 as other; Latvian has zero for 10–20 and 0.
    expect(await pending('sl', [1, 2, 3, 5, 101, 102])).to.deep.equal([
      'Naloži 1 datoteko',
      'Naloži 2 datoteki',
      'Naloži 3 datoteke',
      'Naloži 5 datotek',
      'Naloži 101 datoteko',
      'Naloži 102 datoteki',
    ]);
    expect(await pending('lt', [1, 2, 9, 10, 21])).to.deep.equal([
      'Įkelti 1 failą',
      'Įkelti 2 failus',
      'Įkelti 9 failus',
      'Įkelti 10 failų',
      'Įkelti 21 failą',
    ]);
    expect(await pending('lv', [0, 1, 2, 11, 21])).to.deep.equal([
      'Augšupielādēt 0 failu',
      'Augšupielādēt 1 failu',
      'Augšupielādēt 2 failus',
      'Augšupielādēt 11 failu',
      'Augšupielādēt 21 failu',
    ]);
    // Romanian: 20 to 100 take "de"; 101 ends like 1 and does not.
    expect(await pending('ro', [1, 2, 19, 20, 101])).to.deep.equal([
      'Încarcă 1 fișier',
      'Încarcă 2 fișiere',
      'Încarcă 19 fișiere',
      'Încarcă 20 de fișiere',
      'Încarcă 101 fișiere',
    ]);
    // Persian and Hindi count 0 and 1 as one; Persian, Bengali and Marathi write their own digits, as Intl does.
    expect(await pending('fa', [1, 25])).to.deep.equal(['بارگذاری ۱ فایل', 'بارگذاری ۲۵ فایل']);
    expect(await pending('bn', [2])).to.deep.equal(['২টি ফাইল আপলোড করুন']);
    expect(await pending('mr', [1, 22])).to.deep.equal(['१ फाइल अपलोड करा', '२२ फायली अपलोड करा']);
    // Languages without plural forms keep one.
    expect(await pending('ko', [1, 22])).to.deep.equal(['파일 1개 업로드', '파일 22개 업로드']);
    expect(await pending('zh-TW', [1, 22])).to.deep.equal(['上傳 1 個檔案', '上傳 22 個檔案']);
    // A fraction is "other" in Russian, "many" in Czech and Lithuanian: the helper asks Intl, not the integer part.
    const forms = { one: 'one', few: 'few', many: 'many', other: 'other' };
    expect([
      plural('ru', 0.5, forms),
      plural('cs', 0.5, forms),
      plural('lt', 0.5, forms),
      plural('pl', 0.5, forms),
    ]).to.deep.equal(['other', 'many', 'many', 'other']);
  });

  it('resolve a lang tag by script and region: zh-TW is Traditional, sr-Latn Latin, pt-BR Portuguese', async () => {
    const browse = async (tag: string) => (await builtInLanguage(tag))?.dropzone.browse;
    expect(await browse('zh')).to.equal('选择文件');
    expect(await browse('zh-TW')).to.equal('選擇檔案');
    expect(await browse('zh-TW')).not.to.equal(await browse('zh'));
    expect(await browse('zh-Hant')).to.equal('選擇檔案');
    expect(await browse('zh-HK')).to.equal('選擇檔案');
    expect(await browse('zh-Hans-HK')).to.equal('选择文件');
    expect(await browse('zh-CN')).to.equal('选择文件');
    expect(await browse('sr')).to.equal('Прегледај датотеке');
    expect(await browse('sr-Cyrl-RS')).to.equal('Прегледај датотеке');
    expect(await browse('sr-Latn-RS')).to.equal('Pregledaj datoteke');
    expect(await browse('pt-BR')).to.equal((await words('pt')).dropzone.browse);
    expect(await browse('nb-NO')).to.equal('Bla gjennom filer');
    expect(await browse('no')).to.equal('Bla gjennom filer');
    expect(await browse('tl')).to.equal('Mag-browse ng mga file');
    expect(await browse('xx')).to.equal(undefined);
  });

  it('keeps sr-Latn letter for letter the Latin spelling of sr', async () => {
    const cyrillic = 'АБВГДЂЕЖЗИЈКЛЉМНЊОПРСТЋУФХЦЧЏШ';
    const latin = [
      'A',
      'B',
      'V',
      'G',
      'D',
      'Đ',
      'E',
      'Ž',
      'Z',
      'I',
      'J',
      'K',
      'L',
      'Lj',
      'M',
      'N',
      'Nj',
      'O',
      'P',
      'R',
      'S',
      'T',
      'Ć',
      'U',
      'F',
      'H',
      'C',
      'Č',
      'Dž',
      'Š',
    ];
    const map = new Map<string, string>();
    [...cyrillic].forEach((c, i) => {
      map.set(c, latin[i]);
      map.set(c.toLowerCase(), latin[i].toLowerCase());
    });
    const spell = (s: string) => [...s].map((c) => map.get(c) ?? c).join('');
    const [sr, srLatn] = [leaves(await words('sr')), leaves(await words('sr-Latn'))];
    for (const [path, said] of sr) if (path !== 'locale') expect(srLatn.get(path), path).to.equal(spell(said));
  });

  it('render in the language of each tag, Traditional Chinese under zh-TW', async () => {
    for (const tag of BUILT_IN_LANGUAGES) {
      const wrapper = await fixture(
        html`<div lang=${tag} dir=${languageDirection(tag)}><store-dropzone></store-dropzone><store-progress-list .uploader=${new ScriptedUploader()}></store-progress-list></div>`,
      );
      const [zone, list] = [wrapper.querySelector('store-dropzone')!, wrapper.querySelector('store-progress-list')!];
      await zone.updateComplete;
      await list.updateComplete;
      const t = await words(tag);
      expect(text(zone.shadowRoot!.querySelector('[part="browse-button"]')), tag).to.equal(t.dropzone.browse);
      expect(text(list.shadowRoot!.querySelector('[part="empty"]')), tag).to.equal(t.list.empty);
    }
    const traditional = await fixture(html`<div lang="zh-TW"><store-dropzone></store-dropzone></div>`);
    const zone = traditional.querySelector('store-dropzone')!;
    await zone.updateComplete;
    expect(text(zone.shadowRoot!.querySelector('[part="browse-button"]'))).to.equal('選擇檔案');
  });

  it('tell right-to-left languages apart: Arabic, Hebrew, Persian and Urdu', async () => {
    expect(BUILT_IN_LANGUAGES.filter((tag) => languageDirection(tag) === 'rtl')).to.deep.equal([
      'ar',
      'fa',
      'he',
      'ur',
    ]);
    for (const tag of ['fa', 'ur']) {
      const wrapper = await fixture(
        html`<div lang=${tag} dir=${languageDirection(tag)}><store-dropzone></store-dropzone></div>`,
      );
      const zone = wrapper.querySelector('store-dropzone')!;
      await zone.updateComplete;
      const base = zone.shadowRoot!.querySelector('[part="base"]')!;
      expect(getComputedStyle(base).direction, tag).to.equal('rtl');
      expect(text(zone.shadowRoot!.querySelector('[part="browse-button"]')), tag).to.equal(
        (await words(tag)).dropzone.browse,
      );
    }
  });
});
