import type { DeepPartial, StoreI18n } from './types.ts';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Merges `overrides` over `base` at every depth; functions and strings are replaced whole. */
export function mergeI18n(base: StoreI18n, overrides?: DeepPartial<StoreI18n>): StoreI18n {
  if (!overrides) return base;
  const merge = (a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> => {
    const out: Record<string, unknown> = { ...a };
    for (const [key, value] of Object.entries(b)) {
      if (value === undefined) continue;
      out[key] = isPlainObject(value) && isPlainObject(a[key]) ? merge(a[key], value) : value;
    }
    return out;
  };
  return merge(base as unknown as Record<string, unknown>, overrides) as unknown as StoreI18n;
}
