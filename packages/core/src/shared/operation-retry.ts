// Runs an operation again when another request changed the same rows at the same moment: a row
// it refers to, or one it updates, deleted between its read and its write (a foreign-key
// violation, Prisma's "record not found"), a deadlock, a write conflict. Each operation commits
// once (one transaction), so a failed attempt left nothing behind, and the next attempt reads
// what the other request did: it answers as it would have a moment later (its own 404 for the
// deleted campaign, the mailbox left out), never a 500 nor a generic `resource.not_found`.
//
// An attempt that contacted a system outside the database (sent an e-mail, probed a login,
// called an OAuth provider) is not repeated: what it did there cannot be undone, and its
// error goes out as it is.
import { concurrentChangeOf } from '@outreach/db';
import type { Ctx } from './context';
import type { Ports } from './ports';

/** Attempts in all: a second one answers a deleted row; a third is for a deadlock met twice. */
export const OPERATION_ATTEMPTS = 3;

/** The ports whose calls reach another system (DNS lookups and the clock only read). */
const EXTERNAL_PORTS = ['mail', 'smtp', 'imap', 'webhookHttp', 'oauth', 'warmupImap'] as const satisfies readonly (keyof Ports)[];

/** `ports` with every call to an external port noted; `contacted()` tells whether one was made. */
export function watchExternalPorts(ports: Ports): { ports: Ports; contacted(): boolean } {
  let contacted = false;
  const watched: Ports = { ...ports };
  for (const name of EXTERNAL_PORTS) {
    const port = ports[name];
    if (port === undefined) continue;
    (watched as unknown as Record<string, unknown>)[name] = new Proxy(port, {
      get(target, key) {
        const value = Reflect.get(target, key, target) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          contacted = true;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  }
  return { ports: watched, contacted: () => contacted };
}

/**
 * `run(ctx)`, again (up to OPERATION_ATTEMPTS in all) while it fails on a concurrent change and
 * has contacted no external system; after a deadlock it waits a few milliseconds first.
 */
export async function runRetryingConcurrentChanges<T, C extends Pick<Ctx, 'ports' | 'log'> = Ctx>(options: { name: string; ctx: C; run: (ctx: C) => Promise<T> }): Promise<T> {
  const { name, ctx, run } = options;
  for (let attempt = 1; ; attempt++) {
    const watch = watchExternalPorts(ctx.ports);
    try {
      return await run({ ...ctx, ports: watch.ports });
    } catch (error) {
      const change = concurrentChangeOf(error);
      if (change === null || attempt >= OPERATION_ATTEMPTS || watch.contacted()) throw error;
      ctx.log.info({ op: name, attempt, change }, 'operation run again after a concurrent change');
      // Two deadlocked transactions retried at once may meet again: start apart.
      if (change === 'deadlock' || change === 'serialization') await new Promise((resolve) => setTimeout(resolve, 5 + Math.floor(Math.random() * 20 * attempt)));
    }
  }
}
