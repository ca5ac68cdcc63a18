# Sourced by the Node runner scripts: `node_tests STAGE FILE…` runs the files with Node's test runner (one file at a
# time, a 5-minute limit a test: test/per-test-timeout.mjs), printing as before (TAP without a terminal, spec in
# one), and checks the count it ends with against the stage's floor (scripts/test-count.ts,
# scripts/expected-test-counts.json): a list or a glob that lost files fails the stage. The count is read from what
# it prints (a tee): a second reporter writing to a file loses its summary to --test-force-exit.
node_tests() {
  local stage=$1 report reporter=tap status=0
  shift
  report=$(mktemp)
  if [ -t 1 ]; then reporter=spec; fi
  node --import tsx --import ./test/per-test-timeout.mjs --test --test-force-exit --test-concurrency=1 \
    --test-reporter="$reporter" "$@" | tee "$report" || status=$?
  if [ "$status" -eq 0 ]; then node --import tsx scripts/test-count.ts "$stage" tap "$report" || status=$?; fi
  rm -f "$report"
  return "$status"
}
