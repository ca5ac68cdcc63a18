import type { AddOptions, TaskSnapshot } from '../contract/types.ts';
import { UploadError } from '../contract/upload-error.ts';
import type { AddAnswer, AddRequest, FileInfo, HeldCommand } from '../contract/worker-contract.ts';

/** A task's command, as the page gives it. */
export type TaskCommand = HeldCommand | 'resume';

/** What the batch calls: the engine's service (a comlink remote across threads, or the object in the page). */
interface AddingEngine {
  add(
    taskId: string,
    file: Blob,
    info: FileInfo,
    options: AddOptions,
    token?: string,
    held?: HeldCommand,
  ): Promise<TaskSnapshot>;
  addMany(requests: AddRequest[], token?: string): Promise<AddAnswer[]>;
  pause(taskId: string): Promise<void>;
  resume(taskId: string): Promise<void>;
  cancel(taskId: string): Promise<void>;
  turnEnded(): unknown;
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
  /** The tasks added here that the engine has not answered for, with the command given each meanwhile. */
  readonly #arriving = new Map<string, { held?: HeldCommand; sentTo?: AddingEngine }>();
  /** The engines adds went to in this turn: each hears when it ends (its tasks start only then). */
  readonly #turn = new Set<AddingEngine>();

  constructor(
    private readonly engine: () => AddingEngine,
    /** The engine resizes images: each goes alone, as a batch is answered only once its slowest add is queued. */
    private readonly resizes: boolean,
  ) {}

  /** A task that will be sent (after the page's attach, or its `beforeUpload` hook): its commands are held until then. */
  expect(taskId: string): void {
    this.#arriving.set(taskId, {});
  }

  /** The task will not be sent after all (its hook refused it, or its hand-over failed). */
  forget(taskId: string): void {
    this.#arriving.delete(taskId);
  }

  /**
   * A command for a task whose add the engine has not answered: it goes in the add's message, or, once that is
   * posted, right behind it on the same port, where the engine holds it for the task (`UploadWorkerService.hold`). So
   * a `cancel()` in the turn of `add()` is applied before the task sends anything, whatever the engine has fetched.
   * False when the engine has the task: the command goes to it as any other.
   */
  hold(taskId: string, command: TaskCommand): boolean {
    const arriving = this.#arriving.get(taskId);
    if (!arriving) return false;
    if (command === 'cancel' || arriving.held !== 'cancel') arriving.held = command === 'resume' ? undefined : command;
    void arriving.sentTo?.[command](taskId).catch(() => undefined);
    return true;
  }

  /** Queues one file; resolves with its task's first snapshot once the engine has it. */
  send(taskId: string, file: Blob, info: FileInfo, options: AddOptions): Promise<TaskSnapshot> {
    if (this.resizes && info.type.startsWith('image/')) {
      const engine = this.engine();
      const arriving = this.#arriving.get(taskId);
      if (arriving) arriving.sentTo = engine;
      this.#sentThisTurn(engine);
      const added = engine.add(taskId, file, info, options, undefined, arriving?.held);
      const answered = () => this.#answered(taskId, engine);
      void added.then(answered, answered);
      return added;
    }
    return new Promise((resolve, reject) => {
      const waiting = this.#waiting.push({ request: [taskId, file, info, options], resolve, reject });
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
    // The files join the account the page is bound to now (`worker/page-binding.ts`).
    this.#post(batch, this.engine(), undefined);
  }

  /** Settles `taskId`'s wait for its engine (sent to `engine`): its commands go to the engine itself from now on. */
  #answered(taskId: string, engine: AddingEngine): void {
    if (this.#arriving.get(taskId)?.sentTo === engine) this.#arriving.delete(taskId);
  }

  /**
   * Tells `engine`, once the page's turn ends, that every command of the turn is on its way: a pause or cancel given in
   * the turn of `add()` then reaches it before the task may start (`worker/arriving-tasks.ts`).
   */
  #sentThisTurn(engine: AddingEngine): void {
    if (!this.#turn.size)
      queueMicrotask(() => {
        for (const sent of this.#turn) void Promise.resolve(sent.turnEnded()).catch(() => undefined);
        this.#turn.clear();
      });
    this.#turn.add(engine);
  }

  #post(batch: Waiting[], engine: AddingEngine, token: string | undefined): void {
    this.#inFlight.set(batch, { engine, token });
    this.#sentThisTurn(engine);
    const answered = (sent: AddingEngine) => {
      if (this.#inFlight.get(batch)?.engine !== sent) return false;
      for (const { request } of batch) this.#answered(request[0], sent);
      return this.#inFlight.delete(batch);
    };
    const requests = batch.map(({ request }): AddRequest => {
      const arriving = this.#arriving.get(request[0]);
      if (!arriving) return request;
      arriving.sentTo = engine;
      const [id, file, info, options] = request;
      return arriving.held ? [id, file, info, options, arriving.held] : request;
    });
    engine.addMany(requests, token).then(
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
