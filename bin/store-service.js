#!/usr/bin/env node
// Runs the TypeScript sources through tsx so the command works right after `npm install`, with no build step.
import { register } from 'tsx/esm/api';
register();
await import('../server/cli.ts');
