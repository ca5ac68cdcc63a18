#!/usr/bin/env node
// `npx store-relay [--port N] [--host H] [--cert-dir DIR]`: HTTPS push receiver → Server-Sent Events for pages.
import '../dist/relay/cli.js';
