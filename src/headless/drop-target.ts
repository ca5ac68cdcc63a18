/**
 * Any element as a drop target, with no framework: the handlers a binding spreads on it (drag and drop, a paste,
 * Enter or Space and a click opening the file dialog) and the drag state they track. What arrives goes through the
 * kit's one intake (`intake/`), as in `<store-dropzone>`: dropped folders are walked into files with their relative
 * paths, and files come with their `FileSystemFileHandle` where the browser gives one (Chromium's drops and pickers),
 * so an upload resumes after a reload without the user choosing the file again.
 */
import { collectFromDataTransfer, collectFromFileList } from './intake/collect-files.ts';
import { pickWithHandles } from './intake/pick-with-handles.ts';
import type { PickedFile, RejectedFile } from './intake/picked-file.ts';
import { applyRestrictions, type Restrictions } from './intake/restrictions.ts';
import { pickFiles, type PickOptions } from './pick-files.ts';

/** The intake's rules, as `<store-dropzone>` applies them: every file dropped, pasted or chosen is judged by them. */
export interface IntakeRules {
  /**
   * Sizes and counts (`maxFileSize`, `minFileSize`, `maxFiles`, `maxTotalSize`, and `alreadyAdded` /
   * `alreadyAddedBytes` to count what the app holds already). With `accept` and `multiple`, they judge every file, a
   * dropped one too: the dialog's filter is only a hint the user can override, and a drop has none.
   */
  restrictions?: Omit<Restrictions, 'accept' | 'multiple'>;
  /** Files a rule refused, each with the first rule it broke (`reason`: type, size, min-size, multiple, count …). */
  onReject?(rejected: RejectedFile[]): void;
}

/** What a drop target does with files, and how it reports a drag over it. */
export interface DropTargetOptions extends PickOptions, IntakeRules {
  /**
   * Files dropped, pasted or chosen in the dialog (never called with none). `picked` holds the same files with their
   * paths inside a dropped or chosen folder and their handles: give it to `store.add` to keep both.
   */
  onFiles(files: File[], picked: PickedFile[]): void;
  /** A drag with files entered (`true`) or left the element, or dropped (`false`). */
  onDragChange?(over: boolean): void;
  /**
   * Leave every click alone; Enter and Space still open the dialog. (A click on a control inside the element, such as
   * a row's button, never opens it.)
   */
  noClick?: boolean;
}

/** What the handlers read of a drag event: a DOM `DragEvent`, or a framework's event wrapping one (React's). */
export interface DragLike {
  readonly dataTransfer: DataTransfer | null;
  preventDefault(): void;
}
/** What the handlers read of a paste. */
export interface PasteLike {
  readonly clipboardData: DataTransfer | null;
  preventDefault(): void;
}
/** What the handlers read of a click. */
export interface ClickLike {
  readonly defaultPrevented: boolean;
  readonly target: unknown;
  readonly currentTarget: unknown;
}
/** What the handlers read of a key press. */
export interface KeyLike {
  readonly key: string;
  readonly target: unknown;
  readonly currentTarget: unknown;
  preventDefault(): void;
}

/** The handlers of a drop target, by event name (`v-on="target"` in Vue, `addEventListener` in plain DOM). */
export interface DropTarget {
  dragenter: (event: DragLike) => void;
  dragover: (event: DragLike) => void;
  dragleave: (event: DragLike) => void;
  drop: (event: DragLike) => void;
  paste: (event: PasteLike) => void;
  keydown: (event: KeyLike) => void;
  click: (event: ClickLike) => void;
  /** Opens the file dialog (inside a user's gesture). */
  open: () => void;
}

/** The files a drag or a paste carries, loose ones only (a dropped folder is walked by the drop itself). */
export function filesOf(data: DataTransfer | null): File[] {
  if (!data) return [];
  const files: File[] = [];
  for (const item of data.items) {
    if (item.kind !== 'file' || item.webkitGetAsEntry?.()?.isDirectory) continue;
    const file = item.getAsFile();
    if (file) files.push(file);
  }
  return files;
}

const carriesFiles = (event: DragLike) => event.dataTransfer?.types.includes('Files') ?? false;

/**
 * Whether a click landed on a control of its own inside the drop target, such as a row's Pause button in a list
 * drawn inside it: the click is that control's, and opening the file dialog as well would be a surprise.
 */
function onInnerControl({ target, currentTarget }: ClickLike): boolean {
  if (!(target instanceof Element) || !(currentTarget instanceof Element)) return false;
  const control = target.closest('a,button,input,label,select,textarea,[role=button],[role=link]');
  return control !== null && control !== currentTarget && currentTarget.contains(control);
}

/** Makes the handlers; `options` is read at each event, so a caller may swap its fields. */
export function dropTarget(options: DropTargetOptions): DropTarget {
  // Entering a child fires the parent's `dragleave` after the child's `dragenter`: count, as the drag is over the
  // element until every enter has had its leave.
  let depth = 0;
  const hand = (picked: PickedFile[]) => {
    const { accepted, rejected } = applyRestrictions(picked, {
      ...options.restrictions,
      accept: options.accept,
      multiple: options.multiple ?? true,
    });
    if (rejected.length) options.onReject?.(rejected);
    if (accepted.length)
      options.onFiles(
        accepted.map((p) => p.file),
        accepted,
      );
  };
  // The File System Access picker where there is one (its files keep their handles), else a file input — opened in
  // the same turn as the gesture where there is no picker (Safari and Firefox keep no activation across a promise).
  const open = () =>
    typeof (globalThis as { showOpenFilePicker?: unknown }).showOpenFilePicker !== 'function'
      ? void pickFiles(options).then((files) => hand(collectFromFileList(files)))
      : void pickWithHandles('files', { multiple: options.multiple ?? true, accept: options.accept ?? '' }).then(
          async (outcome) =>
            hand(
              outcome === 'cancelled'
                ? []
                : outcome === 'fallback'
                  ? collectFromFileList(await pickFiles(options))
                  : outcome,
            ),
        );
  // A drop or a paste is read while its event lasts; its folders are walked after.
  const take = (data: DataTransfer | null) => {
    if (data) void collectFromDataTransfer(data).then((collected) => hand(collected.files));
  };
  return {
    dragenter(event) {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      if (depth++ === 0) options.onDragChange?.(true);
    },
    dragover(event) {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
    },
    dragleave(event) {
      if (!carriesFiles(event) || depth === 0) return;
      if (--depth === 0) options.onDragChange?.(false);
    },
    drop(event) {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      depth = 0;
      options.onDragChange?.(false);
      take(event.dataTransfer);
    },
    paste(event) {
      if (!filesOf(event.clipboardData).length) return;
      event.preventDefault();
      take(event.clipboardData);
    },
    keydown(event) {
      if (event.target !== event.currentTarget || (event.key !== 'Enter' && event.key !== ' ')) return;
      event.preventDefault();
      open();
    },
    click(event) {
      if (options.noClick || event.defaultPrevented || onInnerControl(event)) return;
      open();
    },
    open,
  };
}
