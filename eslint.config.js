// ESLint (flat config): typescript-eslint's strict type-checked rules over every TypeScript file, the Lit, web
// component and Lit accessibility rules, and the repository's own rules (file length, fixed waits and focused `.only`
// tests in tests, a reason on every inline disable). Formatting is Prettier's (`.prettierrc.json`); no rule here is
// about layout.
// Import rules a file can be judged on alone are ESLint's `no-restricted-imports` (UPLOADER_CONTRACT, PAGE_NOT_WORKER, ELEMENTS_REACH
// below); the layer and cycle rules that walk the import graph stay in test/protocol/layers.test.ts and test/repo/.
import js from '@eslint/js';
import comments from '@eslint-community/eslint-plugin-eslint-comments/configs';
import lit from 'eslint-plugin-lit';
import litA11y from 'eslint-plugin-lit-a11y';
import wc from 'eslint-plugin-wc';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Each TypeScript file is read with the tsconfig that typechecks it (`npm run typecheck`), first match wins, so the
 * lint sees the same libs and types as tsc: the protocol without DOM or node, the browser code with DOM, the service
 * with node. tsconfig.eslint.json holds the files no other tsconfig owns.
 */
const PROJECTS = [
  'src/protocol/tsconfig.json',
  'tsconfig.browser.json',
  'tsconfig.json',
  'test/client/tsconfig.json',
  'demo/tsconfig.json',
  'test/e2e/tsconfig.json',
  'test/consumers/tsconfig.json',
  'test/other-browsers/tsconfig.json',
  'tsconfig.eslint.json',
];

/**
 * A fixed wait synchronises a test when the machine is fast and fails (or tests nothing) when it is slow. A wait
 * that is the point of the test (a stall the service must notice, a timer under test) says so:
 * `// eslint-disable-next-line no-restricted-syntax -- time-wait: <reason>`. A zero-delay `setTimeout` yields one
 * task turn and waits for no length of time, so it is not flagged.
 */
const FIXED_WAITS = [
  {
    selector: "CallExpression[callee.property.name='waitForTimeout']",
    message: 'Wait for an event or a state, not for time (or say why: time-wait).',
  },
  {
    selector: "CallExpression[callee.name='sleep']",
    message: 'Wait for an event or a state, not for time (or say why: time-wait).',
  },
  {
    selector:
      "NewExpression[callee.name='Promise'] > ArrowFunctionExpression > CallExpression.body[callee.name='setTimeout']:not([arguments.1.value=0])",
    message: 'Wait for an event or a state, not for time (or say why: time-wait).',
  },
];

/**
 * A focused test (`test.only`, `it.only`, `describe.only`, `suite.only`, Playwright's `test.describe.only`, node:test's
 * `{ only: true }`) quietly shrinks a run to itself. The runners refuse it too (Playwright's and mocha's
 * `forbidOnly`, vitest's `allowOnly: false`); the lint says so before a run.
 */
const FOCUSED_TESTS = [
  {
    selector:
      "CallExpression > MemberExpression.callee[property.name='only'][object.name=/^(test|it|describe|suite|context|specify)$/]",
    message: 'A focused test (.only) narrows the run to itself: remove `.only`.',
  },
  {
    selector:
      "CallExpression > MemberExpression.callee[property.name='only'][object.property.name=/^(describe|serial|parallel|test|it)$/]",
    message: 'A focused test (.only) narrows the run to itself: remove `.only`.',
  },
  {
    selector:
      "CallExpression[callee.name=/^(test|it|describe|suite)$/] > ObjectExpression > Property[key.name='only'][value.value=true]",
    message: 'A focused test ({ only: true }) narrows the run to itself: remove it.',
  },
];

/**
 * The uploader's contract, `src/uploader/contract/`, what every thread shares (ARCHITECTURE.md): it imports none of
 * the thread folders, or a type of the engine would tie the page's and the workers' contract to it.
 */
const UPLOADER_CONTRACT = {
  files: ['src/uploader/contract/*.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: '^\\.\\./(engine|page|worker|adapters)/',
            message:
              'The shared contract imports no thread folder (engine/, page/, worker/, adapters/): move the type into contract/.',
          },
        ],
      },
    ],
  },
};

/**
 * The page names no module of the worker folder, not even a type: it starts the workers from their URL
 * (`new URL('../worker/worker.js', import.meta.url)`) and calls them through the contract's `WorkerCalls`.
 */
const PAGE_NOT_WORKER = {
  files: ['src/uploader/page/*.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: '^\\.\\./worker/',
            message:
              "The page imports nothing of worker/: start a worker from its URL, type its calls with contract/'s WorkerCalls.",
          },
        ],
      },
    ],
  },
};

/**
 * The elements reach the uploader through its entry and, for code splitting, four named modules (CONVENTIONS.md,
 * "Layers"): the stored-sessions probe, the navigation hold, and the two the on-demand facade loader takes. One block
 * per folder depth, as `../uploader/` from `src/elements/uploader/` names the element's own folder.
 */
const ELEMENTS_REACH = ['src/elements/*.ts', 'src/elements/*/*.ts'].map((files, depth) => ({
  files: [files],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: `^${'\\.\\./'.repeat(depth + 1)}uploader/(?!(index|contract/stored-sessions|page/(navigation-hold|create-uploader|before-upload-loader))\\.ts$)`,
            message:
              'The elements reach the uploader through src/uploader/index.ts and the four modules CONVENTIONS.md names.',
          },
        ],
      },
    ],
  },
}));

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/',
      '**/dist/',
      'storybook-static/',
      'test-results/',
      'playwright-report/',
      // Fixture apps of other frameworks (Angular, Next, Nuxt, SvelteKit…): each is built by its own toolchain with
      // its own dependencies, installed only while test:consumers runs.
      'test/consumers/apps/',
    ],
  },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  comments.recommended,
  {
    // An inline disable says why: `// eslint-disable-next-line rule -- reason`.
    rules: { '@eslint-community/eslint-comments/require-description': ['error', { ignore: ['eslint-enable'] }] },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    extends: [tseslint.configs.strictTypeChecked],
    languageOptions: {
      parserOptions: { project: PROJECTS, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // A number or a boolean prints as itself in a template; the rule stays on for objects, nullish and `any`.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      // `() => el.remove()` as a callback is the codebase's idiom; a void value returned from a statement-like
      // arrow misleads nobody, nor does `return reply(...)` ending a function that itself returns void.
      '@typescript-eslint/no-confusing-void-expression': [
        'error',
        { ignoreArrowShorthand: true, ignoreVoidReturningFunctions: true },
      ],
      // The types claim more than the runtime guarantees: with `noUncheckedIndexedAccess` off (tsconfig.base.json)
      // every `match[2]` and `record[key]` is typed as present, and DOM lib types claim APIs some browsers lack
      // (`navigator.locks`). The rule would have the checks that keep those honest deleted.
      '@typescript-eslint/no-unnecessary-condition': 'off',
      // An `async` function that implements a Promise-returning port (an Importer, a route Handler, a SessionStore)
      // turns its throws into rejections, which its callers rely on; `async` without `await` is deliberate there.
      '@typescript-eslint/require-await': 'off',
      // `_name` marks a parameter a signature needs but the body does not (tsc's noUnusedParameters agrees), and a
      // rest sibling drops the named properties from a copy.
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // The code states invariants tsc cannot follow with `!` (a queue shifted after a length check, a key set a
      // line above, a regex group that matched); a throw per site would add branches no input can reach.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // An AbortSignal's `reason` and an IDBRequest's `error` are the platform's own rejection values (`any`); they
      // are passed on as they are so callers' `AbortError` checks keep working.
      '@typescript-eslint/prefer-promise-reject-errors': [
        'error',
        { allowThrowingAny: true, allowThrowingUnknown: true },
      ],
      // Interfaces that only extend one other exist to merge declarations (HTMLElementEventMap += the store events).
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            // node:test awaits its tests itself; the promise `test()` returns is only for runners that nest them.
            { from: 'package', package: 'node:test', name: ['test', 'it', 'describe', 'suite', 'before', 'after'] },
            // @open-wc/semantic-dom-diff types every chai `.equal` as a Promise (for its DOM diff); on values it
            // returns the assertion synchronously.
            { from: 'package', package: '@open-wc/semantic-dom-diff', name: 'Equal' },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.js'],
    extends: [lit.configs['flat/recommended'], wc.configs['flat/recommended'], litA11y.configs.recommended],
  },
  {
    // Shipped sources: one job per file, at most 400 lines as a reader scrolls them (comments and blank lines count:
    // a file long with comments is as long to walk). Past it, split the file by job.
    files: ['src/**', 'server/**'],
    rules: { 'max-lines': ['error', { max: 400 }] },
  },
  UPLOADER_CONTRACT,
  PAGE_NOT_WORKER,
  ...ELEMENTS_REACH,
  {
    // Benchmarks pace their load with timers on purpose; tests must not.
    files: ['test/**'],
    rules: { 'no-restricted-syntax': ['error', ...FIXED_WAITS, ...FOCUSED_TESTS] },
  },
  {
    // Stories are tests too (npm run test:stories runs each one's play function).
    files: ['stories/**', '.storybook/**'],
    rules: { 'no-restricted-syntax': ['error', ...FOCUSED_TESTS] },
  },
  {
    files: ['test/**', 'bench/**', 'stories/**', 'demo/**', '.storybook/**'],
    rules: {
      // Code that never ships. Its helpers' objects declare functions with method syntax and use no `this`.
      '@typescript-eslint/unbound-method': 'off',
      // `[...text]` splits a string into code points on purpose (glyph tables, transliteration, hues).
      '@typescript-eslint/no-misused-spread': 'off',
      // ESLint reads these files through one program per tsconfig (first match) and there calls a few assertions
      // unnecessary that tsc, reading the same file, needs (event targets, JSON imports, chained optionals).
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      // Helpers whose type parameter only names what the caller expects back (`byId<HTMLInputElement>('x')`,
      // `res.json<FileResource>()`): a cast with a name, which is what these helpers are for.
      '@typescript-eslint/no-unnecessary-type-parameters': 'off',
    },
  },
  {
    // Type tests: each expression exists to be typechecked, not to run.
    files: ['**/*.typecheck.ts'],
    rules: {
      '@typescript-eslint/no-unused-expressions': 'off',
      '@typescript-eslint/no-meaningless-void-operator': 'off',
    },
  },
  {
    files: ['test/**', 'bench/**'],
    rules: {
      // Tests and benchmarks read the service's answers as they come off the wire (`res.json()` is `any`) and assert their shape;
      // typing them first would state each shape twice. CONVENTIONS.md keeps `any` out of src/, not out of tests.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // A test names the rejection it expects (`(e: UploadError) => e.code`) and asserts on it in the next line.
      '@typescript-eslint/use-unknown-in-catch-callback-variable': 'off',
    },
  },
);
