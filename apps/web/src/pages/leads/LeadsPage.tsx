// Screen 2: the workspace's leads, in a virtualised table whose pages are read as they come into
// view, with the filters, sorting and search the lead listing offers (campaign, status, label,
// address prefix; created/modified, either way), and the number of leads. The filters live in
// the address, so going back from a lead's page finds them again.
import { Link, useSearchParams } from 'react-router';
import { Button, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { memo, useCallback, useMemo, useState } from 'react';
import { useQuery } from 'urql';
import { problemOf } from '../../graphql/errors';
import { ProblemAlert } from '../../components/ProblemAlert';
import { Loading } from '../../components/Loading';
import { useWorkspaceId } from '../../shell/Shell';
import { useSession } from '../../session';
import type { ResultOf } from '../../graphql/graphql';
import { LeadChoicesQuery } from './leads.graphql';
import { LEAD_STATUS_LABELS, type LeadStatus } from './lead-status';
import { LeadsTable } from './LeadsTable';
import { useLeadPages, type LeadFilters } from './use-lead-pages';

const SORTS = {
  newest: { label: 'Newest first', sort: 'created_at', direction: 'desc' },
  oldest: { label: 'Oldest first', sort: 'created_at', direction: 'asc' },
  changed: { label: 'Recently changed', sort: 'modified_at', direction: 'desc' },
  unchanged: { label: 'Least recently changed', sort: 'modified_at', direction: 'asc' },
} as const;
type SortName = keyof typeof SORTS;

const number = new Intl.NumberFormat();
const ALL = 'ALL';

export default function LeadsPage() {
  const workspaceId = useWorkspaceId();
  const canEdit = useSession().viewer?.person.role !== 'READ_ONLY';
  const [params, setParams] = useSearchParams();
  const [search, setSearch] = useState(params.get('q') ?? '');
  const [email] = useDebouncedValue(search.trim(), 300);
  const campaignId = params.get('campaign');
  const status = params.get('status') as LeadStatus | null;
  const label = params.get('label');
  const sortName: SortName = (params.get('sort') as SortName) in SORTS ? (params.get('sort') as SortName) : 'newest';

  const set = useCallback(
    (name: string, value: string | null) =>
      setParams(
        (p) => {
          const next = new URLSearchParams(p);
          if (value && value !== ALL) next.set(name, value);
          else next.delete(name);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  const onSearch = useCallback(
    (text: string) => {
      setSearch(text);
      set('q', text.trim() || null);
    },
    [set],
  );

  const [choices] = useQuery({ query: LeadChoicesQuery, variables: { workspaceId } });
  const campaigns = useMemo(() => choices.data?.workspace?.campaigns.edges.map((e) => e.node) ?? [], [choices.data]);
  const labels = choices.data?.workspace?.leadLabels;

  const filters: LeadFilters = {
    workspaceId,
    campaignId: campaignId || null,
    status: status && status in LEAD_STATUS_LABELS ? status : null,
    label: label || null,
    email: email || null,
    sort: SORTS[sortName].sort,
    direction: SORTS[sortName].direction,
  };
  const leads = useLeadPages(filters);
  const filtered = Boolean(filters.campaignId || filters.status || filters.label || filters.email);
  const firstPageFailed = leads.problem && leads.total === null;

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Title order={1}>Leads</Title>
        {canEdit && (
          <Button component={Link} to={campaignId ? `/leads/import?campaign=${campaignId}` : '/leads/import'}>
            Import a CSV file
          </Button>
        )}
      </Group>

      <FilterBar
        search={search}
        onSearch={onSearch}
        campaignId={campaignId}
        status={filters.status ?? null}
        label={label}
        sortName={sortName}
        campaigns={campaigns}
        labels={labels}
        set={set}
      />
      {choices.error && <ProblemAlert problem={problemOf(choices.error)} title="The campaigns and labels to filter by could not be read" />}

      <Text role="status" aria-live="polite" fw={600}>
        {leads.total === null
          ? leads.loading
            ? 'Counting leads…'
            : ''
          : `${number.format(leads.total)} ${leads.total === 1 ? 'lead' : 'leads'}${filtered ? (leads.total === 1 ? ' matches' : ' match') : ''}`}
      </Text>

      {firstPageFailed ? (
        <Stack gap="xs" align="flex-start">
          <ProblemAlert problem={leads.problem} title="The leads could not be read" />
          <Button variant="light" onClick={leads.retry}>
            Try again
          </Button>
        </Stack>
      ) : leads.total === null ? (
        <Loading label="Loading leads…" />
      ) : leads.total === 0 ? (
        <Stack align="flex-start" gap="xs" py="lg">
          <Text fw={600}>{filtered ? 'No lead matches these filters.' : 'No leads yet.'}</Text>
          <Text c="dimmed">{filtered ? 'Change the search or the filters.' : 'Import a CSV file to add leads to a campaign.'}</Text>
        </Stack>
      ) : (
        <LeadsTable total={leads.total} rowAt={leads.rowAt} problem={leads.problem} show={leads.show} retry={leads.retry} labels={labels} />
      )}
    </Stack>
  );
}

type Choices = NonNullable<ResultOf<typeof LeadChoicesQuery>['workspace']>;

/** The search and filters; memoised, so the table reading its pages does not render them again. */
const FilterBar = memo(function FilterBar(props: {
  search: string;
  onSearch: (text: string) => void;
  campaignId: string | null;
  status: LeadStatus | null;
  label: string | null;
  sortName: SortName;
  campaigns: Choices['campaigns']['edges'][number]['node'][];
  labels: Choices['leadLabels'] | undefined;
  set: (name: string, value: string | null) => void;
}) {
  return (
    <Group align="flex-end" gap="sm">
      <TextInput
        label="Search by e-mail"
        description="The start of the address"
        placeholder="name@company.com"
        type="search"
        value={props.search}
        onChange={(e) => props.onSearch(e.currentTarget.value)}
        w={{ base: '100%', xs: 240 }}
      />
      <Select
        label="Campaign"
        data={[{ value: ALL, label: 'All campaigns' }, ...props.campaigns.map((c) => ({ value: c.id, label: c.type === 'subseq' ? `${c.name} (subsequence)` : c.name }))]}
        value={props.campaignId ?? ALL}
        onChange={(v) => props.set('campaign', v)}
        allowDeselect={false}
        searchable
        w={{ base: 'calc(50% - 6px)', xs: 220 }}
      />
      <Select
        label="Status"
        data={[{ value: ALL, label: 'All statuses' }, ...Object.entries(LEAD_STATUS_LABELS).map(([value, text]) => ({ value, label: text }))]}
        value={props.status ?? ALL}
        onChange={(v) => props.set('status', v)}
        allowDeselect={false}
        w={{ base: 'calc(50% - 6px)', xs: 170 }}
      />
      <Select
        label="Label"
        data={[{ value: ALL, label: 'All labels' }, ...(props.labels ?? []).map((l) => ({ value: l.key, label: l.name }))]}
        value={props.label ?? ALL}
        onChange={(v) => props.set('label', v)}
        allowDeselect={false}
        w={{ base: 'calc(50% - 6px)', xs: 170 }}
      />
      <Select
        label="Order"
        data={Object.entries(SORTS).map(([value, s]) => ({ value, label: s.label }))}
        value={props.sortName}
        onChange={(v) => props.set('sort', v === 'newest' ? null : v)}
        allowDeselect={false}
        w={{ base: 'calc(50% - 6px)', xs: 200 }}
      />
    </Group>
  );
});
