/**
 * The file data layer: rows, permissions, pre-generated IDs and the change log, each mutation one SQLite
 * transaction that also appends to `changes`, followed by a {@link FileEvent}.
 */
import { FOLDER_MIME, isNativeMime } from 'store-upload-kit/protocol';
import { type Need, requireAccess, type Role, strongestRole } from '../access.ts';
import type { Principal } from '../access.ts';
import type { Clock } from '../clock.ts';
import { atomically, type Db } from '../db.ts';
import { fileNotFound } from '../errors.ts';
import type { FileChange, FileEvents, FileEventType } from '../events.ts';
import { newFileId, permissionIdFor } from './ids.ts';
import { GeneratedIds } from './generated-ids.ts';
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
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #events: FileEvents;
  readonly #ids: GeneratedIds;
  readonly #quota: StorageQuota;
  /** Blobs no longer referenced after a commit; the caller deletes them (after the transaction). */
  readonly onBlobReleased: (name: string) => void;

  constructor(db: Db, clock: Clock, events: FileEvents, quota: StorageQuota, onBlobReleased: (name: string) => void) {
    this.#db = db;
    this.#clock = clock;
    this.#events = events;
    this.#ids = new GeneratedIds(db, clock);
    this.#quota = quota;
    this.onBlobReleased = onBlobReleased;
  }

  /** A file by ID, visible or not. */
  get(id: string): FileRow | undefined {
    const r = this.#db.prepare('SELECT * FROM files WHERE id = ?').get(id) as DbFileRow | undefined;
    return r && toFile(r);
  }

  /** All permissions of a file, owner first. */
  permissions(fileId: string): PermissionRow[] {
    const rows = this.#db
      .prepare(`SELECT * FROM permissions WHERE file_id = ? ORDER BY CASE role WHEN 'owner' THEN 0 ELSE 1 END, rowid`)
      .all(fileId) as DbPermRow[];
    return rows.map(toPerm);
  }

  /** The strongest role `who` has on a file, or undefined if the file is not visible to them. */
  roleOf(fileId: string, who: Principal): Role | undefined {
    // Only the grants that can match `who`, each kind an index search (`permissions_grantee`): a file shared with
    // thousands must not cost thousands of rows per check (one OR'd query made SQLite scan the file's grants).
    const grants = this.#db
      .prepare(
        `SELECT role FROM permissions WHERE file_id = @fileId AND type IN ('user', 'group') AND email = @email
         UNION ALL SELECT role FROM permissions WHERE file_id = @fileId AND type = 'domain' AND domain = @domain
         UNION ALL SELECT role FROM permissions WHERE file_id = @fileId AND type = 'anyone'`,
      )
      .all({ fileId, email: who.email, domain: who.domain }) as { role: string }[];
    return strongestRole(grants.map((g) => g.role));
  }

  /**
   * The file, checked for `need` by `who` — called inside the transaction that commits a change, so a delete or a
   * revocation that committed first always wins (404 / 403), however long the request took to arrive.
   */
  #authorized(fileId: string, who: Principal, need: Need): FileRow {
    const row = this.get(fileId);
    if (!row) throw fileNotFound(fileId);
    requireAccess(fileId, this.roleOf(fileId, who), need);
    return row;
  }

  /** The JSON resource of a file as `viewer` sees it. */
  resource(row: FileRow, viewer?: Principal): FileResource {
    return fileResource(row, this.permissions(row.id), viewer);
  }

  /** Creates a file owned by `by` (with its owner permission); fires `add`. */
  create(input: NewFile, by: Principal): FileRow {
    const now = this.#clock.now();
    const id = input.id ?? newFileId();
    const seq = atomically(this.#db, () => {
      // Checked where the file commits: the usage counts every upload that committed before, racing ones included.
      this.#quota.check(by.email, input.content?.size ?? 0);
      this.#db
        .prepare(
          `INSERT INTO files (id, name, mime_type, description, original_filename, parents, size, md5, blob,
             created_time, modified_time, trashed, version, owner)
           VALUES (@id, @name, @mimeType, @description, @originalFilename, @parents, @size, @md5, @blob,
             @now, @now, @trashed, 1, @owner)`,
        )
        .run({
          id,
          name: input.name,
          mimeType: input.mimeType,
          description: input.description ?? null,
          originalFilename: input.originalFilename ?? null,
          parents: JSON.stringify(input.parents),
          size: input.content?.size ?? null,
          md5: input.content?.md5 ?? null,
          blob: input.content?.blob ?? null,
          now,
          trashed: input.trashed ? 1 : 0,
          owner: by.email,
        });
      this.#insertPermission({
        fileId: id,
        id: permissionIdFor('user', by.email),
        type: 'user',
        role: 'owner',
        email: by.email,
        domain: undefined,
      });
      if (input.id !== undefined) this.#ids.markUsed(input.id);
      return this.#recordChange(id, false, now);
    });
    this.#events.emit({ type: 'add', fileId: id, changed: [], parentIds: [...input.parents], byUser: by.email, seq });
    return this.get(id) as FileRow;
  }

  /**
   * Applies a patch for `by` (who must be able to write, checked in the committing transaction); fires
   * `trash`/`untrash` when `trashed` flips, otherwise `update` with what changed.
   */
  update(id: string, patch: FilePatch, by: Principal): FileRow {
    const now = this.#clock.now();
    const { before, parents, seq } = atomically(this.#db, () => {
      const row = this.#authorized(id, by, 'write');
      // The owner pays for new content, and the bytes it replaces are freed by this same commit.
      if (patch.content) this.#quota.check(row.owner, patch.content.size ?? 0, row.size ?? 0);
      let next = [...row.parents];
      for (const p of patch.removeParents ?? []) next = next.filter((x) => x !== p);
      for (const p of patch.addParents ?? []) if (!next.includes(p)) next.push(p);
      this.#db
        .prepare(
          `UPDATE files SET name = @name, mime_type = @mimeType, description = @description,
             original_filename = @originalFilename, parents = @parents, size = @size, md5 = @md5, blob = @blob,
             trashed = @trashed, modified_time = @now, version = version + 1 WHERE id = @id`,
        )
        .run({
          id,
          name: patch.name ?? row.name,
          mimeType: patch.mimeType ?? row.mimeType,
          description: patch.description ?? row.description ?? null,
          originalFilename: patch.originalFilename ?? row.originalFilename ?? null,
          parents: JSON.stringify(next),
          size: patch.content ? (patch.content.size ?? null) : (row.size ?? null),
          md5: patch.content ? (patch.content.md5 ?? null) : (row.md5 ?? null),
          blob: patch.content ? (patch.content.blob ?? null) : (row.blob ?? null),
          trashed: (patch.trashed ?? row.trashed) ? 1 : 0,
          now,
        });
      return { before: row, parents: next, seq: this.#recordChange(id, false, now) };
    });
    if (patch.content && before.blob !== undefined && before.blob !== patch.content.blob)
      this.onBlobReleased(before.blob);
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
      this.#events.emit({ type, fileId: id, changed: [], parentIds, byUser: by.email, seq });
    }
    if (changed.length > 0 || !trashFlip) {
      this.#events.emit({ type: 'update', fileId: id, changed, parentIds, byUser: by.email, seq });
    }
    return this.get(id) as FileRow;
  }

  /**
   * Deletes a file for good, and the descendants of a folder; fires `remove` for each. Only the owner may (checked
   * in the committing transaction).
   */
  delete(id: string, by: Principal): void {
    const now = this.#clock.now();
    const { doomed, seqs } = atomically(this.#db, () => {
      this.#authorized(id, by, 'delete');
      const rows: FileRow[] = [];
      const collect = (fileId: string) => {
        const row = this.get(fileId);
        if (!row || rows.some((d) => d.id === fileId)) return;
        rows.push(row);
        if (row.mimeType === FOLDER_MIME) {
          const kids = this.#db
            .prepare('SELECT f.id FROM files f WHERE EXISTS (SELECT 1 FROM json_each(f.parents) j WHERE j.value = ?)')
            .all(fileId) as { id: string }[];
          for (const k of kids) collect(k.id);
        }
      };
      collect(id);
      const numbers = rows.map((row) => {
        this.#db.prepare('DELETE FROM files WHERE id = ?').run(row.id);
        this.#db.prepare('DELETE FROM permissions WHERE file_id = ?').run(row.id);
        return this.#recordChange(row.id, true, now);
      });
      return { doomed: rows, seqs: numbers };
    });
    doomed.forEach((row, i) => {
      if (row.blob !== undefined) this.onBlobReleased(row.blob);
      this.#events.emit({
        type: 'remove',
        fileId: row.id,
        changed: [],
        parentIds: [...row.parents],
        byUser: by.email,
        seq: seqs[i],
      });
    });
  }

  /**
   * Adds or replaces (same grantee) a permission; returns it. Fires `update` with `permissions`.
   * For the permissions endpoint: validate `type`/`role`/grantee before calling, or pass a function that does so
   * given the file — it runs after the access check, inside the committing transaction, so a 404/403 outranks what
   * it throws (a 400), and what it throws rolls back nothing but itself.
   */
  addPermission(
    fileId: string,
    perm: PermissionInput | ((file: FileRow) => PermissionInput),
    by: Principal,
  ): PermissionRow {
    let added: PermissionRow | undefined;
    this.#mutatePermissions(fileId, by, (file) => {
      const p = typeof perm === 'function' ? perm(file) : perm;
      const who = p.type === 'domain' ? (p.domain ?? '') : p.type === 'anyone' ? 'anyone' : (p.email ?? '');
      added = {
        fileId,
        id: p.type === 'anyone' ? 'anyoneWithLink' : permissionIdFor(p.type, who),
        type: p.type,
        role: p.role,
        email: p.email?.toLowerCase(),
        domain: p.domain?.toLowerCase(),
      };
      // REPLACE deletes the grantee's old row and inserts the new one (a new rowid, so it lists last, as a new grant).
      this.#insertPermission(added, 'INSERT OR REPLACE');
    });
    return added as PermissionRow;
  }

  /** Removes a permission; false if it did not exist. Fires `update` with `permissions`. */
  removePermission(fileId: string, permissionId: string, by: Principal): boolean {
    let removed = false;
    this.#mutatePermissions(fileId, by, () => {
      removed =
        this.#db.prepare('DELETE FROM permissions WHERE file_id = ? AND id = ?').run(fileId, permissionId).changes > 0;
    });
    return removed;
  }

  #mutatePermissions(fileId: string, by: Principal, change: (file: FileRow) => void): void {
    const now = this.#clock.now();
    let row: FileRow | undefined;
    const seq = atomically(this.#db, () => {
      row = this.#authorized(fileId, by, 'share');
      change(row);
      this.#db.prepare('UPDATE files SET version = version + 1 WHERE id = ?').run(fileId);
      return this.#recordChange(fileId, false, now);
    });
    this.#events.emit({
      type: 'update',
      fileId,
      changed: ['permissions'],
      parentIds: [...(row?.parents ?? [])],
      byUser: by.email,
      seq,
    });
  }

  #insertPermission(p: PermissionRow, verb: 'INSERT' | 'INSERT OR REPLACE' = 'INSERT'): void {
    this.#db
      .prepare(`${verb} INTO permissions (file_id, id, type, role, email, domain) VALUES (?, ?, ?, ?, ?, ?)`)
      .run(p.fileId, p.id, p.type, p.role, p.email ?? null, p.domain ?? null);
  }

  #recordChange(fileId: string, removed: boolean, time: number): number {
    const r = this.#db
      .prepare('INSERT INTO changes (file_id, removed, time) VALUES (?, ?, ?)')
      .run(fileId, removed ? 1 : 0, time);
    return Number(r.lastInsertRowid);
  }

  /** The change log's next sequence number (`startPageToken`). */
  nextChangeSeq(): number {
    const r = this.#db.prepare('SELECT seq FROM sqlite_sequence WHERE name = ?').get('changes') as
      { seq: number } | undefined;
    return (r?.seq ?? 0) + 1;
  }

  /** Files visible to `who` matching `query`, in creation order, after `after` (a `num`). */
  list(who: Principal, query: FileQuery, pageSize: number, after: number): FilePage {
    return listFiles(this.#db, who, query, pageSize, after);
  }

  /** Hands out `count` new IDs to `user` (`GeneratedIds`). */
  generateIds(user: string, count: number): string[] {
    return this.#ids.generate(user, count);
  }

  /** Whether `user` may create a file with `id`: `in-use` (→ 409), `not-usable` (→ 400) or `ok` (`GeneratedIds`). */
  generatedIdStatus(id: string, user: string): 'in-use' | 'not-usable' | 'ok' {
    return this.#ids.status(id, user);
  }

  /** The file whose content is the blob `name`, if any (startup recovery of a completion). */
  withBlob(name: string): FileRow | undefined {
    const r = this.#db.prepare('SELECT * FROM files WHERE blob = ?').get(name) as DbFileRow | undefined;
    return r && toFile(r);
  }

  /** Every blob name a file references (startup garbage collection). */
  referencedBlobs(): Set<string> {
    const rows = this.#db.prepare('SELECT blob FROM files WHERE blob IS NOT NULL').all() as { blob: string }[];
    return new Set(rows.map((r) => r.blob));
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
