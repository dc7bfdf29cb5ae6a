#!/usr/bin/env node
// The `vellum` command of the installed package: the compiled CLI (see scripts/cli.ts).
import '../dist/scripts/cli.js';
