import type { TaskState } from '../../uploader/index.ts';

/** Every task state, each a `row-<state>` part (a record, so that a new state fails to compile until it is here). */
const STATES: Record<TaskState, 0> = {
  queued: 0,
  uploading: 0,
  paused: 0,
  retrying: 0,
  verifying: 0,
  done: 0,
  failed: 0,
  cancelled: 0,
  interrupted: 0,
};

/**
 * The inner elements' parts, re-exported so a page styles them through the uploader (`store-uploader::part(row)`);
 * each `base` is renamed after its element, the other names are unique already.
 */
export const DROPZONE_PARTS = 'base:dropzone-base,prompt,buttons,browse-button,folder-button,rejections';
export const LIST_PARTS = `base:progress-list-base,header,summary,total-progress,bulk-actions,bulk-action,empty,list,row,icon,thumbnail,name,size,progress,progress-bar,state,rate,actions,action,action-primary,action-secondary,action-rechoose,action-download,download-as,${Object.keys(
  STATES,
)
  .map((s) => `row-${s}`)
  .join(',')}`;
