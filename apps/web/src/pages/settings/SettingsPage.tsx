// Screen 6: the workspace's and organization's settings, a tab each (the tab is in the address:
// /settings/webhooks, /settings/people, …). Read-only people see every tab without its write controls.
import { useNavigate, useParams } from 'react-router';
import { Stack, Tabs, Title } from '@mantine/core';
import { useQuery } from 'urql';
import { graphql } from '../../graphql/graphql';
import { useWorkspaceId } from '../../shell/Shell';
import { WebhooksTab } from './WebhooksTab';
import { BlocklistTab } from './BlocklistTab';
import { TagsTab } from './TagsTab';
import { LeadLabelsTab } from './LeadLabelsTab';
import { FieldsTab } from './FieldsTab';
import { ClientsTab } from './ClientsTab';
import { PeopleTab } from './PeopleTab';
import { ApiKeysTab } from './ApiKeysTab';

const WorkspaceNameQuery = graphql(`
  query SettingsWorkspace($workspaceId: ID!) { workspace(id: $workspaceId) { id name } }
`);

const TABS = {
  webhooks: 'Webhooks',
  blocklist: 'Blocklist',
  tags: 'Tags',
  labels: 'Lead labels',
  fields: 'Additional fields',
  clients: 'Clients',
  'api-keys': 'API keys',
  people: 'People',
} as const;
type Tab = keyof typeof TABS;

export default function SettingsPage() {
  const workspaceId = useWorkspaceId();
  const navigate = useNavigate();
  const given = useParams()['tab'];
  const tab: Tab = given && given in TABS ? (given as Tab) : 'webhooks';
  const [workspace] = useQuery({ query: WorkspaceNameQuery, variables: { workspaceId } });
  const workspaceName = workspace.data?.workspace?.name ?? 'this workspace';

  return (
    <Stack gap="md">
      <Title order={1}>Settings</Title>
      <Tabs value={tab} onChange={(t) => t && navigate(`/settings/${t}`)} keepMounted={false}>
        <Tabs.List style={{ flexWrap: 'wrap' }}>
          {Object.entries(TABS).map(([value, label]) => (
            <Tabs.Tab key={value} value={value}>
              {label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="webhooks" pt="md">
          <WebhooksTab workspaceId={workspaceId} />
        </Tabs.Panel>
        <Tabs.Panel value="blocklist" pt="md">
          <BlocklistTab workspaceId={workspaceId} />
        </Tabs.Panel>
        <Tabs.Panel value="tags" pt="md">
          <TagsTab workspaceId={workspaceId} />
        </Tabs.Panel>
        <Tabs.Panel value="labels" pt="md">
          <LeadLabelsTab workspaceId={workspaceId} />
        </Tabs.Panel>
        <Tabs.Panel value="fields" pt="md">
          <FieldsTab workspaceId={workspaceId} />
        </Tabs.Panel>
        <Tabs.Panel value="clients" pt="md">
          <ClientsTab />
        </Tabs.Panel>
        <Tabs.Panel value="api-keys" pt="md">
          <ApiKeysTab workspaceId={workspaceId} workspaceName={workspaceName} />
        </Tabs.Panel>
        <Tabs.Panel value="people" pt="md">
          <PeopleTab workspaceId={workspaceId} workspaceName={workspaceName} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
