// The unit suites of the modules under mutation testing (stryker.config.mjs), in one process: run as a plain script
// (`node --import tsx test/client/mutation-suites.ts`), Node's test runner runs them and exits non-zero when one fails. One
// process instead of one per file makes each mutant's run several times shorter.
import '../protocol/session-put-rules.test.ts';
import './retry-policy.test.ts';
import './chunk-sizer.test.ts';
import './concurrency-policy.test.ts';
import './progress-meter.test.ts';
