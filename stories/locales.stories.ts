import type { Meta, StoryObj } from '@storybook/web-components-vite';
import { html } from 'lit';
import { ScriptedUploader } from '../src/testing/scripted-uploader.ts';
import { allStates } from './all-states.ts';

/**
 * Every state in each built-in language, read in context (issue 12): right-to-left languages under `dir="rtl"`.
 * `test/e2e/story-locales.spec.ts` screenshots Arabic and Japanese at 360 and 1280 px, light and dark, and checks
 * that numbers and units stay in order.
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
