// The leads the table shows, read by page where the person looks: the first page says how many
// leads match, the table is as tall as all of them, and each page of the `Workspace.leads`
// connection is read by its offset when it comes into view — never what lies between, so
// dragging to the end of 100,000 leads reads one page, not a thousand. Pages far from the view
// are forgotten (memory stays flat); new filters start over.
import { useCallback, useEffect, useRef, useState } from 'react';
import { pagingClient } from '../../graphql/client';
import { problemOf, type Problem } from '../../graphql/errors';
import type { VariablesOf } from '../../graphql/graphql';
import { LeadsPageQuery, type LeadRow } from './leads.graphql';

/** The connection's largest page. */
export const PAGE_SIZE = 100;
/** Pages kept in memory around the view. */
const KEEP_PAGES = 40;
/** Pages read at the same time. */
const PARALLEL = 2;

export type LeadFilters = Omit<VariablesOf<typeof LeadsPageQuery>, 'first' | 'offset' | 'withCount'>;

/** What one set of filters has read; replaced (not changed) when the filters change. */
interface Store {
  filters: LeadFilters;
  total: number | null;
  pages: Map<number, LeadRow[]>;
  reading: Set<number>;
  /** The page that failed, until `retry`: no page is read meanwhile. */
  failed: { page: number; problem: Problem } | null;
  /** The pages in view (and just around it), first and last. */
  wanted: [number, number];
}

const newStore = (filters: LeadFilters): Store => ({ filters, total: null, pages: new Map(), reading: new Set(), failed: null, wanted: [0, 0] });

export function useLeadPages(filters: LeadFilters) {
  const key = JSON.stringify(filters);
  const store = useRef<Store>(newStore(filters));
  // Each change to the store renders the table once more.
  const [, setVersion] = useState(0);
  const changed = useCallback(() => setVersion((v) => v + 1), []);

  const pump = useCallback(() => {
    const s = store.current;
    if (s.failed) return;
    const [from, to] = s.wanted;
    for (let page = from; page <= to && s.reading.size < PARALLEL; page++) {
      if (s.pages.has(page) || s.reading.has(page)) continue;
      if (s.total !== null && page * PAGE_SIZE >= s.total) break;
      s.reading.add(page);
      const first = page === 0 && s.total === null;
      // Not through the document cache: it would keep every page ever read (pagingClient).
      void pagingClient
        .query(LeadsPageQuery, { ...s.filters, first: PAGE_SIZE, offset: page * PAGE_SIZE, withCount: first })
        .toPromise()
        .then((answer) => {
          if (store.current !== s) return; // the filters changed meanwhile
          s.reading.delete(page);
          const connection = answer.data?.workspace?.leads;
          if (!connection) {
            s.failed = { page, problem: problemOf(answer.error) ?? { message: 'The workspace could not be read.', fields: [] } };
          } else {
            s.pages.set(page, connection.edges.map((e) => e.node));
            if (first) s.total = connection.totalCount ?? connection.edges.length + (connection.pageInfo.hasNextPage ? PAGE_SIZE : 0);
            forgetFarPages(s);
          }
          changed();
          pump();
        });
    }
  }, [changed]);

  useEffect(() => {
    store.current = newStore(JSON.parse(key) as LeadFilters);
    changed();
    pump();
    // `key` stands for the filters (a new object on every render).
  }, [key, pump, changed]);

  /** The table shows rows `first` to `last` (0-based): read their pages. */
  const show = useCallback(
    (first: number, last: number) => {
      const s = store.current;
      const wanted: [number, number] = [Math.floor(Math.max(0, first) / PAGE_SIZE), Math.floor(Math.max(0, last) / PAGE_SIZE)];
      if (wanted[0] === s.wanted[0] && wanted[1] === s.wanted[1]) return;
      s.wanted = wanted;
      pump();
    },
    [pump],
  );

  /** After a failed page: read it again. */
  const retry = useCallback(() => {
    store.current.failed = null;
    changed();
    pump();
  }, [changed, pump]);

  const s = store.current;
  return {
    total: s.total,
    /** The lead of row `index`, once its page is read. */
    rowAt: (index: number): LeadRow | undefined => s.pages.get(Math.floor(index / PAGE_SIZE))?.[index % PAGE_SIZE],
    /** The first page is on its way (nothing to show yet). */
    loading: s.total === null && !s.failed,
    problem: s.failed?.problem,
    show,
    retry,
  };
}

/** Keeps the `KEEP_PAGES` pages nearest the view. */
function forgetFarPages(s: Store): void {
  if (s.pages.size <= KEEP_PAGES) return;
  const centre = (s.wanted[0] + s.wanted[1]) / 2;
  const far = [...s.pages.keys()].sort((a, b) => Math.abs(b - centre) - Math.abs(a - centre));
  for (const page of far.slice(0, s.pages.size - KEEP_PAGES)) s.pages.delete(page);
}
