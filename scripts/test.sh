#!/usr/bin/env bash
# The whole suite, as CI and the README run it: types, layer rules, Node suites, browser suites.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== typecheck"
npm run --silent typecheck
echo "== bundle size budgets"
npm run --silent check-size
echo "== node suites"
bash scripts/test-node.sh
echo "== browser suites"
bash scripts/test-browser.sh
bash scripts/test-other-browsers.sh
