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
declare -A job_pid job_log job_name
# `background KEY NAME COMMAND…` starts a job; `collect KEY` waits for it and prints its output.
background() {
  local key=$1 name=$2
  shift 2
  job_name[$key]=$name
  job_log[$key]=$(mktemp)
  stage "$name: started in the background (its output follows when it ends)"
  # Its own process group, so that a failure in the foreground can stop it and everything it started.
  setsid bash -c 'stage() { echo "== $* (at $(($(date +%s) - SUITE_STARTED)) s)"; }; "$@"; status=$?
    stage "'"$name"': ended with status $status"; exit $status' _ "$@" >"${job_log[$key]}" 2>&1 &
  job_pid[$key]=$!
}
collect() {
  local key=$1 status=0
  stage "waiting for ${job_name[$key]}"
  wait "${job_pid[$key]}" || status=$?
  cat "${job_log[$key]}"
  rm -f "${job_log[$key]}"
  unset "job_pid[$key]"
  return "$status"
}
# On a failure in the foreground: stop what still runs in the background and print what it had printed.
stop_background() {
  local key
  if [ -n "${step_pid:-}" ]; then kill -- -"$step_pid" 2>/dev/null || true; fi
  for key in "${!job_pid[@]}"; do
    kill -- -"${job_pid[$key]}" 2>/dev/null || true
    stage "${job_name[$key]}: stopped; its output so far"
    cat "${job_log[$key]}"
    rm -f "${job_log[$key]}"
  done
}
trap stop_background EXIT

# The consumer apps' folder, shared by the install, build and check steps of scripts/test-consumers.sh.
CONSUMERS_DIR=$(mktemp -d /tmp/store-consumers.XXXXXX)
export CONSUMERS_DIR
# Packing rebuilds packages/*/dist, which the service's test runs start from (bin/run.js): it runs beside the
# typecheck and lint, which start no service; the npm installs after it are mostly downloads and go on beside the
# suites. Niced: the foreground keeps its core. It leaves its status in a file for the apps' builds to wait on.
install_consumers() {
  local status=0
  nice -n 10 bash scripts/test-consumers.sh install || status=$?
  echo "$status" >"$CONSUMERS_DIR/.install-status"
  return "$status"
}
# `wait_for_file FILE SECONDS`: one stat a second; fails when the file has not appeared in time.
wait_for_file() {
  local waited=0
  until [ -e "$1" ]; do
    if [ "$waited" -ge "$2" ]; then echo "no $1 after $2 s"; return 1; fi
    sleep 1
    waited=$((waited + 1))
  done
}
export -f install_consumers wait_for_file
background install "consumers: pack, publint, attw, npm install into the fixture apps" install_consumers
# The lint (ESLint's typed rules: about two minutes of one core) runs beside the typecheck and the first browser
# stages instead of before them: while the packing and the npm installs wait on the network, a core is free, and the
# browser stages, one Chromium at a time, are the run's longest chain. A lint failure still ends the run when the lint
# ends (`beside_lint`), not when the step it runs beside does.
# The Firefox and WebKit smoke suite's typecheck goes with it (its script then skips it, STORE_SMOKE_TYPECHECKED): at
# the end of the run it held the chain while no browser ran.
export STORE_SMOKE_TYPECHECKED=1
background lint "lint (ESLint) and format (Prettier), and the smoke suite's typecheck" \
  bash -c 'npm run --silent lint && npx tsgo -p test/other-browsers/tsconfig.json'
# `beside_lint COMMAND…`: runs a foreground step while the lint may still run; the lint's end is waited for with the
# step's, and a failed lint stops the step (its own process group, stopped by stop_background) and the run.
beside_lint() {
  local lint=${job_pid[lint]:-} ended status=0
  if [ -z "$lint" ]; then
    "$@"
    return
  fi
  setsid "$@" &
  step_pid=$!
  wait -n -p ended "$step_pid" "$lint" || status=$?
  if [ "$ended" = "$lint" ]; then
    cat "${job_log[lint]}"
    rm -f "${job_log[lint]}"
    unset "job_pid[lint]"
    # With errexit, a failed lint ends the run here; the EXIT trap stops the step.
    [ "$status" = 0 ] || exit "$status"
    status=0
    wait "$step_pid" || status=$?
  fi
  step_pid=
  return "$status"
}
stage "typecheck"
npm run --silent typecheck
stage "bundle size budgets"
npm run --silent check-size
stage "waiting for the consumers' packing (packages/*/dist rebuilt) before any service starts"
# (Ended without packing, it failed: its log says why.)
for _ in $(seq 900); do
  if [ -e "$CONSUMERS_DIR/.packed" ] || [ -e "$CONSUMERS_DIR/.install-status" ]; then break; fi
  sleep 1
done
if [ ! -e "$CONSUMERS_DIR/.packed" ]; then
  collect install || true
  echo "the consumers' packing did not end in 900 s, or failed"
  exit 1
fi

# The Node suites start services and no browser: they run beside the browser suites. The consumer apps' builds come
# right after the HTTP/2 stage, so that the apps' uploads in Chromium can follow the browser suites while the cluster
# stage still runs; the builds leave their status in a file for the foreground to wait on.
# Every step ends with `|| return`: run in the background, the lane is a function called where errexit does not
# stop it.
build_consumers() {
  wait_for_file "$CONSUMERS_DIR/.install-status" 900 || return
  if [ "$(cat "$CONSUMERS_DIR/.install-status")" != 0 ]; then
    echo "the consumers' install failed: its log is printed with its own banner"
    return 1
  fi
  # Builds only, no timing assertions: niced, so the browser suites beside them keep the cores they ask for.
  nice -n 10 bash scripts/test-consumers.sh build
}
node_lane() {
  # A failure before the builds still leaves their status, so the foreground stops at once instead of waiting for it.
  stage "node suites"
  bash scripts/test-node.sh || { echo "not built: the node suites failed" >"$CONSUMERS_DIR/.build-status"; return 1; }
  stage "the service's suites again over HTTP/2 (TLS, ALPN)"
  bash scripts/test-http2.sh || { echo "not built: the HTTP/2 suites failed" >"$CONSUMERS_DIR/.build-status"; return 1; }
  stage "consumers: typecheck (strict) and build each fixture app (once their install has ended)"
  local built=0
  build_consumers || built=$?
  echo "$built" >"$CONSUMERS_DIR/.build-status"
  [ "$built" = 0 ] || return "$built"
  stage "the service beyond one machine: PostgreSQL and Ceph RGW from nothing, three nodes behind a round-robin proxy"
  bash scripts/test-cluster.sh || return
}
export -f node_lane build_consumers stage
# The browser bundle (dist/browser), built once for every stage that loads it: the browser suites, the cluster's kit
# suites and the Firefox and WebKit smoke suite skip their own build (STORE_BUNDLE_BUILT). Built before the node lane
# starts, so that its cluster stage never finds it half written.
stage "build: the browser bundle, once for every browser stage"
npx vite build --logLevel warn
export STORE_BUNDLE_BUILT=1
background node "node suites, HTTP/2, consumers' builds, cluster" node_lane
stage "browser suites"
beside_lint bash scripts/test-browser.sh
if [ -n "${job_pid[lint]:-}" ]; then collect lint; fi
collect install
stage "consumers: the packed tarballs installed into fixture apps, an upload from each in Chromium (once built)"
# A build that failed or never came stops here: the node lane's log, printed by `collect`, says why.
if ! wait_for_file "$CONSUMERS_DIR/.build-status" 1800 || [ "$(cat "$CONSUMERS_DIR/.build-status")" != 0 ]; then
  collect node || true
  echo "the consumer apps were not built"
  exit 1
fi
bash scripts/test-consumers.sh check
# The Firefox and WebKit smoke suite goes on while the node lane's cluster stage still runs (it used to wait for that
# stage to end before it started); its browsers take the machine's browser lock, as the cluster's kit suites do, so
# one browser still runs at a time. Its output is printed last, and the run's last line is its closing one: the plain
# N passed, N failed.
background smoke "Firefox and WebKit smoke suite" bash -c \
  'bash scripts/test-other-browsers.sh | tee "$CONSUMERS_DIR/.smoke-output"; exit "${PIPESTATUS[0]}"'
collect node
collect smoke
# Its closing line again, as the run's last.
tail -n 1 "$CONSUMERS_DIR/.smoke-output"
