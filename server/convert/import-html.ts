/**
 * HTML → document with node-html-parser: block elements become paragraphs (headings, list items, code and quotes
 * keep a style), `data:` images become embedded images, and scripts, styles and the head are dropped.
 */
import { HTMLElement, TextNode, parse } from 'node-html-parser';
import type { Node } from 'node-html-parser';
import { corrupt } from './conversion-error.ts';
import { decodeText } from './decode-text.ts';
import type { Importer } from './importer.ts';
import type { DocumentBlock, DocumentContent, ParagraphStyle } from './native-content.ts';

/** Imports an HTML file as a document. */
export const importHtml: Importer = async (bytes, ctx) => htmlToDocument(decodeHtml(bytes, ctx.charset));

/** Converts HTML text to document content (also used for DOCX via mammoth's HTML). */
export function htmlToDocument(html: string): DocumentContent {
  let root: HTMLElement;
  try {
    // node-html-parser keeps a doctype as text; it is never content.
    root = parse(html.replace(/^\s*<!doctype[^>]*>/i, ''), {
      comment: false,
      blockTextElements: { script: false, style: false, pre: true },
    });
  } catch (err) {
    throw corrupt('HTML file', err);
  }
  const walker = new BlockWalker();
  walker.visit(root);
  walker.flush();
  return { kind: 'document', blocks: walker.blocks };
}

const SKIP = new Set(['head', 'script', 'style', 'template', 'noscript', 'svg', 'title']);
const BLOCK = new Set([
  'p',
  'div',
  'section',
  'article',
  'header',
  'footer',
  'main',
  'nav',
  'aside',
  'address',
  'figure',
  'figcaption',
  'ul',
  'ol',
  'li',
  'dl',
  'dt',
  'dd',
  'table',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'td',
  'th',
  'caption',
  'blockquote',
  'pre',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'body',
  'html',
  'form',
  'fieldset',
]);
const STYLE: Readonly<Record<string, ParagraphStyle>> = {
  h1: 'heading1',
  h2: 'heading2',
  h3: 'heading3',
  h4: 'heading4',
  h5: 'heading5',
  h6: 'heading6',
  li: 'listItem',
  pre: 'code',
  blockquote: 'quote',
};

/** Walks the tree collecting inline text into the current paragraph; every block boundary ends it. */
class BlockWalker {
  readonly blocks: DocumentBlock[] = [];
  private text = '';
  private styles: ParagraphStyle[] = [];
  private inPre = 0;

  visit(node: Node): void {
    if (node instanceof TextNode) {
      this.text += this.inPre ? node.text : node.text.replace(/\s+/g, ' ');
      return;
    }
    if (!(node instanceof HTMLElement)) return;
    const tag = (node.rawTagName ?? '').toLowerCase();
    if (SKIP.has(tag)) return;
    if (tag === 'br') return this.inPre ? void (this.text += '\n') : this.flush();
    if (tag === 'img') return this.image(node);
    if (!BLOCK.has(tag) && tag !== '') {
      for (const child of node.childNodes) this.visit(child);
      return;
    }
    this.flush();
    const style = STYLE[tag];
    if (style) this.styles.push(style);
    if (tag === 'pre') this.inPre++;
    for (const child of node.childNodes) this.visit(child);
    this.flush();
    if (tag === 'pre') this.inPre--;
    if (style) this.styles.pop();
  }

  /** Ends the current paragraph; preformatted text keeps one paragraph per line. */
  flush(): void {
    const style = this.styles[this.styles.length - 1];
    if (this.inPre) {
      const lines = this.text.replace(/^\n/, '').replace(/\n$/, '').split('\n');
      if (this.text !== '')
        for (const line of lines) this.blocks.push({ type: 'paragraph', text: line, style: 'code' });
    } else {
      const text = this.text.trim();
      if (text !== '') this.blocks.push(style ? { type: 'paragraph', text, style } : { type: 'paragraph', text });
    }
    this.text = '';
  }

  private image(node: HTMLElement): void {
    const m = /^data:([^;,]+);base64,(.*)$/s.exec(node.getAttribute('src') ?? '');
    if (!m || !m[1] || m[2] === undefined) return;
    this.flush();
    // Alt text stands in for OCR: the source already says what the image shows.
    this.blocks.push({
      type: 'image',
      mimeType: m[1],
      data: m[2].replace(/\s+/g, ''),
      ocrText: node.getAttribute('alt') ?? '',
    });
  }
}

/** HTML text: the declared charset, else UTF-8, else the charset its `<meta>` names. */
function decodeHtml(bytes: Uint8Array, charset: string | undefined): string {
  if (charset) return decodeText(bytes, 'HTML file', charset);
  try {
    return decodeText(bytes, 'HTML file');
  } catch (err) {
    const head = new TextDecoder('latin1').decode(bytes.subarray(0, 4096));
    const meta = /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(head)?.[1];
    if (!meta) throw err;
    return decodeText(bytes, 'HTML file', meta.toLowerCase());
  }
}
