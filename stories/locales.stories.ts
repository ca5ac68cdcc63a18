import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { expect } from 'storybook/test';
import type { StoreI18n } from '../src/elements/i18n/types.ts';
import { ar } from '../src/elements/i18n/ar.ts';
import { de } from '../src/elements/i18n/de.ts';
import { en } from '../src/elements/i18n/en.ts';
import { es } from '../src/elements/i18n/es.ts';
import { fr } from '../src/elements/i18n/fr.ts';
import { he } from '../src/elements/i18n/he.ts';
import { it } from '../src/elements/i18n/it.ts';
import { ja } from '../src/elements/i18n/ja.ts';
import { nl } from '../src/elements/i18n/nl.ts';
import { pl } from '../src/elements/i18n/pl.ts';
import { pt } from '../src/elements/i18n/pt.ts';
import { zh } from '../src/elements/i18n/zh.ts';
import type { StoreProgressList } from '../src/elements/progress-list/store-progress-list.ts';
import { ScriptedUploader } from '../test/fixtures/scripted-uploader.ts';
import { BUILT_IN_LANGUAGES, languageDirection } from '../src/elements/index.ts';
import { allStates } from './all-states.ts';
import { drawn, part, ready, shadow } from './play.ts';

/**
 * Every state in each built-in language, read in context (issue 12): right-to-left languages under `dir="rtl"` (the
 * toolbar's Direction, fixed for them). `test/e2e/story-locales.spec.ts` screenshots Arabic and Japanese at 360 and
 * 1280 px, light and dark (the toolbar's Scheme), and checks that numbers and units stay in order; `AnyLanguage`
 * shows each of the 51 (pick one in its `lang` control), which the same spec screenshots one by one.
 */
const meta: Meta = { title: 'Languages/store-progress-list', component: 'store-progress-list', tags: ['!autodocs'] };
export default meta;
type Story = StoryObj;

/** A language's story: its words on every row (the waiting row's state and its Cancel button), in its direction. */
const inLanguage = (lang: string, words: StoreI18n | undefined, dir: 'ltr' | 'rtl' = 'ltr'): Story => ({
  ...(dir === 'rtl' && { globals: { dir: 'rtl' } }),
  render: () =>
    html`<div lang=${lang} class="all-rows"><store-progress-list .uploader=${new ScriptedUploader({ tasks: allStates })}></store-progress-list></div>`,
  play: async ({ canvasElement }) => {
    const el = await ready<StoreProgressList>(canvasElement, 'store-progress-list');
    const row = part(el, '[data-id="kb40"]');
    if (words) {
      await expect(row.querySelector('[part="state"]')).toHaveAttribute('title', words.states.queued);
      await expect(shadow(el).getByRole('button', { name: words.actions.cancel('notes.txt') })).toBeVisible();
    }
    await expect(drawn(row).direction).toBe(dir);
  },
});

export const Arabic = inLanguage('ar', ar, 'rtl');
export const Hebrew = inLanguage('he', he, 'rtl');
export const Japanese = inLanguage('ja', ja);
export const Chinese = inLanguage('zh', zh);
export const German = inLanguage('de', de);
export const Spanish = inLanguage('es', es);
export const Italian = inLanguage('it', it);
export const Portuguese = inLanguage('pt', pt);
export const Dutch = inLanguage('nl', nl);
export const Polish = inLanguage('pl', pl);
export const French = inLanguage('fr', fr);
export const English = inLanguage('en', en);
export const EnglishRtlPage = inLanguage('en', en, 'rtl');

/** Any built-in language, under the direction it is written in: `?args=lang:fa`. */
export const AnyLanguage: StoryObj<{ lang: string }> = {
  args: { lang: 'ko' },
  argTypes: { lang: { control: 'select', options: [...BUILT_IN_LANGUAGES] } },
  // The direction follows the chosen language (the fixed stories set it through the toolbar's Direction).
  render: (args, context) =>
    html`<div dir=${languageDirection(args.lang)}>${inLanguage(args.lang, undefined).render!(args, context)}</div>`,
};
