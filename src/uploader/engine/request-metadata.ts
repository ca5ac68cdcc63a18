import type { UploadInput } from './upload-context.ts';

/**
 * The metadata JSON of a create or update, and the query of the upload request. A conversion sets the metadata
 * `mimeType` to the native kind while the media keeps its own type (spec §4.8).
 */
export function requestMetadata(input: UploadInput): { metadata: Record<string, unknown>; query: Record<string, string> } {
  const { options } = input;
  const metadata: Record<string, unknown> = { ...options.metadata };
  if (!input.options.updateFileId && metadata.name === undefined) metadata.name = input.name;
  if (options.convertTo) metadata.mimeType = options.convertTo;
  else if (metadata.mimeType === undefined && input.type && !options.updateFileId) metadata.mimeType = input.type;
  const query: Record<string, string> = {};
  if (options.ocrLanguage) query.ocrLanguage = options.ocrLanguage;
  return { metadata, query };
}

/** `name + size + lastModified + type`: the same file added again resumes its session. */
export function fingerprintOf(input: { name: string; size: number; lastModified: number; type: string }): string {
  return JSON.stringify([input.name, input.size, input.lastModified, input.type]);
}
