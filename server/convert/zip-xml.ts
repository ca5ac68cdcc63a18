/** Reading the XML parts of zip-packaged office files (OOXML, ODF) with jszip and @xmldom/xmldom. */
import { DOMParser } from '@xmldom/xmldom';
import type { Document as XmlDocument, Element as XmlElement, Node as XmlNode } from '@xmldom/xmldom';
import JSZip from 'jszip';
import { ConversionError, corrupt } from './conversion-error.ts';

export type { XmlDocument, XmlElement, XmlNode };

/** Opens a zip package; anything that is not a readable zip → `corrupt` naming `what`. */
export async function openZip(bytes: Uint8Array, what: string): Promise<JSZip> {
  try {
    return await JSZip.loadAsync(bytes);
  } catch (err) {
    throw corrupt(what, err);
  }
}

/** Text of one part of the package, or undefined when `required` is false and it is absent. */
export async function readPart(zip: JSZip, path: string, what: string, required: false): Promise<string | undefined>;
export async function readPart(zip: JSZip, path: string, what: string, required?: true): Promise<string>;
export async function readPart(zip: JSZip, path: string, what: string, required = true): Promise<string | undefined> {
  const entry = zip.file(path);
  if (!entry) {
    if (!required) return undefined;
    throw new ConversionError('corrupt', `The file is not a valid ${what}: it has no ${path}.`);
  }
  try {
    return await entry.async('string');
  } catch (err) {
    throw corrupt(what, err);
  }
}

/** Parses XML; malformed XML → `corrupt` naming the part. */
export function parseXml(xml: string, part: string, what: string): XmlDocument {
  try {
    const doc = new DOMParser({
      onError: (level, message) => {
        if (level !== 'warning') throw new Error(message);
      },
    }).parseFromString(xml, 'text/xml');
    if (!doc.documentElement) throw new Error('no root element');
    return doc;
  } catch (err) {
    throw new ConversionError(
      'corrupt',
      `The file is not a valid ${what}: ${part} is not well-formed XML (${err instanceof Error ? err.message : String(err)}).`,
      { cause: err },
    );
  }
}

/** Element children of `node`. */
export function childElements(node: XmlNode): XmlElement[] {
  const out: XmlElement[] = [];
  for (let c = node.firstChild; c; c = c.nextSibling) if (c.nodeType === 1) out.push(c as XmlElement);
  return out;
}

/** True when `node` is an element `localName` in namespace `ns`. */
export function isElement(node: XmlNode, ns: string, localName: string): node is XmlElement {
  return (
    node.nodeType === 1 && (node as XmlElement).namespaceURI === ns && (node as XmlElement).localName === localName
  );
}

/** Descendant elements named `localName` in `ns`, in document order. */
export function descendants(node: XmlElement | XmlDocument, ns: string, localName: string): XmlElement[] {
  return Array.from(node.getElementsByTagNameNS(ns, localName));
}
