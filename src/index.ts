/**
 * The package's main entry: the typed service client and the uploader (the elements add their registrations here).
 * Importing it has no side effects and touches no browser globals, so it is safe during server-side rendering.
 */
export * from './client/index.ts';
export * from './uploader/index.ts';
