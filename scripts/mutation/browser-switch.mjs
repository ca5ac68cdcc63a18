// The browser lane's switch, as a web-test-runner plugin: StrykerJS's instrumented code reads the active mutant from
// `globalThis.__stryker__` or `process.env`, and a page or a worker has neither set. Every instrumented module the
// test server sends (recognised by StrykerJS's prelude) gets a line in front that sets the mutant in the realm that
// evaluates it; a module worker, a shared worker or a blob worker fetches its modules from the same server, so it is
// switched too. In a coverage run the same line makes the realm report each mutant it reaches, the first time, to the
// server (a synchronous request: a worker can be terminated in the next task, and a batch sent later would be lost).
// Plain JavaScript: web-test-runner loads its config without a TypeScript loader.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where realms report what they reached. */
const REPORT_PATH = '/__mutation/reached';

/** The text put in front of an instrumented module: the mutant on (or none), and in a coverage run the reporter. */
function prelude(mutant, reportUrl) {
  const report =
    reportUrl === undefined
      ? ''
      : `var pending = [];
  var flush = function () {
    try {
      var request = new XMLHttpRequest();
      request.open('POST', ${JSON.stringify(reportUrl)}, false);
      request.send(pending.splice(0).join(','));
    } catch (e) {
      // A page whose CSP forbids the request loses its report; the test goes on.
    }
  };
  ns.mutantCoverage = {
    perTest: {},
    static: new Proxy({}, {
      set: function (counts, id, value) {
        if (!(id in counts) && pending.push(id) === 1) Promise.resolve().then(flush);
        counts[id] = value;
        return true;
      },
    }),
  };`;
  return `(function () {
  var ns = globalThis.__stryker__ || (globalThis.__stryker__ = {});
  if (ns.laneSwitched) return;
  ns.laneSwitched = true;
  ${mutant === undefined ? '' : `ns.activeMutant = ${JSON.stringify(mutant)};`}
  ${report}
})();
`;
}

/**
 * The plugin and middleware of one run: `mutant` switched on (none in a coverage run), and with `coverageDir` each
 * reported mutant id written to `coverageDir/browser.json` (the format coverage.ts reads).
 */
export function mutationSwitch({ mutant, coverageDir }) {
  const reached = new Set();
  let reportUrl;
  const plugin = {
    name: 'mutation-switch',
    serverStart({ config }) {
      // Absolute, so a worker loaded from a blob or another origin reports to the same server.
      if (coverageDir !== undefined) reportUrl = `http://${config.hostname}:${config.port}${REPORT_PATH}`;
    },
    transform(context) {
      if (typeof context.body !== 'string' || !context.body.includes('stryNS_9fa48')) return undefined;
      return { body: prelude(mutant, reportUrl) + context.body };
    },
  };
  const middleware = async (ctx, next) => {
    if (ctx.path !== REPORT_PATH) return next();
    let body = '';
    for await (const chunk of ctx.req) body += chunk;
    for (const id of body.split(',')) if (id) reached.add(id);
    if (coverageDir !== undefined) writeFileSync(join(coverageDir, 'browser.json'), JSON.stringify([...reached]));
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.status = 204;
  };
  return { plugin, middleware };
}
