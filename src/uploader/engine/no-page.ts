/**
 * Thrown by a shared engine's token getter when it needs a new access token and no page of the site is attached to
 * ask: the job pauses with code `auth` until `attached` resolves (a page attached), then asks again. Until a token is
 * refused (401), the engine keeps using the last one it was given, page or no page.
 */
export class NoPageAttached extends Error {
  constructor(readonly attached: Promise<void>) {
    super('no page of the site is open to renew the access token: the upload goes on when one opens');
    this.name = 'NoPageAttached';
  }
}
