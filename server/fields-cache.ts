/**
 * Parsed and validated `fields` selections, kept per resource schema. Every call with `fields` had its selection
 * parsed and validated twice (dispatch checks it before the handler; the answer applied it): a batch of 100
 * calls with the same `fields` did that 200 times. A selection that fails is not kept (it throws each time).
 */
import {
  applyFields,
  parseFields,
  validateFields,
  type FieldSchema,
  type FieldSelection,
} from 'store-upload-kit/protocol';

/** Distinct selections kept per schema; clients choose them, so the cache is bounded and starts over when full. */
const MAX_PER_SCHEMA = 256;

// Keyed by the schema constant itself (the protocol's `*_SCHEMA` values; no schema is built per request).
const cache = new Map<FieldSchema, Map<string, FieldSelection>>();

/** The parsed selection, checked against `schema`. @throws FieldsError for a bad selection. */
export function checkedSelection(selection: string, schema: FieldSchema): FieldSelection {
  let known = cache.get(schema);
  const hit = known?.get(selection);
  if (hit) return hit;
  const sel = parseFields(selection);
  validateFields(sel, schema, selection);
  if (!known) cache.set(schema, (known = new Map<string, FieldSelection>()));
  if (known.size >= MAX_PER_SCHEMA) known.clear();
  known.set(selection, sel);
  return sel;
}

/** `selectFields` through the cache: parse (once), validate (once), apply. */
export function selectCachedFields(value: unknown, selection: string, schema: FieldSchema): unknown {
  return applyFields(value, checkedSelection(selection, schema));
}
