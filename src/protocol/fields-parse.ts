import { FieldsError } from './fields-error.ts';

/**
 * A parsed `fields` selection: a tree of selected names with overlapping paths already merged
 * (`a/b,a/c` → `a(b,c)`; `a,a/b` → `a`). The name `*` is the wildcard; it is kept as its own child rather than
 * folded into its named siblings, so that validation sees what the caller wrote.
 */
export interface FieldSelection {
  /** True when this field is returned whole: nothing narrows it, and `children` is empty. */
  readonly whole: boolean;
  /** Selected members by name, in the order first written; the key `*` selects every member. */
  readonly children: ReadonlyMap<string, FieldSelection>;
  /** Zero-based index of this name's first occurrence in the selection string (0 for the root). */
  readonly position: number;
}

/**
 * Deepest nesting of names (path segments plus parentheses) a selection may have. It keeps the recursive parser,
 * merge and projection far from the stack limit on hostile input; real resources nest a few levels at most.
 */
export const MAX_FIELDS_DEPTH = 64;

interface Node {
  whole: boolean;
  readonly children: Map<string, Node>;
  readonly position: number;
}

const NAME_CHAR = /[A-Za-z0-9_*]/;
const SPACE = /\s/;

/**
 * Parse a `fields` selection (spec §4.9, supplement §3): syntax only, names are checked by `validateFields`.
 * The input is the decoded query value. Throws `FieldsError` (code `syntax` or `dataWrapper`) naming what is wrong
 * and its zero-based position, e.g. "Invalid field selection a(b: unclosed parenthesis at position 1".
 */
export function parseFields(selection: string): FieldSelection {
  return new Parser(selection).parse();
}

/** Recursive descent over the grammar `list := item (',' space* item)*`, `item := name ('/' name)* ('(' list ')')?`. */
class Parser {
  private pos = 0;

  constructor(private readonly text: string) {}

  parse(): Node {
    if (this.text.length === 0) throw new FieldsError('syntax', this.text, 'the selection is empty');
    const root: Node = { whole: false, children: new Map(), position: 0 };
    this.list(root, 0, -1);
    return root;
  }

  /** Reads items into `target` until the end (top level) or the `)` matching the `(` at `open`. */
  private list(target: Node, depth: number, open: number): void {
    for (;;) {
      this.item(target, depth);
      const c = this.text[this.pos];
      if (c === ',') {
        const comma = this.pos++;
        while (SPACE.test(this.text[this.pos] ?? '')) this.pos++;
        const next = this.text[this.pos];
        if (next === undefined || next === ')') this.fail('trailing comma', comma);
        continue;
      }
      if (c === undefined) {
        if (open >= 0) this.fail('unclosed parenthesis', open);
        return;
      }
      if (c === ')') {
        if (open < 0) this.fail("unmatched ')'", this.pos);
        return;
      }
      if (c === '(') this.fail("'(' must follow a field name", this.pos);
      if (c === '/') this.fail("'/' cannot follow ')'; write the path inside the parentheses", this.pos);
      this.unexpected();
    }
  }

  /** Reads one `a/b/c` path with its optional `(…)` sub-selector and merges it into `target`. */
  private item(target: Node, depth: number): void {
    const start = this.pos;
    const path: Array<{ name: string; position: number }> = [];
    for (;;) {
      const position = this.pos;
      const name = this.name();
      if (depth === 0 && path.length === 0 && name === 'data' && (this.peek('/') || this.peek('('))) {
        throw new FieldsError('dataWrapper', this.text, 'the data wrapper must not be part of the selection', position);
      }
      path.push({ name, position });
      if (depth + path.length > MAX_FIELDS_DEPTH) this.fail(`nesting deeper than ${MAX_FIELDS_DEPTH} levels`, start);
      if (!this.peek('/')) break;
      this.pos++;
    }
    let leaf: Node = { whole: true, children: new Map(), position: -1 };
    if (this.peek('(')) {
      const open = this.pos++;
      if (this.peek(')')) this.fail('empty parentheses', open);
      leaf = { whole: false, children: new Map(), position: -1 };
      this.list(leaf, depth + path.length, open);
      this.pos++; // the ')' that list() stopped at
    }
    // Build the path as a chain ending in `leaf`, then merge it so overlapping selections combine.
    let chain = leaf;
    for (let i = path.length - 1; i >= 0; i--) {
      const { name, position } = path[i];
      chain = { whole: chain.whole, children: chain.children, position };
      chain = { whole: false, children: new Map([[name, chain]]), position: -1 };
    }
    mergeInto(target, chain);
  }

  /** Reads one name; an empty or malformed name is a syntax error. */
  private name(): string {
    const start = this.pos;
    while (NAME_CHAR.test(this.text[this.pos] ?? '')) this.pos++;
    if (this.pos === start) {
      const c = this.text[start];
      if (c === undefined || c === ',' || c === '/' || c === '(' || c === ')') this.fail('empty field name', start);
      this.unexpected();
    }
    const name = this.text.slice(start, this.pos);
    if (name !== '*' && name.includes('*')) this.fail("'*' must stand alone as a field name", start);
    return name;
  }

  private peek(c: string): boolean {
    return this.text[this.pos] === c;
  }

  /** Rejects the character at the current position, saying why it cannot be there. */
  private unexpected(): never {
    const c = this.text[this.pos];
    if (SPACE.test(c)) this.fail('white space is allowed only after a comma', this.pos);
    this.fail(`invalid character ${JSON.stringify(c)} (names use A-Z, a-z, 0-9, _ and *)`, this.pos);
  }

  private fail(what: string, position: number): never {
    throw new FieldsError('syntax', this.text, what, position);
  }
}

/** Merges `incoming` into `node` in place: a whole selection absorbs any narrower one of the same field. */
function mergeInto(node: Node, incoming: Node): void {
  if (node.whole) return;
  if (incoming.whole) {
    node.whole = true;
    node.children.clear();
    return;
  }
  for (const [name, child] of incoming.children) {
    const existing = node.children.get(name);
    if (existing) mergeInto(existing, child);
    else node.children.set(name, child);
  }
}
