// The DNS of the mailboxes' domains (SPF, DKIM, DMARC, MX) from the vitals check, with what to
// publish where a record is missing. Checked on demand: nothing is stored.
import { Alert, Badge, Button, Group, List, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation } from 'urql';
import { problemOf } from '../../graphql/errors';
import { ProblemAlert } from '../../components/ProblemAlert';
import { CheckVitals } from './mailboxes.graphql';
import { vitalsFixes } from './mailbox.rules';

function Check(props: { ok: boolean; what: string; domain: string }) {
  return (
    <Badge color={props.ok ? 'green' : 'red'} variant="light" title={`${props.what} of ${props.domain}`}>
      {props.ok ? 'Pass' : 'Missing'}
    </Badge>
  );
}

export function DomainVitals(props: { workspaceId: string; domains: string[] }) {
  const [checked, check] = useMutation(CheckVitals);
  const problem = problemOf(checked.error);
  const report = checked.data?.testDomainVitals;

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="domain-vitals">
      <Stack gap="sm">
        <Group justify="space-between" align="center">
          <Title order={2} size="h3" id="domain-vitals">
            Domain vitals
          </Title>
          <Button variant="light" onClick={() => check({ workspaceId: props.workspaceId, accounts: props.domains })} loading={checked.fetching} disabled={!props.domains.length}>
            Check the domains
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          SPF, DKIM and DMARC of {props.domains.length ? props.domains.join(', ') : 'the listed mailboxes’ domains'}: mail from a domain without them lands in spam.
        </Text>
        <ProblemAlert problem={problem} title="The domains could not be checked" />
        {report && (
          <>
            {report.successList.length > 0 && (
              <Table.ScrollContainer minWidth={420}>
                <Table aria-label="Domain vitals" verticalSpacing="xs">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Domain</Table.Th>
                      <Table.Th>SPF</Table.Th>
                      <Table.Th>DKIM</Table.Th>
                      <Table.Th>DMARC</Table.Th>
                      <Table.Th>MX</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {report.successList.map((v) => (
                      <Table.Tr key={v.domain}>
                        <Table.Td>{v.domain}</Table.Td>
                        <Table.Td><Check ok={v.spf} what="SPF" domain={v.domain} /></Table.Td>
                        <Table.Td><Check ok={v.dkim} what="DKIM" domain={v.domain} /></Table.Td>
                        <Table.Td><Check ok={v.dmarc} what="DMARC" domain={v.domain} /></Table.Td>
                        <Table.Td><Check ok={v.mx} what="MX" domain={v.domain} /></Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
            {report.successList.map((v) => {
              const fixes = vitalsFixes(v);
              return fixes.length ? (
                <div key={v.domain}>
                  <Text fw={600} size="sm">
                    To fix for {v.domain}
                  </Text>
                  <List size="sm" spacing={4} aria-label={`To fix for ${v.domain}`}>
                    {fixes.map((f) => (
                      <List.Item key={f}>{f}</List.Item>
                    ))}
                  </List>
                </div>
              ) : (
                <Text key={v.domain} size="sm">
                  {v.domain}: SPF, DKIM, DMARC and MX are all in place.
                </Text>
              );
            })}
            {report.failureList.map((f) => (
              <Alert key={f.domain} color="red" title={`${f.domain} could not be checked`}>
                {f.error[0]!.toUpperCase() + f.error.slice(1)}.
              </Alert>
            ))}
          </>
        )}
      </Stack>
    </Paper>
  );
}
