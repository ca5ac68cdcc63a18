/**
 * Permissions of a file (spec §2.2, §4.7): create (the call batches are made of), list, get and delete.
 * Who may share: the owner and writers. Grants are `user` (by e-mail address) or `domain` (every user whose
 * address is in the domain), with role `reader` or `writer`; visibility follows from them in the data layer.
 */
import { FILES_PATH, KIND, PERMISSION_LIST_SCHEMA, PERMISSION_SCHEMA } from 'store-upload-kit/protocol';
import type { Principal } from '../access.ts';
import type { RouteContext } from '../context.ts';
import { ApiError, badParameter } from '../errors.ts';
import { fileFor } from '../access.ts';
import { visibleFile as visible } from './file-commit.ts';
import type { Router } from '../router.ts';
import { permissionResource, type FileRow, type PermissionRow } from '../store/files.ts';

const COLLECTION = `${FILES_PATH}/:fileId/permissions`;
const ITEM = `${COLLECTION}/:permissionId`;
const GRANT_TYPES = ['user', 'domain'] as const;
const GRANT_ROLES = ['reader', 'writer'] as const;

/** Adds the permission routes to the service's route table. */
export function registerPermissionRoutes(router: Router): void {
  // `schema`: dispatch checks `fields` before the handler runs, so a bad selection stores no grant.
  router.add('POST', COLLECTION, createPermission, { schema: PERMISSION_SCHEMA });
  router.add('GET', COLLECTION, listPermissions, { schema: PERMISSION_LIST_SCHEMA });
  router.add('GET', ITEM, getPermission, { schema: PERMISSION_SCHEMA });
  router.add('DELETE', ITEM, deletePermission);
}

/** A validated permission-create body. */
interface Grant {
  readonly type: (typeof GRANT_TYPES)[number];
  readonly role: (typeof GRANT_ROLES)[number];
  readonly email?: string;
  readonly domain?: string;
}

async function createPermission(ctx: RouteContext) {
  const user = ctx.user();
  readBoolean(ctx, 'sendNotificationEmail'); // validated only: the reference service sends no mail
  let body: unknown;
  try {
    body = await ctx.readJson();
  } catch (e) {
    // A missing or unsharable file (404/403) outranks a bad body (400/413).
    await sharableFile(ctx, user);
    throw e;
  }
  // One access check, in the transaction that commits (a batch of creates made each check twice); the body is
  // judged after it, so the answers keep their order of precedence: 404/403, then 400, then the owner's 403.
  const perm = await ctx.svc.files.addPermission(
    ctx.params.fileId,
    (file) => {
      const grant = validateGrant(body);
      if (grant.type === 'user' && grant.email === file.owner) {
        throw new ApiError(
          403,
          'forbidden',
          `${grant.email} owns this file; the owner's permission cannot be changed.`,
          {
            where: { location: 'permission.emailAddress', locationType: 'body' },
          },
        );
      }
      return grant;
    },
    user,
  );
  return ctx.json(200, permissionResource(perm), PERMISSION_SCHEMA);
}

async function listPermissions(ctx: RouteContext) {
  const file = await visibleFile(ctx, ctx.user());
  const permissions = (await ctx.svc.files.permissions(file.id)).map(permissionResource);
  return ctx.json(200, { kind: KIND.permissionList, permissions }, PERMISSION_LIST_SCHEMA);
}

async function getPermission(ctx: RouteContext) {
  const file = await visibleFile(ctx, ctx.user());
  return ctx.json(200, permissionResource(await findPermission(ctx, file)), PERMISSION_SCHEMA);
}

async function deletePermission(ctx: RouteContext) {
  const user = ctx.user();
  const file = await sharableFile(ctx, user);
  const perm = await findPermission(ctx, file);
  if (perm.role === 'owner') {
    throw new ApiError(403, 'forbidden', "The owner's permission cannot be removed.", {
      where: { location: 'permissionId', locationType: 'parameter' },
    });
  }
  await ctx.svc.files.removePermission(file.id, perm.id, user);
  return { status: 204, headers: {} };
}

/** The file, if `user` can see it; otherwise 404 as if it did not exist. */
function visibleFile(ctx: RouteContext, user: Principal): Promise<FileRow> {
  return visible(ctx.svc, ctx.params.fileId, user);
}

/** The file, if `user` may change its permissions (owner or writer): 404 if invisible, 403 if only a reader. */
function sharableFile(ctx: RouteContext, user: Principal): Promise<FileRow> {
  return fileFor(ctx.svc.files, ctx.params.fileId, user, 'share');
}

async function findPermission(ctx: RouteContext, file: FileRow): Promise<PermissionRow> {
  const id = ctx.params.permissionId;
  const perm = (await ctx.svc.files.permissions(file.id)).find((p) => p.id === id);
  if (!perm) {
    throw new ApiError(404, 'notFound', `Permission not found: ${id}.`, {
      where: { location: 'permissionId', locationType: 'parameter' },
    });
  }
  return perm;
}

/** A boolean query parameter: absent, `true` or `false`; anything else is a 400 naming it. */
function readBoolean(ctx: RouteContext, name: string): boolean | undefined {
  const raw = ctx.req.query.get(name);
  if (raw === null) return undefined;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  throw badParameter(name, `Invalid value for ${name}: "${raw}" (expected true or false).`);
}

/** Checks a permission-create body; every 400 names the field that is missing or wrong. */
function validateGrant(body: unknown): Grant {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError(
      400,
      'required',
      'A permission resource is required in the request body (a JSON object with type and role).',
      {
        where: { location: 'permission', locationType: 'body' },
      },
    );
  }
  const b = body as Record<string, unknown>;
  const type = oneOf(b, 'type', GRANT_TYPES);
  const role = oneOf(b, 'role', GRANT_ROLES);
  if (type === 'user') {
    const email = requiredString(b, 'emailAddress', 'a user permission').toLowerCase();
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email))
      throw invalidField('emailAddress', `"${email}" is not an e-mail address.`);
    return { type, role, email };
  }
  const domain = requiredString(b, 'domain', 'a domain permission').toLowerCase();
  if (!/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(domain)) {
    throw invalidField('domain', `"${domain}" is not a domain name.`);
  }
  return { type, role, domain };
}

function oneOf<T extends string>(b: Record<string, unknown>, name: string, allowed: readonly T[]): T {
  const value = b[name];
  if (value === undefined || value === null || value === '') {
    throw new ApiError(400, 'required', `The permission ${name} field is required.`, {
      where: { location: `permission.${name}`, locationType: 'body' },
    });
  }
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw invalidField(name, `${JSON.stringify(value)} is not supported; expected one of: ${allowed.join(', ')}.`);
  }
  return value as T;
}

function requiredString(b: Record<string, unknown>, name: string, what: string): string {
  const value = b[name];
  if (value === undefined || value === null || value === '') {
    throw new ApiError(400, 'required', `The permission ${name} field is required for ${what}.`, {
      where: { location: `permission.${name}`, locationType: 'body' },
    });
  }
  if (typeof value !== 'string') throw invalidField(name, `${JSON.stringify(value)} is not a string.`);
  return value.trim();
}

function invalidField(name: string, why: string): ApiError {
  return new ApiError(400, 'invalidParameter', `Invalid permission ${name}: ${why}`, {
    where: { location: `permission.${name}`, locationType: 'body' },
  });
}
