// The frame of every signed-in screen: header with the menu button (narrow screens), the
// navigation, the workspace switcher, and the signed-in person with sign-out.
import { useEffect } from 'react';
import { NavLink as RouterNavLink, Outlet, useOutletContext } from 'react-router';
import { Alert, AppShell, Burger, Button, Divider, Group, NavLink, Select, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation } from 'urql';
import { graphql } from '../graphql/graphql';
import { problemOf } from '../graphql/errors';
import { pickWorkspace, useSession } from '../session';

const SignOut = graphql(`
  mutation SignOut { signOut }
`);
const SignOutEverywhere = graphql(`
  mutation SignOutEverywhere { signOutEverywhere }
`);

const ROLE_NAMES = { OWNER: 'Owner', ADMIN: 'Admin', MEMBER: 'Member', READ_ONLY: 'Read-only' } as const;

/** The workspace the current screen shows (set by the shell). */
export function useWorkspaceId(): string {
  return useOutletContext<{ workspaceId: string }>().workspaceId;
}

export function Shell() {
  const session = useSession();
  const [opened, { toggle, close }] = useDisclosure(false);
  const [signOut, runSignOut] = useMutation(SignOut);
  const [everywhere, runEverywhere] = useMutation(SignOutEverywhere);
  // The workspaces come with the viewer (session.tsx).
  const list = session.viewer?.workspaces ?? [];
  const current = pickWorkspace(list, session.workspaceId);

  useEffect(() => {
    if (current && current.id !== session.workspaceId) session.setWorkspaceId(current.id);
  }, [current, session]);

  const leave = async (run: () => Promise<{ error?: unknown; data?: unknown }>) => {
    const result = await run();
    if (!result.error) {
      session.signedOut();
      // A fresh page: nothing of the session stays in memory or in the client's cache.
      window.location.assign('/sign-in');
    }
  };
  const signOutProblem = problemOf(signOut.error ?? everywhere.error);
  const person = session.viewer?.person;

  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={opened ? 'Close the menu' : 'Open the menu'} />
            <Text fw={700} size="lg" component="span">
              Outreach
            </Text>
          </Group>
          <Text size="sm" c="dimmed" truncate visibleFrom="xs">
            {session.viewer?.organizationName}
          </Text>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="md" aria-label="Main">
        <Stack justify="space-between" h="100%">
          <Stack gap="sm">
            <Select
              label="Workspace"
              data={list.map((w) => ({ value: w.id, label: w.name }))}
              value={current?.id ?? null}
              onChange={(id) => id && session.setWorkspaceId(id)}
              allowDeselect={false}
              placeholder="No workspace"
              disabled={!list.length}
            />
            <nav aria-label="Screens">
              <NavLink component={RouterNavLink} to="/campaigns" label="Campaigns" onClick={close} />
              <NavLink component={RouterNavLink} to="/leads" label="Leads" onClick={close} />
              <NavLink component={RouterNavLink} to="/unibox" label="Unibox" onClick={close} />
              <NavLink component={RouterNavLink} to="/mailboxes" label="Mailboxes" onClick={close} />
              <NavLink component={RouterNavLink} to="/analytics" label="Analytics" onClick={close} />
              <NavLink component={RouterNavLink} to="/settings" label="Settings" onClick={close} />
            </nav>
          </Stack>
          <Stack gap="xs">
            <Divider />
            {person && (
              <div>
                <Text size="sm" fw={600}>
                  {person.name}
                </Text>
                <Text size="xs" c="dimmed">
                  {person.email} · {ROLE_NAMES[person.role]}
                </Text>
              </div>
            )}
            {signOutProblem && (
              <Alert color="red" role="alert">
                {signOutProblem.message}
              </Alert>
            )}
            <Button variant="default" onClick={() => leave(() => runSignOut({}))} loading={signOut.fetching}>
              Sign out
            </Button>
            <Button variant="subtle" color="red" onClick={() => leave(() => runEverywhere({}))} loading={everywhere.fetching}>
              Sign out everywhere
            </Button>
          </Stack>
        </Stack>
      </AppShell.Navbar>

      <AppShell.Main>
        {!current ? (
          <Stack>
            <Title order={1}>No workspace</Title>
            <Text>Your account reaches no workspace yet. Ask an owner or admin of your organization to give you one.</Text>
          </Stack>
        ) : (
          <Outlet context={{ workspaceId: current.id }} />
        )}
      </AppShell.Main>
    </AppShell>
  );
}
