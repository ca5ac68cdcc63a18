/** Thrown by `ContentStore.write` (either backend) when the body exceeds the allowed size. */
export class ContentTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`the content exceeds ${limit} bytes`);
  }
}
