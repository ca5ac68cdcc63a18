# Sourced by the Node runner scripts: `node_tests STAGE FILE…` runs the files with Node's test runner (one file at a
# time, a 5-minute limit a test: test/node-test-limits.mjs), printing as before (TAP without a terminal, spec in
# one), and checks the count it ends with against the stage's floor (scripts/test-count.ts,
# scripts/expected-test-counts.json): a list or a glob that lost files fails the stage. The count is read from what
# it prints (a tee): a second reporter writing to a file lost its summary when each file was ended by force.
#
# `node_test_run [OPTION…] FILE…`: Node's test runner as every Node stage runs it. No `--test-force-exit`: it ended a
# file's process before all its results reached the runner, which then counted fewer tests and passed
# (test/repo/node-runner.test.ts holds this); test/node-test-limits.mjs bounds a file that does not exit instead.
node_test_run() {
  node --import tsx --import ./test/node-test-limits.mjs --test --test-concurrency=1 "$@"
}
node_tests() {
  local stage=$1 report reporter=tap status=0
  shift
  report=$(mktemp)
  if [ -t 1 ]; then reporter=spec; fi
  node_test_run --test-reporter="$reporter" "$@" | tee "$report" || status=$?
  if [ "$status" -eq 0 ]; then node --import tsx scripts/test-count.ts "$stage" tap "$report" || status=$?; fi
  rm -f "$report"
  return "$status"
}
