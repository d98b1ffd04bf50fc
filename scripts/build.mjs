// Compiles the product for `node` to run directly:
//   apps/gateway/src/{main,cli}.ts → apps/gateway/dist/{main,cli}.js (esbuild: one ES module bundle of the
//   gateway, core and db packages; every npm package stays an import resolved from node_modules), and the
//   web app (apps/web → apps/web/dist, scripts/build-web.mjs).
//   node scripts/build.mjs             build both
//   node scripts/build.mjs --if-stale  build only what is missing or older than its sources
//   node scripts/build.mjs --gateway   the gateway only
// `npm install` (postinstall) and `npm start` run it with --if-stale, so a fresh clone starts compiled code.
// dist/ keeps the bundle's directory depth (apps/gateway/dist beside apps/gateway/src): the paths the code
// resolves from its own location (package.json, prisma/migrations, apps/web/dist) are the same from both.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'apps', 'gateway', 'dist');
const stampFile = join(outdir, '.inputs.json');
const args = new Set(process.argv.slice(2));
const ifStale = args.has('--if-stale');

/** True when a previous build's inputs are all unchanged (same files, same sizes and times). */
function gatewayIsFresh() {
  if (!existsSync(join(outdir, 'main.js')) || !existsSync(join(outdir, 'cli.js')) || !existsSync(stampFile)) return false;
  try {
    const inputs = JSON.parse(readFileSync(stampFile, 'utf8'));
    return Object.entries(inputs).every(([file, seen]) => {
      const stat = statSync(join(root, file), { throwIfNoEntry: false });
      return stat !== undefined && `${stat.size}:${stat.mtimeMs}` === seen;
    });
  } catch {
    return false;
  }
}

async function buildGateway() {
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    console.error('build: esbuild is not installed (run `npm install`)');
    process.exit(1);
  }
  const started = Date.now();
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: { main: 'apps/gateway/src/main.ts', cli: 'apps/gateway/src/cli.ts' },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node24',
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
    plugins: [
      {
        // The workspace packages (@outreach/*) are TypeScript sources and go into the bundle; every other
        // package is imported from node_modules at run time, as installed.
        name: 'npm-packages-external',
        setup(build) {
          build.onResolve({ filter: /^[^./]/ }, (a) => (a.path.startsWith('@outreach/') ? undefined : { path: a.path, external: true }));
        },
      },
    ],
  });
  const inputs = {};
  for (const file of Object.keys(result.metafile.inputs)) {
    const stat = statSync(join(root, file));
    inputs[file] = `${stat.size}:${stat.mtimeMs}`;
  }
  writeFileSync(stampFile, JSON.stringify(inputs));
  const bytes = Object.entries(result.metafile.outputs).filter(([f]) => f.endsWith('.js')).reduce((sum, [, o]) => sum + o.bytes, 0);
  console.log(`build: gateway → apps/gateway/dist (${Object.keys(inputs).length} sources, ${(bytes / 1024).toFixed(0)} kB) in ${Date.now() - started} ms`);
}

if (!(ifStale && gatewayIsFresh())) await buildGateway();
if (!args.has('--gateway')) {
  const web = spawnSync(process.execPath, [join(root, 'scripts', 'build-web.mjs'), ...(ifStale ? ['--if-stale'] : [])], { stdio: 'inherit' });
  if (web.status !== 0) process.exit(web.status ?? 1);
}
