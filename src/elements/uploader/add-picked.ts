import type { PickedFile, RejectedFile } from '../events.ts';
import { addOptionsOf, watchRefusal } from '../internal/before-upload.ts';
import { DOCUMENT_MIME } from '../../protocol/index.ts';
import type { Uploader } from '../../uploader/index.ts';

/**
 * Hands one picked file to the uploader with the conversion chosen in `<store-uploader>`; a conversion the
 * `beforeUpload` hook asked for wins. OCR applies to conversions to a document only. `refuse` hears of a file the
 * uploader's own `beforeUpload` refuses. `target` is `<store-uploader>`'s `parent-id` and `flatten`.
 */
export function addPicked(uploader: Uploader, picked: PickedFile, chosen: { convertTo: string | undefined; ocrLanguage: string; target?: { parentId?: string; flatten?: boolean } }, refuse: (file: RejectedFile) => void): void {
  const convertTo = picked.convertTo ?? chosen.convertTo;
  const options = {
    ...addOptionsOf(picked),
    ...(convertTo && { convertTo }),
    ...(convertTo === DOCUMENT_MIME && chosen.ocrLanguage && { ocrLanguage: chosen.ocrLanguage }),
    ...chosen.target,
  };
  watchRefusal(uploader.add(picked.file, options), picked, refuse);
}
