/** OpenDocument presentation → presentation: one slide per `draw:page`, its paragraphs in order (notes left out). */
import type { Importer } from './importer.ts';
import { ODF_NS, odfText } from './odf-text.ts';
import { type XmlElement, descendants, isElement, openZip, parseXml, readPart } from './zip-xml.ts';

const WHAT = 'OpenDocument presentation';

/** Imports an ODP file as a presentation. */
export const importOdp: Importer = async (bytes) => {
  const zip = await openZip(bytes, WHAT);
  const content = parseXml(await readPart(zip, 'content.xml', WHAT), 'content.xml', WHAT);
  const slides = descendants(content, ODF_NS.draw, 'page').map((page) => ({
    paragraphs: [...descendants(page, ODF_NS.text, 'p'), ...descendants(page, ODF_NS.text, 'h')]
      .filter((p) => !insideNotes(p))
      .sort(documentOrder)
      .map(odfText)
      .filter((t) => t.trim() !== ''),
  }));
  return { kind: 'presentation', slides };
};

function insideNotes(el: XmlElement): boolean {
  for (let n = el.parentNode; n; n = n.parentNode) if (isElement(n, ODF_NS.presentation, 'notes')) return true;
  return false;
}

function documentOrder(a: XmlElement, b: XmlElement): number {
  // DOCUMENT_POSITION_FOLLOWING (4): b comes after a.
  return a.compareDocumentPosition(b) & 4 ? -1 : 1;
}
