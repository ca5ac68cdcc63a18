// The `fields` grammar (spec §4.9, supplement §3): syntax, schema validation, projection, and the client builder.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  applyFields,
  fieldsOf,
  FieldsError,
  MAX_FIELDS_DEPTH,
  parseFields,
  selectFields,
  validateFields,
  type FieldSchema,
} from '../../src/protocol/fields.ts';

// Test-local schemas shaped like the service's resources (the service's own live in src/protocol/schema.ts).
const user: FieldSchema = { fields: { kind: 'leaf', displayName: 'leaf', emailAddress: 'leaf', me: 'leaf' } };
const permission: FieldSchema = {
  fields: { kind: 'leaf', id: 'leaf', type: 'leaf', role: 'leaf', emailAddress: 'leaf', domain: 'leaf' },
};
const file: FieldSchema = {
  fields: {
    kind: 'leaf',
    id: 'leaf',
    name: 'leaf',
    mimeType: 'leaf',
    parents: 'leaf',
    size: 'leaf',
    md5Checksum: 'leaf',
    createdTime: 'leaf',
    modifiedTime: 'leaf',
    trashed: 'leaf',
    version: 'leaf',
    originalFilename: 'leaf',
    permissions: permission,
    owners: user,
  },
};
const fileList: FieldSchema = { fields: { kind: 'leaf', nextPageToken: 'leaf', files: file } };
const about: FieldSchema = {
  fields: {
    kind: 'leaf',
    user,
    maxUploadSize: 'leaf',
    storageQuota: { fields: { limit: 'leaf', usage: 'leaf' } },
    importFormats: { map: 'leaf' },
    links: { map: { fields: { href: 'leaf', title: 'leaf' } } },
  },
};

const aFile = {
  kind: 'store#file',
  id: 'f1',
  name: 'report.csv',
  mimeType: 'text/csv',
  parents: ['root', 'p2'],
  size: '12',
  permissions: [
    { kind: 'store#permission', id: 'p1', type: 'user', role: 'writer', emailAddress: 'a@example.com' },
    { kind: 'store#permission', id: 'p2', type: 'domain', role: 'reader', domain: 'example.com' },
  ],
  owners: [{ kind: 'store#user', displayName: 'Ann', emailAddress: 'a@example.com', me: true }],
};

/** Asserts that `fn` throws a FieldsError with exactly this message, code and position. */
function rejects(fn: () => unknown, message: string, code: string, position?: number): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof FieldsError, `expected FieldsError, got ${String(err)}`);
    assert.equal(err.message, message);
    assert.equal(err.code, code);
    assert.equal(err.position, position);
    return true;
  });
}

describe('selecting', () => {
  test('a comma list selects several fields, in the resource order', () => {
    assert.deepEqual(selectFields(aFile, 'name,id', file), { id: 'f1', name: 'report.csv' });
  });

  test('white space after commas is allowed', () => {
    assert.deepEqual(selectFields(aFile, 'id,  name,\t\nsize', file), { id: 'f1', name: 'report.csv', size: '12' });
  });

  test('a/b/c paths keep only the enclosing parents', () => {
    const value = { a: { b: { c: 1, d: 2 }, e: 3 }, f: 4 };
    const schema: FieldSchema = {
      fields: { a: { fields: { b: { fields: { c: 'leaf', d: 'leaf' } }, e: 'leaf' } }, f: 'leaf' },
    };
    assert.deepEqual(selectFields(value, 'a/b/c', schema), { a: { b: { c: 1 } } });
    assert.deepEqual(selectFields(value, 'a/b', schema), { a: { b: { c: 1, d: 2 } } });
  });

  test('sub-selectors, nested sub-selectors, and items(id) ≡ items/id', () => {
    const value = { a: { b: { c: 1, d: 2, x: 0 }, e: 3, y: 0 }, z: 0 };
    const schema: FieldSchema = {
      fields: {
        a: { fields: { b: { fields: { c: 'leaf', d: 'leaf', x: 'leaf' } }, e: 'leaf', y: 'leaf' } },
        z: 'leaf',
      },
    };
    assert.deepEqual(selectFields(value, 'a(b(c,d),e)', schema), { a: { b: { c: 1, d: 2 }, e: 3 } });
    assert.deepEqual(selectFields(value, 'a(e,b/c)', schema), { a: { b: { c: 1 }, e: 3 } });
    assert.deepEqual(selectFields(aFile, 'permissions(id)', file), selectFields(aFile, 'permissions/id', file));
    assert.deepEqual(selectFields(aFile, 'permissions(id)', file), { permissions: [{ id: 'p1' }, { id: 'p2' }] });
  });

  test('arrays yield the selected part of every element; elements lacking it stay as {}', () => {
    assert.deepEqual(selectFields(aFile, 'permissions(role,domain)', file), {
      permissions: [{ role: 'writer' }, { role: 'reader', domain: 'example.com' }],
    });
    assert.deepEqual(selectFields(aFile, 'permissions/domain', file), { permissions: [{}, { domain: 'example.com' }] });
    assert.deepEqual(selectFields({ files: [] }, 'files(id)', fileList), { files: [] });
  });

  test('a selected object or array is returned whole without a sub-selector', () => {
    assert.deepEqual(selectFields(aFile, 'permissions,parents', file), {
      parents: ['root', 'p2'],
      permissions: aFile.permissions,
    });
  });

  test('an absent field is absent, not null; a parent with nothing selected is left out', () => {
    const noSize = { id: 'f2', name: 'folder' };
    const result = selectFields(noSize, 'id,size,permissions/id', file);
    assert.deepEqual(result, { id: 'f2' });
    assert.equal(JSON.stringify(result), '{"id":"f2"}');
    assert.deepEqual(selectFields({ storageQuota: { usage: '5' } }, 'storageQuota/limit', about), {});
    assert.deepEqual(selectFields({ storageQuota: { usage: '5' } }, 'storageQuota/usage', about), {
      storageQuota: { usage: '5' },
    });
    // null is a value: selected whole it is returned; nothing can be selected inside it.
    assert.deepEqual(
      selectFields({ id: null, storageQuota: null }, 'id,storageQuota/limit', {
        fields: { id: 'leaf', storageQuota: { fields: { limit: 'leaf' } } },
      }),
      { id: null },
    );
  });

  test('overlapping selections merge', () => {
    const value = { a: { b: 1, c: 2, d: 3 } };
    const schema: FieldSchema = { fields: { a: { fields: { b: 'leaf', c: 'leaf', d: 'leaf' } } } };
    assert.deepEqual(selectFields(value, 'a/b,a/c', schema), { a: { b: 1, c: 2 } });
    assert.deepEqual(selectFields(value, 'a/c,a(b)', schema), { a: { b: 1, c: 2 } });
    assert.deepEqual(selectFields(value, 'a,a/b', schema), { a: { b: 1, c: 2, d: 3 } });
    assert.deepEqual(selectFields(value, 'a/b,a', schema), { a: { b: 1, c: 2, d: 3 } });
    assert.deepEqual(selectFields(value, 'a/b,a/b', schema), { a: { b: 1 } });
    const tree = parseFields('a/b,a(c,b)');
    assert.deepEqual([...tree.children.keys()], ['a']);
    assert.deepEqual([...tree.children.get('a')!.children.keys()], ['b', 'c']);
  });

  test('a lone * selects everything', () => {
    assert.deepEqual(selectFields(aFile, '*', file), aFile);
    const list = { kind: 'store#fileList', nextPageToken: 't', files: [aFile] };
    assert.deepEqual(selectFields(list, '*', fileList), list);
  });

  test('* at any level: items/*, links/*/href, and * mixed with named siblings', () => {
    assert.deepEqual(selectFields(aFile, 'owners/*', file), { owners: aFile.owners });
    const aboutValue = {
      kind: 'store#about',
      links: { self: { href: '/a', title: 'me' }, next: { href: '/b' }, odd: { title: 'no href' } },
      importFormats: { 'text/csv': ['application/vnd.svc-apps.spreadsheet'] },
    };
    assert.deepEqual(selectFields(aboutValue, 'links/*/href', about), {
      links: { self: { href: '/a' }, next: { href: '/b' } },
    });
    assert.deepEqual(selectFields(aboutValue, 'links(*/href,self/title)', about), {
      links: { self: { href: '/a', title: 'me' }, next: { href: '/b' } },
    });
    assert.deepEqual(selectFields(aboutValue, 'importFormats/*', about), { importFormats: aboutValue.importFormats });
    // `*/emailAddress` asks every member: only the arrays of objects that have one answer.
    assert.deepEqual(selectFields(aFile, '*/emailAddress', file), {
      permissions: [{ emailAddress: 'a@example.com' }, {}],
      owners: [{ emailAddress: 'a@example.com' }],
    });
  });

  test('list responses: the root is the collection; kind and nextPageToken only when selected', () => {
    const list = { kind: 'store#fileList', nextPageToken: 'next', files: [aFile, { ...aFile, id: 'f2', name: 'b' }] };
    assert.deepEqual(selectFields(list, 'files(id,name),nextPageToken', fileList), {
      nextPageToken: 'next',
      files: [
        { id: 'f1', name: 'report.csv' },
        { id: 'f2', name: 'b' },
      ],
    });
    assert.deepEqual(selectFields(list, 'files/id', fileList), { files: [{ id: 'f1' }, { id: 'f2' }] });
    assert.deepEqual(selectFields({ kind: 'store#fileList', files: [] }, 'nextPageToken', fileList), {});
  });

  test('map keys accept any name, including ones no resource declares', () => {
    const value = { importFormats: { csv: ['x'], text_plain: ['y'] } };
    assert.deepEqual(selectFields(value, 'importFormats/csv,importFormats/Unknown9', about), {
      importFormats: { csv: ['x'] },
    });
  });

  test('a __proto__ key in the value is copied as data, never as a prototype', () => {
    const value = JSON.parse('{"importFormats":{"__proto__":["x"],"csv":["y"]}}') as unknown;
    const result = selectFields(value, 'importFormats/__proto__', about) as { importFormats: object };
    assert.equal(JSON.stringify(result), '{"importFormats":{"__proto__":["x"]}}');
    assert.equal(Object.getPrototypeOf(result.importFormats), Object.prototype);
  });

  test('applyFields projects a value without a schema; the root is always an object', () => {
    assert.deepEqual(applyFields({ a: 1, b: 2 }, parseFields('b')), { b: 2 });
    assert.deepEqual(applyFields({ a: 1 }, parseFields('zzz')), {});
  });

  test('1,000 files: one parse, one pass, every element projected', () => {
    const files = Array.from({ length: 1000 }, (_, i) => ({ ...aFile, id: `f${i}`, name: `n${i}` }));
    const result = selectFields({ kind: 'store#fileList', files }, 'files(id,permissions/role)', fileList) as {
      files: Array<{ id: string; permissions: unknown }>;
    };
    assert.equal(result.files.length, 1000);
    assert.deepEqual(result.files[999], { id: 'f999', permissions: [{ role: 'writer' }, { role: 'reader' }] });
  });
});

describe('validating names against the schema', () => {
  test('an unknown name is a 400 with the supplement wording and its position', () => {
    rejects(() => selectFields(aFile, 'id,nmae', file), 'Invalid field selection id,nmae', 'unknownField', 3);
    rejects(
      () => selectFields(aFile, 'permissions(id,color)', file),
      'Invalid field selection permissions(id,color)',
      'unknownField',
      15,
    );
  });

  test('names are case-sensitive', () => {
    rejects(() => selectFields(aFile, 'ID', file), 'Invalid field selection ID', 'unknownField', 0);
    rejects(() => selectFields(aFile, 'mimetype', file), 'Invalid field selection mimetype', 'unknownField', 0);
  });

  test('a scalar cannot be selected into, not even with *', () => {
    rejects(() => selectFields(aFile, 'name/first', file), 'Invalid field selection name/first', 'unknownField', 5);
    rejects(() => selectFields(aFile, 'name/*', file), 'Invalid field selection name/*', 'unknownField', 5);
  });

  test('*/x needs some member to have x', () => {
    rejects(() => selectFields(aFile, '*/nothing', file), 'Invalid field selection */nothing', 'unknownField', 0);
    assert.doesNotThrow(() => validateFields(parseFields('*/role'), file, '*/role'));
  });

  test('inherited object properties are not fields', () => {
    rejects(() => selectFields(aFile, 'constructor', file), 'Invalid field selection constructor', 'unknownField', 0);
    rejects(() => selectFields(aFile, '__proto__', file), 'Invalid field selection __proto__', 'unknownField', 0);
  });

  test('validating is separate from parsing: parseFields accepts any well-formed name', () => {
    const sel = parseFields('anything/at/all');
    assert.throws(() => validateFields(sel, file, 'anything/at/all'), FieldsError);
  });
});

describe('syntax errors say what and where', () => {
  const cases: Array<[selection: string, message: string, position: number | undefined]> = [
    ['a(b', 'Invalid field selection a(b: unclosed parenthesis at position 1', 1],
    ['a(b(c)', 'Invalid field selection a(b(c): unclosed parenthesis at position 1', 1],
    ['a)', "Invalid field selection a): unmatched ')' at position 1", 1],
    ['a(b))', "Invalid field selection a(b)): unmatched ')' at position 4", 4],
    ['a,,b', 'Invalid field selection a,,b: empty field name at position 2', 2],
    [',a', 'Invalid field selection ,a: empty field name at position 0', 0],
    ['(a)', 'Invalid field selection (a): empty field name at position 0', 0],
    ['a/', 'Invalid field selection a/: empty field name at position 2', 2],
    ['a//b', 'Invalid field selection a//b: empty field name at position 2', 2],
    ['a,', 'Invalid field selection a,: trailing comma at position 1', 1],
    ['a, ', 'Invalid field selection a, : trailing comma at position 1', 1],
    ['a(b,)', 'Invalid field selection a(b,): trailing comma at position 3', 3],
    ['a()', 'Invalid field selection a(): empty parentheses at position 1', 1],
    ['a-b', 'Invalid field selection a-b: invalid character "-" (names use A-Z, a-z, 0-9, _ and *) at position 1', 1],
    ['a.b', 'Invalid field selection a.b: invalid character "." (names use A-Z, a-z, 0-9, _ and *) at position 1', 1],
    ['nàme', 'Invalid field selection nàme: invalid character "à" (names use A-Z, a-z, 0-9, _ and *) at position 1', 1],
    ['a ,b', 'Invalid field selection a ,b: white space is allowed only after a comma at position 1', 1],
    [' a', 'Invalid field selection  a: white space is allowed only after a comma at position 0', 0],
    ['a( b)', 'Invalid field selection a( b): white space is allowed only after a comma at position 2', 2],
    ['a*', "Invalid field selection a*: '*' must stand alone as a field name at position 0", 0],
    [
      'a(b)c',
      'Invalid field selection a(b)c: invalid character "c" (names use A-Z, a-z, 0-9, _ and *) at position 4',
      4,
    ],
    [
      'a(b)/c',
      "Invalid field selection a(b)/c: '/' cannot follow ')'; write the path inside the parentheses at position 4",
      4,
    ],
    ['a(b)(c)', "Invalid field selection a(b)(c): '(' must follow a field name at position 4", 4],
    ['', 'Invalid field selection : the selection is empty', undefined],
  ];
  for (const [selection, message, position] of cases) {
    test(JSON.stringify(selection), () => {
      rejects(() => parseFields(selection), message, 'syntax', position);
      // selectFields reports syntax before names: the schema is never consulted.
      rejects(() => selectFields(aFile, selection, file), message, 'syntax', position);
    });
  }

  test('the data wrapper must not be part of the selection', () => {
    const message = (s: string) =>
      `Invalid field selection ${s}: the data wrapper must not be part of the selection at position`;
    rejects(() => selectFields(aFile, 'data/id', file), `${message('data/id')} 0`, 'dataWrapper', 0);
    rejects(() => selectFields(aFile, 'data(id,name)', file), `${message('data(id,name)')} 0`, 'dataWrapper', 0);
    rejects(() => selectFields(aFile, 'id, data/name', file), `${message('id, data/name')} 4`, 'dataWrapper', 4);
    // `data` below the root, or a bare top-level `data`, is an ordinary name checked by the schema.
    const schema: FieldSchema = { fields: { a: { fields: { data: 'leaf' } }, data: 'leaf' } };
    assert.deepEqual(selectFields({ a: { data: 1 }, data: 2 }, 'a/data,data', schema), { a: { data: 1 }, data: 2 });
    // So is `data` opening a path inside parentheses: only the top level is the wrapper.
    const deep: FieldSchema = { fields: { a: { fields: { data: { fields: { x: 'leaf', y: 'leaf' } } } } } };
    const value = { a: { data: { x: 1, y: 2 } } };
    assert.deepEqual(selectFields(value, 'a(data/x)', deep), { a: { data: { x: 1 } } });
    assert.deepEqual(selectFields(value, 'a(data(y))', deep), { a: { data: { y: 2 } } });
  });

  test('nesting is capped so hostile input cannot exhaust the stack', () => {
    const ok = Array.from({ length: MAX_FIELDS_DEPTH }, () => 'a').join('/');
    assert.equal(parseFields(ok).children.size, 1);
    const deepPath = `${ok}/a`;
    rejects(
      () => parseFields(deepPath),
      `Invalid field selection ${deepPath}: nesting deeper than ${MAX_FIELDS_DEPTH} levels at position 0`,
      'syntax',
      0,
    );
    const deepParens = `${'a('.repeat(10_000)}b${')'.repeat(10_000)}`;
    assert.throws(
      () => parseFields(deepParens),
      (err: unknown) => err instanceof FieldsError && err.code === 'syntax',
    );
  });

  test('nested wildcards with narrowed named siblings stay cheap', () => {
    // Folding `*` into each narrowed sibling up front would copy the selection about 4^20 times; projection must not.
    let sel = 'z';
    let value: unknown = { z: 1 };
    let expected: unknown = { z: 1 };
    let schema: FieldSchema = 'leaf';
    for (let i = 0; i < 20; i++) {
      sel = `a/x,b/x,c/x,*(${sel})`;
      value = { a: value, q: 1 };
      expected = { a: expected };
    }
    for (let i = 0; i < 25; i++) schema = { map: schema };
    assert.deepEqual(selectFields(value, sel, schema), expected);
  });
});

describe('fieldsOf', () => {
  test('builds the selection string from a typed list', () => {
    assert.equal(fieldsOf(['id', 'name', { permissions: ['id', 'role'] }]), 'id,name,permissions(id,role)');
    assert.equal(
      fieldsOf([{ files: ['id', { owners: ['emailAddress'] }] }, 'nextPageToken']),
      'files(id,owners(emailAddress)),nextPageToken',
    );
    assert.equal(fieldsOf(['owners/emailAddress', { a: ['b'], c: ['d'] }]), 'owners/emailAddress,a(b),c(d)');
  });

  test('what it builds parses and selects as written', () => {
    const selection = fieldsOf(['id', { permissions: ['role'] }]);
    assert.deepEqual(selectFields(aFile, selection, file), {
      id: 'f1',
      permissions: [{ role: 'writer' }, { role: 'reader' }],
    });
  });

  test('a spec that cannot be written throws FieldsError', () => {
    rejects(() => fieldsOf([]), 'Invalid field selection : the selection is empty', 'syntax');
    rejects(
      () => fieldsOf([{ permissions: [] }]),
      'Invalid field selection permissions(): empty parentheses at position 11',
      'syntax',
      11,
    );
    rejects(
      () => fieldsOf(['a b']),
      'Invalid field selection a b: white space is allowed only after a comma at position 1',
      'syntax',
      1,
    );
  });
});
