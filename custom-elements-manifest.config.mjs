// `npx cem analyze` (Lit mode) builds custom-elements.json from the class JSDoc of the store-* elements.
export default {
  globs: ['src/elements/**/*.ts'],
  exclude: ['src/elements/**/*.styles.ts', 'src/elements/i18n/**', 'src/elements/internal/!(store-element).ts'],
  outdir: '.',
  litelement: true,
  packagejson: false,
  plugins: [
    {
      // The analyzer lists modules in the order its file walk finds them, which changes with the machine's load
      // (a CI run found store-element.ts elsewhere): sorted by path, the same sources always make the same file.
      name: 'store-modules-by-path',
      packageLinkPhase({ customElementsManifest }) {
        customElementsManifest.modules.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      },
    },
  ],
};
