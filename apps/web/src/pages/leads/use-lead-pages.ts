// The leads the table has read so far: pages of the `Workspace.leads` connection, one after the
// other as the person scrolls (`loadMore`), never the whole list. New filters start over.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useClient } from 'urql';
import { problemOf, type Problem } from '../../graphql/errors';
import type { VariablesOf } from '../../graphql/graphql';
import { LeadsPageQuery, type LeadRow } from './leads.graphql';

/** The connection's largest page. */
export const PAGE_SIZE = 100;

export type LeadFilters = Omit<VariablesOf<typeof LeadsPageQuery>, 'first' | 'after' | 'withCount'>;

interface Pages {
  rows: LeadRow[];
  total: number | null;
  endCursor: string | null;
  hasNextPage: boolean;
  loading: boolean;
  problem?: Problem;
}

const EMPTY: Pages = { rows: [], total: null, endCursor: null, hasNextPage: true, loading: true };

export function useLeadPages(filters: LeadFilters) {
  const client = useClient();
  const key = JSON.stringify(filters);
  const [pages, setPages] = useState<Pages>(EMPTY);
  // The filters the pages belong to, and whether a page is on its way (one at a time).
  const current = useRef({ key, busy: false });

  const load = useCallback(
    async (after: string | null) => {
      const asked = current.current;
      if (asked.busy) return;
      asked.busy = true;
      setPages((p) => ({ ...p, loading: true, problem: undefined }));
      const answer = await client
        .query(LeadsPageQuery, { ...filters, first: PAGE_SIZE, after, withCount: after === null }, { requestPolicy: 'network-only' })
        .toPromise();
      asked.busy = false;
      if (current.current !== asked) return; // the filters changed meanwhile
      const connection = answer.data?.workspace?.leads;
      if (!connection) {
        setPages((p) => ({ ...p, loading: false, hasNextPage: false, problem: problemOf(answer.error) ?? { message: 'The workspace could not be read.', fields: [] } }));
        return;
      }
      setPages((p) => ({
        rows: after === null ? connection.edges.map((e) => e.node) : [...p.rows, ...connection.edges.map((e) => e.node)],
        total: after === null ? (connection.totalCount ?? null) : p.total,
        endCursor: connection.pageInfo.endCursor ?? null,
        hasNextPage: connection.pageInfo.hasNextPage,
        loading: false,
      }));
    },
    // `key` stands for the filters (a new object on every render).
    [client, key],
  );

  useEffect(() => {
    current.current = { key, busy: false };
    setPages(EMPTY);
    void load(null);
  }, [key, load]);

  const loadMore = useCallback(() => {
    if (pages.hasNextPage && !pages.problem && pages.endCursor && !current.current.busy) void load(pages.endCursor);
  }, [pages.hasNextPage, pages.problem, pages.endCursor, load]);

  /** After a failed page: ask for it again. */
  const retry = useCallback(() => void load(pages.rows.length ? pages.endCursor : null), [load, pages.rows.length, pages.endCursor]);

  return { ...pages, loadMore, retry };
}
