import { FieldsError } from './fields-error.ts';
import type { FieldSelection } from './fields-parse.ts';
import type { FieldSchema } from './fields-schema.ts';

/**
 * Checks every selected name against the resource's schema (names are case-sensitive; any name is accepted as a
 * key of a `map`). Throws `FieldsError` (code `unknownField`, message "Invalid field selection <selection>", with
 * the position of the first bad name) when a name does not exist or a scalar is given sub-fields.
 *
 * @param selection the original string, for the error message.
 */
export function validateFields(sel: FieldSelection, schema: FieldSchema, selection: string): void {
  const bad = firstInvalid(sel, schema);
  if (bad) throw new FieldsError('unknownField', selection, undefined, bad.position);
}

/** The first selected node that the schema does not allow, or undefined when all are allowed. */
function firstInvalid(sel: FieldSelection, schema: FieldSchema): FieldSelection | undefined {
  if (sel.whole) return undefined;
  for (const [name, child] of sel.children) {
    const bad = invalidChild(name, child, schema);
    if (bad) return bad;
  }
  return undefined;
}

function invalidChild(name: string, child: FieldSelection, schema: FieldSchema): FieldSelection | undefined {
  // A scalar has no members, so neither a name nor `*` can select inside it.
  if (schema === 'leaf') return child;
  if ('map' in schema) return firstInvalid(child, schema.map);
  if (name === '*') {
    // `*/x` asks for `x` in every member that has it: fine if at least one member could.
    if (child.whole) return undefined;
    const members = Object.values(schema.fields);
    return members.some((member) => firstInvalid(child, member) === undefined) ? undefined : child;
  }
  if (!Object.hasOwn(schema.fields, name)) return child;
  return firstInvalid(child, schema.fields[name]);
}
