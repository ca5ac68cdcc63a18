/**
 * Writes native document content as a minimal but complete DOCX package (jszip): paragraphs with Heading 1–6,
 * List Paragraph, Quote and code styles declared in `styles.xml`. Images are written as their OCR text in an
 * "Image Text" paragraph; embedding the pictures themselves is not done.
 */
import JSZip from 'jszip';
import type { DocumentContent, ParagraphStyle } from './native-content.ts';

const W_NS = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

const STYLE_IDS: Readonly<Record<ParagraphStyle | 'image', [id: string, name: string]>> = {
  heading1: ['Heading1', 'heading 1'],
  heading2: ['Heading2', 'heading 2'],
  heading3: ['Heading3', 'heading 3'],
  heading4: ['Heading4', 'heading 4'],
  heading5: ['Heading5', 'heading 5'],
  heading6: ['Heading6', 'heading 6'],
  listItem: ['ListParagraph', 'List Paragraph'],
  quote: ['Quote', 'Quote'],
  code: ['Code', 'Code'],
  image: ['ImageText', 'Image Text'],
};

const xmlEscape = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** Runs of one paragraph: tabs and line breaks become `w:tab` / `w:br` (Word ignores them inside `w:t`). */
function runs(text: string): string {
  const parts = text.split(/(\t|\n)/).filter((p) => p !== '');
  return parts
    .map((p) =>
      p === '\t'
        ? '<w:r><w:tab/></w:r>'
        : p === '\n'
          ? '<w:r><w:br/></w:r>'
          : `<w:r><w:t xml:space="preserve">${xmlEscape(stripInvalidXml(p))}</w:t></w:r>`,
    )
    .join('');
}

/** XML 1.0 cannot carry most control characters; they are dropped rather than producing an unreadable file. */
function stripInvalidXml(s: string): string {
  // eslint-disable-next-line no-control-regex -- XML 1.0 forbids these control characters; removing them is the point.
  return s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '');
}

function paragraph(text: string, style?: ParagraphStyle | 'image'): string {
  const pPr = style ? `<w:pPr><w:pStyle w:val="${STYLE_IDS[style][0]}"/></w:pPr>` : '';
  return `<w:p>${pPr}${runs(text)}</w:p>`;
}

/** DOCX bytes for a document. */
export async function documentToDocx(doc: DocumentContent): Promise<Uint8Array> {
  const body = doc.blocks
    .map((b) => (b.type === 'paragraph' ? paragraph(b.text, b.style) : paragraph(b.ocrText, 'image')))
    .join('');
  const styles = Object.values(STYLE_IDS)
    .map(
      ([id, name]) =>
        `<w:style w:type="paragraph" w:styleId="${id}"><w:name w:val="${name}"/><w:basedOn w:val="Normal"/></w:style>`,
    )
    .join('');
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
      '<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>',
  );
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  );
  zip.file(
    'word/_rels/document.xml.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>',
  );
  zip.file(
    'word/styles.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:styles xmlns:w="${W_NS}">` +
      '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>' +
      `${styles}</w:styles>`,
  );
  zip.file(
    'word/document.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="${W_NS}"><w:body>${body}<w:sectPr/></w:body></w:document>`,
  );
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}
