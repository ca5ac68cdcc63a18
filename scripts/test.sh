#!/usr/bin/env bash
# The whole suite, as CI and the README run it: types, lint and format, layer rules, Node suites, browser suites.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each stage says when it starts, in seconds since the suite began (scripts/test-browser.sh's too): where the time
# goes shows in any CI log.
export SUITE_STARTED="${SUITE_STARTED:-$(date +%s)}"
stage() { echo "== $* (at $(($(date +%s) - SUITE_STARTED)) s)"; }
stage "typecheck"
npm run --silent typecheck
stage "lint (ESLint) and format (Prettier)"
npm run --silent lint
stage "bundle size budgets"
npm run --silent check-size
stage "node suites"
bash scripts/test-node.sh
stage "the service's suites again over HTTP/2 (TLS, ALPN)"
bash scripts/test-http2.sh
stage "the service beyond one machine: PostgreSQL and Ceph RGW from nothing, three nodes behind a round-robin proxy"
bash scripts/test-cluster.sh
stage "browser suites"
bash scripts/test-browser.sh
stage "consumers: the packed tarballs installed into fixture apps"
bash scripts/test-consumers.sh
stage "Firefox and WebKit smoke suite (last: its closing line is the plain N passed, N failed)"
bash scripts/test-other-browsers.sh
