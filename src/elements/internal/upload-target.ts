/** Where an element's files go: its `parent-id` and `flatten` when set; otherwise the uploader's own options apply. */
export function uploadTarget(el: { parentId?: string | undefined; flatten?: boolean }): {
  parentId?: string;
  flatten?: boolean;
} {
  return { ...(el.parentId ? { parentId: el.parentId } : {}), ...(el.flatten ? { flatten: true } : {}) };
}
