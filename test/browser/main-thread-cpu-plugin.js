// A @web/test-runner server command, `main-thread-cpu`: `{ action: 'start' }` starts sampling the CPU time of the
// page's main thread (main-thread-cpu.js); `{ action: 'stop', intervals: [{ start, end }] }` (epoch ms) answers each
// interval's CPU ms, how far apart the samples were, and the machine's 1-minute load average at start and stop.
import { loadavg } from 'node:os';
import { sampleMainThreadCpu } from './main-thread-cpu.js';

export function mainThreadCpuPlugin() {
  const runs = new Map();
  return {
    name: 'main-thread-cpu',
    async executeCommand({ command, payload, session }) {
      if (command !== 'main-thread-cpu') return undefined;
      if (payload?.action === 'start') {
        const sampler = await sampleMainThreadCpu();
        runs.set(session.id, { sampler, loadBefore: loadavg()[0] });
        return sampler.renderers;
      }
      if (payload?.action === 'stop') {
        const run = runs.get(session.id);
        if (!run) throw new Error('main-thread-cpu: stop without start');
        runs.delete(session.id);
        return { ...(await run.sampler.stop(payload.intervals ?? [])), loadAverage: [run.loadBefore, loadavg()[0]] };
      }
      throw new Error(`main-thread-cpu: unknown action ${payload?.action}`);
    },
  };
}
