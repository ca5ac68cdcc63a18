/**
 * Shape of a resource for validating `fields`: `leaf` is a scalar or opaque value; `fields` lists an object's
 * members; `map` is an object with arbitrary keys (e.g. importFormats). Arrays are described by their element.
 */
export type FieldSchema =
  'leaf' | { readonly fields: { readonly [name: string]: FieldSchema } } | { readonly map: FieldSchema };
