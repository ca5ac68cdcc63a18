#!/usr/bin/env node
// `npx store-service [--port N] [--host H] [--data DIR] [--config FILE] [--admin]`: the compiled reference service.
import '../dist/cli.js';
