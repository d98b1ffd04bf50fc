// The send bench's SMTP sink, in this process or in a child process of its own. With 1,000
// mailboxes the raw side opens 2,000 pooled connections at once, and a sink sharing the
// benchmark's event loop could not greet them all before nodemailer's greeting timeout.
import { fork, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { startSmtpServer } from '@outreach/core/testing';

export interface Sink {
  port: number;
  /** Messages received since the last reset, and their bytes. */
  stats(): Promise<{ count: number; bytes: number }>;
  reset(): Promise<void>;
  /** CPU milliseconds of the sink's own process (0 when it runs in this one: process.cpuUsage counts it). */
  cpuMs(): Promise<number>;
  close(): Promise<void>;
}

type Request = { op: 'stats' | 'reset' | 'close'; n: number };

export async function startSink(options: { users: Record<string, string>; childProcess: boolean }): Promise<Sink> {
  if (!options.childProcess) {
    const sink = await startSmtpServer({ users: options.users });
    return {
      port: sink.port,
      stats: async () => ({ count: sink.messages.length, bytes: sink.messages.reduce((s, m) => s + m.raw.length, 0) }),
      reset: async () => void (sink.messages.length = 0),
      cpuMs: async () => 0,
      close: () => sink.close(),
    };
  }
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--sink-child'], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const pending = new Map<number, (value: unknown) => void>();
  let next = 0;
  const ready = new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the SMTP sink process exited (${code})`)));
    child.on('message', (m: { port?: number; n?: number; value?: unknown }) => {
      if (m.port !== undefined) resolve(m.port);
      else if (m.n !== undefined) pending.get(m.n)?.(m.value), pending.delete(m.n);
    });
  });
  child.send({ users: options.users });
  const port = await ready;
  const ask = <T>(op: Request['op']) =>
    new Promise<T>((resolve) => {
      const n = next++;
      pending.set(n, resolve as (value: unknown) => void);
      child.send({ op, n } satisfies Request);
    });
  return {
    port,
    stats: () => ask<{ count: number; bytes: number }>('stats'),
    reset: () => ask<void>('reset'),
    async cpuMs() {
      const stat = await readFile(`/proc/${child.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) * 10;
    },
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await ask<void>('close');
      await exited;
    },
  };
}

// The child: one sink, answering the parent's requests over IPC.
if (process.argv.includes('--sink-child')) {
  process.once('message', async ({ users }: { users: Record<string, string> }) => {
    const sink = await startSmtpServer({ users });
    process.on('message', async (m: Request) => {
      if (m.op === 'stats') process.send!({ n: m.n, value: { count: sink.messages.length, bytes: sink.messages.reduce((s, x) => s + x.raw.length, 0) } });
      if (m.op === 'reset') {
        sink.messages.length = 0;
        process.send!({ n: m.n, value: undefined });
      }
      if (m.op === 'close') {
        await sink.close();
        process.send!({ n: m.n, value: undefined }, () => process.exit(0));
      }
    });
    process.send!({ port: sink.port });
  });
}
