/**
 * Wires the service: database, clock, events, stores, faults, the route table and `dispatch`. The only place the
 * service is put together; its types live in `service-types.ts`, so nothing imports back into the wiring.
 */
import { mkdirSync } from 'node:fs';
import { createAuthenticator } from './auth/index.ts';
import { createClock } from './clock.ts';
import { dispatchRequest } from './dispatch.ts';
import { FileEvents } from './events.ts';
import { openMetadata } from './metadata/index.ts';
import { conversionFor, terminateOcr } from './convert/setup.ts';
import { FaultRegistry } from './faults.ts';
import { createPushService } from './push/push-service.ts';
import { Router } from './router.ts';
import { routeModules } from './handlers/index.ts';
import { openContent, parseContentUrl } from './content/index.ts';
import { CommitGroup } from './store/commit-group.ts';
import { FileStore } from './store/files.ts';
import { ResumableSessions } from './store/resumable-sessions.ts';
import { RunTimeSettings } from './store/run-time-settings.ts';
import { StorageQuota } from './store/storage-quota.ts';
import { UploadSessionRows } from './store/sessions.ts';
import type { Service, ServiceOptions } from './service-types.ts';
import { TokenGrants } from './token-grants.ts';

/** Opens the data directory, the databases and the content store, recovers after a crash, and registers every route. */
export async function createService(options: ServiceOptions): Promise<Service> {
  mkdirSync(options.dataDir, { recursive: true });
  const contentUrl = options.config.content;
  // Opened first: a bucket that cannot be reached stops the start before anything else is touched.
  const content = await openContent(
    contentUrl === undefined
      ? { dataDir: options.dataDir }
      : { s3: { ...parseContentUrl(contentUrl), stagingTtlMs: options.config.sessionTtlMs } },
  );
  const db = await openMetadata(
    options.database === undefined ? { dataDir: options.dataDir } : { postgres: options.database },
  ).catch(async (e: unknown) => {
    await content.close();
    throw e;
  });
  // The admin clock's offset is one of the run-time settings (read below, and kept in the database).
  const clock = createClock();
  const events = new FileEvents();
  const commits = new CommitGroup(db, events);
  // Released content is removed only once the commit that released it is durable (a crash before a group commit
  // keeps the row that still names it). A failed removal leaves unreferenced content, which the next start sweeps.
  const releaseContent = (key: string) =>
    void content.remove(key).catch((e: unknown) => console.error('store-service: could not remove content:', e));
  const quota = new StorageQuota(db, options.config.storageQuotaBytes);
  const files = new FileStore(db, clock, events, quota, (key) => commits.afterCommit(() => releaseContent(key)));
  const sessions = new UploadSessionRows(db, clock, options.config.sessionTtlMs, (id) =>
    // A failed removal leaves staging that the next start's recovery (or the object store's sweep) removes.
    content.sessions
      .remove(id)
      .catch((e: unknown) => console.error("store-service: could not remove a session's bytes:", e)),
  );
  const resumable = new ResumableSessions(sessions, content);
  // A crash between moving a part into stored content and marking the session complete: a file row holding that
  // content means the completion committed.
  await resumable.recover(async (key) => {
    const row = await files.withContent(key);
    return row && (await files.resource(row));
  });
  await content.collectGarbage(await files.referencedContent());
  const closers: (() => void | Promise<void>)[] = [];
  const router = new Router();
  const push = createPushService({
    db,
    clock,
    events,
    files,
    config: options.config,
    afterCommit: (fn) => commits.afterCommit(fn),
  });
  closers.push(() => push.close());
  const convert = conversionFor(options.dataDir, options.config);
  // OCR workers are threads: stop them so a closed service lets the process exit.
  closers.push(() => terminateOcr());
  const tokens = new TokenGrants(options.config.tokens);
  const settings: RunTimeSettings = new RunTimeSettings(db, {
    tokens,
    clock,
    quota,
    faults: (rows) => faults.adopt(rows),
  });
  const faults = new FaultRegistry(settings);
  await settings.start();
  closers.push(() => settings.stop());
  const svc: Service = {
    config: options.config,
    tokens,
    settings,
    auth: options.authenticator ?? createAuthenticator(options.config, tokens, () => clock.now()),
    dataDir: options.dataDir,
    admin: options.admin,
    db,
    commits,
    clock,
    events,
    content,
    files,
    quota,
    resumable,
    faults,
    push,
    convert,
    dispatch: (req) => dispatchRequest(svc, router, req),
    onClose: (fn) => void closers.push(fn),
    async close() {
      for (const fn of closers.reverse()) await fn();
      await db.close();
      await content.close();
    },
  };
  for (const register of routeModules) register(router, svc);
  return svc;
}
