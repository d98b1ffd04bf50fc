// The date range of the analytics screens, kept in the address (?days=30, or ?from=…&to=…) so a
// campaign's page opens on the range of the workspace's, and a reload keeps it.
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Group, SegmentedControl, Text, TextInput } from '@mantine/core';
import { choiceOf, paramsOf, PRESETS, rangeOf, rangeProblems, type DateRange, type RangeChoice } from './date-range.rules';

export function useRange(): { choice: RangeChoice; range: DateRange; setChoice: (c: RangeChoice) => void; search: string } {
  const [params, setParams] = useSearchParams();
  const choice = choiceOf(params);
  const setChoice = (c: RangeChoice) => setParams(paramsOf(c), { replace: true });
  return { choice, range: rangeOf(choice), setChoice, search: `?${new URLSearchParams(paramsOf(choice)).toString()}` };
}

export function RangePicker() {
  const { choice, range, setChoice } = useRange();
  const [custom, setCustom] = useState<{ from: string; to: string } | null>('preset' in choice ? null : { from: choice.from, to: choice.to });
  const problems = custom ? rangeProblems(custom) : {};

  const pick = (value: string) => {
    if (value === 'custom') {
      setCustom({ from: range.startDate, to: range.endDate });
      return;
    }
    setCustom(null);
    setChoice({ preset: Number(value) as (typeof PRESETS)[number] });
  };
  const edit = (next: { from: string; to: string }) => {
    setCustom(next);
    if (!Object.keys(rangeProblems(next)).length) setChoice(next);
  };

  return (
    <Group align="flex-end" gap="sm" wrap="wrap">
      <div>
        <Text component="span" size="sm" fw={500} id="range-label" display="block" mb={4}>
          Date range
        </Text>
        <SegmentedControl
          aria-labelledby="range-label"
          value={custom ? 'custom' : String('preset' in choice ? choice.preset : 30)}
          onChange={pick}
          data={[...PRESETS.map((d) => ({ value: String(d), label: `${d} days` })), { value: 'custom', label: 'Custom' }]}
        />
      </div>
      {custom && (
        <>
          <TextInput type="date" label="From" value={custom.from} onChange={(e) => edit({ ...custom, from: e.currentTarget.value })} error={problems.from} w={170} />
          <TextInput type="date" label="To" value={custom.to} onChange={(e) => edit({ ...custom, to: e.currentTarget.value })} error={problems.to} w={170} />
        </>
      )}
      <Text size="sm" c="dimmed" pb={8}>
        {range.startDate} to {range.endDate} (UTC days)
      </Text>
    </Group>
  );
}
