/**
 * The file data layer: rows, permissions, pre-generated IDs and the change log, each mutation one metadata
 * transaction that also appends to `changes`, followed by a {@link FileEvent}.
 */
import { FOLDER_MIME, isNativeMime } from 'store-upload-kit/protocol';
import { type Need, requireAccess, type Role, strongestRole } from '../access.ts';
import type { Principal } from '../access.ts';
import type { Clock } from '../clock.ts';
import type { MetadataDb } from '../metadata/metadata-port.ts';
import { insertionOrder, jsonArrayItems } from '../metadata/sql-dialect.ts';
import { fileNotFound } from '../errors.ts';
import type { FileChange, FileEvents, FileEventType } from '../events.ts';
import { newFileId } from './ids.ts';
import { GeneratedIds } from './generated-ids.ts';
import { UserIds } from './user-ids.ts';
import type { StorageQuota } from './storage-quota.ts';
import type { FileQuery } from './query.ts';
import { fileResource } from './file-resource.ts';
import { listFiles } from './file-list.ts';
import {
  type DbFileRow,
  type DbPermRow,
  type FilePage,
  type FilePatch,
  type FileResource,
  type FileRow,
  type NewFile,
  type PermissionRow,
  toFile,
  toPerm,
} from './file-rows.ts';

export type { Role } from '../access.ts';
export type { ContentRef, FilePage, FilePatch, FileResource, FileRow, NewFile, PermissionRow } from './file-rows.ts';
export { permissionResource } from './file-resource.ts';

/** A permission to add: its grantee and role (validated by the caller). */
export interface PermissionInput {
  readonly type: PermissionRow['type'];
  readonly role: string;
  readonly email?: string | undefined;
  readonly domain?: string | undefined;
}

/** The file data layer. */
export class FileStore {
  readonly #db: MetadataDb;
  readonly #clock: Clock;
  readonly #events: FileEvents;
  readonly #ids: GeneratedIds;
  /** Which permission ID an address stands for (`user-ids.ts`). */
  readonly users: UserIds;
  readonly #quota: StorageQuota;
  /** Content no longer referenced after a commit (its key); the caller deletes it (after the transaction). */
  readonly onContentReleased: (key: string) => void;

  constructor(
    db: MetadataDb,
    clock: Clock,
    events: FileEvents,
    quota: StorageQuota,
    onContentReleased: (key: string) => void,
  ) {
    this.#db = db;
    this.#clock = clock;
    this.#events = events;
    this.#ids = new GeneratedIds(db, clock);
    this.users = new UserIds(db);
    this.#quota = quota;
    this.onContentReleased = onContentReleased;
  }

  /** A file by ID, visible or not. */
  async get(id: string): Promise<FileRow | undefined> {
    const r = await this.#db.get<DbFileRow>('SELECT * FROM files WHERE id = ?', id);
    return r && toFile(r);
  }

  /** All permissions of a file, owner first. */
  async permissions(fileId: string): Promise<PermissionRow[]> {
    const rows = await this.#db.all<DbPermRow>(
      `SELECT * FROM permissions WHERE file_id = ?
       ORDER BY CASE role WHEN 'owner' THEN 0 ELSE 1 END, ${insertionOrder(this.#db.dialect)}`,
      fileId,
    );
    return rows.map(toPerm);
  }

  /** The strongest role `who` has on a file, or undefined if the file is not visible to them. */
  async roleOf(fileId: string, who: Principal): Promise<Role | undefined> {
    // Only the grants that can match `who`, each kind an index search (`permissions_grantee`): a file shared with
    // thousands must not cost thousands of rows per check (one OR'd query made SQLite scan the file's grants).
    const grants = await this.#db.all<{ role: string }>(
      `SELECT role FROM permissions WHERE file_id = ? AND type IN ('user', 'group') AND email = ?
       UNION ALL SELECT role FROM permissions WHERE file_id = ? AND type = 'domain' AND domain = ?
       UNION ALL SELECT role FROM permissions WHERE file_id = ? AND type = 'anyone'`,
      fileId,
      who.email,
      fileId,
      who.domain,
      fileId,
    );
    return strongestRole(grants.map((g) => g.role));
  }

  /**
   * The file, checked for `need` by `who` — called inside the transaction that commits a change, so a delete or a
   * revocation that committed first always wins (404 / 403), however long the request took to arrive.
   */
  async #authorized(fileId: string, who: Principal, need: Need): Promise<FileRow> {
    // Changes of one file wait for each other, on every node: the check and the change see one state.
    await this.#db.lock(`file\n${fileId}`);
    const row = await this.get(fileId);
    if (!row) throw fileNotFound(fileId);
    requireAccess(fileId, await this.roleOf(fileId, who), need);
    return row;
  }

  /** The JSON resource of a file as `viewer` sees it. */
  async resource(row: FileRow, viewer?: Principal): Promise<FileResource> {
    return fileResource(row, await this.permissions(row.id), viewer);
  }

  /**
   * Creates a file owned by `by` (with its owner permission); fires `add`. A pre-generated `id` that another
   * create took first (on any node) throws `idTaken()`.
   */
  async create(input: NewFile, by: Principal, idTaken?: () => Error): Promise<FileRow> {
    const now = this.#clock.now();
    const id = input.id ?? newFileId();
    const seq = await this.#db.transaction(async () => {
      if (input.id !== undefined) {
        await this.#db.lock(`file\n${id}`);
        if ((await this.#ids.status(id, by.email)) === 'in-use' && idTaken) throw idTaken();
      }
      // Checked where the file commits: the usage counts every upload that committed before, racing ones included.
      await this.#quota.check(by.email, input.content?.size ?? 0);
      await this.#db.run(
        `INSERT INTO files (id, name, mime_type, description, original_filename, parents, size, md5, content_key,
           created_time, modified_time, trashed, version, owner)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?)`,
        id,
        input.name,
        input.mimeType,
        input.description ?? null,
        input.originalFilename ?? null,
        JSON.stringify(input.parents),
        input.content?.size ?? null,
        input.content?.md5 ?? null,
        input.content?.contentKey ?? null,
        now,
        now,
        input.trashed ? 1 : 0,
        by.email,
      );
      await this.users.remember(by);
      await this.#insertPermission({
        fileId: id,
        id: by.permissionId,
        type: 'user',
        role: 'owner',
        email: by.email,
        domain: undefined,
      });
      if (input.id !== undefined) await this.#ids.markUsed(input.id);
      return this.#recordChange(id, false, now);
    });
    await this.#events.emit({
      type: 'add',
      fileId: id,
      changed: [],
      parentIds: [...input.parents],
      byUser: by.email,
      seq,
    });
    return (await this.get(id)) as FileRow;
  }

  /**
   * Applies a patch for `by` (who must be able to write, checked in the committing transaction); fires
   * `trash`/`untrash` when `trashed` flips, otherwise `update` with what changed.
   */
  async update(id: string, patch: FilePatch, by: Principal): Promise<FileRow> {
    const now = this.#clock.now();
    const { before, parents, seq } = await this.#db.transaction(async () => {
      const row = await this.#authorized(id, by, 'write');
      // The owner pays for new content, and the bytes it replaces are freed by this same commit.
      if (patch.content) await this.#quota.check(row.owner, patch.content.size ?? 0, row.size ?? 0);
      let next = [...row.parents];
      for (const p of patch.removeParents ?? []) next = next.filter((x) => x !== p);
      for (const p of patch.addParents ?? []) if (!next.includes(p)) next.push(p);
      await this.#db.run(
        `UPDATE files SET name = ?, mime_type = ?, description = ?, original_filename = ?, parents = ?, size = ?,
           md5 = ?, content_key = ?, trashed = ?, modified_time = ?, version = version + 1 WHERE id = ?`,
        patch.name ?? row.name,
        patch.mimeType ?? row.mimeType,
        patch.description ?? row.description ?? null,
        patch.originalFilename ?? row.originalFilename ?? null,
        JSON.stringify(next),
        patch.content ? (patch.content.size ?? null) : (row.size ?? null),
        patch.content ? (patch.content.md5 ?? null) : (row.md5 ?? null),
        patch.content ? (patch.content.contentKey ?? null) : (row.contentKey ?? null),
        (patch.trashed ?? row.trashed) ? 1 : 0,
        now,
        id,
      );
      return { before: row, parents: next, seq: await this.#recordChange(id, false, now) };
    });
    if (patch.content && before.contentKey !== undefined && before.contentKey !== patch.content.contentKey)
      this.onContentReleased(before.contentKey);
    const changed: FileChange[] = [];
    if (patch.content) changed.push('content');
    const props =
      (patch.name !== undefined && patch.name !== before.name) ||
      (patch.mimeType !== undefined && patch.mimeType !== before.mimeType) ||
      (patch.description !== undefined && patch.description !== before.description) ||
      (patch.originalFilename !== undefined && patch.originalFilename !== before.originalFilename);
    if (props) changed.push('properties');
    const parentsChanged = parents.length !== before.parents.length || parents.some((p, i) => p !== before.parents[i]);
    if (parentsChanged) changed.push('parents');
    const trashFlip = patch.trashed !== undefined && patch.trashed !== before.trashed;
    const parentIds = [...new Set([...before.parents, ...parents])];
    if (trashFlip) {
      const type: FileEventType = patch.trashed ? 'trash' : 'untrash';
      await this.#events.emit({ type, fileId: id, changed: [], parentIds, byUser: by.email, seq });
    }
    if (changed.length > 0 || !trashFlip) {
      await this.#events.emit({ type: 'update', fileId: id, changed, parentIds, byUser: by.email, seq });
    }
    return (await this.get(id)) as FileRow;
  }

  /**
   * Deletes a file for good, and the descendants of a folder; fires `remove` for each. Only the owner may (checked
   * in the committing transaction).
   */
  async delete(id: string, by: Principal): Promise<void> {
    const now = this.#clock.now();
    const { doomed, seqs } = await this.#db.transaction(async () => {
      await this.#authorized(id, by, 'delete');
      const rows: FileRow[] = [];
      const collect = async (fileId: string): Promise<void> => {
        const row = await this.get(fileId);
        if (!row || rows.some((d) => d.id === fileId)) return;
        rows.push(row);
        if (row.mimeType === FOLDER_MIME) {
          const kids = await this.#db.all<{ id: string }>(
            `SELECT f.id FROM files f WHERE EXISTS
               (SELECT 1 FROM ${jsonArrayItems(this.#db.dialect, 'f.parents')} WHERE j.value = ?)`,
            fileId,
          );
          for (const k of kids) await collect(k.id);
        }
      };
      await collect(id);
      const numbers: number[] = [];
      for (const row of rows) {
        await this.#db.run('DELETE FROM files WHERE id = ?', row.id);
        await this.#db.run('DELETE FROM permissions WHERE file_id = ?', row.id);
        numbers.push(await this.#recordChange(row.id, true, now));
      }
      return { doomed: rows, seqs: numbers };
    });
    for (const [i, row] of doomed.entries()) {
      if (row.contentKey !== undefined) this.onContentReleased(row.contentKey);
      await this.#events.emit({
        type: 'remove',
        fileId: row.id,
        changed: [],
        parentIds: [...row.parents],
        byUser: by.email,
        seq: seqs[i],
      });
    }
  }

  /**
   * Adds or replaces (same grantee) a permission; returns it. Fires `update` with `permissions`.
   * For the permissions endpoint: validate `type`/`role`/grantee before calling, or pass a function that does so
   * given the file — it runs after the access check, inside the committing transaction, so a 404/403 outranks what
   * it throws (a 400), and what it throws rolls back nothing but itself.
   */
  async addPermission(
    fileId: string,
    perm: PermissionInput | ((file: FileRow) => PermissionInput),
    by: Principal,
  ): Promise<PermissionRow> {
    let added: PermissionRow | undefined;
    await this.#mutatePermissions(fileId, by, async (file) => {
      const p = typeof perm === 'function' ? perm(file) : perm;
      const who = p.type === 'domain' ? (p.domain ?? '') : p.type === 'anyone' ? 'anyone' : (p.email ?? '');
      added = {
        fileId,
        id: p.type === 'anyone' ? 'anyoneWithLink' : await this.users.permissionIdOf(p.type, who),
        type: p.type,
        role: p.role,
        email: p.email?.toLowerCase(),
        domain: p.domain?.toLowerCase(),
      };
      // The grantee's old row goes and the new one lists last, as a new grant.
      await this.#db.run('DELETE FROM permissions WHERE file_id = ? AND id = ?', fileId, added.id);
      await this.#insertPermission(added);
    });
    return added as PermissionRow;
  }

  /** Removes a permission; false if it did not exist. Fires `update` with `permissions`. */
  async removePermission(fileId: string, permissionId: string, by: Principal): Promise<boolean> {
    let removed = false;
    await this.#mutatePermissions(fileId, by, async () => {
      removed = (await this.#db.run('DELETE FROM permissions WHERE file_id = ? AND id = ?', fileId, permissionId)) > 0;
    });
    return removed;
  }

  async #mutatePermissions(fileId: string, by: Principal, change: (file: FileRow) => Promise<void>): Promise<void> {
    const now = this.#clock.now();
    let row: FileRow | undefined;
    const seq = await this.#db.transaction(async () => {
      row = await this.#authorized(fileId, by, 'share');
      await change(row);
      await this.#db.run('UPDATE files SET version = version + 1 WHERE id = ?', fileId);
      return this.#recordChange(fileId, false, now);
    });
    await this.#events.emit({
      type: 'update',
      fileId,
      changed: ['permissions'],
      parentIds: [...(row?.parents ?? [])],
      byUser: by.email,
      seq,
    });
  }

  async #insertPermission(p: PermissionRow): Promise<void> {
    await this.#db.run(
      'INSERT INTO permissions (file_id, id, type, role, email, domain) VALUES (?, ?, ?, ?, ?, ?)',
      p.fileId,
      p.id,
      p.type,
      p.role,
      p.email ?? null,
      p.domain ?? null,
    );
  }

  async #recordChange(fileId: string, removed: boolean, time: number): Promise<number> {
    const r = await this.#db.get<{ seq: number }>(
      'INSERT INTO changes (file_id, removed, time) VALUES (?, ?, ?) RETURNING seq',
      fileId,
      removed ? 1 : 0,
      time,
    );
    return r?.seq as number;
  }

  /** The change log's next sequence number (`startPageToken`). */
  async nextChangeSeq(): Promise<number> {
    // No change-log row is ever deleted, so the highest number is the last one given out.
    const r = await this.#db.get<{ seq: number | null }>('SELECT MAX(seq) AS seq FROM changes');
    return (r?.seq ?? 0) + 1;
  }

  /** Files visible to `who` matching `query`, in creation order, after `after` (a `num`). */
  list(who: Principal, query: FileQuery, pageSize: number, after: number): Promise<FilePage> {
    return listFiles(this.#db, who, query, pageSize, after);
  }

  /** Hands out `count` new IDs to `user` (`GeneratedIds`). */
  generateIds(user: string, count: number): Promise<string[]> {
    return this.#ids.generate(user, count);
  }

  /** Whether `user` may create a file with `id`: `in-use` (→ 409), `not-usable` (→ 400) or `ok` (`GeneratedIds`). */
  generatedIdStatus(id: string, user: string): Promise<'in-use' | 'not-usable' | 'ok'> {
    return this.#ids.status(id, user);
  }

  /** The file whose content is stored under `key`, if any (startup recovery of a completion). */
  async withContent(key: string): Promise<FileRow | undefined> {
    const r = await this.#db.get<DbFileRow>('SELECT * FROM files WHERE content_key = ?', key);
    return r && toFile(r);
  }

  /** Every content key a file references (startup garbage collection). */
  async referencedContent(): Promise<Set<string>> {
    const rows = await this.#db.all<{ k: string }>('SELECT content_key AS k FROM files WHERE content_key IS NOT NULL');
    return new Set(rows.map((r) => r.k));
  }

  /** True for a folder. */
  static isFolder(row: FileRow): boolean {
    return row.mimeType === FOLDER_MIME;
  }

  /** True for a native kind other than a folder (not downloadable). */
  static isNativeDocument(row: FileRow): boolean {
    return isNativeMime(row.mimeType) && row.mimeType !== FOLDER_MIME;
  }
}
