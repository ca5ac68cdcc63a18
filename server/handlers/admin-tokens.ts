/**
 * `/__admin/tokens` (only with `--admin`): issue and revoke bearer tokens while the service runs, so an app (and the
 * kit's tests) can act a real sign-out — the old token then gets 401 everywhere — and a sign-in of another account.
 */
import { jsonResponse } from '../context.ts';
import { badRequest, ApiError } from '../errors.ts';
import type { Router } from '../router.ts';
import type { Service } from '../service-types.ts';

/** Registers the token routes when the service runs with `--admin`. */
export function registerAdminTokenRoutes(router: Router, svc: Service): void {
  if (!svc.admin) return;
  const open = { public: true };
  router.add(
    'POST',
    '/__admin/tokens',
    async (ctx) => {
      const body = (await ctx.readJson()) as Record<string, unknown> | undefined;
      const { token, user, client = 'dev-client', serviceAccount = false, displayName } = body ?? {};
      if (typeof token !== 'string' || !/^\S+$/.test(token) || typeof user !== 'string' || !user.includes('@'))
        throw badRequest('Send {"token": "<no spaces>", "user": "<e-mail>", "client"?: "…", "serviceAccount"?: bool}.');
      if (typeof client !== 'string' || typeof serviceAccount !== 'boolean')
        throw badRequest('"client" must be a string and "serviceAccount" a boolean.');
      if (displayName !== undefined && typeof displayName !== 'string')
        throw badRequest('"displayName" must be a string.');
      await svc.settings.grantToken(token, {
        user,
        client,
        serviceAccount,
        ...(displayName !== undefined && { displayName }),
      });
      return jsonResponse(201, { token, user, client, serviceAccount });
    },
    open,
  );
  router.add(
    'DELETE',
    '/__admin/tokens/:token',
    async (ctx) => {
      if (!(await svc.settings.revokeToken(ctx.params.token)))
        throw new ApiError(404, 'notFound', `No valid token ${ctx.params.token} to revoke.`);
      return { status: 204, headers: {} };
    },
    open,
  );
}
