#!/usr/bin/env bash
# Browser suites: @web/test-runner component and worker tests, then Playwright end-to-end specs, one Chromium at a time.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-chromium.sh
echo "== web-test-runner"
npx web-test-runner --config web-test-runner.config.js
echo "== storybook build"
npx storybook build -c .storybook --quiet -o storybook-static >/dev/null
echo "== playwright"
npx playwright test
