#!/usr/bin/env bash
# Browser suites: @web/test-runner component and worker tests, then Playwright end-to-end specs, one Chromium at a time.
set -euo pipefail
cd "$(dirname "$0")/.."
stage() { echo "== $* (at $(($(date +%s) - ${SUITE_STARTED:-$(date +%s)})) s)"; }
bash scripts/ensure-chromium.sh
stage "build: browser bundle, demos, storybook"
npx vite build --logLevel warn
npx vite build -c vite.demo.config.ts --logLevel warn
npx storybook build -c .storybook --quiet -o storybook-static >/dev/null
stage "storybook: every story's play function and accessibility check (Storybook's test runner)"
npx vitest run --config vitest.config.ts
stage "web-test-runner"
npx web-test-runner --config web-test-runner.config.js
stage "playwright"
npx playwright test
