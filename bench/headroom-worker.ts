// One worker process of the headroom benchmark's process phase (headroomBench in
// bench/sending.ts): its own connection pool, claims back to back from the parent's "go" until
// its deadline, each rolled back (every claim sees the same seed, as in the one-worker figure),
// then reports what it claimed and the CPU this process used meanwhile. Started by fork with
// `--import tsx`; talks to the parent over the IPC channel.
import { createDatabase, type PrismaClient } from '@outreach/db';
import { claimDueSends } from '@outreach/core';
import { testServiceDeps } from '@outreach/core/testing';
import { rolledBack } from './sending';

export interface WorkerSettings {
  url: string;
  workspaceId: string;
  now: string;
  maxSends: number;
  poolSize: number;
}
export type ParentMessage = { type: 'go'; until: number } | { type: 'exit' };
export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'done'; claims: number; sends: number; latencies: number[]; wallMs: number; cpuMs: number };

const settings = JSON.parse(process.env['HEADROOM_WORKER'] ?? '{}') as WorkerSettings;
// The parent gone (killed, crashed), nobody waits for this worker's figures: stop at once.
process.on('disconnect', () => process.exit(0));
const send = (message: WorkerMessage) => process.send!(message);
const db = await createDatabase({ url: settings.url, poolSize: settings.poolSize });
const deps = testServiceDeps({ db });
const now = new Date(settings.now);
const claim = (client: PrismaClient) => claimDueSends({ deps: { ...deps, db: client }, now, maxSends: settings.maxSends, workspaceIds: [settings.workspaceId] });

// Warm up (connections, plans, the JIT of this process's code) before the clock starts.
for (let i = 0; i < 3; i++) await rolledBack(db, claim);

process.on('message', async (message: ParentMessage) => {
  if (message.type === 'exit') {
    await db.close();
    process.exit(0);
  }
  const latencies: number[] = [];
  let sends = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  while (Date.now() < message.until) {
    const start = performance.now();
    const result = await rolledBack(db, claim);
    latencies.push(performance.now() - start);
    sends += result.claims.length;
  }
  const cpu = process.cpuUsage(cpu0);
  send({ type: 'done', claims: latencies.length, sends, latencies, wallMs: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000 });
});
send({ type: 'ready' });
