/** OpenDocument text → document: jszip + XML walk of `content.xml` (headings, paragraphs, lists, tables, images). */
import type JSZip from 'jszip';
import type { Importer } from './importer.ts';
import type { DocumentBlock, ParagraphStyle } from './native-content.ts';
import { ODF_NS, odfText } from './odf-text.ts';
import { type XmlElement, childElements, descendants, isElement, openZip, parseXml, readPart } from './zip-xml.ts';

const WHAT = 'OpenDocument text file';

/** Imports an ODT file as a document. */
export const importOdt: Importer = async (bytes) => {
  const zip = await openZip(bytes, WHAT);
  const content = parseXml(await readPart(zip, 'content.xml', WHAT), 'content.xml', WHAT);
  const body = descendants(content, ODF_NS.office, 'text')[0];
  const blocks: DocumentBlock[] = [];
  if (body) await walk(body, zip, blocks, undefined);
  return { kind: 'document', blocks };
};

async function walk(
  el: XmlElement,
  zip: JSZip,
  out: DocumentBlock[],
  style: ParagraphStyle | undefined,
): Promise<void> {
  for (const c of childElements(el)) {
    if (isElement(c, ODF_NS.text, 'p') || isElement(c, ODF_NS.text, 'h')) {
      const level =
        c.localName === 'h'
          ? Math.min(Math.max(Number(c.getAttributeNS(ODF_NS.text, 'outline-level') || '1'), 1), 6)
          : 0;
      const s = level ? (`heading${level}` as ParagraphStyle) : style;
      const text = odfText(c);
      out.push(s ? { type: 'paragraph', text, style: s } : { type: 'paragraph', text });
      await images(c, zip, out);
    } else if (isElement(c, ODF_NS.text, 'list-item') || isElement(c, ODF_NS.text, 'list-header')) {
      await walk(c, zip, out, 'listItem');
    } else if (isElement(c, ODF_NS.table, 'table-row')) {
      // A table row reads as one tab-separated paragraph, like a row of text copied from a table.
      const cells = childElements(c).filter((cell) => isElement(cell, ODF_NS.table, 'table-cell'));
      out.push({
        type: 'paragraph',
        text: cells.map((cell) => descendants(cell, ODF_NS.text, 'p').map(odfText).join(' ')).join('\t'),
      });
    } else if (!isElement(c, ODF_NS.text, 'sequence-decls') && !isElement(c, ODF_NS.office, 'forms')) {
      await walk(c, zip, out, style);
    }
  }
}

/** Images framed inside a paragraph, embedded after it. */
async function images(p: XmlElement, zip: JSZip, out: DocumentBlock[]): Promise<void> {
  for (const img of descendants(p, ODF_NS.draw, 'image')) {
    const href = img.getAttributeNS(ODF_NS.xlink, 'href') ?? '';
    const entry = zip.file(href);
    if (!entry) continue; // linked, not embedded: nothing to keep
    const data = await entry.async('base64');
    const ext = href.split('.').pop()?.toLowerCase() ?? '';
    const mimeType =
      ext === 'jpg' || ext === 'jpeg'
        ? 'image/jpeg'
        : ext === 'gif'
          ? 'image/gif'
          : ext === 'bmp'
            ? 'image/bmp'
            : 'image/png';
    out.push({ type: 'image', mimeType, data, ocrText: '' });
  }
}
