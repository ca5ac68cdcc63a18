/**
 * The durable queue of push messages, in the metadata database. A message is written before the mutation that caused it returns
 * and deleted only once it is delivered or given up, so a restart resends whatever was pending.
 */
import type { MetadataDb } from '../metadata/metadata-port.ts';
import type { PushMessage } from './message.ts';

/** The queue a message belongs to. */
export function queueOfMessage(message: PushMessage): string {
  return message.queueKey ?? message.channelId;
}

/** A queued message with its queue position and the attempts already made. */
export interface OutboxRow {
  seq: number;
  message: PushMessage;
  attempts: number;
  /** Wall-clock ms before which the next attempt must not be made (a retry's backoff). */
  notBefore: number;
}

/** The outbox over the metadata database (its table is in the schema, `metadata/migrations.ts`). */
export class Outbox {
  readonly #db: MetadataDb;

  constructor(db: MetadataDb) {
    this.#db = db;
  }

  /** Appends a message to its queue. */
  async add(message: PushMessage): Promise<void> {
    await this.#db.run(
      'INSERT INTO push_outbox (queue_key, message) VALUES (?, ?)',
      queueOfMessage(message),
      JSON.stringify(message),
    );
  }

  /** The oldest pending message of a queue, if any. */
  async head(queueKey: string): Promise<OutboxRow | undefined> {
    const row = await this.#db.get<{ seq: number; message: string; attempts: number; not_before: number }>(
      'SELECT seq, message, attempts, not_before FROM push_outbox WHERE queue_key = ? ORDER BY seq LIMIT 1',
      queueKey,
    );
    return (
      row && {
        seq: row.seq,
        attempts: row.attempts,
        notBefore: row.not_before,
        message: JSON.parse(row.message) as PushMessage,
      }
    );
  }

  /** Removes a delivered or abandoned message. */
  async remove(seq: number): Promise<void> {
    await this.#db.run('DELETE FROM push_outbox WHERE seq = ?', seq);
  }

  /** Removes every pending message of a channel (the channel was stopped). */
  async removeQueue(queueKey: string): Promise<void> {
    await this.#db.run('DELETE FROM push_outbox WHERE queue_key = ?', queueKey);
  }

  /** Records one more failed attempt, and when the next may be made. */
  async countAttempt(seq: number, notBefore: number): Promise<void> {
    await this.#db.run('UPDATE push_outbox SET attempts = attempts + 1, not_before = ? WHERE seq = ?', notBefore, seq);
  }

  /** Queues that have pending messages, oldest first. */
  async pendingQueues(): Promise<string[]> {
    const rows = await this.#db.all<{ queue_key: string }>(
      'SELECT queue_key FROM push_outbox GROUP BY queue_key ORDER BY MIN(seq)',
    );
    return rows.map((r) => r.queue_key);
  }
}
