#!/usr/bin/env bash
# The service suites that speak through the test helper's client, run again over HTTP/2: every service started with
# --https, every request on an HTTP/2 session (STORE_TEST_HTTP2=1, test/server/helpers/service.ts). Suites that write
# raw HTTP/1.1 bytes (framing, parser, aborted bodies, stalls) or call the service with fetch are HTTP/1.1-only.
# Each test gets at most 5 minutes (test/node-test-limits.mjs): a hang fails the run naming the test.
set -euo pipefail
cd "$(dirname "$0")/.."
files=(
  test/server/uploads.test.ts test/server/resumable.test.ts test/server/upload-rules.test.ts test/server/strict-bodies.test.ts
  test/server/files.test.ts test/server/metadata-calls.test.ts test/server/fields-parameter.test.ts
  test/server/http.test.ts test/server/batch.test.ts test/server/batch-edge-cases.test.ts
  test/server/permissions.test.ts test/server/permission-rules.test.ts test/server/convert-http.test.ts test/server/conversion-rules.test.ts
  test/server/http2.test.ts
)
export STORE_TEST_HTTP2=1
source scripts/node-tests.sh
node_tests "http2" "${files[@]}"
