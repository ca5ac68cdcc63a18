/**
 * `GET /store/v3/about` (supplement §5): the caller, their storage use, and the conversion tables. Without
 * `fields` the full resource is returned (spec wins over the modelled API, which requires `fields`). Sizes are
 * int64 values and so, as in the modelled API, decimal strings.
 */
import { ABOUT_PATH, ABOUT_SCHEMA, KIND } from 'store-upload-kit/protocol';
import { exportFormats, importFormats, maxImportSizes, maxUploadSize } from '../convert/index.ts';
import type { Handler, Router } from '../router.ts';
import type { Service } from '../service-types.ts';

const about: Handler = async (ctx) => {
  const who = ctx.user();
  await ctx.svc.files.users.remember(who);
  const usage = await ctx.svc.quota.usageOf(who.email);
  const limit = ctx.svc.quota.limit;
  const body = {
    kind: KIND.about,
    user: {
      kind: KIND.user,
      displayName: who.displayName,
      emailAddress: who.email,
      permissionId: who.permissionId,
      me: true,
    },
    // Without a configured quota there is no `limit`: the modelled API shows an unlimited store by leaving it out.
    storageQuota: {
      ...(limit !== undefined && { limit: String(limit) }),
      usage: String(usage.total),
      usageInDrive: String(usage.total),
      usageInDriveTrash: String(usage.trash),
    },
    importFormats,
    exportFormats,
    maxImportSizes: Object.fromEntries(Object.entries(maxImportSizes).map(([k, v]) => [k, String(v)])),
    maxUploadSize: String(maxUploadSize),
  };
  return ctx.json(200, body, ABOUT_SCHEMA);
};

/** Registers the about route. */
export function registerAboutRoutes(router: Router, _svc: Service): void {
  router.add('GET', ABOUT_PATH, about);
}
