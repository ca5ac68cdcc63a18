/**
 * Every route module, in registration order. A feature adds its `register…Routes(router, svc)` here (one line):
 * permissions, about/export, watch/changes, batch.
 */
import type { RouteModule } from '../router.ts';
import { registerAdminRoutes } from './admin.ts';
import { registerAdminTokenRoutes } from './admin-tokens.ts';
import { registerFileRoutes } from './files.ts';
import { registerUploadRoutes } from './uploads.ts';
import { registerPushRoutes } from './push.ts';
import { registerPermissionRoutes } from './permissions.ts';
import { registerBatchRoutes } from './batch.ts';
import { registerAboutRoutes } from './about.ts';
import { registerExportRoutes } from './export.ts';

/** The route modules the service registers at start-up. */
export const routeModules: readonly RouteModule[] = [
  registerFileRoutes,
  registerUploadRoutes,
  registerAdminRoutes,
  registerAdminTokenRoutes,
  registerPermissionRoutes,
  registerAboutRoutes,
  registerExportRoutes,
  registerPushRoutes,
  registerBatchRoutes,
];
