/** Conversion on import for one service: OCR settings from the config, and the upload conversion itself. */
import { join } from 'node:path';
import type { ServiceConfig } from '../config.ts';
import type { ConvertUpload } from '../conversion-types.ts';
import { DEFAULT_OCR_IDLE_MS, setOcrCacheDir, setOcrIdleMs } from './ocr.ts';
import { convertUpload } from './upload-hook.ts';

export { terminateOcr } from './ocr.ts';

/**
 * The conversion of a service with data in `dataDir` (OCR data unpacks under it). The config file's `ocrIdleMs`
 * (non-negative number) sets how long an idle OCR worker is kept; a bad value stops startup naming it.
 */
export function conversionFor(dataDir: string, config: ServiceConfig): ConvertUpload {
  setOcrCacheDir(join(dataDir, 'ocr-cache'));
  const idle = config.extra['ocrIdleMs'] ?? DEFAULT_OCR_IDLE_MS;
  if (typeof idle !== 'number' || !Number.isFinite(idle) || idle < 0) {
    throw new Error(`config: ocrIdleMs must be a non-negative number of milliseconds; got ${JSON.stringify(idle)}`);
  }
  setOcrIdleMs(idle);
  return convertUpload;
}
