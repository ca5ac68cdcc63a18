import type { FieldSelection } from './fields-parse.ts';

type JsonObject = { [key: string]: unknown };

/**
 * Projects a JSON value onto a parsed selection in one pass (spec §4.9 rules 5–8): arrays yield the selected part
 * of every element; a field selected without a sub-selector comes back whole (the same reference, not a copy);
 * enclosing objects carry only their selected members and are left out when none of those is present (an array
 * is left out when it has elements but none has anything selected; an empty one stays `[]`); a selected
 * field the value lacks is simply absent. The root object is always returned, possibly `{}`. Output members keep
 * the value's order, whatever order the selection names them in. A scalar root with a narrowing selection yields
 * `undefined`.
 */
export function applyFields(value: unknown, sel: FieldSelection): unknown {
  return project(value, [sel]);
}

/**
 * `sels` are alternatives that all apply to `value`: a named member and a `*` sibling both select into the same
 * child. Keeping them as a list, instead of merging `*` into every sibling up front, bounds the work by the size of
 * the selection tree rather than letting nested wildcards multiply it.
 */
function project(value: unknown, sels: readonly FieldSelection[]): unknown {
  if (sels.some((s) => s.whole)) return value;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const element of value) {
      const picked = project(element, sels);
      // A scalar element has nothing to select into; objects stay, possibly empty, so elements keep their count.
      if (picked !== undefined) out.push(picked);
    }
    return out;
  }
  if (isObject(value)) return projectObject(value, sels);
  return undefined;
}

function projectObject(value: JsonObject, sels: readonly FieldSelection[]): JsonObject {
  const out: JsonObject = {};
  for (const key of Object.keys(value)) {
    const childSels = selectionsFor(key, sels);
    if (childSels.length === 0) continue;
    const member = value[key];
    if (member === undefined) continue;
    const picked = project(member, childSels);
    if (picked === undefined) continue;
    if (picked !== member && nothingSelectedIn(member, picked)) continue;
    setMember(out, key, picked);
  }
  return out;
}

/**
 * Rule 8: a parent appears only because one of its selected children does. An empty array stays (its selected part
 * is itself empty, as in a list with no files), but an array of scalars that a sub-selection cannot enter goes.
 */
function nothingSelectedIn(member: unknown, picked: unknown): boolean {
  if (isObject(picked)) return Object.keys(picked).length === 0;
  return Array.isArray(member) && member.length > 0 && Array.isArray(picked) && picked.length === 0;
}

/** The selections that reach member `key`: its own name and `*`, from each alternative, without duplicates. */
function selectionsFor(key: string, sels: readonly FieldSelection[]): FieldSelection[] {
  const found: FieldSelection[] = [];
  for (const sel of sels) {
    const named = sel.children.get(key);
    if (named && !found.includes(named)) found.push(named);
    const any = sel.children.get('*');
    if (any && !found.includes(any)) found.push(any);
  }
  return found;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Assignment would turn a `__proto__` key (legal in JSON) into a prototype change; define it as data instead. */
function setMember(out: JsonObject, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}
