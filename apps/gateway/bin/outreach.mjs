#!/usr/bin/env node
// The `outreach` command: runs the compiled CLI (apps/gateway/dist/cli.js, made by `npm run build` and
// on install) in this process, so signals reach the CLI itself. In a checkout without a build it falls
// back to the TypeScript sources through tsx.
import { existsSync } from 'node:fs';

const compiled = new URL('../dist/cli.js', import.meta.url);
if (existsSync(compiled)) {
  await import(compiled.href);
} else {
  await import('tsx');
  await import(new URL('../src/cli.ts', import.meta.url).href);
}
