import { lazy, Suspense, type ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { Alert, Button, Center, Stack, Text, Title } from '@mantine/core';
import { Loading } from './components/Loading';
import { useSession } from './session';
import { Shell } from './shell/Shell';
import { SignInPage } from './pages/SignInPage';
import { SetupPage } from './pages/SetupPage';
import { AcceptInvitationPage } from './pages/AcceptInvitationPage';

// Screens behind the sign-in load on demand: the sign-in page's JavaScript stays small.
const CampaignsPage = lazy(() => import('./pages/campaigns/CampaignsPage'));
const CampaignEditorPage = lazy(() => import('./pages/campaigns/CampaignEditorPage'));
const AnalyticsPage = lazy(() => import('./pages/analytics/AnalyticsPage'));
const CampaignAnalyticsPage = lazy(() => import('./pages/analytics/CampaignAnalyticsPage'));
const SettingsPage = lazy(() => import('./pages/settings/SettingsPage'));
const MailboxesPage = lazy(() => import('./pages/mailboxes/MailboxesPage'));
const MailboxPage = lazy(() => import('./pages/mailboxes/MailboxPage'));
const UniboxPage = lazy(() => import('./pages/unibox/UniboxPage'));
const LeadsPage = lazy(() => import('./pages/leads/LeadsPage'));
const LeadImportPage = lazy(() => import('./pages/leads/LeadImportPage'));
const LeadPage = lazy(() => import('./pages/leads/LeadPage'));

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
        <Route
          path="/campaigns"
          element={
            <Suspense fallback={<Loading />}>
              <CampaignsPage />
            </Suspense>
          }
        />
        <Route
          path="/campaigns/:id"
          element={
            <Suspense fallback={<Loading />}>
              <CampaignEditorPage />
            </Suspense>
          }
        />
        <Route
          path="/leads"
          element={
            <Suspense fallback={<Loading />}>
              <LeadsPage />
            </Suspense>
          }
        />
        <Route
          path="/leads/import"
          element={
            <Suspense fallback={<Loading />}>
              <LeadImportPage />
            </Suspense>
          }
        />
        <Route
          path="/leads/:id"
          element={
            <Suspense fallback={<Loading />}>
              <LeadPage />
            </Suspense>
          }
        />
        <Route
          path="/unibox/:threadId?"
          element={
            <Suspense fallback={<Loading />}>
              <UniboxPage />
            </Suspense>
          }
        />
        <Route
          path="/mailboxes"
          element={
            <Suspense fallback={<Loading />}>
              <MailboxesPage />
            </Suspense>
          }
        />
        <Route
          path="/mailboxes/:id"
          element={
            <Suspense fallback={<Loading />}>
              <MailboxPage />
            </Suspense>
          }
        />
        <Route
          path="/analytics"
          element={
            <Suspense fallback={<Loading />}>
              <AnalyticsPage />
            </Suspense>
          }
        />
        <Route
          path="/analytics/campaigns/:id"
          element={
            <Suspense fallback={<Loading />}>
              <CampaignAnalyticsPage />
            </Suspense>
          }
        />
        <Route
          path="/settings/:tab?"
          element={
            <Suspense fallback={<Loading />}>
              <SettingsPage />
            </Suspense>
          }
        />
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}
