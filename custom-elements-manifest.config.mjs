// `npx cem analyze` (Lit mode) builds custom-elements.json from the class JSDoc of the store-* elements.
export default {
  globs: ['src/elements/**/*.ts'],
  exclude: ['src/elements/**/*.styles.ts', 'src/elements/i18n/**', 'src/elements/internal/!(store-element).ts'],
  outdir: '.',
  litelement: true,
  packagejson: false,
};
