#!/usr/bin/env bash
# Smoke suite in Debian's Firefox ESR and WebKitGTK (test/other-browsers/): the elements, uploads through the element
# and createUploader with MD5 verification, reload and resume, and a strict CSP, against the real store-service and
# the built bundle. One browser at a time under the machine's browser lock. Last line: "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-other-browsers.sh
# scripts/test.sh typechecks the suite with its lint, in the background at the start of the run, and says so.
if [ -z "${STORE_SMOKE_TYPECHECKED:-}" ]; then
  echo "== typecheck: test/other-browsers"
  npx tsgo -p test/other-browsers/tsconfig.json
fi
# scripts/test.sh builds the bundle once for all its browser stages and says so.
if [ -z "${STORE_BUNDLE_BUILT:-}" ]; then
  echo "== build: browser bundle"
  npx vite build --logLevel error
fi
export SMOKE_RESULTS
SMOKE_RESULTS="$(mktemp)"
trap 'rm -f "$SMOKE_RESULTS"' EXIT
status=0
echo "== firefox-esr (puppeteer-core, WebDriver BiDi)"
flock /tmp/chromium.lock timeout 300 node --import tsx test/other-browsers/run.ts firefox || status=1
echo "== WebKitGTK (WebKitWebDriver, under xvfb-run)"
flock /tmp/chromium.lock timeout 300 xvfb-run -a node --import tsx test/other-browsers/run.ts webkit || status=1
passed=0 failed=0
for browser in firefox webkit; do
  line="$(grep "^$browser " "$SMOKE_RESULTS" || true)"
  if [ -z "$line" ]; then
    echo "$browser: the run ended without a result (crash or timeout)"
    failed=$((failed + 1))
    continue
  fi
  read -r _ p f <<<"$line"
  passed=$((passed + p)) failed=$((failed + f))
done
# No check skips: one that cannot pass in a browser is a failure. (`[ … ] && status=1` would be ignored by errexit
# and leave a false last status; the if is explicit.)
if [ "$failed" -gt 0 ]; then status=1; fi
# A run that checked nothing (a filter matching no check, a browser that ran none) is no pass.
if [ "$passed" -eq 0 ]; then echo "no check ran"; status=1; fi
# Fewer checks than scripts/expected-test-counts.json expects (a check or a browser dropped) fails too.
echo "$passed passed, $failed failed" >"$SMOKE_RESULTS"
node --import tsx scripts/test-count.ts "firefox and webkit" smoke "$SMOKE_RESULTS" || status=1
echo "$passed passed, $failed failed"
exit "$status"
