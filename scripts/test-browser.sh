#!/usr/bin/env bash
# Browser suites: @web/test-runner component and worker tests, then Playwright end-to-end specs, one Chromium at a time
# (each runner holds the machine's browser lock, /tmp/chromium.lock, while it runs).
set -euo pipefail
cd "$(dirname "$0")/.."
stage() { echo "== $* (at $(($(date +%s) - ${SUITE_STARTED:-$(date +%s)})) s)"; }
bash scripts/ensure-chromium.sh
stage "build: browser bundle; demos and storybook beside the first suites"
# scripts/test.sh builds the bundle once for all its browser stages and says so.
if [ -z "${STORE_BUNDLE_BUILT:-}" ]; then npx vite build --logLevel warn; fi
# Only the Playwright specs load the demos and the built Storybook: their builds run beside Storybook's test runner and
# web-test-runner (niced: the suites keep the cores they ask for) instead of ahead of the one-Chromium chain, and
# Playwright waits for them. Their own process group, stopped when the script ends early.
builds_log=$(mktemp)
setsid nice -n 10 bash -c 'npx vite build -c vite.demo.config.ts --logLevel warn &&
  npx storybook build -c .storybook --quiet -o storybook-static >/dev/null' >"$builds_log" 2>&1 &
builds=$!
# Each runner also writes a report that scripts/test-count.ts checks against the stage's floor
# (scripts/expected-test-counts.json): a narrowed glob or a skipped file fails the stage.
reports=$(mktemp -d)
trap 'kill -- -"$builds" 2>/dev/null || true; rm -rf "$reports" "$builds_log"' EXIT
stage "storybook: every story's play function and accessibility check (Storybook's test runner)"
flock /tmp/chromium.lock npx vitest run --config vitest.config.ts \
  --reporter=default --reporter=json --outputFile.json="$reports/vitest.json"
node --import tsx scripts/test-count.ts "storybook vitest" vitest "$reports/vitest.json"
stage "web-test-runner"
WTR_COUNT_FILE="$reports/wtr.json" flock /tmp/chromium.lock npx web-test-runner --config web-test-runner.config.js
node --import tsx scripts/test-count.ts "web-test-runner" wtr "$reports/wtr.json"
stage "the mutation runner's browser lane: a fixture's mutants judged in Chromium, in the page and a worker"
# Here and not with the node suites: its web-test-runner runs take the machine's one Chromium (/tmp/chromium.lock).
node --import tsx --import ./test/node-test-limits.mjs --test --test-concurrency=1 test/mutation/browser-lane.test.ts
stage "waiting for the demos' and Storybook's builds"
builds_status=0
wait "$builds" || builds_status=$?
cat "$builds_log"
if [ "$builds_status" != 0 ]; then
  echo "the demos' or Storybook's build failed"
  exit 1
fi
stage "playwright"
PLAYWRIGHT_COUNT_FILE="$reports/e2e.json" flock /tmp/chromium.lock npx playwright test
node --import tsx scripts/test-count.ts "playwright e2e" playwright "$reports/e2e.json"
