#!/usr/bin/env bash
# The whole suite, as CI and the README run it: types, lint and format, layer rules, Node suites, browser suites.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== typecheck"
npm run --silent typecheck
echo "== lint (ESLint) and format (Prettier)"
npm run --silent lint
echo "== bundle size budgets"
npm run --silent check-size
echo "== node suites"
bash scripts/test-node.sh
echo "== the service's suites again over HTTP/2 (TLS, ALPN)"
bash scripts/test-http2.sh
echo "== browser suites"
bash scripts/test-browser.sh
echo "== consumers: the packed tarballs installed into fixture apps"
bash scripts/test-consumers.sh
echo "== Firefox and WebKit smoke suite (last: its closing line is the plain N passed, N failed)"
bash scripts/test-other-browsers.sh
