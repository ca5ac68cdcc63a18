/**
 * The durable queue of push messages, in SQLite. A message is written before the mutation that caused it returns
 * and deleted only once it is delivered or given up, so a restart resends whatever was pending.
 */
import type { Database } from 'better-sqlite3';
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
}

/** SQLite-backed outbox; creates its own table in the given database. */
export class Outbox {
  readonly #insert;
  readonly #head;
  readonly #delete;
  readonly #deleteChannel;
  readonly #bump;
  readonly #channels;

  constructor(db: Database) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS push_outbox (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        queue_key TEXT NOT NULL,
        message TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX IF NOT EXISTS push_outbox_channel ON push_outbox (queue_key, seq);
    `);
    this.#insert = db.prepare<[string, string], never>('INSERT INTO push_outbox (queue_key, message) VALUES (?, ?)');
    this.#head = db.prepare<[string], { seq: number; message: string; attempts: number }>(
      'SELECT seq, message, attempts FROM push_outbox WHERE queue_key = ? ORDER BY seq LIMIT 1',
    );
    this.#delete = db.prepare<[number], never>('DELETE FROM push_outbox WHERE seq = ?');
    this.#deleteChannel = db.prepare<[string], never>('DELETE FROM push_outbox WHERE queue_key = ?');
    this.#bump = db.prepare<[number], never>('UPDATE push_outbox SET attempts = attempts + 1 WHERE seq = ?');
    this.#channels = db.prepare<[], { queue_key: string }>(
      'SELECT queue_key FROM push_outbox GROUP BY queue_key ORDER BY MIN(seq)',
    );
  }

  /** Appends a message to its queue. */
  add(message: PushMessage): void {
    this.#insert.run(queueOfMessage(message), JSON.stringify(message));
  }

  /** The oldest pending message of a queue, if any. */
  head(queueKey: string): OutboxRow | undefined {
    const row = this.#head.get(queueKey);
    return row && { seq: row.seq, attempts: row.attempts, message: JSON.parse(row.message) as PushMessage };
  }

  /** Removes a delivered or abandoned message. */
  remove(seq: number): void {
    this.#delete.run(seq);
  }

  /** Removes every pending message of a channel (the channel was stopped). */
  removeQueue(queueKey: string): void {
    this.#deleteChannel.run(queueKey);
  }

  /** Records one more failed attempt. */
  countAttempt(seq: number): void {
    this.#bump.run(seq);
  }

  /** Queues that have pending messages, oldest first. */
  pendingQueues(): string[] {
    return this.#channels.all().map((r) => r.queue_key);
  }
}
