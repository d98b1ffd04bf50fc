#!/usr/bin/env node
// The `outreach` command: registers tsx's loader in this process and runs the TypeScript CLI
// here (no child process, so signals reach the CLI itself).
await import('tsx');
await import(new URL('../src/cli.ts', import.meta.url).href);
