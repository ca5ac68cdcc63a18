/**
 * The conversion hook for uploads (server/conversion-types.ts): runs `convert`, stores the native content as JSON,
 * and turns `ConversionError`s into the service's `ApiError`s. Also reads stored content back for export.
 */
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { isNativeDocumentKind } from 'store-upload-kit/protocol';
import type { NativeKind } from 'store-upload-kit/protocol';
import type { ConversionInput, ConversionOutput, ConvertUpload } from '../conversion-types.ts';
import { ApiError } from '../errors.ts';
import { ConversionError } from './conversion-error.ts';
import { convert, unsupported } from './convert.ts';
import { importerFor } from './formats.ts';
import { ocrLangFor } from './ocr-language.ts';
import { MIME, baseMime } from './mime-types.ts';
import type { NativeContent } from './native-content.ts';

/** Source types guessed from a file name when the media came without one (`application/octet-stream`). */
const BY_EXTENSION: Readonly<Record<string, string>> = {
  '.docx': MIME.docx,
  '.dotx': MIME.dotx,
  '.docm': MIME.docm,
  '.doc': MIME.doc,
  '.odt': MIME.odt,
  '.rtf': MIME.rtf,
  '.html': MIME.html,
  '.htm': MIME.html,
  '.txt': MIME.plain,
  '.md': MIME.markdown,
  '.markdown': MIME.markdown,
  '.pdf': MIME.pdf,
  '.jpg': MIME.jpeg,
  '.jpeg': MIME.jpeg,
  '.png': MIME.png,
  '.gif': MIME.gif,
  '.bmp': MIME.bmp,
  '.xlsx': MIME.xlsx,
  '.xlsm': MIME.xlsm,
  '.xls': MIME.xls,
  '.ods': MIME.ods,
  '.csv': MIME.csv,
  '.tsv': MIME.tsv,
  '.pptx': MIME.pptx,
  '.pptm': MIME.pptm,
  '.ppt': MIME.ppt,
  '.odp': MIME.odp,
  '.json': MIME.json,
};

/** The source type to convert from: the declared one, or for untyped media the one the file name suggests. */
function sourceTypeOf(declared: string, name: string | undefined): string {
  if (baseMime(declared) !== 'application/octet-stream' || !name) return declared;
  return BY_EXTENSION[extname(name).toLowerCase()] ?? declared;
}

/** The `ApiError` a conversion failure answers with. */
export function apiErrorOf(err: ConversionError): ApiError {
  switch (err.code) {
    case 'badOcrLanguage':
      return new ApiError(400, 'invalidParameter', err.message, {
        where: { location: 'ocrLanguage', locationType: 'parameter' },
      });
    case 'unsupportedExport':
      return new ApiError(400, 'invalidParameter', err.message, {
        where: { location: 'mimeType', locationType: 'parameter' },
      });
    case 'ocrFailed':
      return new ApiError(500, 'backendError', err.message);
    default:
      return new ApiError(400, 'badRequest', err.message);
  }
}

/** A conversion failure as the `ApiError` it answers with; anything else as it came. */
function answerOf(err: unknown): unknown {
  return err instanceof ConversionError ? apiErrorOf(err) : err;
}

/**
 * The refusals known before the media arrives: a target that is no native kind, a pair no importer takes, a
 * malformed `ocrLanguage`. Returns the target, known to be a native kind.
 */
function checkBeforeMedia(input: Omit<ConversionInput, 'sourcePath' | 'size'>): NativeKind {
  const target = input.targetMimeType;
  if (!isNativeDocumentKind(target)) throw new ApiError(400, 'badRequest', `Media cannot be converted to ${target}.`);
  const source = baseMime(sourceTypeOf(input.sourceMimeType, input.name));
  try {
    if (!importerFor(source, target)) throw unsupported(source, target);
    ocrLangFor(input.ocrLanguage);
  } catch (err) {
    throw answerOf(err);
  }
  return target;
}

/** Converts an upload's media and returns the native content as UTF-8 JSON, the form `readNativeContent` reads. */
async function convertMedia(input: ConversionInput): Promise<ConversionOutput> {
  const target = checkBeforeMedia(input);
  try {
    const content = await convert(
      { path: input.sourcePath, mimeType: sourceTypeOf(input.sourceMimeType, input.name), size: input.size },
      target,
      input.ocrLanguage === undefined ? {} : { ocrLanguage: input.ocrLanguage },
    );
    return { content: new TextEncoder().encode(JSON.stringify(content)) };
  } catch (err) {
    throw answerOf(err);
  }
}

export const convertUpload: ConvertUpload = Object.assign(convertMedia, { check: checkBeforeMedia });

const EMPTY: Readonly<Record<NativeKind, () => NativeContent>> = {
  'application/vnd.svc-apps.document': () => ({ kind: 'document', blocks: [] }),
  'application/vnd.svc-apps.spreadsheet': () => ({ kind: 'spreadsheet', sheets: [{ name: 'Sheet1', rows: [] }] }),
  'application/vnd.svc-apps.presentation': () => ({ kind: 'presentation', slides: [] }),
  'application/vnd.svc-apps.script': () => ({ kind: 'script', files: [] }),
};

const KIND_NAME: Readonly<Record<NativeKind, NativeContent['kind']>> = {
  'application/vnd.svc-apps.document': 'document',
  'application/vnd.svc-apps.spreadsheet': 'spreadsheet',
  'application/vnd.svc-apps.presentation': 'presentation',
  'application/vnd.svc-apps.script': 'script',
};

/**
 * Stored native content of a file; a native file created without media (nothing stored) is empty content of its
 * kind. `undefined` when what is stored is not converted content of that kind (raw bytes stored under a native
 * type), so export can say so instead of failing on them.
 */
export async function readNativeContent(
  contentPath: string | undefined,
  kind: NativeKind,
): Promise<NativeContent | undefined> {
  if (contentPath === undefined) return EMPTY[kind]();
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(contentPath, 'utf8'));
  } catch (err) {
    if (err instanceof SyntaxError) return undefined;
    throw err;
  }
  const ok = typeof parsed === 'object' && parsed !== null && (parsed as { kind?: unknown }).kind === KIND_NAME[kind];
  return ok ? (parsed as NativeContent) : undefined;
}
