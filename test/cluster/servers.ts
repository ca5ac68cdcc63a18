/**
 * Real servers for the cluster tests, started from nothing and removed at the end: a throwaway PostgreSQL 15 and a
 * throwaway single-node Ceph RADOS Gateway (a real S3 server). The daemons are set up by `scripts/cluster/*.sh`
 * (installed from Debian when missing, as `scripts/ensure-chromium.sh` does for Chromium); this module picks free
 * ports, keeps each under its own temp dir and stops exactly the daemons it started (their pid files).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';

const run = promisify(execFile);
const SCRIPTS = fileURLToPath(new URL('../../scripts/cluster/', import.meta.url));

/** A port nothing listens on now (the kernel's pick on 127.0.0.1). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function script(name: string, args: readonly string[], timeoutMs: number): Promise<void> {
  try {
    await run('bash', [join(SCRIPTS, name), ...args], { timeout: timeoutMs });
  } catch (e) {
    const err = e as Error & { stderr?: string };
    throw new Error(`${name} ${args[0]} failed: ${err.stderr?.trim() || err.message}`);
  }
}

/** A temp dir others can enter (PostgreSQL runs as the `postgres` user). */
function tempRoot(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(dir, 0o755);
  return dir;
}

/** A running throwaway PostgreSQL. */
export interface Postgres {
  /** `postgres://store:PASSWORD@127.0.0.1:PORT/store` (the user owns the database). */
  readonly url: string;
  readonly port: number;
  /** Stops it as a crash would (`pg_ctl -m immediate stop`); {@link start} brings it back on the same port and data. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it and removes everything. */
  dispose(): Promise<void>;
}

/** Starts a throwaway PostgreSQL 15 with a database `store` and a user `store` with a random password (about 1 s). */
export async function startPostgres(): Promise<Postgres> {
  const root = tempRoot('store-pg-');
  const dir = join(root, 'pg');
  const port = await freePort();
  const password = randomBytes(12).toString('hex');
  try {
    await script('postgres.sh', ['init', dir, String(port), password], 120_000);
  } catch (e) {
    await script('postgres.sh', ['stop', dir], 30_000).catch(() => undefined);
    rmSync(root, { recursive: true, force: true });
    throw e;
  }
  return {
    url: `postgres://store:${password}@127.0.0.1:${port}/store`,
    port,
    stop: () => script('postgres.sh', ['stop', dir], 30_000),
    start: () => script('postgres.sh', ['start', dir], 30_000),
    async dispose() {
      await script('postgres.sh', ['stop', dir], 30_000).catch(() => undefined);
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A running throwaway Ceph RGW with one S3 user and one bucket. */
export interface ObjectStore {
  readonly endpoint: string;
  readonly region: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly bucket: string;
  /** The standard AWS variables that point a client (or `store-service --content s3://…`) at it. */
  readonly env: Readonly<Record<string, string>>;
  /** Stops only the gateway (the object store unreachable; the cluster keeps its objects). */
  stopGateway(): Promise<void>;
  /** Starts the gateway again on the same port. */
  startGateway(): Promise<void>;
  /** Stops every daemon and removes everything. */
  dispose(): Promise<void>;
}

export interface ObjectStoreOptions {
  /**
   * `memstore` (default) keeps objects in the OSD's RAM (about 1.9 × the bytes stored) and starts in about 1 s;
   * `bluestore` on a sparse 10 GB file starts in about 5 s and stays near 300 MiB: for tests storing hundreds of MiB.
   */
  readonly objectStore?: 'memstore' | 'bluestore';
  readonly bucket?: string;
}

/** Starts a throwaway single-node Ceph cluster with a gateway, an S3 user and a bucket. */
export async function startObjectStore(options: ObjectStoreOptions = {}): Promise<ObjectStore> {
  const root = tempRoot('store-rgw-');
  const dir = join(root, 'ceph');
  const [monPort, rgwPort] = [await freePort(), await freePort()];
  const accessKeyId = `AK${randomBytes(8).toString('hex').toUpperCase()}`;
  const secretAccessKey = randomBytes(20).toString('hex');
  const bucket = options.bucket ?? 'store-test';
  const endpoint = `http://127.0.0.1:${rgwPort}`;
  const region = 'us-east-1';
  const dispose = async () => {
    await script('rgw.sh', ['stop', dir], 30_000).catch(() => undefined);
    rmSync(root, { recursive: true, force: true });
  };
  try {
    const args = [String(monPort), String(rgwPort), options.objectStore ?? 'memstore', accessKeyId, secretAccessKey];
    await script('rgw.sh', ['start', dir, ...args], 180_000);
    const client = new S3Client({
      endpoint,
      region,
      forcePathStyle: true,
      credentials: { accessKeyId, secretAccessKey },
    });
    try {
      await client.send(new CreateBucketCommand({ Bucket: bucket }));
    } finally {
      client.destroy();
    }
  } catch (e) {
    await dispose();
    throw e;
  }
  return {
    endpoint,
    region,
    accessKeyId,
    secretAccessKey,
    bucket,
    env: {
      AWS_ENDPOINT_URL_S3: endpoint,
      AWS_ACCESS_KEY_ID: accessKeyId,
      AWS_SECRET_ACCESS_KEY: secretAccessKey,
      AWS_REGION: region,
    },
    stopGateway: () => script('rgw.sh', ['stop-gateway', dir], 30_000),
    startGateway: () => script('rgw.sh', ['start-gateway', dir], 60_000),
    dispose,
  };
}
