#!/usr/bin/env bash
# The whole suite, as CI and the README run it: types, lint and format, layer rules, Node suites, browser suites.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each stage says when it starts, in seconds since the suite began (scripts/test-browser.sh's too): where the time
# goes shows in any CI log.
export SUITE_STARTED="${SUITE_STARTED:-$(date +%s)}"
stage() { echo "== $* (at $(($(date +%s) - SUITE_STARTED)) s)"; }

# Work that waits mostly on something other than this machine's two cores, or that needs no browser, runs beside
# the stages that do (one Chromium at a time stays the rule: only the foreground runs a browser). A background job's
# output is held in a log and printed whole, banners and all, when the suite waits for it, so the log still reads
# stage by stage; its banners carry the times they were printed at.
declare -A job_pid job_log
background() {
  local name=$1
  shift
  job_log[$name]=$(mktemp)
  stage "$name: started in the background (its output follows when it ends)"
  # Its own process group, so that a failure in the foreground can stop it and everything it started.
  setsid bash -c 'stage() { echo "== $* (at $(($(date +%s) - SUITE_STARTED)) s)"; }; "$@"; status=$?
    stage "'"$name"': ended with status $status"; exit $status' _ "$@" >"${job_log[$name]}" 2>&1 &
  job_pid[$name]=$!
}
collect() {
  local name=$1 status=0
  stage "waiting for $name"
  wait "${job_pid[$name]}" || status=$?
  cat "${job_log[$name]}"
  rm -f "${job_log[$name]}"
  unset "job_pid[$name]"
  return "$status"
}
stop_background() {
  for name in "${!job_pid[@]}"; do kill -- -"${job_pid[$name]}" 2>/dev/null || true; done
}
trap stop_background EXIT

# The consumer apps' folder, shared by the install, build and check steps of scripts/test-consumers.sh.
CONSUMERS_DIR=$(mktemp -d /tmp/store-consumers.XXXXXX)
export CONSUMERS_DIR
# Packing rebuilds packages/*/dist, which the service's test runs start from (bin/run.js): it runs beside the
# typecheck and lint, which start no service; the npm installs after it are mostly downloads.
background "consumers: pack, publint, attw, npm install into the fixture apps" bash scripts/test-consumers.sh install
stage "typecheck"
npm run --silent typecheck
stage "lint (ESLint) and format (Prettier)"
npm run --silent lint
stage "bundle size budgets"
npm run --silent check-size
collect "consumers: pack, publint, attw, npm install into the fixture apps"

# The Node suites start services and no browser: they run beside the browser suites, and the consumer apps'
# builds follow them there.
node_lane() {
  stage "node suites"
  bash scripts/test-node.sh
  stage "the service's suites again over HTTP/2 (TLS, ALPN)"
  bash scripts/test-http2.sh
  stage "the service beyond one machine: PostgreSQL and Ceph RGW from nothing, three nodes behind a round-robin proxy"
  bash scripts/test-cluster.sh
  # Builds only, no timing assertions: niced, so the browser suites beside them keep the cores they ask for.
  stage "consumers: typecheck (strict) and build each fixture app"
  nice -n 10 bash scripts/test-consumers.sh build
}
export -f node_lane stage
background "node suites, HTTP/2, cluster, consumers' builds" node_lane
stage "browser suites"
bash scripts/test-browser.sh
collect "node suites, HTTP/2, cluster, consumers' builds"
stage "consumers: the packed tarballs installed into fixture apps, an upload from each in Chromium"
bash scripts/test-consumers.sh check
stage "Firefox and WebKit smoke suite (last: its closing line is the plain N passed, N failed)"
bash scripts/test-other-browsers.sh
