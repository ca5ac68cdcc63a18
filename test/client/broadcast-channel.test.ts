// The channel port over BroadcastChannel (uploader/adapters/broadcast-channel.ts), as two tabs of one origin use it:
// a listener that unsubscribed hears nothing more (issue 39's survivor of broadcast-channel.ts:20).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { broadcastChannel } from '../../src/uploader/adapters/broadcast-channel.ts';
import type { SessionMessage } from '../../src/uploader/contract/ports.ts';

const cancelled = (sessionUri: string): SessionMessage => ({ type: 'cancelled', sessionUri });

test('a tab stops hearing the channel once its listener unsubscribed; its other listeners still hear', async () => {
  const name = `test-${randomUUID()}`;
  const sender = broadcastChannel(name);
  const receiver = broadcastChannel(name);
  try {
    const left: string[] = [];
    const stayed: string[] = [];
    let heard: (() => void) | undefined;
    const stop = receiver.subscribe((message) => left.push(message.sessionUri));
    receiver.subscribe((message) => {
      stayed.push(message.sessionUri);
      heard?.();
    });
    const next = () => new Promise<void>((resolve) => (heard = resolve));

    let arrived = next();
    sender.post(cancelled('first'));
    await arrived;
    assert.deepEqual(left, ['first']);

    stop();
    arrived = next();
    sender.post(cancelled('second'));
    await arrived;
    // Both listeners are called for one message in the same dispatch: had the first stayed, it would have it now.
    assert.deepEqual(stayed, ['first', 'second']);
    assert.deepEqual(left, ['first'], 'the listener that unsubscribed heard nothing more');
  } finally {
    sender.close();
    receiver.close();
  }
});
