import type { TaskSnapshot, TaskState } from '../../uploader/index.ts';

const PENDING: ReadonlySet<TaskState> = new Set(['queued', 'uploading', 'paused', 'retrying', 'verifying']);

/** What the form value is computed from at one moment. */
export interface FormValueInput {
  tasks: readonly TaskSnapshot[];
  /** Files waiting for a per-file conversion choice: the form is not ready while there are any. */
  waiting: number;
  /** The form field name (`files` when empty). */
  name: string;
  /** The message a blocked submit shows. */
  pendingMessage: string;
  /** Where the browser shows that message (the dropzone, which delegates focus). */
  anchor: HTMLElement | undefined;
}

/**
 * `<store-uploader>`'s form association: its value is the IDs of the uploaded files (one form entry each), it is
 * invalid while anything is still uploading or waiting, and a form reset takes the files uploaded so far out of the
 * value (like a file input) while uploads that finish later count again.
 */
export class FormValue {
  readonly #internals: ElementInternals;
  readonly #onChange: () => void;
  #value: string[] = [];
  readonly #resetIds = new Set<string>();

  constructor(internals: ElementInternals, onChange: () => void) {
    this.#internals = internals;
    this.#onChange = onChange;
  }

  /** IDs of the files uploaded so far. */
  get value(): string[] {
    return [...this.#value];
  }

  /** Recomputes value and validity; calls `onChange` when the value changed. */
  sync({ tasks, waiting, name, pendingMessage, anchor }: FormValueInput): void {
    const ids = tasks.flatMap((t) =>
      t.state === 'done' && t.file?.id && !this.#resetIds.has(t.file.id) ? [t.file.id] : [],
    );
    const busy = waiting > 0 || tasks.some((t) => PENDING.has(t.state));
    const data = new FormData();
    for (const id of ids) data.append(name || 'files', id);
    this.#internals.setFormValue(data);
    if (busy) this.#internals.setValidity({ customError: true }, pendingMessage, anchor);
    else this.#internals.setValidity({});
    if (ids.join() !== this.#value.join()) {
      this.#value = ids;
      this.#onChange();
    }
  }

  /** A form reset: the files uploaded so far leave the value (call `sync` next). */
  reset(): void {
    for (const id of this.#value) this.#resetIds.add(id);
  }
}
