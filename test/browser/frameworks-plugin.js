// Serves React and Vue to the browser suites as ES modules: React ships CommonJS only and Vue's ES builds read
// `process.env`, which the dev server serves as they are. Each is bundled once by esbuild (development builds, so
// StrictMode and Vue's checks run as in an app's dev server) and every import of it resolves to that one module, so
// the hooks under test and the test share one React.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';

const PREFIX = '/__frameworks/';
/** Bare specifier → the package whose named exports its module re-exports. */
const MODULES = { react: 'react', 'react-dom/client': 'react-dom/client', 'react-dom': 'react-dom', vue: 'vue' };
/** The named exports of a package, read in a child process: loading React here would patch the runner's console. */
const names = (pkg) =>
  JSON.parse(
    execFileSync(process.execPath, ['-e', `console.log(JSON.stringify(Object.keys(require('${pkg}'))))`]),
  ).filter((n) => /^[A-Za-z_$][\w$]*$/.test(n) && n !== 'default');
const file = (spec) => `${PREFIX}${spec.replace(/\//g, '__')}.js`;

/** The WTR plugin. */
export function frameworksPlugin() {
  let bundle;
  const bundled = () =>
    (bundle ??= build({
      stdin: {
        contents: Object.keys(MODULES)
          .map((spec, i) => `import * as m${i} from '${spec}'; export { m${i} };`)
          .join('\n'),
        resolveDir: process.cwd(),
        loader: 'js',
      },
      bundle: true,
      format: 'esm',
      write: false,
      platform: 'browser',
      define: {
        'process.env.NODE_ENV': '"development"',
        __VUE_OPTIONS_API__: 'true',
        __VUE_PROD_DEVTOOLS__: 'false',
        __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
      },
      logLevel: 'error',
    }).then((r) => r.outputFiles[0].text));
  return {
    name: 'frameworks',
    resolveImport({ source }) {
      return source in MODULES ? file(source) : undefined;
    },
    async serve(context) {
      if (!context.path.startsWith(PREFIX)) return undefined;
      if (context.path === `${PREFIX}bundle.js`) return { body: await bundled(), type: 'js' };
      const i = Object.keys(MODULES).findIndex((spec) => file(spec) === context.path);
      if (i < 0) return undefined;
      const spec = Object.keys(MODULES)[i];
      const body = [
        `import { m${i} as m } from '${PREFIX}bundle.js';`,
        `const ns = m.default && typeof m.default === 'object' ? m.default : m;`,
        `export default ns;`,
        `export const { ${names(MODULES[spec]).join(', ')} } = ns;`,
      ].join('\n');
      return { body, type: 'js' };
    },
  };
}
