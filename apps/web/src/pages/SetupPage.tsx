// First start: the one-time link the server prints (/setup#token=…) creates the owner's account.
import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Alert, Button, PasswordInput, TextInput } from '@mantine/core';
import { useMutation } from 'urql';
import { graphql } from '../graphql/graphql';
import { fieldProblem, problemOf } from '../graphql/errors';
import { ProblemAlert } from '../components/ProblemAlert';
import { useSession, ViewerFields } from '../session';
import { AuthLayout, tokenFromHash } from './AuthLayout';

const SetUpOwner = graphql(
  `
    mutation SetUpOwner($token: String!, $email: String!, $name: String!, $password: String!, $organizationName: String!) {
      setUpOwner(token: $token, email: $email, name: $name, password: $password, organizationName: $organizationName) {
        ...ViewerFields
      }
    }
  `,
  [ViewerFields],
);

export function SetupPage() {
  const session = useSession();
  const navigate = useNavigate();
  const token = tokenFromHash(useLocation().hash);
  const [form, setForm] = useState({ organizationName: '', name: '', email: '', password: '' });
  const [result, setUp] = useMutation(SetUpOwner);
  const problem = problemOf(result.error);
  const set = (key: keyof typeof form) => (e: { currentTarget: { value: string } }) => setForm({ ...form, [key]: e.currentTarget.value });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const answer = await setUp({ token, ...form });
    if (answer.data?.setUpOwner) {
      session.signedIn(answer.data.setUpOwner);
      navigate('/campaigns', { replace: true });
    }
  };

  return (
    <AuthLayout title="Set up Outreach" intro="Create the owner's account. The owner can invite the rest of the team afterwards.">
      {!token ? (
        <Alert color="yellow" title="This link has no setup token" role="alert">
          Open the setup link the server printed when it first started (it ends in #token=…).
        </Alert>
      ) : (
        <form onSubmit={submit} noValidate>
          <ProblemAlert problem={problem} fields={['organizationName', 'organization_name', 'name', 'email', 'password']} title="Could not create the account" />
          <TextInput mt="sm" label="Organization name" required autoComplete="organization" value={form.organizationName} onChange={set('organizationName')} error={fieldProblem(problem, 'organizationName')} />
          <TextInput mt="sm" label="Your name" required autoComplete="name" value={form.name} onChange={set('name')} error={fieldProblem(problem, 'name')} />
          <TextInput mt="sm" label="E-mail" type="email" required autoComplete="username" value={form.email} onChange={set('email')} error={fieldProblem(problem, 'email')} />
          <PasswordInput mt="sm" label="Password" required autoComplete="new-password" value={form.password} onChange={set('password')} error={fieldProblem(problem, 'password')} />
          <Button type="submit" mt="lg" fullWidth loading={result.fetching}>
            Create the owner account
          </Button>
        </form>
      )}
    </AuthLayout>
  );
}
