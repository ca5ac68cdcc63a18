/**
 * The `q` subset of `GET /store/v3/files` (supplement §2): `'<id>' in parents` (`'root'`: the caller's own files in no
 * folder, as in the modelled API), `name = '…'`, `trashed = true|false`, joined by `and`. Anything else is rejected, naming the part that is not supported.
 */

/** A parsed query: every condition must hold. */
export interface FileQuery {
  readonly parents: string[];
  readonly names: string[];
  trashed: boolean | undefined;
  /** True when the conditions contradict each other (`trashed = true and trashed = false`): nothing matches. */
  never: boolean;
}

/** The parent that stands for the caller's top level. */
export const ROOT = 'root';

/** A query the service does not support or cannot parse; `message` names the offending part. */
export class QueryError extends Error {}

/** Splits at top-level ` and ` (outside string literals), case-insensitively. */
function splitClauses(q: string): string[] {
  const clauses: string[] = [];
  let start = 0;
  let inString = false;
  for (let i = 0; i < q.length; i++) {
    const c = q[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === "'") inString = false;
      continue;
    }
    if (c === "'") inString = true;
    else if (/\s/.test(c) && /^\s+and\s+/i.test(q.slice(i))) {
      const m = /^\s+and\s+/i.exec(q.slice(i)) as RegExpExecArray;
      clauses.push(q.slice(start, i));
      i += m[0].length - 1;
      start = i + 1;
    }
  }
  if (inString) throw new QueryError(`Invalid query: unterminated string literal in "${q}".`);
  clauses.push(q.slice(start));
  return clauses.map((c) => c.trim());
}

const STRING = String.raw`'((?:[^'\\]|\\.)*)'`;
const IN_PARENTS = new RegExp(`^${STRING}\\s+in\\s+parents$`, 'i');
const NAME_EQ = new RegExp(`^name\\s*=\\s*${STRING}$`, 'i');
const TRASHED_EQ = /^trashed\s*=\s*(true|false)$/i;

function unescape(s: string): string {
  return s.replace(/\\(.)/g, '$1');
}

/** Parses `q`; throws {@link QueryError} with a message naming the unsupported or malformed part. */
export function parseFileQuery(q: string | null): FileQuery {
  const query: FileQuery = { parents: [], names: [], trashed: undefined, never: false };
  if (q === null || q.trim() === '') return query;
  for (const clause of splitClauses(q)) {
    let m: RegExpExecArray | null;
    if (clause === '') throw new QueryError(`Invalid query "${q}": empty condition around "and".`);
    if ((m = IN_PARENTS.exec(clause))) query.parents.push(unescape(m[1]));
    else if ((m = NAME_EQ.exec(clause))) query.names.push(unescape(m[1]));
    else if ((m = TRASHED_EQ.exec(clause))) {
      const value = m[1].toLowerCase() === 'true';
      if (query.trashed !== undefined && query.trashed !== value) query.never = true;
      query.trashed = value;
    } else {
      throw new QueryError(
        `Unsupported query term: ${clause}. Supported terms are '<id>' in parents, name = '<name>' and trashed = true|false, joined by and.`,
      );
    }
  }
  return query;
}
