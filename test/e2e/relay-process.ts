/** `store-relay` as a child process, as the e2e suites start it: on a free port, its URL and CA read from its output. */
import { type ChildProcess, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');

export interface RelayProcess {
  url: string;
  /** The development CA the relay made (or found) in `certDir`. */
  caPath: string;
  stop(): Promise<void>;
}

/** Starts `store-relay --port 0` with its certificates in `certDir`; resolves once it says where it listens. */
export async function startRelayProcess(certDir: string): Promise<RelayProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    [join(ROOT, 'bin/store-relay.js'), '--port', '0', '--host', 'localhost', '--cert-dir', certDir],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  const started = await new Promise<{ url: string; caPath: string }>((done, fail) => {
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const url = /store-relay listening on (https:\/\/\S+)/.exec(out)?.[1];
      const caPath = /CA certificate(?: \(new\))?: (\S+)/.exec(out)?.[1];
      if (url && caPath) done({ url, caPath });
    });
    child.once('exit', (code) => fail(new Error(`store-relay exited with ${code} before listening:\n${err}`)));
  });
  return {
    ...started,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((done) => child.once('exit', () => done()));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
