/** A fixture app's own server (production or development), started on a free loopback port for one spec. */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

/** The running server: its address, everything it printed, and how to stop it. */
export interface AppServer {
  readonly url: string;
  /** stdout and stderr so far, interleaved. */
  output(): string;
  stop(): Promise<void>;
}

/** A port nothing listens on now (the servers below take a port number, not 0). */
async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const address = probe.address();
  probe.close();
  return typeof address === 'object' && address ? address.port : 0;
}

/**
 * Runs `command` in `cwd` with `PORT`/`HOST` set and `{port}` in `args` replaced, and waits until its root answers
 * (a development server compiles the page on that first request).
 */
export async function startAppServer(command: string, args: readonly string[], cwd: string): Promise<AppServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    NEXT_TELEMETRY_DISABLED: '1',
    NUXT_TELEMETRY_DISABLED: '1',
  };
  // Playwright's runner sets NODE_ENV; each framework picks its own for `start` and `dev`.
  delete env['NODE_ENV'];
  const child: ChildProcess = spawn(
    command,
    args.map((arg) => arg.replace('{port}', String(port))),
    {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  );
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let running = true;
  const exited = once(child, 'exit').then(([code]) => {
    running = false;
    throw new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output}`);
  });
  const answered = (async () => {
    while (running) {
      const ok = await fetch(url).then(
        (response) => response.ok,
        () => false,
      );
      if (ok) return;
      // Waits for time: a server that is still starting gives no signal to wait for but its answer; each try is one
      // refused connection on loopback.
      // eslint-disable-next-line no-restricted-syntax -- time-wait: the reason above
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  await Promise.race([answered, exited]);
  return {
    url,
    output: () => output,
    async stop() {
      if (child.exitCode !== null) return;
      // The whole process group: `next dev` and `nuxt dev` run their servers in child processes.
      process.kill(-child.pid!, 'SIGTERM');
      await once(child, 'exit');
    },
  };
}
