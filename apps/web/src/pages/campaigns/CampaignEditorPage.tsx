// A campaign: its sequence, schedule, settings and mailboxes, each saved on its own, and
// launch / pause. Each section keeps what was typed when a save fails.
import { Link, useParams } from 'react-router';
import { Alert, Anchor, Button, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery } from 'urql';
import { problemOf } from '../../graphql/errors';
import { Loading } from '../../components/Loading';
import { ProblemAlert } from '../../components/ProblemAlert';
import { useWorkspaceId } from '../../shell/Shell';
import { useSession } from '../../session';
import { StatusBadge } from './campaign-status';
import { CampaignEditorQuery, LaunchFromEditor, PauseFromEditor } from './campaign-editor.graphql';
import { SequenceEditor } from './SequenceEditor';
import { ScheduleForm } from './ScheduleForm';
import { SettingsForm } from './SettingsForm';
import { MailboxPicker } from './MailboxPicker';
import { SubsequenceOf, SubsequencesPanel } from './SubsequencesPanel';

export default function CampaignEditorPage() {
  const workspaceId = useWorkspaceId();
  const canEdit = useSession().viewer?.person.role !== 'READ_ONLY';
  const id = useParams().id ?? '';
  const [result, refetch] = useQuery({ query: CampaignEditorQuery, variables: { workspaceId, id } });
  const [launched, launch] = useMutation(LaunchFromEditor);
  const [paused, pause] = useMutation(PauseFromEditor);

  const campaign = result.data?.campaign;
  if (result.fetching && !result.data) return <Loading label="Loading the campaign…" />;
  if (!campaign) {
    return (
      <Stack gap="sm">
        <Title order={1}>Campaign not found</Title>
        {result.error ? <ProblemAlert problem={problemOf(result.error)} title="The campaign could not be read" /> : <Text>This workspace has no campaign with this address.</Text>}
        <Anchor component={Link} to="/campaigns">
          Back to campaigns
        </Anchor>
      </Stack>
    );
  }

  const archived = campaign.status === 'ARCHIVED';
  const readOnly = archived || !canEdit;
  const mailboxes = result.data?.workspace?.emailAccounts.edges.map((e) => e.node) ?? [];
  const stateProblem = problemOf(launched.error ?? paused.error);
  const toggle = async () => {
    const answer = campaign.status === 'ACTIVE' ? await pause({ workspaceId, id }) : await launch({ workspaceId, id });
    if (!answer.error) notifications.show({ color: 'green', message: campaign.status === 'ACTIVE' ? 'The campaign is paused.' : 'The campaign is launched.' });
    refetch({ requestPolicy: 'network-only' });
  };

  return (
    <Stack gap="md">
      <Anchor component={Link} to="/campaigns" size="sm">
        ← Campaigns
      </Anchor>
      <Group justify="space-between" align="flex-start">
        <Group gap="sm">
          <Title order={1} style={{ wordBreak: 'break-word' }}>
            {campaign.name}
          </Title>
          <StatusBadge status={campaign.status} />
        </Group>
        <Group gap="sm">
          {!readOnly && (
            <Button component={Link} to={`/leads/import?campaign=${campaign.id}`} variant="default">
              Import leads
            </Button>
          )}
          {!readOnly && campaign.status !== 'COMPLETED' && (
            <Button onClick={toggle} loading={launched.fetching || paused.fetching} color={campaign.status === 'ACTIVE' ? 'yellow' : undefined} autoContrast>
              {campaign.status === 'ACTIVE' ? 'Pause' : 'Launch'}
            </Button>
          )}
        </Group>
      </Group>
      {campaign.pausedReason && (
        <Alert color="yellow" title="Paused by the sending engine">
          {campaign.pausedReason}
        </Alert>
      )}
      <SubsequenceOf workspaceId={workspaceId} campaignId={campaign.id} />
      {archived && <Alert color="gray">This campaign is archived: it can be read, not changed.</Alert>}
      {!canEdit && <Alert color="gray">Your role is read-only: you can read this campaign, not change it.</Alert>}
      <ProblemAlert problem={stateProblem} title={campaign.status === 'ACTIVE' ? 'Could not pause' : 'Could not launch'} />

      {/* Keyed by campaign: the forms start from the campaign read, and keep their input after. */}
      <Tabs defaultValue="sequence" keepMounted key={campaign.id}>
        <Tabs.List>
          <Tabs.Tab value="sequence">Sequence</Tabs.Tab>
          <Tabs.Tab value="schedule">Schedule</Tabs.Tab>
          <Tabs.Tab value="settings">Settings</Tabs.Tab>
          <Tabs.Tab value="mailboxes">Mailboxes</Tabs.Tab>
          <Tabs.Tab value="subsequences">Subsequences</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="sequence" pt="md">
          <SequenceEditor workspaceId={workspaceId} campaign={campaign} readOnly={readOnly} />
        </Tabs.Panel>
        <Tabs.Panel value="schedule" pt="md">
          <ScheduleForm workspaceId={workspaceId} campaign={campaign} readOnly={readOnly} />
        </Tabs.Panel>
        <Tabs.Panel value="settings" pt="md">
          <SettingsForm workspaceId={workspaceId} campaign={campaign} readOnly={readOnly} />
        </Tabs.Panel>
        <Tabs.Panel value="subsequences" pt="md">
          <SubsequencesPanel workspaceId={workspaceId} campaignId={campaign.id} readOnly={readOnly} />
        </Tabs.Panel>
        <Tabs.Panel value="mailboxes" pt="md">
          <MailboxPicker workspaceId={workspaceId} campaign={campaign} mailboxes={mailboxes} readOnly={readOnly} listProblem={problemOf(result.error)} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
