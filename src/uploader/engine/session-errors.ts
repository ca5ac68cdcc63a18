/**
 * Why an attempt at a resumable session cannot go on as it was: thrown by `resumable-upload.ts`, judged by
 * `attempt-failure.ts` (start a new session; follow the tab that holds this one).
 */

/** The session answered 404: it expired (spec §3.1) or was cancelled; the upload starts again from byte 0. */
export class SessionExpired extends Error {
  constructor() {
    super('the upload session no longer exists');
    this.name = 'SessionExpired';
  }
}

/** Another tab holds this session's lock and is uploading it: this tab must not send (it follows instead). */
export class HeldElsewhere extends Error {
  constructor(readonly sessionUri: string) {
    super('another tab is uploading this session');
    this.name = 'HeldElsewhere';
  }
}
