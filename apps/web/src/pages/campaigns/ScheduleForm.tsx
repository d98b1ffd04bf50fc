// When the campaign sends: days, daily window and time zone, first and last day. Saved through
// updateCampaign's `schedules` (setCampaignSchedule is the deprecated vendor form of the same).
import { useMemo, useState, type FormEvent } from 'react';
import { Button, Checkbox, Group, Select, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from 'urql';
import { fieldProblem, problemOf } from '../../graphql/errors';
import { ProblemAlert } from '../../components/ProblemAlert';
import { UpdateCampaign, type EditedCampaign } from './campaign-editor.graphql';

const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

/** `2026-01-05T00:00:00.000Z` or `2026-01-05` → `2026-01-05`; the date input's format. */
const dayOf = (value: string | null | undefined) => (value ? value.slice(0, 10) : '');

export function ScheduleForm(props: { workspaceId: string; campaign: EditedCampaign; readOnly: boolean }) {
  const stored = props.campaign.schedule;
  const [days, setDays] = useState<string[]>(() => (stored ? stored.days.map(String) : ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday']));
  const [from, setFrom] = useState(stored?.fromTime ?? '09:00');
  const [to, setTo] = useState(stored?.toTime ?? '17:00');
  const [timezone, setTimezone] = useState<string>(stored?.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC');
  const [startDate, setStartDate] = useState(dayOf(stored?.startDate));
  const [endDate, setEndDate] = useState(dayOf(stored?.endDate));
  const zones = useMemo(() => Intl.supportedValuesOf('timeZone'), []);
  const [saved, save] = useMutation(UpdateCampaign);
  const problem = problemOf(saved.error);
  const fields = ['schedules.days', 'schedules.timing.from', 'schedules.timing.to', 'schedules.timing', 'schedules.timezone', 'schedules.start_date', 'schedules.end_date'];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const answer = await save({
      workspaceId: props.workspaceId,
      id: props.campaign.id,
      schedules: {
        days: Object.fromEntries(days.map((d) => [String(DAYS.indexOf(d as (typeof DAYS)[number]) + 1), true])),
        timezone,
        timing: { from, to },
        startDate: startDate || null,
        endDate: endDate || null,
      },
    });
    if (!answer.error) notifications.show({ color: 'green', message: 'The schedule is saved.' });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md" maw={560}>
        <ProblemAlert problem={problem} fields={fields} title="The schedule was not saved" />
        <Checkbox.Group label="Sending days" value={days} onChange={setDays} error={fieldProblem(problem, 'schedules.days', 'schedules')}>
          <Group mt="xs" gap="md">
            {DAYS.map((day) => (
              <Checkbox key={day} value={day} label={day} disabled={props.readOnly} />
            ))}
          </Group>
        </Checkbox.Group>
        <Group grow align="flex-start">
          <TextInput type="time" label="Send from" value={from} disabled={props.readOnly} onChange={(e) => setFrom(e.currentTarget.value)} error={fieldProblem(problem, 'schedules.timing.from')} />
          <TextInput type="time" label="Send until" value={to} disabled={props.readOnly} onChange={(e) => setTo(e.currentTarget.value)} error={fieldProblem(problem, 'schedules.timing.to', 'schedules.timing')} />
        </Group>
        <Select
          label="Time zone"
          searchable
          data={zones.includes(timezone) ? zones : [timezone, ...zones]}
          value={timezone}
          disabled={props.readOnly}
          onChange={(zone) => zone && setTimezone(zone)}
          allowDeselect={false}
          limit={100}
          error={fieldProblem(problem, 'schedules.timezone')}
        />
        <Group grow align="flex-start">
          <TextInput type="date" label="First sending day" description="Empty: as soon as it is launched" value={startDate} disabled={props.readOnly} onChange={(e) => setStartDate(e.currentTarget.value)} error={fieldProblem(problem, 'schedules.start_date')} />
          <TextInput type="date" label="Last sending day" description="Empty: no end" value={endDate} disabled={props.readOnly} onChange={(e) => setEndDate(e.currentTarget.value)} error={fieldProblem(problem, 'schedules.end_date')} />
        </Group>
        <Button type="submit" loading={saved.fetching} disabled={props.readOnly} w="fit-content">
          Save the schedule
        </Button>
      </Stack>
    </form>
  );
}
