/**
 * `/__admin/*` (only with `--admin`): move the clock, schedule faults, set the storage quota, list open resumable
 * sessions. Shapes documented in server/README.md.
 */
import { jsonResponse } from '../context.ts';
import { badRequest } from '../errors.ts';
import { parseFault } from '../faults.ts';
import type { Router } from '../router.ts';
import type { Service } from '../service-types.ts';

/** Registers the admin routes when the service runs with `--admin`. */
export function registerAdminRoutes(router: Router, svc: Service): void {
  if (!svc.admin) return;
  const open = { public: true };
  router.add(
    'POST',
    '/__admin/clock',
    async (ctx) => {
      const body = (await ctx.readJson()) as { advanceMs?: unknown } | undefined;
      const ms = body?.advanceMs;
      if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0)
        throw badRequest('Send {"advanceMs": N} with N ≥ 0.');
      await svc.settings.advanceClock(ms);
      return jsonResponse(200, { now: svc.clock.now(), offsetMs: svc.clock.offsetMs });
    },
    open,
  );
  // The process's memory, and the metadata statements it has sent (the benchmarks' round trips per request).
  router.add(
    'GET',
    '/__admin/memory',
    async () => jsonResponse(200, { ...process.memoryUsage(), databaseStatements: svc.db.statements }),
    open,
  );
  router.add(
    'GET',
    '/__admin/clock',
    async () => jsonResponse(200, { now: svc.clock.now(), offsetMs: svc.clock.offsetMs }),
    open,
  );
  router.add(
    'POST',
    '/__admin/faults',
    async (ctx) => {
      const body = await ctx.readJson();
      const list = Array.isArray(body)
        ? body
        : Array.isArray((body as { faults?: unknown })?.faults)
          ? (body as { faults: unknown[] }).faults
          : [body];
      const added = await svc.faults.add(list.map(parseFault));
      return jsonResponse(200, { faults: added });
    },
    open,
  );
  const quota = () => jsonResponse(200, { limit: svc.quota.limit ?? null });
  router.add('GET', '/__admin/storage-quota', async () => quota(), open);
  router.add(
    'PUT',
    '/__admin/storage-quota',
    async (ctx) => {
      const limit = ((await ctx.readJson()) as { limit?: unknown } | undefined)?.limit;
      if (limit !== null && (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 0))
        throw badRequest('Send {"limit": N} with N ≥ 0 bytes, or {"limit": null} for no limit.');
      await svc.settings.setQuotaLimit(limit ?? undefined);
      return quota();
    },
    open,
  );
  // Read-only: what tests check a cancel or a finished upload left behind (open sessions not yet expired).
  router.add(
    'GET',
    '/__admin/sessions',
    async (ctx) => {
      const sessions = await svc.resumable.listOpen(ctx.req.query.get('user') ?? undefined);
      return jsonResponse(200, {
        sessions: sessions.map((r) => ({
          id: r.id,
          user: r.user,
          name: (r.metadata as { name?: unknown }).name ?? null,
          total: r.total ?? null,
          created: r.created,
          lastActivity: r.lastActivity,
        })),
      });
    },
    open,
  );
  router.add('GET', '/__admin/faults', async () => jsonResponse(200, { faults: await svc.faults.list() }), open);
  router.add(
    'DELETE',
    '/__admin/faults',
    async () => {
      await svc.faults.clear();
      return { status: 204, headers: {} };
    },
    open,
  );
}
