import type { FieldSpec } from '../protocol/fields.ts';

/** A `fields` selection: the selection string itself, or a typed list turned into one by `fieldsOf`. */
export type FieldsOption<Name extends string = string> =
  string | readonly (Name | { readonly [N in Name]?: readonly FieldSpec[] })[];

/** Query parameter values; `undefined` ones are left out. */
export type QueryValues = Record<string, string | number | boolean | undefined>;

/** What `request` and `ApiCall` accept besides method and path. */
export interface RequestOptions {
  query?: QueryValues;
  /** A plain object is sent as JSON; strings, bytes and Blobs as they are. */
  body?: unknown;
  headers?: Record<string, string>;
  fields?: FieldsOption;
  signal?: AbortSignal;
}

/**
 * One call of the service API, not yet sent: `client.send(call)` sends it alone, `client.batch([...])` sends many in
 * one request. `Result` is the type of the JSON the call answers with (phantom: it only guides the compiler).
 */
export interface ApiCall<Result> extends RequestOptions {
  method: string;
  /** Path under the service's base URL, e.g. `/store/v3/files/abc`. */
  path: string;
  /** Never set: carries the result type. */
  readonly __result?: Result;
}

/** The result type of an `ApiCall`. */
export type ResultOf<C> = C extends ApiCall<infer R> ? R : never;
