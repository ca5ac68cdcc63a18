import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BLOCK_SIZE } from '../../src/protocol/blocks.ts';
import {
  judgeSessionPut,
  judgeStatusQuery,
  planSessionPut,
  type DataPlan,
  type SessionSizes,
} from '../../src/protocol/session-put-rules.ts';

const B = BLOCK_SIZE;
const empty: SessionSizes = { stored: 0, total: undefined, declaredLength: undefined };

function data(header: string | undefined, bodyLength: number | undefined, sizes: SessionSizes): DataPlan {
  const plan = planSessionPut(header, bodyLength, sizes);
  assert.equal(plan.kind, 'data', JSON.stringify(plan));
  return plan as DataPlan;
}

describe('a PUT on a resumable session, planned from its headers', () => {
  it('refuses before reading a byte: bad Content-Range, a gap, a short non-final chunk, contradicting totals', () => {
    assert.deepEqual(planSessionPut('bytes nonsense', 0, empty), {
      kind: 'refuse',
      status: 400,
      message: 'Failed to parse Content-Range header.',
    });
    const gap = planSessionPut(`bytes ${2 * B}-${3 * B - 1}/*`, B, { ...empty, stored: B });
    assert.equal(gap.kind === 'refuse' && gap.status, 503);
    const small = planSessionPut(`bytes 0-99/*`, 100, empty);
    assert.match(small.kind === 'refuse' ? small.message : '', /multiple of 262144 bytes.*100 byte/);
    const below = planSessionPut(`bytes ${B}-${2 * B - 1}/${B}`, B, { ...empty, stored: 2 * B });
    assert.equal(below.kind, 'refuse');
    const other = planSessionPut(`bytes */${5 * B}`, 0, { ...empty, total: 4 * B });
    assert.match(other.kind === 'refuse' ? other.message : '', /contradicts the total/);
    const declared = planSessionPut(`bytes */${5 * B}`, 0, { ...empty, declaredLength: 4 * B });
    assert.match(declared.kind === 'refuse' ? declared.message : '', /X-Upload-Content-Length/);
    const length = planSessionPut(`bytes 0-${B - 1}/*`, B + 1, empty);
    assert.match(length.kind === 'refuse' ? length.message : '', /Content-Length is 262145/);
    const query = planSessionPut('bytes */*', 3, empty);
    assert.match(query.kind === 'refuse' ? query.message : '', /empty body/);
  });

  it('a status query completes only when its total is all stored, and records a total once', () => {
    const plan = planSessionPut(`bytes */${2 * B}`, 0, { ...empty, stored: 2 * B });
    assert.equal(plan.kind, 'status');
    if (plan.kind !== 'status') return;
    assert.deepEqual(judgeStatusQuery(plan, { ...empty, stored: 2 * B }), {
      kind: 'complete',
      size: 2 * B,
      total: 2 * B,
    });
    assert.deepEqual(judgeStatusQuery(plan, { ...empty, stored: B, total: 2 * B }), {
      kind: 'keep',
      size: B,
      total: undefined,
    });
  });
});

describe('a PUT judged by what its body delivered', () => {
  it('keeps whole blocks of a chunk that does not finish, and completes at the total', () => {
    const sizes = { ...empty, stored: B };
    assert.deepEqual(judgeSessionPut(data(`bytes ${B}-${3 * B - 1}/*`, undefined, sizes), sizes, 2 * B), {
      kind: 'keep',
      size: 3 * B,
      total: undefined,
    });
    const last = data(`bytes ${B}-${B + 9}/${B + 10}`, 10, sizes);
    assert.deepEqual(judgeSessionPut(last, sizes, 10), { kind: 'complete', size: B + 10, total: B + 10 });
  });

  it('a stream chunk (`F-*/T`) ends where its body ends: whole blocks kept, the total completes, past it refused', () => {
    const plan = data(`bytes 0-*/${3 * B}`, undefined, empty);
    assert.deepEqual(judgeSessionPut(plan, empty, B + 5), { kind: 'keep', size: B, total: 3 * B });
    assert.equal(judgeSessionPut(plan, empty, 3 * B).kind, 'complete');
    assert.match((judgeSessionPut(plan, empty, 3 * B + 1) as { message: string }).message, /runs past the total/);
    assert.equal(judgeSessionPut(plan, empty, 100).kind, 'refuse');
  });

  it('a body shorter than its Content-Range is refused (the request keeps nothing)', () => {
    const plan = data(`bytes 0-${2 * B - 1}/*`, undefined, empty);
    assert.match((judgeSessionPut(plan, empty, B) as { message: string }).message, /covers 524288/);
  });

  it('a whole file (no Content-Range) is its size; it may not contradict a declared or stored size', () => {
    const plan = data(undefined, undefined, empty);
    assert.deepEqual(judgeSessionPut(plan, empty, 10), { kind: 'complete', size: 10, total: 10 });
    const declared = { ...empty, declaredLength: 11 };
    assert.match((judgeSessionPut(plan, declared, 10) as { message: string }).message, /declared 11/);
    const stored = { ...empty, stored: 2 * B };
    assert.match((judgeSessionPut(plan, stored, B) as { message: string }).message, /already stored/);
    assert.deepEqual(judgeSessionPut(plan, stored, 3 * B), { kind: 'complete', size: 3 * B, total: 3 * B });
  });
});

// Each of these pins a rule that mutation testing (npm run mutation) found unchecked.
describe('the rules at their edges', () => {
  const refused = (verdict: { kind: string; message?: string }): string =>
    verdict.kind === 'refuse' ? (verdict.message ?? '') : '';

  it('a stream chunk (`F-*/T`) with a Content-Length is bytes, not a length mismatch', () => {
    assert.equal(planSessionPut(`bytes 0-*/${3 * B}`, 2 * B, empty).kind, 'data');
  });

  it('messages name the range and its length from a non-zero offset', () => {
    const sizes = { ...empty, stored: B };
    assert.equal(
      refused(planSessionPut(`bytes ${B}-${2 * B - 1}/*`, B + 1, sizes)),
      `Content-Length is ${B + 1} but Content-Range bytes ${B}-${2 * B - 1}/* covers ${B} byte(s).`,
    );
    assert.equal(
      refused(judgeSessionPut(data(`bytes ${B}-${2 * B - 1}/*`, undefined, sizes), sizes, 10)),
      `The body has 10 byte(s) but Content-Range bytes ${B}-${2 * B - 1}/* covers ${B}.`,
    );
    assert.match(refused(planSessionPut(`bytes ${B}-${B + 99}/*`, 100, sizes)), /this one has 100 byte\(s\)/);
  });

  it('a non-final chunk of exactly one block is accepted, planned and judged', () => {
    const plan = data(`bytes 0-${B - 1}/*`, B, empty);
    assert.deepEqual(judgeSessionPut(plan, empty, B), { kind: 'keep', size: B, total: undefined });
    const stream = data(`bytes 0-*/${3 * B}`, undefined, empty);
    assert.deepEqual(judgeSessionPut(stream, empty, B), { kind: 'keep', size: B, total: 3 * B });
  });

  it('a short chunk that names a total it does not reach is not final, and is refused', () => {
    assert.match(refused(planSessionPut(`bytes 0-99/${10 * B}`, 100, empty)), /multiple of 262144/);
  });

  it('a whole file with its Content-Length is planned as bytes however small; as long as what is stored completes', () => {
    assert.equal(planSessionPut(undefined, 10, empty).kind, 'data');
    const stored = { ...empty, stored: 2 * B };
    assert.deepEqual(judgeSessionPut(data(undefined, undefined, stored), stored, 2 * B), {
      kind: 'complete',
      size: 2 * B,
      total: 2 * B,
    });
  });

  it('a total already known is not recorded again, and matching totals are no contradiction', () => {
    const sizes = { stored: B, total: 3 * B, declaredLength: 3 * B };
    const plan = data(`bytes ${B}-${2 * B - 1}/${3 * B}`, B, sizes);
    assert.deepEqual(judgeSessionPut(plan, sizes, B), { kind: 'keep', size: 2 * B, total: undefined });
    // A chunk that does not repeat the total is fine too.
    assert.equal(planSessionPut(`bytes ${B}-${2 * B - 1}/*`, B, sizes).kind, 'data');
  });

  it('a chunk with a `*` total that reaches a total the session knows is the last one; past it is refused', () => {
    // Known from X-Upload-Content-Length: a short chunk that reaches it completes the upload.
    const declared = { stored: B, total: undefined, declaredLength: B + 6 };
    const last = data(`bytes ${B}-${B + 5}/*`, 6, declared);
    assert.deepEqual(judgeSessionPut(last, declared, 6), { kind: 'complete', size: B + 6, total: B + 6 });
    // Known from an earlier Content-Range: the same, and it is not recorded again.
    const told = { stored: B, total: B + 6, declaredLength: undefined };
    assert.deepEqual(judgeSessionPut(data(`bytes ${B}-${B + 5}/*`, 6, told), told, 6), {
      kind: 'complete',
      size: B + 6,
      total: undefined,
    });
    // Short of the known total it is still a non-final chunk, and past it a range no upload of that size has.
    assert.match(refused(planSessionPut(`bytes ${B}-${B + 4}/*`, 5, told)), /multiple of 262144 bytes.*5 byte/);
    assert.equal(
      refused(planSessionPut(`bytes ${B}-${2 * B}/*`, B + 1, told)),
      `The range ends at byte ${2 * B}, beyond the total of ${B + 6} byte(s).`,
    );
  });

  it('a total below what is stored, or a range ending at the total, is refused with its reason', () => {
    assert.equal(
      refused(planSessionPut(`bytes */${B}`, 0, { ...empty, stored: 2 * B })),
      `The total size ${B} is smaller than the ${2 * B} byte(s) already stored for this upload.`,
    );
    assert.equal(
      refused(planSessionPut(`bytes 0-${B}/${B}`, B + 1, empty)),
      `The range ends at byte ${B}, beyond the total of ${B} byte(s).`,
    );
  });

  it('a whole file must match a declared length or a total given earlier, and completes when it does', () => {
    const plan = data(undefined, undefined, empty);
    assert.deepEqual(judgeSessionPut(plan, { ...empty, declaredLength: 10 }, 10), {
      kind: 'complete',
      size: 10,
      total: 10,
    });
    const told = { ...empty, total: 3 * B };
    assert.equal(
      refused(judgeSessionPut(plan, told, 2 * B)),
      `The upload has ${2 * B} byte(s) but its total was given as ${3 * B}.`,
    );
    assert.deepEqual(judgeSessionPut(plan, told, 3 * B), { kind: 'complete', size: 3 * B, total: undefined });
  });
});
