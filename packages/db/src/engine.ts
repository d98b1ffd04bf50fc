import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as bg from '@prisma/schema-engine-wasm/schema_engine_bg';
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';

// The package's entry imports its .wasm file as an ES module, which Node cannot
// load; instantiate the module by hand and wire it to the generated JS glue.
let ready: Promise<void> | undefined;

// Node has WebAssembly; the TypeScript lib for it lives in lib.dom, which this project does not load.
declare const WebAssembly: unknown;
const wasm = WebAssembly as {
  instantiate(bytes: Uint8Array, imports: Record<string, unknown>): Promise<{ instance: { exports: Record<string, unknown> } }>;
};

function loadWasm(): Promise<void> {
  ready ??= (async () => {
    // The package exports no ./package.json; locate the wasm beside its JS glue.
    const require = createRequire(import.meta.url);
    const glue = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg');
    const bytes = await readFile(join(dirname(glue), 'schema_engine_bg.wasm'));
    const { instance } = await wasm.instantiate(bytes, { './schema_engine_bg.js': bg });
    bg.__wbg_set_wasm(instance.exports);
    (instance.exports as { __wbindgen_start(): void }).__wbindgen_start();
  })();
  return ready;
}

export type EngineLog = (message: string) => void;

let opened = 0;
/** How many schema engines this process has opened (a start with nothing to migrate opens none). */
export function schemaEnginesOpened(): number {
  return opened;
}

export async function openSchemaEngine(options: {
  adapterFactory: SqlMigrationAwareDriverAdapterFactory;
  schemaPath: string;
  schema: string;
  log?: EngineLog;
}): Promise<bg.SchemaEngine> {
  await loadWasm();
  opened++;
  return bg.SchemaEngine.new(
    { datamodels: [[options.schemaPath, options.schema]] },
    (line: string) => options.log?.(line),
    bindMigrationAwareSqlAdapterFactory(options.adapterFactory),
  );
}
