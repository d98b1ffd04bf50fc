import { Alert } from '@mantine/core';
import { claimsAll, type Problem } from '../graphql/errors';

/**
 * The words of a failed request, above a form: shown unless every field it names is one of
 * the form's inputs (`fields`, `prefixes`), which then show their own problem beside them.
 */
export function ProblemAlert(props: { problem: Problem | undefined; fields?: string[]; prefixes?: string[]; title?: string }) {
  const { problem } = props;
  if (!problem || claimsAll(problem, props.fields ?? [], props.prefixes ?? [])) return null;
  return (
    <Alert color="red" title={props.title ?? 'That did not work'} role="alert">
      {problem.message}
    </Alert>
  );
}
