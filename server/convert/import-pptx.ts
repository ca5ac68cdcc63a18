/** PowerPoint (OOXML) → presentation: slides in the order `presentation.xml` lists them, `a:p` paragraphs each. */
import type { Importer } from './importer.ts';
import { type XmlElement, descendants, openZip, parseXml, readPart } from './zip-xml.ts';

const WHAT = 'PowerPoint presentation';
const NS = {
  p: 'http://schemas.openxmlformats.org/presentationml/2006/main',
  a: 'http://schemas.openxmlformats.org/drawingml/2006/main',
  r: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships',
  rel: 'http://schemas.openxmlformats.org/package/2006/relationships',
} as const;

/** Imports a PPTX (or PPTM) file as a presentation. */
export const importPptx: Importer = async (bytes) => {
  const zip = await openZip(bytes, WHAT);
  const pres = parseXml(await readPart(zip, 'ppt/presentation.xml', WHAT), 'ppt/presentation.xml', WHAT);
  const relsXml = await readPart(zip, 'ppt/_rels/presentation.xml.rels', WHAT, false);
  const targets = new Map<string, string>();
  if (relsXml) {
    for (const rel of descendants(parseXml(relsXml, 'presentation.xml.rels', WHAT), NS.rel, 'Relationship')) {
      targets.set(rel.getAttribute('Id') ?? '', rel.getAttribute('Target') ?? '');
    }
  }
  const paths = descendants(pres, NS.p, 'sldId')
    .map((s) => targets.get(s.getAttributeNS(NS.r, 'id') ?? ''))
    .filter((t): t is string => !!t)
    .map((t) => (t.startsWith('/') ? t.slice(1) : `ppt/${t}`));
  const slides = [];
  for (const path of paths) {
    const slide = parseXml(await readPart(zip, path, WHAT), path, WHAT);
    slides.push({
      paragraphs: descendants(slide, NS.a, 'p')
        .map(paragraphText)
        .filter((t) => t.trim() !== ''),
    });
  }
  return { kind: 'presentation', slides };
};

function paragraphText(p: XmlElement): string {
  let out = '';
  for (const el of Array.from(p.getElementsByTagNameNS(NS.a, '*'))) {
    if (el.localName === 't') out += el.textContent ?? '';
    else if (el.localName === 'br') out += '\n';
  }
  return out;
}
