import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { matchPath, Navigate, Route, Routes, useLocation } from 'react-router';
import { Alert, Button, Center, Stack, Text, Title } from '@mantine/core';
import { Loading } from './components/Loading';
import type { Client } from 'urql';
import { pickWorkspace, useSession, ViewerQuery } from './session';
import { prefetchCampaigns } from './pages/campaigns/campaigns.graphql';
import { Shell } from './shell/Shell';
import { SignInPage } from './pages/SignInPage';
import { SetupPage } from './pages/SetupPage';
import { AcceptInvitationPage } from './pages/AcceptInvitationPage';

// Screens behind the sign-in load on demand: the sign-in page's JavaScript stays small. One table
// gives each path its screen, for the routes and for `preloadScreen`.
const SCREENS = (
  [
    { path: '/campaigns', load: () => import('./pages/campaigns/CampaignsPage'), data: prefetchCampaigns },
    { path: '/campaigns/:id', load: () => import('./pages/campaigns/CampaignEditorPage') },
    { path: '/leads', load: () => import('./pages/leads/LeadsPage') },
    { path: '/leads/import', load: () => import('./pages/leads/LeadImportPage') },
    { path: '/leads/:id', load: () => import('./pages/leads/LeadPage') },
    { path: '/unibox/:threadId?', load: () => import('./pages/unibox/UniboxPage') },
    { path: '/mailboxes', load: () => import('./pages/mailboxes/MailboxesPage') },
    { path: '/mailboxes/:id', load: () => import('./pages/mailboxes/MailboxPage') },
    { path: '/analytics', load: () => import('./pages/analytics/AnalyticsPage') },
    { path: '/analytics/campaigns/:id', load: () => import('./pages/analytics/CampaignAnalyticsPage') },
    { path: '/settings/:tab?', load: () => import('./pages/settings/SettingsPage') },
  ] satisfies Screen[]
).map((screen) => ({ ...screen, Page: lazy(screen.load) }));

interface Screen {
  path: string;
  load: () => Promise<{ default: ComponentType }>;
  /** Reads the screen's first data into the client's cache. */
  data?: (client: Client, workspaceId: string) => Promise<unknown>;
}

/**
 * The first screen of a visit: its code, the viewer and then its data load at once, before React
 * renders, instead of one after the other as the screens mount (three round trips in a row).
 */
export function preloadScreen(pathname: string, client: Client): void {
  const path = pathname === '/' ? '/campaigns' : pathname;
  const screen: Screen | undefined = SCREENS.find((s) => matchPath(s.path, path));
  if (!screen) return;
  void screen.load().catch(() => undefined); // a failure shows when the route renders
  void client
    .query(ViewerQuery, {})
    .toPromise()
    .then(({ data }) => {
      const workspace = pickWorkspace(data?.viewer?.workspaces ?? []);
      if (workspace) return screen.data?.(client, workspace.id);
    });
}

/** The screens of a signed-in person: without a session, the sign-in page (then back here). */
function SignedIn(props: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (session.loading) return <Loading label="Checking your session…" />;
  if (session.failed) {
    return (
      <Center p="xl">
        <Alert color="red" title="The server could not be reached" role="alert">
          <Stack gap="sm">
            <Text>Outreach did not answer. Check that the server is running, then try again.</Text>
            <Button variant="light" onClick={session.refresh}>
              Try again
            </Button>
          </Stack>
        </Alert>
      </Center>
    );
  }
  if (!session.viewer) return <Navigate to="/sign-in" replace state={{ from: location.pathname + location.search }} />;
  return <>{props.children}</>;
}

function NotFound() {
  return (
    <Stack p="xl" gap="sm">
      <Title order={1}>Page not found</Title>
      <Text>There is no page at this address.</Text>
      <Button component="a" href="/campaigns" w="fit-content">
        Go to campaigns
      </Button>
    </Stack>
  );
}

export function App() {
  return (
    <Routes>
      <Route path="/sign-in" element={<SignInPage />} />
      <Route path="/setup" element={<SetupPage />} />
      <Route path="/invite" element={<AcceptInvitationPage />} />
      <Route
        element={
          <SignedIn>
            <Shell />
          </SignedIn>
        }
      >
        <Route index element={<Navigate to="/campaigns" replace />} />
        {SCREENS.map(({ path, Page }) => (
          <Route
            key={path}
            path={path}
            element={
              <Suspense fallback={<Loading />}>
                <Page />
              </Suspense>
            }
          />
        ))}
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}
