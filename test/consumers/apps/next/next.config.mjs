// The fixture's node_modules are two folders up (scripts/test-consumers.sh installs once for every app).
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** @type {import('next').NextConfig} */
export default {
  turbopack: { root },
  outputFileTracingRoot: root,
  // The store service runs as Node code of its own (a native SQLite module among its dependencies): not bundled.
  serverExternalPackages: ['@store-upload-kit/service'],
};
