// How the campaign sends: daily limit, gap between sends, stop on reply, tracking, plain
// text, bounce protection. Saved through updateCampaign.
import { useState, type FormEvent } from 'react';
import { Button, Group, NumberInput, Stack, Switch } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from 'urql';
import { fieldProblem, problemOf } from '../../graphql/errors';
import { ProblemAlert } from '../../components/ProblemAlert';
import { UpdateCampaign, type EditedCampaign } from './campaign-editor.graphql';

const asNumber = (value: string | number) => (typeof value === 'number' ? value : value === '' ? Number.NaN : Number(value));

export function SettingsForm(props: { workspaceId: string; campaign: EditedCampaign; readOnly: boolean }) {
  const c = props.campaign;
  const [form, setForm] = useState({
    dailyLimit: c.dailyLimit as number | string,
    intervalLimitInMin: c.intervalLimitInMin as number | string,
    stopOnLeadReplied: c.stopOnLeadReplied,
    openTracking: c.openTracking,
    unsubscribeLink: c.unsubscribeLink,
    sendAsText: c.sendAsText,
    pauseOnBounceRate: c.pauseOnBounceRate,
    bounceRateLimit: c.bounceRateLimit as number | string,
  });
  const [saved, save] = useMutation(UpdateCampaign);
  const problem = problemOf(saved.error);
  const set = <K extends keyof typeof form>(key: K, value: (typeof form)[K]) => setForm((f) => ({ ...f, [key]: value }));
  const names = ['daily_limit', 'interval_limit_in_min', 'bounce_rate_limit', 'stop_on_lead_replied', 'is_emailopened_tracking', 'is_unsubscribed_link', 'send_as_txt', 'is_pause_on_bouncerate'];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const answer = await save({
      workspaceId: props.workspaceId,
      id: c.id,
      ...form,
      dailyLimit: asNumber(form.dailyLimit),
      intervalLimitInMin: asNumber(form.intervalLimitInMin),
      bounceRateLimit: asNumber(form.bounceRateLimit),
    });
    if (!answer.error) notifications.show({ color: 'green', message: 'The settings are saved.' });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md" maw={560}>
        <ProblemAlert problem={problem} fields={names} title="The settings were not saved" />
        <Group grow align="flex-start">
          <NumberInput label="Daily limit (e-mails a day)" min={1} max={100000} value={form.dailyLimit} disabled={props.readOnly} onChange={(v) => set('dailyLimit', v)} error={fieldProblem(problem, 'daily_limit', 'dailyLimit')} />
          <NumberInput label="Minutes between sends" min={0} max={1440} value={form.intervalLimitInMin} disabled={props.readOnly} onChange={(v) => set('intervalLimitInMin', v)} error={fieldProblem(problem, 'interval_limit_in_min')} />
        </Group>
        <Switch label="Stop a lead's sequence when it replies" checked={form.stopOnLeadReplied} disabled={props.readOnly} onChange={(e) => set('stopOnLeadReplied', e.currentTarget.checked)} />
        <Switch label="Track opens" checked={form.openTracking} disabled={props.readOnly} onChange={(e) => set('openTracking', e.currentTarget.checked)} />
        <Switch label="Add an unsubscribe link" checked={form.unsubscribeLink} disabled={props.readOnly} onChange={(e) => set('unsubscribeLink', e.currentTarget.checked)} />
        <Switch label="Send as plain text" checked={form.sendAsText} disabled={props.readOnly} onChange={(e) => set('sendAsText', e.currentTarget.checked)} />
        <Switch label="Pause when the bounce rate is too high" checked={form.pauseOnBounceRate} disabled={props.readOnly} onChange={(e) => set('pauseOnBounceRate', e.currentTarget.checked)} />
        {form.pauseOnBounceRate && (
          <NumberInput label="Bounce rate limit (%)" min={0} max={100} decimalScale={2} w={260} value={form.bounceRateLimit} disabled={props.readOnly} onChange={(v) => set('bounceRateLimit', v)} error={fieldProblem(problem, 'bounce_rate_limit')} />
        )}
        <Button type="submit" loading={saved.fetching} disabled={props.readOnly} w="fit-content">
          Save the settings
        </Button>
      </Stack>
    </form>
  );
}
