import type { AddOptions, TaskSnapshot } from '../types.ts';
import { UploadError } from '../upload-error.ts';
import type { AddAnswer, AddRequest, FileInfo } from '../worker-contract.ts';

/** What the batch calls: the engine's service (a comlink remote across threads, or the object in the page). */
interface AddingEngine {
  add(taskId: string, blob: Blob, info: FileInfo, options: AddOptions, token?: string): Promise<TaskSnapshot>;
  addMany(requests: AddRequest[], token?: string): Promise<AddAnswer[]>;
}

interface Waiting {
  request: AddRequest;
  resolve(snapshot: TaskSnapshot): void;
  reject(error: Error): void;
}

/**
 * Hands the files added in one turn of the page's event loop to the engine in a few calls (`addMany`, one per
 * doubling: 15 for 10,000 files): across threads a call is a message and its reply, and a drop of 10,000 files, one
 * call each, kept the main thread busy with 20,000 of them in the seconds after the drop, while the person scrolls the
 * new list.
 */
export class AddBatch {
  #waiting: Waiting[] = [];
  /** Files of this turn handed over already. */
  #sent = 0;
  /** Batches sent and not yet answered, with the engine they went to (`resend` if it is replaced). */
  readonly #inFlight = new Map<Waiting[], { engine: AddingEngine; token: string | undefined }>();

  constructor(
    private readonly engine: () => AddingEngine,
    /** The engine resizes images: each goes alone, as a batch is answered only once its slowest add is queued. */
    private readonly resizes: boolean,
  ) {}

  /** Queues one file; resolves with its task's first snapshot once the engine has it. */
  send(taskId: string, blob: Blob, info: FileInfo, options: AddOptions): Promise<TaskSnapshot> {
    if (this.resizes && info.type.startsWith('image/')) return this.engine().add(taskId, blob, info, options);
    return new Promise((resolve, reject) => {
      const waiting = this.#waiting.push({ request: [taskId, blob, info, options], resolve, reject });
      // What is left after the adds of this turn: `add` is synchronous, so a loop or a drop's slice is one turn.
      if (waiting === 1 && !this.#sent)
        queueMicrotask(() => {
          this.#sent = 0;
          if (this.#waiting.length) this.#flush();
        });
      // Within the turn the first file goes at once, then batches as large as all sent before it (1, 1, 2, 4, …: a
      // message per doubling). The size of a chosen file costs the page a synchronous ask of the browser (about 1 ms,
      // 4 ms on a slow phone): in one message at the turn's end, 400 files held the first upload back 0.4–1.6 s.
      if (waiting >= this.#sent) {
        this.#sent += waiting;
        this.#flush();
      }
    });
  }

  /**
   * The engine the batches went to was replaced (the site's shared worker never answered, and the page's own worker
   * took over): the batches it did not answer go to the new one.
   */
  resend(): void {
    const engine = this.engine();
    for (const [batch, sent] of this.#inFlight) if (sent.engine !== engine) this.#post(batch, engine, sent.token);
  }

  #flush(): void {
    const batch = this.#waiting.splice(0);
    // The files join the account the page is bound to now (`host/page-binding.ts`).
    this.#post(batch, this.engine(), undefined);
  }

  #post(batch: Waiting[], engine: AddingEngine, token: string | undefined): void {
    this.#inFlight.set(batch, { engine, token });
    const answered = (sent: AddingEngine) => this.#inFlight.get(batch)?.engine === sent && this.#inFlight.delete(batch);
    engine
      .addMany(
        batch.map((waiting) => waiting.request),
        token,
      )
      .then(
        // One answer per request, in order (`UploadWorkerService.addMany`).
        (answers) => {
          if (!answered(engine)) return;
          answers.forEach((answer, i) => {
            if (answer.ok) batch[i].resolve(answer.snapshot);
            else batch[i].reject(new UploadError(answer.error));
          });
        },
        (error: unknown) => {
          if (!answered(engine)) return;
          for (const waiting of batch) waiting.reject(error as Error);
        },
      );
  }
}
