#!/usr/bin/env bash
# Node-side suites: protocol units, the service conformance suite, the client and engine against the real service.
# Each test gets at most 5 minutes (test/node-test-limits.mjs): a hang fails the run naming the test instead of waiting
# for CI's own limit.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-python-client.sh
folders=(test/protocol test/server test/client test/repo test/compat)
files=()
for folder in "${folders[@]}"; do
  # A renamed or emptied folder must not drop its tests in silence.
  mapfile -t found < <(find "$folder" -name '*.test.ts' | sort)
  if [ ${#found[@]} -eq 0 ]; then echo "no test files in $folder (renamed or missing? update scripts/test-node.sh)"; exit 1; fi
  files+=("${found[@]}")
done
source scripts/node-tests.sh
node_tests "node suites" "${files[@]}"
