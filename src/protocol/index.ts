/** Public entry of the protocol layer: every wire definition shared by the kit and the reference service. */
export * from './routes.ts';
export * from './headers.ts';
export * from './errors.ts';
export * from './content-range.ts';
export * from './blocks.ts';
export * from './session-put-rules.ts';
export * from './backoff.ts';
export * from './native.ts';
export * from './export-extension.ts';
export * from './media-type.ts';
export * from './schema.ts';
export * from './fields.ts';
export * from './multipart.ts';
export { invalidUtf8At, loneSurrogateAt, strictJsonText } from './json-text.ts';
export * from './batch-codec.ts';
export * from './push.ts';
