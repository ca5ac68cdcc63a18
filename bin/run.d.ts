/** Whether `entry` (e.g. `server/cli.ts`) runs compiled: its compiled copy is newer than every source it comes from. */
export function runsCompiled(entry: string): boolean;
/** Imports `entry`, compiled when fresh, otherwise the TypeScript through tsx. */
export function run(entry: string): Promise<unknown>;
