/** The "share with" step: parsing what the user typed, and granting it through one batch. */
import type { ShareGrant } from '../events.ts';

const EMAIL = /^[^@\s,;]+@[^@\s,;]+\.[^@\s,;]+$/;
const DOMAIN = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/i;

/** Shares files; resolves with how many grants failed. */
// eslint-disable-next-line @typescript-eslint/no-invalid-void-type -- a user's share function may resolve with nothing (`Promise<void>`).
export type ShareFunction = (fileIds: string[], grants: ShareGrant[]) => Promise<{ failed: number } | void>;

/** Splits `ann@example.com, example.org` into grants; `invalid` lists entries that are neither. */
export function parseGrants(input: string, role: ShareGrant['role']): { grants: ShareGrant[]; invalid: string[] } {
  const grants: ShareGrant[] = [];
  const invalid: string[] = [];
  for (const entry of input.split(/[\s,;]+/).filter(Boolean)) {
    if (EMAIL.test(entry)) grants.push({ type: 'user', emailAddress: entry, role });
    else if (DOMAIN.test(entry)) grants.push({ type: 'domain', domain: entry.toLowerCase(), role });
    else invalid.push(entry);
  }
  return { grants, invalid };
}

/**
 * The default share: every grant on every file in batches of permission creates (the client splits them by 100),
 * with `sendNotificationEmail=false` so nobody is mailed per file.
 */
export function shareThroughService(baseUrl: string, getAccessToken: () => string | Promise<string>): ShareFunction {
  return async (fileIds, grants) => {
    const { createStoreClient, calls } = await import('../../client/index.ts');
    const client = createStoreClient({ baseUrl, getAccessToken });
    const list = fileIds.flatMap((id) =>
      grants.map((g) => calls.createPermission(id, g, { sendNotificationEmail: false, fields: 'id' })),
    );
    const outcomes = await client.batch(list);
    return { failed: outcomes.filter((o) => !o.ok).length };
  };
}
