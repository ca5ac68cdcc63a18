# Sourced by the Node runner scripts: `node_tests STAGE FILE…` runs the files with Node's test runner (one file at a
# time, a 5-minute limit a test: test/per-test-timeout.mjs), printing as before (TAP without a terminal, spec in
# one) and writing TAP to a report that scripts/test-count.ts checks against the stage's floor
# (scripts/expected-test-counts.json): a list or a glob that lost files fails the stage.
node_tests() {
  local stage=$1 report reporter=tap status=0
  shift
  report=$(mktemp)
  if [ -t 1 ]; then reporter=spec; fi
  node --import tsx --import ./test/per-test-timeout.mjs --test --test-force-exit --test-concurrency=1 \
    --test-reporter="$reporter" --test-reporter-destination=stdout \
    --test-reporter=tap --test-reporter-destination="$report" "$@" || status=$?
  if [ "$status" -eq 0 ]; then node --import tsx scripts/test-count.ts "$stage" tap "$report" || status=$?; fi
  rm -f "$report"
  return "$status"
}
