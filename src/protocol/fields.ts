/**
 * The `fields` parameter (partial responses, spec §4.9 and supplement §3): parse a selection, check its names
 * against a resource schema, and project a response onto it. The service calls `selectFields` for every response
 * that returns data; the client builds selections with `fieldsOf`.
 */
import { applyFields } from './fields-apply.ts';
import { parseFields } from './fields-parse.ts';
import type { FieldSchema } from './fields-schema.ts';
import { validateFields } from './fields-validate.ts';

export { FieldsError, type FieldsErrorCode } from './fields-error.ts';
export { applyFields } from './fields-apply.ts';
export { MAX_FIELDS_DEPTH, parseFields, type FieldSelection } from './fields-parse.ts';
export type { FieldSchema } from './fields-schema.ts';
export { validateFields } from './fields-validate.ts';

/**
 * Parse, validate and apply: the one call the service makes for a response that returns data when the request has
 * a `fields` parameter (without one, the full representation is sent; error bodies are never filtered).
 * `selection` is the URL-decoded query value; for a list operation `value` and `schema` are the collection
 * (`files(id,name),nextPageToken`). Throws `FieldsError` for a bad selection.
 */
export function selectFields(value: unknown, selection: string, schema: FieldSchema): unknown {
  const sel = parseFields(selection);
  validateFields(sel, schema, selection);
  return applyFields(value, sel);
}

/** One entry of a typed selection: a name or `a/b` path, or names mapped to their sub-selections. */
export type FieldSpec = string | { readonly [name: string]: readonly FieldSpec[] };

/**
 * Build a selection string from a typed list (used by the client):
 * `fieldsOf(['id', 'name', {permissions: ['id','role']}]) === 'id,name,permissions(id,role)'`.
 * The result is parsed before it is returned, so a spec that cannot be written (an empty list, a bad name)
 * throws `FieldsError` here rather than coming back from the service as a 400.
 */
export function fieldsOf(spec: readonly FieldSpec[]): string {
  const selection = renderFields(spec);
  parseFields(selection);
  return selection;
}

/**
 * The selection string of a typed list, unchecked: what the client sends (the service answers a bad one with a 400
 * that says what is wrong), so the upload worker need not carry the parser. `fieldsOf` checks it too.
 */
export function renderFields(spec: readonly FieldSpec[]): string {
  return spec
    .map((entry) =>
      typeof entry === 'string'
        ? entry
        : Object.entries(entry)
            .map(([name, sub]) => `${name}(${renderFields(sub)})`)
            .join(','),
    )
    .join(',');
}
