import { describe, expect, it } from 'vitest';
import type { MailboxSession } from '../shared/mailbox-reader';
import { ReadSession } from './read-session.service';

function fakeSession() {
  const state = { usable: true, closed: 0 };
  const session: MailboxSession = {
    get usable() {
      return state.usable;
    },
    fetchNew: async () => ({ uidValidity: 1n, reset: false, messages: [] }),
    waitForNews: async () => {},
    close: async () => void (state.closed += 1),
  };
  return { session, state };
}

describe('the IMAP session a reply loop keeps', () => {
  it('is reused for the same login while it is usable and young enough', async () => {
    const kept = new ReadSession(60_000);
    const { session, state } = fakeSession();
    await kept.keep(session, 'login-1');
    expect(await kept.reusable('login-1')).toBe(session);
    expect(await kept.reusable('login-1')).toBe(session);
    expect(state.closed).toBe(0);
  });

  it('is closed, not reused, once the mailbox logs in otherwise (its settings changed)', async () => {
    const kept = new ReadSession(60_000);
    const { session, state } = fakeSession();
    await kept.keep(session, 'login-1');
    expect(await kept.reusable('login-2')).toBeNull();
    expect(state.closed).toBe(1);
    // Forgotten: nothing more to close.
    expect(await kept.reusable('login-1')).toBeNull();
    await kept.drop();
    expect(state.closed).toBe(1);
  });

  it('is closed once the connection is gone, or past its age', async () => {
    const dropped = new ReadSession(60_000);
    const a = fakeSession();
    await dropped.keep(a.session, 'login');
    a.state.usable = false;
    expect(await dropped.reusable('login')).toBeNull();
    expect(a.state.closed).toBe(1);

    const old = new ReadSession(0);
    const b = fakeSession();
    await old.keep(b.session, 'login');
    expect(await old.reusable('login')).toBeNull();
    expect(b.state.closed).toBe(1);
  });

  it('closes the session it kept before when it keeps another', async () => {
    const kept = new ReadSession(60_000);
    const first = fakeSession();
    const second = fakeSession();
    await kept.keep(first.session, 'login');
    await kept.keep(second.session, 'login');
    expect(first.state.closed).toBe(1);
    expect(await kept.reusable('login')).toBe(second.session);
  });

  it('sessions kept together are renewed at different ages: each lives a random 75–100 % of the maximum', async () => {
    const longest = new ReadSession(2_000, () => 0);
    const shortest = new ReadSession(2_000, () => 0.999);
    const a = fakeSession();
    const b = fakeSession();
    await longest.keep(a.session, 'login');
    await shortest.keep(b.session, 'login');
    // Past 75 % of the maximum (1.5 s), short of all of it (2 s).
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    expect(await shortest.reusable('login')).toBeNull();
    expect(b.state.closed).toBe(1);
    expect(await longest.reusable('login')).toBe(a.session);
  });
});
