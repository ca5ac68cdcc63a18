import { en } from '../i18n/en.ts';

/**
 * The inner elements' parts, re-exported so a page styles them through the uploader (`store-uploader::part(row)`);
 * each `base` is renamed after its element, the other names are unique already.
 */
export const DROPZONE_PARTS = 'base:dropzone-base,prompt,buttons,browse-button,folder-button,rejections';
// Every task state has English words, so their keys are the `row-<state>` parts.
export const LIST_PARTS = `base:progress-list-base,header,summary,total-progress,bulk-actions,bulk-action,empty,list,row,icon,thumbnail,name,size,progress,progress-bar,state,rate,actions,action,action-primary,action-secondary,action-rechoose,action-download,download-as,${Object.keys(
  en.states,
).map((s) => `row-${s}`)}`;
