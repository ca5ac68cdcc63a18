/**
 * What a service accepts on a resumable session URI (spec §4.4–4.5, supplement §1): the `Content-Range` rules as
 * pure decisions over numbers, so the service's session store applies them and they can be tested without one.
 * A request is planned before its body is read (refusals that need no byte), then judged by what it delivered.
 *
 * Storage rule the verdicts follow: a request that does not finish the upload keeps only whole 256 KiB blocks; a
 * refused request keeps nothing (the session goes back to what was stored before it).
 */
import { BLOCK_SIZE, floorToBlock } from './blocks.ts';
import { parseContentRange } from './content-range.ts';
import { MESSAGES } from './errors.ts';

/** What a session holds before the request: its stored bytes and the sizes it was told. */
export interface SessionSizes {
  readonly stored: number;
  /** The total a `Content-Range` gave earlier. */
  readonly total: number | undefined;
  /** `X-Upload-Content-Length` of the session's start. */
  readonly declaredLength: number | undefined;
}

/** A request the service answers with this status and plain-text message, keeping nothing of it. */
export interface PutRefusal {
  readonly kind: 'refuse';
  readonly status: 400 | 503;
  readonly message: string;
}

/** A status query (`bytes * /T`); `total` is what it tells, if anything. */
export interface StatusQueryPlan {
  readonly kind: 'status';
  readonly total: number | undefined;
  /** The header as sent (for messages). */
  readonly header: string;
}

/** Bytes: a chunk with `Content-Range`, or (`whole`, no header) the whole file from byte 0. */
export interface DataPlan {
  readonly kind: 'data';
  readonly whole: boolean;
  readonly first: number;
  readonly last: number | undefined;
  readonly total: number | undefined;
  readonly header: string | undefined;
}

/** What an accepted request leaves: the stored size, and the total to record when it told one the session lacked. */
export type AcceptedPut =
  | { readonly kind: 'keep'; readonly size: number; readonly total: number | undefined }
  | { readonly kind: 'complete'; readonly size: number; readonly total: number | undefined };

/** A judged request: refused, or what it leaves. */
export type PutVerdict = PutRefusal | AcceptedPut;

function refuse(message: string, status: 400 | 503 = 400): PutRefusal {
  return { kind: 'refuse', status, message };
}

function chunkTooSmall(size: number): PutRefusal {
  return refuse(
    `Invalid chunk size: every chunk except the last must be a multiple of ${BLOCK_SIZE} bytes (256 KiB); this one has ${size} byte(s).`,
  );
}

/** Plans a `PUT` before its body is read: a status query, or bytes; refused when its headers already contradict. */
export function planSessionPut(
  header: string | undefined,
  bodyLength: number | undefined,
  sizes: SessionSizes,
): StatusQueryPlan | DataPlan | PutRefusal {
  const range = header === undefined ? undefined : parseContentRange(header);
  if (header !== undefined && !range) return refuse(MESSAGES.contentRangeUnparsable);
  if (range?.kind === 'status') {
    if (bodyLength !== undefined && bodyLength > 0) {
      return refuse(
        `A status query (Content-Range: ${header}) must have an empty body; this one has ${bodyLength} byte(s).`,
      );
    }
    return totalProblem(sizes, range.total, undefined) ?? { kind: 'status', total: range.total, header: header! };
  }
  const plan: DataPlan = {
    kind: 'data',
    whole: range === undefined,
    first: range ? range.first : 0,
    last: range?.last,
    // A `*` total once the session knows its total stands for that total: a chunk that reaches it is the last one.
    total: range ? (range.total ?? sizes.total ?? sizes.declaredLength) : undefined,
    header,
  };
  const { first, last, total } = plan;
  const problem = totalProblem(sizes, total, last);
  if (problem) return problem;
  if (range && last !== undefined && bodyLength !== undefined && bodyLength !== last - first + 1) {
    return refuse(`Content-Length is ${bodyLength} but Content-Range ${header} covers ${last - first + 1} byte(s).`);
  }
  if (first > sizes.stored) return refuse(MESSAGES.offsetGap(first, sizes.stored), 503);
  const expected = last !== undefined ? last - first + 1 : plan.whole ? bodyLength : undefined;
  if (knownFinal(plan) === false && expected !== undefined && expected < BLOCK_SIZE) return chunkTooSmall(expected);
  return plan;
}

/** What a status query leaves: complete when the total it tells is all stored. */
export function judgeStatusQuery(plan: StatusQueryPlan, sizes: SessionSizes): AcceptedPut {
  const total = sizes.total === undefined ? plan.total : undefined;
  const complete = plan.total !== undefined && sizes.stored === plan.total;
  return { kind: complete ? 'complete' : 'keep', size: sizes.stored, total };
}

/** Judges a data request by the `received` bytes its body delivered (counted from `plan.first`). */
export function judgeSessionPut(plan: DataPlan, sizes: SessionSizes, received: number): PutVerdict {
  const { first, last, total, header } = plan;
  const end = first + received;
  if (last !== undefined && received !== last - first + 1) {
    return refuse(`The body has ${received} byte(s) but Content-Range ${header} covers ${last - first + 1}.`);
  }
  let final: boolean;
  if (plan.whole) {
    // The whole file: its size is the body's.
    const conflict = sizeContradiction(sizes, end);
    if (conflict) return refuse(conflict);
    // A shorter "whole file" than what is stored cannot be the file those stored bytes belong to.
    if (end < sizes.stored) {
      return refuse(`The body has ${end} byte(s) but ${sizes.stored} byte(s) of this upload are already stored.`);
    }
    final = true;
  } else if (last === undefined) {
    if (total !== undefined && end > total) {
      return refuse(`The body runs past the total of ${total} byte(s) in Content-Range ${header}.`);
    }
    final = end === total;
  } else {
    final = knownFinal(plan) === true;
  }
  if (!final && received < BLOCK_SIZE) return chunkTooSmall(received);
  const size = Math.max(sizes.stored, end);
  // A whole file tells its total by its length.
  const told = sizes.total === undefined ? (plan.whole ? size : total) : undefined;
  return final ? { kind: 'complete', size, total: told } : { kind: 'keep', size: floorToBlock(size), total: told };
}

/** Whether the request ends the upload, when its headers say so (`undefined`: only its body will tell). */
function knownFinal(plan: DataPlan): boolean | undefined {
  if (plan.whole) return true;
  if (plan.last === undefined) return undefined;
  return plan.total !== undefined && plan.last + 1 === plan.total;
}

/**
 * A total (from Content-Range) that contradicts an earlier one or X-Upload-Content-Length, is below what is already
 * stored (the session could never finish), or a range past it.
 */
function totalProblem(
  sizes: SessionSizes,
  total: number | undefined,
  last: number | undefined,
): PutRefusal | undefined {
  if (total === undefined) return undefined;
  if (total < sizes.stored) {
    return refuse(
      `The total size ${total} is smaller than the ${sizes.stored} byte(s) already stored for this upload.`,
    );
  }
  if (sizes.total !== undefined && total !== sizes.total) {
    return refuse(`The total size ${total} contradicts the total ${sizes.total} given earlier for this upload.`);
  }
  if (sizes.declaredLength !== undefined && total !== sizes.declaredLength) {
    return refuse(`The total size ${total} contradicts X-Upload-Content-Length ${sizes.declaredLength}.`);
  }
  if (last !== undefined && last >= total) {
    return refuse(`The range ends at byte ${last}, beyond the total of ${total} byte(s).`);
  }
  return undefined;
}

function sizeContradiction(sizes: SessionSizes, size: number): string | undefined {
  if (sizes.declaredLength !== undefined && size !== sizes.declaredLength) {
    return `The upload has ${size} byte(s) but X-Upload-Content-Length declared ${sizes.declaredLength}.`;
  }
  if (sizes.total !== undefined && size !== sizes.total) {
    return `The upload has ${size} byte(s) but its total was given as ${sizes.total}.`;
  }
  return undefined;
}
