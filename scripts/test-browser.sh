#!/usr/bin/env bash
# Browser suites: @web/test-runner component and worker tests, then Playwright end-to-end specs, one Chromium at a time.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-chromium.sh
if [ -n "$(find test/browser -name '*.test.ts' 2>/dev/null | head -1)" ]; then
  npx web-test-runner --config web-test-runner.config.js
fi
if [ -n "$(find test/e2e -name '*.spec.ts' 2>/dev/null | head -1)" ] && [ -f playwright.config.ts ]; then
  npx playwright test
fi
