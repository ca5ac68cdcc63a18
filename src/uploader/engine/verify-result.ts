import { isNativeMime } from '../../protocol/native.ts';
import { UploadError } from '../contract/upload-error.ts';
import type { StoreFile } from '../contract/types.ts';

/**
 * Compares what the service stored with what was sent: `size` and `md5Checksum` (supplement §2). Converted files
 * (native kinds) carry neither, so there is nothing to compare.
 */
export function verifyResult(file: StoreFile, sentSize: number, sentMd5: string): void {
  if (isNativeMime(file.mimeType)) return;
  if (file.size !== undefined && Number(file.size) !== sentSize) {
    throw new UploadError({
      code: 'integrity',
      message: `the service stored ${file.size} bytes; ${sentSize} were sent`,
    });
  }
  if (file.md5Checksum !== undefined && file.md5Checksum.toLowerCase() !== sentMd5) {
    throw new UploadError({
      code: 'integrity',
      message: `MD5 mismatch: the service stored ${file.md5Checksum}, the bytes sent hash to ${sentMd5}`,
    });
  }
}
