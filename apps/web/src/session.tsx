// Who is signed in (the `viewer` query, with the workspaces the person reaches: one request), and
// the workspace the screens show. The viewer's CSRF token goes on every later request
// (graphql/client.ts).
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQuery } from 'urql';
import { graphql, type ResultOf } from './graphql/graphql';
import { setCsrfToken } from './graphql/client';

export const ViewerFields = graphql(`
  fragment ViewerFields on Viewer @_unmask {
    csrfToken
    organizationId
    organizationName
    person { id name email role }
    workspaces { id name }
  }
`);

export const ViewerQuery = graphql(
  `
    query Viewer {
      viewer { ...ViewerFields }
    }
  `,
  [ViewerFields],
);

export type ViewerData = ResultOf<typeof ViewerFields>;

interface Session {
  viewer: ViewerData | null;
  loading: boolean;
  /** The viewer failed to load (the server is unreachable). */
  failed: boolean;
  /** After signing in or out: read the viewer again. */
  refresh: () => void;
  /** After a sign-in mutation answered the viewer: use it at once. */
  signedIn: (viewer: ViewerData) => void;
  signedOut: () => void;
  workspaceId: string | null;
  setWorkspaceId: (id: string) => void;
}

const SessionContext = createContext<Session | null>(null);
const WORKSPACE_KEY = 'outreach.workspace';

/** The workspace the screens show: the one last chosen in this browser while the person still reaches it, else the first. */
export function pickWorkspace<W extends { id: string }>(list: readonly W[], chosen: string | null = localStorage.getItem(WORKSPACE_KEY)): W | undefined {
  return list.find((w) => w.id === chosen) ?? list[0];
}

export function SessionProvider(props: { children: ReactNode }) {
  // main.tsx reads the viewer before the first render; this shares that read (refresh: a new one).
  const [result, reexecute] = useQuery({ query: ViewerQuery, requestPolicy: 'cache-first' });
  const [override, setOverride] = useState<{ viewer: ViewerData | null } | null>(null);
  const [workspaceId, setWorkspace] = useState<string | null>(() => localStorage.getItem(WORKSPACE_KEY));

  const viewer = override ? override.viewer : (result.data?.viewer ?? null);
  useEffect(() => setCsrfToken(viewer?.csrfToken ?? null), [viewer?.csrfToken]);

  const refresh = useCallback(() => {
    setOverride(null);
    reexecute({ requestPolicy: 'network-only' });
  }, [reexecute]);
  const setWorkspaceId = useCallback((id: string) => {
    localStorage.setItem(WORKSPACE_KEY, id);
    setWorkspace(id);
  }, []);

  const value = useMemo<Session>(
    () => ({
      viewer,
      loading: !override && result.fetching && !result.data,
      failed: !override && !result.data && Boolean(result.error?.networkError),
      refresh,
      signedIn: (v) => {
        setCsrfToken(v.csrfToken);
        setOverride({ viewer: v });
      },
      signedOut: () => {
        setCsrfToken(null);
        setOverride({ viewer: null });
      },
      workspaceId,
      setWorkspaceId,
    }),
    [viewer, override, result.fetching, result.data, result.error, refresh, workspaceId, setWorkspaceId],
  );
  return <SessionContext.Provider value={value}>{props.children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}
