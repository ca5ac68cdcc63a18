/**
 * Conversion feature routes: `GET /store/v3/files/<id>/export?mimeType=…` (supplement §2, §5), and the conversion
 * hook for uploads that ask for a native `mimeType` (installed here, where the feature registers).
 */
import { join } from 'node:path';
import { FILES_PATH, isNativeDocumentKind } from '../../src/protocol/index.ts';
import { setConversionHook } from '../conversion-hook.ts';
import { ConversionError, exportNative, setOcrCacheDir, terminateOcr } from '../convert/index.ts';
import { apiErrorOf, convertUpload, readNativeContent } from '../convert/upload-hook.ts';
import { ApiError } from '../errors.ts';
import { visibleFile } from '../files/commit.ts';
import type { Handler, Router } from '../router.ts';
import type { Service } from '../service.ts';

const exportFile: Handler = async (ctx) => {
  const who = ctx.user();
  const row = visibleFile(ctx.svc, ctx.params.fileId as string, who);
  const mimeType = ctx.req.query.get('mimeType');
  if (mimeType === null || mimeType.trim() === '') {
    throw new ApiError(400, 'required', 'Required parameter: mimeType', { where: { location: 'mimeType', locationType: 'parameter' } });
  }
  if (!isNativeDocumentKind(row.mimeType)) {
    throw new ApiError(403, 'fileNotExportable', `Export only supports native files; ${row.id} is ${row.mimeType}. Download it with alt=media.`, {
      where: { location: 'fileId', locationType: 'parameter' },
    });
  }
  const content = await readNativeContent(row.blob === undefined ? undefined : ctx.svc.blobs.path(row.blob), row.mimeType);
  try {
    const out = await exportNative(content, row.mimeType, mimeType);
    return { status: 200, headers: { 'Content-Type': out.mimeType, 'Content-Length': String(out.body.length) }, body: out.body };
  } catch (err) {
    if (err instanceof ConversionError) throw apiErrorOf(err);
    throw err;
  }
};

/** Registers the export route and installs conversion on import (OCR data unpacks under the data dir). */
export function registerExportRoutes(router: Router, svc: Service): void {
  router.add('GET', `${FILES_PATH}/:fileId/export`, exportFile);
  setOcrCacheDir(join(svc.dataDir, 'ocr-cache'));
  setConversionHook(convertUpload);
  // OCR workers are threads: stop them so a closed service lets the process exit.
  svc.onClose(() => terminateOcr());
}
