// The elements' css`…` text is minified in what ships (scripts/css-literals.ts): plain templates shrink and keep
// their meaning; templates with interpolations or escapes are left exactly as written.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { minifyCssLiterals } from '../../scripts/css-literals.ts';

test('minifies the text of plain css`…` templates and nothing around them', async () => {
  const code =
    'const a = css`\n  :host {\n    display: block; /* why */\n  }\n  .row  > span::part(x) { color: red }\n`;\nconst b = `  keep  `;';
  assert.equal(
    await minifyCssLiterals(code),
    'const a = css`:host{display:block}.row>span::part(x){color:red}`;\nconst b = `  keep  `;',
  );
});

test('leaves templates with an interpolation or an escape as written, and code without css`…` untouched', async () => {
  const code = 'css`a { color: ${c}; }`; css`a::before { content: "\\\\2014"; }`;';
  assert.equal(await minifyCssLiterals(code), code);
  assert.equal(await minifyCssLiterals('const x = 1;'), 'const x = 1;');
});

test("minifies tsc's emit too, where a space separates the tag from its template (dist/lib)", async () => {
  assert.equal(
    await minifyCssLiterals('const a = css `\n  :host {\n    display: block;\n  }\n`;'),
    'const a = css`:host{display:block}`;',
  );
});
