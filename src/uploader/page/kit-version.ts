/**
 * The kit's version: the folder of the package's `dist/workers/` its worker files are in, which the page asks for
 * (`page/copied-workers.ts`). `scripts/build-workers.ts` refuses to build when it is not the package's version.
 */
export const KIT_VERSION = '0.1.0';
