// The service's own resource schemas (src/protocol/schema.ts): every scalar they declare answers a selection into
// it with the supplement's 400 wording, and every declared name can be selected.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FieldsError, parseFields, validateFields, type FieldSchema } from '../../src/protocol/fields.ts';
import * as schemas from '../../src/protocol/schema.ts';

/** Every path to a scalar in a schema; a map's keys are stood in for by `key`. */
function leafPaths(schema: FieldSchema, prefix: string): string[] {
  if (schema === 'leaf') return [prefix];
  if ('map' in schema) return leafPaths(schema.map, `${prefix}/key`);
  return Object.entries(schema.fields).flatMap(([name, child]) =>
    leafPaths(child, prefix === '' ? name : `${prefix}/${name}`),
  );
}

for (const [name, schema] of Object.entries(schemas)) {
  test(`${name}: every scalar can be selected, and selecting into one is refused as an unknown field`, () => {
    const paths = leafPaths(schema, '');
    assert.ok(paths.length > 0);
    for (const path of paths) {
      assert.doesNotThrow(() => validateFields(parseFields(path), schema, path), path);
      const into = `${path}/x`;
      assert.throws(
        () => validateFields(parseFields(into), schema, into),
        (e: unknown) =>
          e instanceof FieldsError &&
          e.code === 'unknownField' &&
          e.message === `Invalid field selection ${into}` &&
          e.position === path.length + 1,
        into,
      );
    }
  });
}
