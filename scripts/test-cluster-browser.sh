#!/usr/bin/env bash
# The kit's fault and navigation suites once against the cluster: the same real Chromium specs as
# scripts/test-browser.sh runs on the embedded default, with every service they start being three nodes over a
# throwaway PostgreSQL and Ceph RGW behind a round-robin proxy (test/cluster/on-cluster.ts sets the variables the
# service test helper reads). Faults are rows, so they hold on every node; a service "killed" mid-upload is one node
# killed, the upload finished through the others. A few suites only, to keep CI short: the fault suites (admin faults,
# offline, a dead process) and the navigation ones (reload, page to page, closed tab). full-disk.spec.ts stays on the
# single machine: it fills the data folder's disk, and a node keeps no content there.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-chromium.sh
specs=(
  test/e2e/acceptance-faults.spec.ts test/e2e/acceptance-network.spec.ts
  test/e2e/uploader-reload.spec.ts test/e2e/shared-engine.spec.ts
)
report=$(mktemp)
trap 'rm -f "$report"' EXIT
# Run alone, the bundle is built under the lock: no browser suite elsewhere may be reading dist/ while vite empties and
# writes it again. scripts/test.sh builds it once before its lanes start and says so (STORE_BUNDLE_BUILT).
PLAYWRIGHT_COUNT_FILE="$report" flock /tmp/chromium.lock bash -c \
  'if [ -z "${STORE_BUNDLE_BUILT:-}" ]; then npx vite build --logLevel warn || exit; fi
  node --import tsx test/cluster/on-cluster.ts -- npx playwright test "$@"' _ "${specs[@]}"
node --import tsx scripts/test-count.ts "cluster: kit fault and navigation suites" playwright "$report"
