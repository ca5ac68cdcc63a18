/**
 * Creating and updating files from validated metadata and optional media: permission and parent checks,
 * pre-generated IDs (supplement §4), conversion to native kinds (through the conversion hook).
 */
import { FOLDER_MIME, isNativeDocumentKind, isNativeMime, MESSAGES } from 'store-upload-kit/protocol';
import { fileFor } from '../access.ts';
import type { Principal } from '../access.ts';
import { ApiError, badRequest } from '../errors.ts';
import type { Service } from '../service-types.ts';
import type { ContentRef, FileRow } from '../store/files.ts';
import { isStorageFailure } from '../store/storage-failure.ts';
import { idList, type IncomingMetadata } from './incoming-metadata.ts';

/** Media received for a file, already stored (under its content key). */
export interface ReceivedMedia {
  readonly contentKey: string;
  readonly size: number;
  readonly md5: string;
  /** MIME type the bytes were sent as. */
  readonly contentType: string;
  /**
   * The caller takes the content back when storage refuses the commit (a resumable session returns it to its part, so
   * a retry completes the file); otherwise a refused commit removes it.
   */
  readonly retainedOnStorageFailure?: boolean;
}

/** Reads a file the caller can see, or throws 404 "File not found". */
export function visibleFile(svc: Service, fileId: string, who: Principal): Promise<FileRow> {
  return fileFor(svc.files, fileId, who, 'see');
}

/** Reads a file the caller may modify: 404 if invisible, 403 if only a reader. */
export function writableFile(svc: Service, fileId: string, who: Principal): Promise<FileRow> {
  return fileFor(svc.files, fileId, who, 'write');
}

async function checkParents(svc: Service, parents: readonly string[], who: Principal, self?: string): Promise<void> {
  for (const p of parents) {
    if (p === self) throw badRequest(`A file cannot be its own parent (${p}).`);
    const row = await fileFor(svc.files, p, who, 'see');
    if (row.mimeType !== FOLDER_MIME) throw badRequest(`The parent ${p} is not a folder.`);
    await fileFor(svc.files, p, who, 'write');
    if (self !== undefined && (await isDescendant(svc, p, self))) {
      throw badRequest(
        `The folder ${p} is inside ${self}; a folder cannot be moved into itself or one of its subfolders.`,
      );
    }
  }
}

/** True when `fileId` lies somewhere below `ancestor` (a move there would make a cycle that nothing can reach). */
async function isDescendant(svc: Service, fileId: string, ancestor: string): Promise<boolean> {
  const seen = new Set<string>();
  const todo = [fileId];
  for (let id = todo.pop(); id !== undefined; id = todo.pop()) {
    if (seen.has(id)) continue;
    seen.add(id);
    for (const parent of (await svc.files.get(id))?.parents ?? []) {
      if (parent === ancestor) return true;
      todo.push(parent);
    }
  }
  return false;
}

/** The native kind media must be converted to, if any (create: the metadata's `mimeType`). */
export function conversionTarget(meta: IncomingMetadata, existing?: FileRow): string | undefined {
  if (meta.mimeType !== undefined) return isNativeDocumentKind(meta.mimeType) ? meta.mimeType : undefined;
  return existing && isNativeDocumentKind(existing.mimeType) ? existing.mimeType : undefined;
}

/**
 * Refuses media sent as a native kind or a folder when nothing converts it: the bytes would be stored as is under
 * a type that promises converted content (not downloadable, not exportable).
 */
export function checkMediaType(contentType: string, target: string | undefined): void {
  if (target || !isNativeMime(contentType)) return;
  const why =
    contentType === FOLDER_MIME
      ? 'a folder has no content'
      : `it is a native kind; send the bytes in their own type, with mimeType ${contentType} in the metadata to convert them`;
  throw new ApiError(400, 'badRequest', `Media cannot be uploaded with the type ${contentType}: ${why}.`, {
    where: { location: 'Content-Type', locationType: 'header' },
  });
}

/**
 * Before any media is received, for an upload that names the media's type: a conversion the service already knows it
 * would refuse (a pair of types it cannot convert, a malformed `ocrLanguage`) is refused now, not after every byte.
 */
export function checkConversion(
  svc: Service,
  contentType: string,
  target: string | undefined,
  meta: IncomingMetadata,
  query: URLSearchParams,
): void {
  if (!target) return;
  svc.convert?.check?.({
    sourceMimeType: contentType,
    targetMimeType: target,
    ocrLanguage: query.get('ocrLanguage') ?? undefined,
    name: meta.name,
  });
}

/**
 * Checks a create before any bytes are received (so a resumable start or multipart fails early):
 * generated ID rules, parents, folder with media, and that conversion is available when asked for.
 */
export async function checkCreate(
  svc: Service,
  who: Principal,
  meta: IncomingMetadata,
  withMedia: boolean,
): Promise<void> {
  const target = conversionTarget(meta);
  if (withMedia && meta.mimeType === FOLDER_MIME)
    throw badRequest('A folder cannot have content; create it without media.');
  if (withMedia && meta.mimeType !== undefined && isNativeMime(meta.mimeType) && !target) {
    throw badRequest(`Media cannot be uploaded as ${meta.mimeType}.`);
  }
  if (meta.id !== undefined) {
    if ((meta.mimeType !== undefined && isNativeDocumentKind(meta.mimeType)) || (withMedia && target)) {
      throw new ApiError(403, 'forbidden', MESSAGES.generatedIdsNotSupported);
    }
    const status = await svc.files.generatedIdStatus(meta.id, who.email);
    if (status === 'in-use') throw fileIdInUse();
    if (status === 'not-usable')
      throw new ApiError(400, 'invalidParameter', MESSAGES.fileIdNotUsable, {
        where: { location: 'id', locationType: 'body' },
      });
  }
  await checkParents(svc, meta.parents ?? [], who);
  if (withMedia && target && !svc.convert) throw badRequest('conversion not available');
}

/** 409: the pre-generated ID names a file that exists (a retried create, or one that lost a race for the ID). */
function fileIdInUse(): ApiError {
  return new ApiError(409, 'fileIdInUse', MESSAGES.fileIdInUse, { where: { location: 'id', locationType: 'body' } });
}

/** Checks an update before bytes are received. */
export async function checkUpdate(
  svc: Service,
  who: Principal,
  fileId: string,
  meta: IncomingMetadata,
  query: URLSearchParams,
  withMedia: boolean,
): Promise<FileRow> {
  const row = await writableFile(svc, fileId, who);
  if (meta.id !== undefined && meta.id !== fileId)
    throw badRequest(`The id in the metadata (${meta.id}) does not match the file ${fileId}.`);
  if (withMedia && row.mimeType === FOLDER_MIME) throw badRequest('A folder cannot have content.');
  if (meta.mimeType !== undefined && meta.mimeType !== row.mimeType) {
    if (row.mimeType === FOLDER_MIME || meta.mimeType === FOLDER_MIME)
      throw badRequest('A file cannot be turned into a folder or back.');
    if (isNativeMime(meta.mimeType) && !withMedia)
      throw badRequest(`Changing the mimeType to ${meta.mimeType} needs media to convert.`);
  }
  const target = conversionTarget(meta, row);
  if (withMedia && target && !svc.convert) throw badRequest('conversion not available');
  await checkParents(svc, idList(query.get('addParents')), who, fileId);
  return row;
}

/**
 * Turns received media into content: as is, or converted to `target`. A converted file's source stays until the
 * commit decides its fate (`committing`): a storage failure must leave a resumable session its bytes to retry with.
 */
async function toContent(
  svc: Service,
  media: ReceivedMedia,
  target: string | undefined,
  meta: IncomingMetadata,
  query: URLSearchParams,
): Promise<ContentRef> {
  if (!target) return { contentKey: media.contentKey, size: media.size, md5: media.md5 };
  const convert = svc.convert;
  try {
    if (!convert) throw badRequest('conversion not available');
    // The source as a local file (a temporary copy when it is in an object store), released once converted.
    const source = await svc.content.localCopy(media.contentKey);
    const out = await convert({
      sourcePath: source.path,
      sourceMimeType: media.contentType,
      targetMimeType: target,
      size: media.size,
      ocrLanguage: query.get('ocrLanguage') ?? undefined,
      name: meta.name,
    }).finally(() => source.release());
    // Written whole or not at all (a temp file renamed, one object): a failure leaves no half-converted content.
    const written = await svc.content.writeBytes(out.content);
    return { contentKey: written.key, size: undefined, md5: undefined };
  } catch (e) {
    if (!keepsSource(media, e)) await svc.content.remove(media.contentKey);
    throw e;
  }
}

/** Whether a failed commit or conversion leaves the received bytes for their session to take back and retry. */
function keepsSource(media: ReceivedMedia | undefined, e: unknown): boolean {
  return media?.retainedOnStorageFailure === true && isStorageFailure(e);
}

/** Creates a file (metadata-only when `media` is undefined). Re-checks everything: bytes may have taken a while. */
export async function createFile(
  svc: Service,
  who: Principal,
  meta: IncomingMetadata,
  media: ReceivedMedia | undefined,
  query: URLSearchParams,
): Promise<FileRow> {
  const target = conversionTarget(meta);
  try {
    await checkCreate(svc, who, meta, media !== undefined);
    if (media) checkMediaType(media.contentType, target);
  } catch (e) {
    if (media) await svc.content.remove(media.contentKey);
    throw e;
  }
  const content = media ? await toContent(svc, media, target, meta, query) : undefined;
  const mimeType = target ?? meta.mimeType ?? media?.contentType ?? 'application/octet-stream';
  const isEmptyMedia = !content && !isNativeMime(mimeType);
  return committing(svc, content, media, () =>
    svc.files.create(
      {
        ...(meta.id !== undefined ? { id: meta.id } : {}),
        name: meta.name ?? 'Untitled',
        mimeType,
        ...(meta.description !== undefined ? { description: meta.description } : {}),
        ...(meta.originalFilename !== undefined ? { originalFilename: meta.originalFilename } : {}),
        parents: meta.parents ?? [],
        trashed: meta.trashed ?? false,
        // A metadata-only create of an ordinary type is an empty file: size 0 and the MD5 of nothing.
        ...(content
          ? { content }
          : isEmptyMedia
            ? { content: { contentKey: undefined, size: 0, md5: 'd41d8cd98f00b204e9800998ecf8427e' } }
            : {}),
      },
      who,
      fileIdInUse,
    ),
  );
}

/**
 * Runs the commit of new content; when it is refused (the file was deleted or the caller's access revoked while
 * the bytes arrived or converted) the content is removed, so no content is left that no file points to. A converted
 * file's source goes once the commit is done, or with a refused commit unless its session takes it back.
 */
async function committing(
  svc: Service,
  content: ContentRef | undefined,
  media: ReceivedMedia | undefined,
  commit: () => Promise<FileRow>,
): Promise<FileRow> {
  const converted =
    content?.contentKey !== undefined && content.contentKey !== media?.contentKey ? content.contentKey : undefined;
  let row: FileRow;
  try {
    row = await commit();
  } catch (e) {
    if (converted !== undefined) await svc.content.remove(converted);
    if (media && !keepsSource(media, e)) await svc.content.remove(media.contentKey);
    throw e;
  }
  if (media && converted !== undefined) await svc.content.remove(media.contentKey);
  return row;
}

/** Updates metadata and/or content of a file. */
export async function updateFile(
  svc: Service,
  who: Principal,
  fileId: string,
  meta: IncomingMetadata,
  media: ReceivedMedia | undefined,
  query: URLSearchParams,
): Promise<FileRow> {
  let row: FileRow;
  let target: string | undefined;
  try {
    row = await checkUpdate(svc, who, fileId, meta, query, media !== undefined);
    target = media ? conversionTarget(meta, row) : undefined;
    if (media) checkMediaType(media.contentType, target);
  } catch (e) {
    if (media) await svc.content.remove(media.contentKey);
    throw e;
  }
  const content = media ? await toContent(svc, media, target, meta, query) : undefined;
  let mimeType = meta.mimeType;
  if (media && !target && meta.mimeType === undefined && !isNativeMime(row.mimeType)) mimeType = media.contentType;
  if (target) mimeType = target;
  return committing(svc, content, media, () =>
    svc.files.update(
      fileId,
      {
        ...(meta.name !== undefined ? { name: meta.name } : {}),
        ...(mimeType !== undefined ? { mimeType } : {}),
        ...(meta.description !== undefined ? { description: meta.description } : {}),
        ...(meta.originalFilename !== undefined ? { originalFilename: meta.originalFilename } : {}),
        ...(meta.trashed !== undefined ? { trashed: meta.trashed } : {}),
        addParents: idList(query.get('addParents')),
        removeParents: idList(query.get('removeParents')),
        ...(content ? { content } : {}),
      },
      who,
    ),
  );
}
