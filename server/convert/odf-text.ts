/** Text of OpenDocument paragraphs (`text:p`, `text:h`): spaces, tabs and line breaks are elements there. */
import { type XmlNode, isElement } from './zip-xml.ts';

/** OpenDocument namespaces the importers read. */
export const ODF_NS = {
  office: 'urn:oasis:names:tc:opendocument:xmlns:office:1.0',
  text: 'urn:oasis:names:tc:opendocument:xmlns:text:1.0',
  table: 'urn:oasis:names:tc:opendocument:xmlns:table:1.0',
  draw: 'urn:oasis:names:tc:opendocument:xmlns:drawing:1.0',
  presentation: 'urn:oasis:names:tc:opendocument:xmlns:presentation:1.0',
  xlink: 'http://www.w3.org/1999/xlink',
} as const;

/** The text a paragraph shows, without notes and annotations (they are not part of the running text). */
export function odfText(node: XmlNode): string {
  let out = '';
  for (let c = node.firstChild; c; c = c.nextSibling) {
    if (c.nodeType === 3 || c.nodeType === 4) out += c.nodeValue ?? '';
    else if (c.nodeType !== 1) continue;
    else if (isElement(c, ODF_NS.text, 's')) out += ' '.repeat(Number(c.getAttributeNS(ODF_NS.text, 'c') || '1') || 1);
    else if (isElement(c, ODF_NS.text, 'tab')) out += '\t';
    else if (isElement(c, ODF_NS.text, 'line-break')) out += '\n';
    else if (isElement(c, ODF_NS.text, 'note') || isElement(c, ODF_NS.office, 'annotation')) continue;
    else if (isElement(c, ODF_NS.draw, 'frame'))
      continue; // frames hold images and text boxes, handled apart
    else out += odfText(c);
  }
  return out;
}
