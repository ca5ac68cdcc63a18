import { renderFields, type FieldSpec } from '../protocol/fields.ts';
import type { FieldsOption, QueryValues } from './api-call.ts';

/**
 * `path?query` with `fields` turned into its selection string. Batch parts need exactly this (a URL path, never a
 * full URL: spec §4.11); single requests put the base URL in front.
 */
export function pathWithQuery(path: string, query: QueryValues = {}, fields?: FieldsOption): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  if (fields !== undefined)
    params.set('fields', typeof fields === 'string' ? fields : renderFields(fields as readonly FieldSpec[]));
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

/** Joins the service's base URL (which may carry a path prefix) and an absolute API path. */
export function joinUrl(baseUrl: string, pathAndQuery: string): string {
  return baseUrl.replace(/\/+$/, '') + pathAndQuery;
}
