import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { ScriptedUploader } from '../src/testing/scripted-uploader.ts';
import { BUILT_IN_LANGUAGES, languageDirection } from '../src/elements/index.ts';
import { allStates } from './all-states.ts';

/**
 * Every state in each built-in language, read in context (issue 12): right-to-left languages under `dir="rtl"`.
 * `test/e2e/story-locales.spec.ts` screenshots Arabic and Japanese at 360 and 1280 px, light and dark, and checks
 * that numbers and units stay in order; `AnyLanguage` shows each of the 51 (pick one in its `lang` control), which
 * the same spec screenshots one by one.
 */
const meta: Meta = { title: 'Languages/store-progress-list', component: 'store-progress-list' };
export default meta;
type Story = StoryObj;

const inLanguage = (lang: string, dir: 'ltr' | 'rtl' = 'ltr'): Story => ({
  render: (_args, { globals }) =>
    html`<div lang=${lang} dir=${dir} class="all-rows ${globals['scheme'] === 'dark' ? 'dark-page' : ''}">
      <store-progress-list color-scheme=${globals['scheme'] === 'dark' ? 'dark' : 'light'} .uploader=${new ScriptedUploader({ tasks: allStates })}></store-progress-list>
    </div>`,
});

/** Any built-in language, under the direction it is written in: `?args=lang:fa`. */
export const AnyLanguage: StoryObj<{ lang: string }> = {
  args: { lang: 'ko' },
  argTypes: { lang: { control: 'select', options: [...BUILT_IN_LANGUAGES] } },
  render: (args, context) => inLanguage(args.lang, languageDirection(args.lang)).render!(args, context),
};

export const Arabic = inLanguage('ar', 'rtl');
export const Hebrew = inLanguage('he', 'rtl');
export const Japanese = inLanguage('ja');
export const Chinese = inLanguage('zh');
export const German = inLanguage('de');
export const Spanish = inLanguage('es');
export const Italian = inLanguage('it');
export const Portuguese = inLanguage('pt');
export const Dutch = inLanguage('nl');
export const Polish = inLanguage('pl');
export const French = inLanguage('fr');
export const English = inLanguage('en');
export const EnglishRtlPage = inLanguage('en', 'rtl');
