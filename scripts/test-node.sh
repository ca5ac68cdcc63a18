#!/usr/bin/env bash
# Node-side suites: protocol units, the service conformance suite, the client and engine against the real service.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-python-client.sh
mapfile -t files < <(find test/protocol test/server test/client test/relay test/repo test/compat -name '*.test.ts' 2>/dev/null | sort)
if [ ${#files[@]} -eq 0 ]; then echo "no node test files"; exit 1; fi
exec node --import tsx --test --test-concurrency=1 "${files[@]}"
