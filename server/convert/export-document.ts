/** Renders native document content as plain text, HTML or Markdown. */
import type { DocumentBlock, DocumentContent } from './native-content.ts';

/** One line per paragraph; an image contributes its OCR text where it stands. */
export function documentToText(doc: DocumentContent): string {
  const lines = doc.blocks.flatMap((b) => (b.type === 'paragraph' ? [b.text] : b.ocrText ? [b.ocrText] : []));
  return lines.length ? `${lines.join('\n')}\n` : '';
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A standalone HTML page: headings, paragraphs, lists, code, quotes and images (OCR text as `alt`). */
export function documentToHtml(doc: DocumentContent): string {
  const out: string[] = [];
  let open: 'ul' | 'pre' | undefined;
  const close = () => {
    if (open === 'ul') out.push('</ul>');
    if (open === 'pre') out.push('</code></pre>');
    open = undefined;
  };
  for (const b of doc.blocks) {
    const want =
      b.type === 'paragraph' && b.style === 'listItem'
        ? 'ul'
        : b.type === 'paragraph' && b.style === 'code'
          ? 'pre'
          : undefined;
    if (want !== open) {
      close();
      if (want === 'ul') out.push('<ul>');
      if (want === 'pre') out.push('<pre><code>');
      open = want;
    }
    out.push(blockHtml(b));
  }
  close();
  return `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title></title></head><body>\n${out.join('\n')}\n</body></html>\n`;
}

function blockHtml(b: DocumentBlock): string {
  if (b.type === 'image')
    return `<p><img src="data:${escapeHtml(b.mimeType)};base64,${b.data}" alt="${escapeHtml(b.ocrText)}"></p>`;
  const text = escapeHtml(b.text);
  switch (b.style) {
    case undefined:
      return `<p>${text}</p>`;
    case 'listItem':
      return `<li>${text}</li>`;
    case 'code':
      return text;
    case 'quote':
      return `<blockquote>${text}</blockquote>`;
    default:
      return `<h${b.style.slice(-1)}>${text}</h${b.style.slice(-1)}>`;
  }
}

/** Markdown: `#` headings, `-` list items, fenced code, `>` quotes; images as data-URI images with OCR alt text. */
export function documentToMarkdown(doc: DocumentContent): string {
  const out: string[] = [];
  let inCode = false;
  let inList = false;
  for (const b of doc.blocks) {
    const isCode = b.type === 'paragraph' && b.style === 'code';
    const isList = b.type === 'paragraph' && b.style === 'listItem';
    if (inList && !isList) out.push(''); // else the next paragraph would continue the last item
    inList = isList;
    if (isCode !== inCode) out.push('```');
    inCode = isCode;
    if (b.type === 'image') {
      out.push(`![${b.ocrText.replace(/[[\]\n]/g, ' ')}](data:${b.mimeType};base64,${b.data})`, '');
      continue;
    }
    switch (b.style) {
      case 'code':
        out.push(b.text);
        break;
      case 'listItem':
        out.push(`- ${b.text}`);
        break;
      case 'quote':
        out.push(`> ${b.text}`, '');
        break;
      case undefined:
        out.push(b.text, '');
        break;
      default:
        out.push(`${'#'.repeat(Number(b.style.slice(-1)))} ${b.text}`, '');
    }
  }
  if (inCode) out.push('```');
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}
