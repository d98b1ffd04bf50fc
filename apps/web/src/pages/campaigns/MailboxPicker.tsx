// Which of the workspace's mailboxes send the campaign. Saved through updateCampaign.
import { useState } from 'react';
import { Badge, Button, Checkbox, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from 'urql';
import { problemOf, type Problem } from '../../graphql/errors';
import { ProblemAlert } from '../../components/ProblemAlert';
import { UpdateCampaign, type EditedCampaign, type Mailbox } from './campaign-editor.graphql';

export function MailboxPicker(props: { workspaceId: string; campaign: EditedCampaign; mailboxes: Mailbox[]; readOnly: boolean; listProblem?: Problem | undefined }) {
  const [chosen, setChosen] = useState<string[]>(() => props.campaign.emailAccounts.map((e) => e.toLowerCase()));
  const [saved, save] = useMutation(UpdateCampaign);
  const problem = problemOf(saved.error);

  const submit = async () => {
    const answer = await save({ workspaceId: props.workspaceId, id: props.campaign.id, emailAccounts: chosen });
    if (!answer.error) notifications.show({ color: 'green', message: 'The mailboxes are saved.' });
  };

  // A failed read is said as such, not shown as an empty workspace.
  if (!props.mailboxes.length && props.listProblem) return <ProblemAlert problem={props.listProblem} title="The mailboxes could not be read" />;
  if (!props.mailboxes.length) {
    return (
      <Stack gap="xs">
        <Text fw={600}>This workspace has no mailbox yet.</Text>
        <Text c="dimmed">Add a mailbox (through the API for now) to send this campaign.</Text>
      </Stack>
    );
  }
  return (
    <Stack gap="md" maw={640}>
      <ProblemAlert problem={problem} title="The mailboxes were not saved" />
      <Checkbox.Group label="Mailboxes that send this campaign" description="The campaign rotates its sends across the chosen mailboxes." value={chosen} onChange={setChosen}>
        <Stack mt="xs" gap="xs">
          {props.mailboxes.map((m) => (
            <Group key={m.id} gap="sm" wrap="nowrap">
              <Checkbox value={m.email.toLowerCase()} label={m.email} disabled={props.readOnly} />
              <Badge variant="light" color={m.status === 'ACTIVE' ? 'green' : 'gray'}>
                {m.status.toLowerCase()}
              </Badge>
            </Group>
          ))}
        </Stack>
      </Checkbox.Group>
      <Group>
        <Button onClick={submit} loading={saved.fetching} disabled={props.readOnly}>
          Save the mailboxes
        </Button>
        <Text size="sm" c="dimmed">
          {chosen.length} chosen
        </Text>
      </Group>
    </Stack>
  );
}
