import { describe, expect, it } from 'vitest';
import { planReadLeases, readShare } from './read-lease.rules';

describe('dividing the mailboxes among the reply readers', () => {
  it('gives each live reader an even share, rounded up so that every mailbox has a reader', () => {
    expect(readShare({ readable: 10, readers: 1 })).toBe(10);
    expect(readShare({ readable: 10, readers: 2 })).toBe(5);
    expect(readShare({ readable: 11, readers: 2 })).toBe(6);
    expect(readShare({ readable: 2, readers: 3 })).toBe(1);
    expect(readShare({ readable: 0, readers: 2 })).toBe(0);
    // No reader counted yet (the first refresh of the first one): it takes them all.
    expect(readShare({ readable: 7, readers: 0 })).toBe(7);
  });

  it('a reader alone keeps what it reads and takes the rest', () => {
    expect(planReadLeases({ held: ['a', 'b'], readable: ['a', 'b', 'c', 'd'], share: 4 })).toEqual({ keep: ['a', 'b'], release: [], take: 2 });
  });

  it('a reader past its share (another came) gives back its newest leases and keeps the mailboxes it has read longest', () => {
    expect(planReadLeases({ held: ['d', 'a', 'c', 'b'], readable: ['a', 'b', 'c', 'd'], share: 2 })).toEqual({ keep: ['d', 'a'], release: ['c', 'b'], take: 0 });
  });

  it('gives back a mailbox no longer to be read now (paused, deleted, waiting for its retry), which does not count towards its share', () => {
    expect(planReadLeases({ held: ['a', 'gone', 'b'], readable: ['a', 'b', 'c'], share: 3 })).toEqual({ keep: ['a', 'b'], release: ['gone'], take: 1 });
  });

  it('takes nothing when nothing is to be read', () => {
    expect(planReadLeases({ held: ['a'], readable: [], share: 0 })).toEqual({ keep: [], release: ['a'], take: 0 });
  });
});
