#!/usr/bin/env bash
# The service beyond one machine, on real servers started from nothing (PostgreSQL 15 and a single-node Ceph RGW,
# installed from Debian when missing: scripts/cluster/): the cluster's own tests (test/cluster/*.test.ts: nodes
# killed mid-upload, racing PUTs on two nodes, push across nodes, backends stopped mid-run, the S3 backend, migrate),
# then the service's suites again against three nodes over one database and one bucket behind a round-robin proxy
# (test/cluster/on-cluster.ts). Suites that look into a node's data folder (part files, temp files, a mounted full
# disk), kill the one process they started, or write raw HTTP/1.1 framing (which the proxy re-frames) test the single
# machine and stay in the node suites.
# Each test gets at most 5 minutes (test/node-test-limits.mjs): a hang fails the run naming the test.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t own < <(find test/cluster -name '*.test.ts' | sort)
if [ ${#own[@]} -eq 0 ]; then echo "no test files in test/cluster"; exit 1; fi
source scripts/node-tests.sh
node_tests "cluster: own tests" "${own[@]}"
suites=(
  test/server/uploads.test.ts test/server/resumable.test.ts test/server/upload-rules.test.ts
  test/server/strict-bodies.test.ts test/server/files.test.ts test/server/metadata-calls.test.ts
  test/server/fields-parameter.test.ts test/server/batch.test.ts test/server/batch-edge-cases.test.ts
  test/server/permissions.test.ts test/server/permission-rules.test.ts
  test/server/admin-tokens.test.ts test/server/upgrade-content-key.test.ts
  test/server/push-watch.test.ts test/server/push-service.test.ts test/server/parser-fuzz.test.ts
  test/server/list-parameters.test.ts
)
# on-cluster.ts runs Node's test runner with its output on ours: its TAP goes to the count check too.
report=$(mktemp)
trap 'rm -f "$report"' EXIT
node --import tsx test/cluster/on-cluster.ts "${suites[@]}" | tee "$report"
node --import tsx scripts/test-count.ts "cluster: service suites on three nodes" tap "$report"
bash scripts/test-cluster-browser.sh
