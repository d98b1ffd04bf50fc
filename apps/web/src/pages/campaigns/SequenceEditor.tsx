// The sequence: steps with the days to wait before each, and the variations (A, B, …) of each
// step, with merge-field insertion at the cursor. Saved whole through updateCampaign.
import { useRef, useState } from 'react';
import { ActionIcon, Button, Card, Group, Menu, NumberInput, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from 'urql';
import { fieldProblem, problemOf, type Problem } from '../../graphql/errors';
import { ProblemAlert } from '../../components/ProblemAlert';
import { UpdateCampaign, type EditedCampaign } from './campaign-editor.graphql';
import { nextLabel } from './sequence.rules';
import { VariationPreview } from './VariationPreview';

/** The merge fields the composer fills for every lead (packages/core/src/sending/merge-fields.rules.ts). */
export const MERGE_FIELDS = [
  'first_name',
  'last_name',
  'email',
  'company_name',
  'company_website',
  'job_title',
  'phone_number',
  'city',
  'state',
  'country',
  'sender_name',
  'sender_first_name',
  'signature',
] as const;

interface Variation {
  variation: string;
  name: string | null;
  subject: string;
  body: string;
}
interface Step {
  key: number;
  waitTime: number;
  variations: Variation[];
}

let keys = 0;
const emptyVariation = (variation: string): Variation => ({ variation, name: null, subject: '', body: '' });

export function SequenceEditor(props: { workspaceId: string; campaign: EditedCampaign; readOnly: boolean }) {
  const [steps, setSteps] = useState<Step[]>(() =>
    props.campaign.sequences.length
      ? props.campaign.sequences.map((s) => ({ key: ++keys, waitTime: s.waitTime, variations: s.variations.map((v) => ({ ...v })) }))
      : [{ key: ++keys, waitTime: 0, variations: [emptyVariation('A')] }],
  );
  const [saved, save] = useMutation(UpdateCampaign);
  const problem = problemOf(saved.error);

  const change = (index: number, update: (step: Step) => Step) => setSteps((all) => all.map((s, i) => (i === index ? update(s) : s)));
  const changeVariation = (index: number, label: string, patch: Partial<Variation>) =>
    change(index, (s) => ({ ...s, variations: s.variations.map((v) => (v.variation === label ? { ...v, ...patch } : v)) }));

  const submit = async () => {
    const sequences = steps.map((s, i) => ({ step: i + 1, waitTime: i === 0 ? 0 : s.waitTime, variations: s.variations }));
    const answer = await save({ workspaceId: props.workspaceId, id: props.campaign.id, sequences });
    if (!answer.error) notifications.show({ color: 'green', message: 'The sequence is saved.' });
  };

  return (
    <Stack gap="md">
      <ProblemAlert problem={problem} prefixes={['sequences.']} title="The sequence was not saved" />
      {steps.map((step, index) => (
        <Card withBorder key={step.key} component="section" aria-label={`Step ${index + 1}`}>
          <Stack gap="sm">
            <Group justify="space-between" wrap="nowrap">
              <Title order={3} size="h4">
                Step {index + 1}
              </Title>
              <Button variant="subtle" color="red" size="xs" disabled={props.readOnly || steps.length === 1} onClick={() => setSteps((all) => all.filter((_, i) => i !== index))}>
                Remove step {index + 1}
              </Button>
            </Group>
            {index === 0 ? (
              <Text size="sm" c="dimmed">
                Sent as soon as the lead enters the campaign, within the schedule.
              </Text>
            ) : (
              <NumberInput
                label={`Days to wait before step ${index + 1}`}
                min={0}
                max={365}
                w={260}
                value={step.waitTime}
                disabled={props.readOnly}
                onChange={(value) => change(index, (s) => ({ ...s, waitTime: typeof value === 'number' ? value : Number(value) || 0 }))}
                error={fieldProblem(problem, `sequences.${index}.wait_time`)}
              />
            )}
            {step.variations.map((variation, vIndex) => (
              <VariationEditor
                key={variation.variation}
                workspaceId={props.workspaceId}
                campaignId={props.campaign.id}
                stepNumber={index + 1}
                variation={variation}
                readOnly={props.readOnly}
                canRemove={step.variations.length > 1}
                problem={problem}
                path={`sequences.${index}.variations.${vIndex}`}
                onChange={(patch) => changeVariation(index, variation.variation, patch)}
                onRemove={() => change(index, (s) => ({ ...s, variations: s.variations.filter((v) => v.variation !== variation.variation) }))}
              />
            ))}
            <Text size="sm" c="red" role={fieldProblem(problem, `sequences.${index}.variations`) ? 'alert' : undefined}>
              {fieldProblem(problem, `sequences.${index}.variations`)}
            </Text>
            <Button
              variant="light"
              size="xs"
              w="fit-content"
              disabled={props.readOnly}
              onClick={() => change(index, (s) => ({ ...s, variations: [...s.variations, emptyVariation(nextLabel(s.variations.map((v) => v.variation)))] }))}
            >
              Add a variation to step {index + 1}
            </Button>
          </Stack>
        </Card>
      ))}
      <Group>
        <Button variant="default" disabled={props.readOnly || steps.length >= 50} onClick={() => setSteps((all) => [...all, { key: ++keys, waitTime: 2, variations: [emptyVariation('A')] }])}>
          Add a step
        </Button>
        <Button onClick={submit} loading={saved.fetching} disabled={props.readOnly}>
          Save the sequence
        </Button>
      </Group>
    </Stack>
  );
}

function VariationEditor(props: {
  workspaceId: string;
  campaignId: string;
  stepNumber: number;
  variation: Variation;
  readOnly: boolean;
  canRemove: boolean;
  problem: Problem | undefined;
  path: string;
  onChange: (patch: Partial<Variation>) => void;
  onRemove: () => void;
}) {
  const { variation } = props;
  const subjectRef = useRef<HTMLInputElement>(null);
  const bodyRef = useRef<HTMLTextAreaElement>(null);
  const [target, setTarget] = useState<'subject' | 'body'>('body');
  const name = `step ${props.stepNumber}, variation ${variation.variation}`;

  /** Puts `{{field}}` where the cursor was in the subject or body last focused. */
  const insert = (field: string) => {
    const element = target === 'subject' ? subjectRef.current : bodyRef.current;
    const text = variation[target];
    const start = element?.selectionStart ?? text.length;
    const end = element?.selectionEnd ?? text.length;
    const token = `{{${field}}}`;
    props.onChange({ [target]: text.slice(0, start) + token + text.slice(end) });
    requestAnimationFrame(() => {
      element?.focus();
      element?.setSelectionRange(start + token.length, start + token.length);
    });
  };

  return (
    <Card withBorder bg="gray.0" padding="sm" component="section" aria-label={`Variation ${variation.variation} of step ${props.stepNumber}`}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Text fw={600}>
            Variation {variation.variation}
          </Text>
          <Group gap="xs" wrap="nowrap">
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <Button variant="default" size="xs" disabled={props.readOnly} aria-label={`Insert field into the ${target} of ${name}`}>
                  Insert field
                </Button>
              </Menu.Target>
              <Menu.Dropdown mah={300} style={{ overflowY: 'auto' }}>
                {MERGE_FIELDS.map((field) => (
                  <Menu.Item key={field} onClick={() => insert(field)}>
                    {`{{${field}}}`}
                  </Menu.Item>
                ))}
              </Menu.Dropdown>
            </Menu>
            {props.canRemove && (
              <ActionIcon variant="subtle" color="red" disabled={props.readOnly} onClick={props.onRemove} aria-label={`Remove ${name}`}>
                <span aria-hidden>✕</span>
              </ActionIcon>
            )}
          </Group>
        </Group>
        <TextInput
          ref={subjectRef}
          label={`Subject (${name})`}
          value={variation.subject}
          disabled={props.readOnly}
          onFocus={() => setTarget('subject')}
          onChange={(e) => props.onChange({ subject: e.currentTarget.value })}
          error={fieldProblem(props.problem, `${props.path}.subject`)}
        />
        <Textarea
          ref={bodyRef}
          label={`Body (${name})`}
          description="Merge fields like {{first_name}}, fallbacks like {{first_name|there}}, spintax like {Hi|Hello}."
          autosize
          minRows={5}
          maxRows={20}
          value={variation.body}
          disabled={props.readOnly}
          onFocus={() => setTarget('body')}
          onChange={(e) => props.onChange({ body: e.currentTarget.value })}
          error={fieldProblem(props.problem, `${props.path}.body`, `${props.path}.variation`)}
        />
        <VariationPreview workspaceId={props.workspaceId} campaignId={props.campaignId} step={props.stepNumber} variation={variation.variation} readOnly={props.readOnly} />
      </Stack>
    </Card>
  );
}
