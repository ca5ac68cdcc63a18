/** Conversion feature route: `GET /store/v3/files/<id>/export?mimeType=…` (supplement §2, §5). */
import { FILES_PATH, isNativeDocumentKind } from 'store-upload-kit/protocol';
import { ConversionError, exportNative } from '../convert/index.ts';
import { apiErrorOf, readNativeContent } from '../convert/upload-hook.ts';
import { ApiError, badRequest } from '../errors.ts';
import { visibleFile } from './file-commit.ts';
import type { Handler, Router } from '../router.ts';
import type { Service } from '../service-types.ts';

const exportFile: Handler = async (ctx) => {
  // The batch unwrapper refuses exports already; this keeps any other way in from streaming media into a batch.
  if (ctx.req.inBatch) throw badRequest('Media download is not supported in a batch request.');
  const who = ctx.user();
  const row = await visibleFile(ctx.svc, ctx.params.fileId, who);
  const mimeType = ctx.req.query.get('mimeType');
  if (mimeType === null || mimeType.trim() === '') {
    throw new ApiError(400, 'required', 'Required parameter: mimeType', {
      where: { location: 'mimeType', locationType: 'parameter' },
    });
  }
  if (!isNativeDocumentKind(row.mimeType)) {
    throw new ApiError(
      403,
      'fileNotExportable',
      `Export only supports native files; ${row.id} is ${row.mimeType}. Download it with alt=media.`,
      {
        where: { location: 'fileId', locationType: 'parameter' },
      },
    );
  }
  // The stored bytes as a local file (a temporary copy when they are in an object store).
  const copy = row.contentKey === undefined ? undefined : await ctx.svc.content.localCopy(row.contentKey);
  const content = await readNativeContent(copy?.path, row.mimeType).finally(() => copy?.release());
  if (content === undefined) {
    throw new ApiError(
      403,
      'fileNotExportable',
      `${row.id} holds bytes that were stored as ${row.mimeType} without conversion, so it cannot be exported. Upload the media in its own type with mimeType ${row.mimeType} in the metadata to convert it.`,
      {
        where: { location: 'fileId', locationType: 'parameter' },
      },
    );
  }
  try {
    const out = await exportNative(content, row.mimeType, mimeType);
    return {
      status: 200,
      headers: { 'Content-Type': out.mimeType, 'Content-Length': String(out.body.length) },
      body: out.body,
    };
  } catch (err) {
    if (err instanceof ConversionError) throw apiErrorOf(err);
    throw err;
  }
};

/** Registers the export route (conversion on import is wired by `createService`). */
export function registerExportRoutes(router: Router, _svc: Service): void {
  router.add('GET', `${FILES_PATH}/:fileId/export`, exportFile);
}
