/**
 * The one door to resumable upload sessions: a session is a row with a lock (`sessions.ts`) and staged bytes (the
 * content port's `SessionContent`, on disk or in an object store); this module asks each of them, going down, and applies the protocol's `Content-Range`
 * rules (`planSessionPut`, `judgeSessionPut`) between. The upload handler asks it once per request and answers.
 */
import {
  type AcceptedPut,
  BLOCK_SIZE,
  judgeSessionPut,
  judgeStatusQuery,
  planSessionPut,
  type PutRefusal,
  type SessionSizes,
} from 'store-upload-kit/protocol';
import { ApiError, uploadProtocolError } from '../errors.ts';
import type { RequestBody } from '../api-request.ts';
import type { ContentStore, SessionContent } from '../content/content-port.ts';
import type { LockClaim, SessionRow, UploadSessionRows } from './sessions.ts';
import { isStorageFailure } from './storage-failure.ts';

export type { LockClaim, SessionRow };

/** The bytes of a completed session, as stored content, for the file they become. */
export interface SessionMedia {
  readonly contentKey: string;
  readonly size: number;
  readonly md5: string;
  readonly contentType: string;
  /** Always: on a storage failure the session takes its bytes back (see `ReceivedMedia`). */
  readonly retainedOnStorageFailure: true;
}

/** Commits a completed session's file and returns its resource (unfiltered); a throw refuses the completion. */
export type CommitSession = (session: SessionRow, media: SessionMedia) => Promise<Record<string, unknown>>;

/** A `PUT` on a session, as its handler received it. */
export interface SessionPut {
  readonly contentRange: string | undefined;
  readonly body: RequestBody;
  /** The request as the lock sees it (none for a batch's inner call). */
  readonly claim: LockClaim | undefined;
}

/** What a `PUT` left: bytes stored so far (answered 308), or the completed session (answered 200). */
export type PutOutcome =
  | { readonly kind: 'incomplete'; readonly stored: number }
  | { readonly kind: 'complete'; readonly session: SessionRow };

function sessionNotFound(): ApiError {
  return new ApiError(404, 'notFound', 'The upload session was not found or has expired; start the upload again.', {
    where: { location: 'upload_id', locationType: 'parameter' },
  });
}

function refused(refusal: PutRefusal): ApiError {
  return uploadProtocolError(refusal.status, refusal.message);
}

/** Resumable sessions: their rows, locks and bytes behind one door. */
export class ResumableSessions {
  readonly #rows: UploadSessionRows;
  readonly #bytes: SessionContent;
  readonly #content: ContentStore;

  constructor(rows: UploadSessionRows, content: ContentStore) {
    this.#rows = rows;
    this.#bytes = content.sessions;
    this.#content = content;
  }

  /** Opens a session with no bytes. */
  start(row: Parameters<UploadSessionRows['create']>[0]): Promise<void> {
    return this.#rows.create(row);
  }

  /**
   * Applies a `PUT` (a whole file, a chunk or a status query) to session `id` of file `fileId` (undefined: a new
   * file), with the session locked: plans it from its headers, appends its body, keeps what the verdict says (a
   * refused request keeps nothing) and, on the last byte, moves the bytes into stored content and lets `commit` make the file.
   */
  put(id: string, fileId: string | undefined, request: SessionPut, commit: CommitSession): Promise<PutOutcome> {
    return this.#rows.withLock(id, request.claim, async () => {
      const session = await this.#open(id, fileId);
      if (session.state === 'complete') return { kind: 'complete', session };
      await this.#touch(id);
      const sizes: SessionSizes = {
        stored: await this.#bytes.stored(id),
        total: session.total,
        declaredLength: session.declaredLength,
      };
      const { body } = request;
      const plan = planSessionPut(request.contentRange, body.length, sizes);
      if (plan.kind === 'refuse') throw refused(plan);
      if (plan.kind === 'status') {
        if (body.length === undefined && (await body.bytes(BLOCK_SIZE)).length > 0) {
          throw uploadProtocolError(400, `A status query (Content-Range: ${plan.header}) must have an empty body.`);
        }
        return this.#settle(session, judgeStatusQuery(plan, sizes), undefined, commit);
      }
      const { received, tail } = await this.#bytes.append(id, sizes.stored, plan.first, body.stream());
      const verdict = judgeSessionPut(plan, sizes, received);
      if (verdict.kind === 'refuse') {
        await this.#bytes.keep(id, sizes.stored);
        throw refused(verdict);
      }
      return this.#settle(session, verdict, tail, commit);
    });
  }

  /** The open sessions, of one user or of all (`GET /__admin/sessions`: what a test checks was left behind). */
  listOpen(user: string | undefined): Promise<SessionRow[]> {
    return this.#rows.listOpen(user);
  }

  /** `DELETE <session>`: the session ends and its bytes go; afterwards its URI answers 404. */
  cancel(id: string, fileId: string | undefined, claim: LockClaim | undefined): Promise<void> {
    return this.#rows.withLock(id, claim, async () => {
      await this.#open(id, fileId);
      await this.#rows.cancel(id);
    });
  }

  /**
   * Startup recovery: bytes of sessions that ended, and a completion a crash cut between moving the bytes into a
   * stored content and marking the session (`committed(key)` gives the resource of a file that took the content).
   */
  async recover(committed: (key: string) => Promise<Record<string, unknown> | undefined>): Promise<void> {
    await this.#bytes.recover(await this.#rows.openIds(), async (id, key) => {
      const resource = await committed(key);
      if (resource) await this.#rows.complete(id, resource);
      return resource !== undefined;
    });
  }

  /**
   * Records the session's activity. On a full disk this write may fail; the session then only expires sooner, which
   * is better than refusing the status query a client needs to resume once space comes back.
   */
  async #touch(id: string): Promise<void> {
    try {
      await this.#rows.touch(id);
    } catch (e) {
      if (!isStorageFailure(e)) throw e;
    }
  }

  async #open(id: string, fileId: string | undefined): Promise<SessionRow> {
    const session = await this.#rows.get(id);
    if (!session || session.targetFileId !== fileId) throw sessionNotFound();
    return session;
  }

  /** Keeps what an accepted request leaves, or completes the session with it. */
  async #settle(
    session: SessionRow,
    verdict: AcceptedPut,
    /** The bytes past the last whole block of an appended body; undefined for a status query (nothing appended). */
    tail: readonly Uint8Array[] | undefined,
    commit: CommitSession,
  ): Promise<PutOutcome> {
    // Recorded only once the request is accepted: a refused request changes nothing.
    if (verdict.total !== undefined) await this.#rows.setTotal(session.id, verdict.total);
    if (verdict.kind === 'keep') {
      if (tail) await this.#bytes.keep(session.id, verdict.size);
      return { kind: 'incomplete', stored: verdict.size };
    }
    const { key, md5 } = await this.#bytes.complete(session.id, verdict.size, tail ?? []);
    let result;
    try {
      const media = { contentKey: key, size: verdict.size, md5, contentType: session.contentType } as const;
      result = await commit(session, { ...media, retainedOnStorageFailure: true });
    } catch (e) {
      // Storage could not take the file's row, or a conversion's output: the bytes go back to the part (a conversion
      // keeps its source for this), and a later request completes it.
      if (isStorageFailure(e)) {
        // Nothing left to reopen (the content vanished): the upload must start again.
        if (await this.#bytes.reopen(session.id, key)) throw e;
        await this.#rows.cancel(session.id);
        throw e;
      }
      // The commit was refused (e.g. the target was deleted meanwhile): the session cannot complete.
      await this.#rows.cancel(session.id);
      await this.#content.remove(key);
      throw e;
    }
    await this.#rows.complete(session.id, result);
    return { kind: 'complete', session: { ...session, state: 'complete', result } };
  }
}
