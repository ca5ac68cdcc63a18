/** Markdown → document with marked's lexer: headings, paragraphs, list items, code blocks and quotes. */
import { Lexer } from 'marked';
import type { Token, Tokens } from 'marked';
import { decodeText } from './decode-text.ts';
import type { Importer } from './importer.ts';
import type { DocumentBlock, ParagraphStyle } from './native-content.ts';

/** Imports a Markdown file as a document. */
export const importMarkdown: Importer = async (bytes, ctx) => {
  const tokens = new Lexer({ gfm: true }).lex(decodeText(bytes, 'Markdown file', ctx.charset));
  const blocks: DocumentBlock[] = [];
  for (const token of tokens) addBlock(token, blocks, undefined);
  return { kind: 'document', blocks };
};

function addBlock(token: Token, out: DocumentBlock[], inherited: ParagraphStyle | undefined): void {
  const push = (text: string, style = inherited) =>
    out.push(style ? { type: 'paragraph', text, style } : { type: 'paragraph', text });
  switch (token.type) {
    case 'heading': {
      const t = token as Tokens.Heading;
      return void push(inlineText(t.tokens), `heading${Math.min(Math.max(t.depth, 1), 6)}` as ParagraphStyle);
    }
    case 'paragraph':
    case 'text': {
      const t = token as Tokens.Paragraph | Tokens.Text;
      return void push(t.tokens ? inlineText(t.tokens) : t.text);
    }
    case 'code':
      for (const line of (token as Tokens.Code).text.split('\n')) push(line, 'code');
      return;
    case 'list':
      for (const item of (token as Tokens.List).items) {
        // A list item's own blocks (usually one text token) each become a list-item paragraph.
        for (const child of item.tokens) addBlock(child, out, child.type === 'list' ? inherited : 'listItem');
      }
      return;
    case 'blockquote':
      for (const child of (token as Tokens.Blockquote).tokens) addBlock(child, out, 'quote');
      return;
    case 'table': {
      const t = token as Tokens.Table;
      for (const row of [t.header, ...t.rows]) push(row.map((cell) => inlineText(cell.tokens)).join('\t'));
      return;
    }
    case 'html':
      // eslint-disable-next-line @typescript-eslint/no-meaningless-void-operator, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-argument -- marked types an html token's fields as `any`; its text is a string.
      return void (token.text.trim() && push(token.text.trim()));
    default:
      // space, hr, def: no text to keep.
      return;
  }
}

/** Plain text of inline tokens: emphasis and links keep their words, images their alt text. */
function inlineText(tokens: Token[]): string {
  return tokens
    .map((t) => {
      if (t.type === 'br') return '\n';
      if ('tokens' in t && Array.isArray(t.tokens) && t.tokens.length > 0) return inlineText(t.tokens);
      // eslint-disable-next-line @typescript-eslint/no-unsafe-return -- marked types these tokens' text as `any`; it is a string.
      if (t.type === 'escape' || t.type === 'codespan' || t.type === 'text' || t.type === 'image') return t.text;
      return 'text' in t && typeof t.text === 'string' ? t.text : t.raw;
    })
    .join('');
}
