import { svg } from 'lit';
import type { SVGTemplateResult } from 'lit';

/** What a file is, for its icon: from its media type, else its extension. */
export type FileKind =
  'document' | 'spreadsheet' | 'presentation' | 'pdf' | 'image' | 'audio' | 'video' | 'archive' | 'code' | 'other';

const BY_EXTENSION: Readonly<Record<string, FileKind>> = {};
const add = (kind: FileKind, extensions: string): void => {
  for (const e of extensions.split(' ')) (BY_EXTENSION as Record<string, FileKind>)[e] = kind;
};
add('document', 'doc docx odt rtf txt md pages gdoc');
add('spreadsheet', 'xls xlsx ods csv tsv numbers gsheet');
add('presentation', 'ppt pptx odp key gslides');
add('pdf', 'pdf');
add('archive', 'zip gz tgz bz2 xz 7z rar tar zst');
add('code', 'js mjs ts tsx jsx json html css py rb go rs java c h cpp cs sh php xml yaml yml toml sql kt swift');

/** The kind of a file named `name` with media type `type` (which wins when it says enough). */
export function fileKind(name: string, type = ''): FileKind {
  const major = type.split('/')[0];
  if (major === 'image' || major === 'audio' || major === 'video') return major;
  if (type === 'application/pdf') return 'pdf';
  if (/spreadsheet|excel|csv/.test(type)) return 'spreadsheet';
  if (/presentation|powerpoint/.test(type)) return 'presentation';
  if (/wordprocessing|msword|opendocument\.text|^text\/plain/.test(type)) return 'document';
  if (/zip|compressed|tar|gzip/.test(type)) return 'archive';
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? '';
  if (/^(png|jpe?g|gif|webp|avif|svg|heic|bmp|tiff?)$/.test(ext)) return 'image';
  if (/^(mp3|wav|ogg|oga|flac|m4a|aac|opus)$/.test(ext)) return 'audio';
  if (/^(mp4|mov|webm|mkv|avi|m4v|ogv)$/.test(ext)) return 'video';
  return BY_EXTENSION[ext] ?? 'other';
}

/** The mark inside the page outline, per kind; drawn in the kind's colour (`currentColor`, set by the styles). */
const MARKS: Readonly<Record<FileKind, SVGTemplateResult>> = {
  document: svg`<path d="M9 12.5h7M9 15.5h7M9 18.5h4.5" />`,
  spreadsheet: svg`<path d="M8.5 11.5h8v7.5h-8zM8.5 15.2h8M12.5 11.5V19" />`,
  presentation: svg`<path d="M8.5 11.5h8v5.5h-8zM12.5 17v2.5" />`,
  pdf: svg`<rect x="4.5" y="13" width="12" height="6.5" rx="1" fill="currentColor" stroke="none" /><text x="10.5" y="18.2" fill="var(--_on-kind, #fff)" stroke="none" font-size="5" font-weight="700" font-family="system-ui, sans-serif" text-anchor="middle">PDF</text>`,
  image: svg`<path d="M8 19l3-4 2 2.2 2-2.7 2.5 4.5z" fill="currentColor" /><circle cx="10.5" cy="11.5" r="1.3" />`,
  audio: svg`<path d="M11 18.2V11.5l5-1.2v6.5" /><circle cx="9.6" cy="18.2" r="1.4" /><circle cx="14.6" cy="16.8" r="1.4" />`,
  video: svg`<path d="M10.5 11.5l5.5 3.5-5.5 3.5z" fill="currentColor" />`,
  archive: svg`<path d="M12 2.5v2M13 4.5v2M12 6.5v2M13 8.5v2M11 11h3v4h-3z" />`,
  code: svg`<path d="M10.5 12.5L8 15.2l2.5 2.8M14.5 12.5l2.5 2.7-2.5 2.8" />`,
  other: svg``,
};

/** The icon of a kind: a page with a folded corner and the kind's mark, 24 units. */
export function fileKindIcon(kind: FileKind): SVGTemplateResult {
  return svg`<svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false" fill="none" stroke="currentColor"
    stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round"><path class="page" d="M6 2.5h8l5 5v14H6zM14 2.5v5h5" />${MARKS[kind]}</svg>`;
}
