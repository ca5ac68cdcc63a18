/** Why a `fields` selection was rejected. */
export type FieldsErrorCode =
  /** The selection does not follow the grammar of spec §4.9 (the message says what and where). */
  | 'syntax'
  /** A name the resource's schema does not have (names are case-sensitive). */
  | 'unknownField'
  /** The selection names the `data` response wrapper, which spec §4.9 rule 9 forbids. */
  | 'dataWrapper';

/**
 * A bad `fields` selection. `message` is what the reference service sends in its 400 (reason `invalidParameter`,
 * location `fields`): "Invalid field selection <selection>", followed for syntax errors by what is wrong and at
 * which position (supplement §3). Clients branch on `code`.
 */
export class FieldsError extends Error {
  /** Machine-readable reason. */
  readonly code: FieldsErrorCode;
  /** The selection as received (already URL-decoded). */
  readonly selection: string;
  /** Zero-based index into `selection` of the offending character or name, when one can be pointed at. */
  readonly position?: number;

  /**
   * @param detail what is wrong; omitted for unknown names, whose wire message is the bare supplement wording.
   */
  constructor(code: FieldsErrorCode, selection: string, detail?: string, position?: number) {
    const where = position === undefined ? '' : ` at position ${position}`;
    super(
      detail === undefined
        ? `Invalid field selection ${selection}`
        : `Invalid field selection ${selection}: ${detail}${where}`,
    );
    this.name = 'FieldsError';
    this.code = code;
    this.selection = selection;
    if (position !== undefined) this.position = position;
  }
}
