/**
 * Thrown by a shared engine's token getter when it needs a new access token and no page of the task's account is
 * attached to give one (none is open, or each open page gave no token or another account's): the job pauses with
 * code `auth` and this message until `attached` resolves (a page of the account attached), then asks again. Until a
 * token is refused (401), the engine keeps using the last one it was given, page or no page.
 */
export class NoPageAttached extends Error {
  constructor(
    readonly attached: Promise<void>,
    message = 'no page of this account is open to renew the access token: the upload goes on when one opens',
  ) {
    super(message);
    this.name = 'NoPageAttached';
  }
}
