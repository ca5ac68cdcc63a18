/** A `store-service` started from the installed `@store-upload-kit/service` tarball, for the consumer specs. */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** The running service: its base URL and how to stop it. */
export interface ConsumerService {
  readonly url: string;
  stop(): void;
}

/**
 * Starts the bin npm linked from the service tarball, as a user's test setup would (`npx store-service`);
 * scripts/test-consumers.sh installs it in `<dir>/service`, beside the apps.
 */
export async function startService(dir: string, extraArgs: string[] = []): Promise<ConsumerService> {
  const dataDir = mkdtempSync(join(tmpdir(), 'consumer-service-'));
  const service: ChildProcess = spawn(
    join(dir, 'service/node_modules/.bin/store-service'),
    ['--port', '0', '--data', dataDir, ...extraArgs],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('store-service did not print its ready line within 30 s')), 30_000);
    service.once('exit', (code) => reject(new Error(`store-service exited with ${code}`)));
    createInterface({ input: service.stdout! }).on('line', (line) => {
      const match = /listening on (http:\/\/\S+)/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  });
  return {
    url,
    stop() {
      service.kill('SIGTERM');
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
