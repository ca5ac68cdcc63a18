/**
 * JSON and the script plain-text type → script project. A JSON object shaped like a script project
 * (`{files: [{name, type, source}]}`) keeps its files; any other valid JSON becomes one `json` file, so nothing is lost.
 */
import { SCRIPT_TEXT_MIME } from 'store-upload-kit/protocol';
import { ConversionError } from './conversion-error.ts';
import { decodeText } from './decode-text.ts';
import type { Importer } from './importer.ts';
import type { ScriptFile } from './native-content.ts';

/** Imports a script source (plain text) or a JSON script project. */
export const importScript: Importer = async (bytes, ctx) => {
  if (ctx.mimeType === SCRIPT_TEXT_MIME) {
    const source = decodeText(bytes, 'script text', ctx.charset);
    return { kind: 'script', files: [{ name: 'Code', type: 'server_js', source }] };
  }
  const text = decodeText(bytes, 'JSON file', ctx.charset);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    throw new ConversionError('corrupt', `The JSON file could not be parsed: ${detail}`, { cause: err });
  }
  const files = projectFiles(value);
  return { kind: 'script', files: files ?? [{ name: 'appsscript', type: 'json', source: text }] };
};

/** The files of a script-project JSON value, or undefined when it does not have that shape. */
function projectFiles(value: unknown): ScriptFile[] | undefined {
  if (typeof value !== 'object' || value === null || !('files' in value) || !Array.isArray(value.files))
    return undefined;
  const files: ScriptFile[] = [];
  for (const f of value.files as unknown[]) {
    if (typeof f !== 'object' || f === null) return undefined;
    const { name, type, source } = f as Record<string, unknown>;
    if (typeof name !== 'string' || typeof source !== 'string') return undefined;
    files.push({ name, type: typeof type === 'string' ? type : 'server_js', source });
  }
  return files;
}
