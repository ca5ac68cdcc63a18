import type { PickedFile, RejectedFile } from '../events.ts';
import { addOptionsOf, watchRefusal } from '../internal/picked-files.ts';
import { DOCUMENT_MIME } from '../../protocol/index.ts';
import type { Uploader } from '../../uploader/index.ts';
import { isOcrSource } from '../conversion-picker/import-formats.ts';
import type { StoreDropzone } from '../dropzone/store-dropzone.ts';
import { uploadTarget } from '../internal/upload-target.ts';

/**
 * Hands one picked file to the uploader with the conversion chosen in `<store-uploader>`; a conversion the
 * `beforeUpload` hook asked for wins. OCR applies to conversions to a document only. `refuse` hears of a file the
 * uploader's own `beforeUpload` refuses. `target` is `<store-uploader>`'s `parent-id` and `flatten`.
 */
function addPicked(
  uploader: Uploader,
  picked: PickedFile,
  chosen: { convertTo: string | undefined; ocrLanguage: string; target?: { parentId?: string; flatten?: boolean } },
  refuse: (file: RejectedFile) => void,
): void {
  const convertTo = picked.convertTo ?? chosen.convertTo;
  const options = {
    ...addOptionsOf(picked),
    ...(convertTo && { convertTo }),
    ...(convertTo === DOCUMENT_MIME && chosen.ocrLanguage && { ocrLanguage: chosen.ocrLanguage }),
    ...chosen.target,
  };
  watchRefusal(uploader.add(picked.file, options), picked, refuse);
}

/** What `<store-uploader>` adds through: its uploader, its folder target, and its dropzone (which lists refusals). */
export interface AddHost {
  readonly activeUploader: Uploader | undefined;
  readonly parentId: string | undefined;
  readonly flatten: boolean;
  readonly renderRoot: HTMLElement | DocumentFragment;
}

/** Adds a file picked in `<store-uploader>` with the conversion chosen for it, into the element's target folder. */
export function addFromHost(
  host: AddHost,
  picked: PickedFile,
  convertTo: string | undefined,
  ocrLanguage: string,
): void {
  const refuse = (r: RejectedFile) => host.renderRoot.querySelector<StoreDropzone>('store-dropzone')?.refuse([r]);
  const chosen = {
    convertTo,
    ocrLanguage: isOcrSource(picked.file.type) ? ocrLanguage : '',
    target: uploadTarget(host),
  };
  if (host.activeUploader) addPicked(host.activeUploader, picked, chosen, refuse);
}
