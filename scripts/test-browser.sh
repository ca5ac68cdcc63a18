#!/usr/bin/env bash
# Browser suites: @web/test-runner component and worker tests, then Playwright end-to-end specs, one Chromium at a time.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-chromium.sh
echo "== build: browser bundle, demos, storybook"
npx vite build --logLevel warn
npx vite build -c vite.demo.config.ts --logLevel warn
npx storybook build -c .storybook --quiet -o storybook-static >/dev/null
echo "== storybook: every story's play function and accessibility check (Storybook's test runner)"
npx vitest run --config vitest.config.ts
echo "== web-test-runner"
npx web-test-runner --config web-test-runner.config.js
echo "== playwright"
npx playwright test
