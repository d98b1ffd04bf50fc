// An invitation link (/invite#token=…): the invitee chooses a name and password, and is signed in.
import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Alert, Button, PasswordInput, TextInput } from '@mantine/core';
import { useMutation } from 'urql';
import { graphql } from '../graphql/graphql';
import { fieldProblem, problemOf } from '../graphql/errors';
import { ProblemAlert } from '../components/ProblemAlert';
import { useSession, ViewerFields } from '../session';
import { AuthLayout, tokenFromHash } from './AuthLayout';

const AcceptInvitation = graphql(
  `
    mutation AcceptInvitation($token: String!, $name: String!, $password: String!) {
      acceptInvitation(token: $token, name: $name, password: $password) { ...ViewerFields }
    }
  `,
  [ViewerFields],
);

export function AcceptInvitationPage() {
  const session = useSession();
  const navigate = useNavigate();
  const token = tokenFromHash(useLocation().hash);
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [result, accept] = useMutation(AcceptInvitation);
  const problem = problemOf(result.error);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const answer = await accept({ token, name, password });
    if (answer.data?.acceptInvitation) {
      session.signedIn(answer.data.acceptInvitation);
      navigate('/campaigns', { replace: true });
    }
  };

  return (
    <AuthLayout title="Join your team" intro="You were invited to Outreach. Choose your name and a password to sign in.">
      {!token ? (
        <Alert color="yellow" title="This link has no invitation token" role="alert">
          Open the invitation link you received (it ends in #token=…).
        </Alert>
      ) : (
        <form onSubmit={submit} noValidate>
          <ProblemAlert problem={problem} fields={['name', 'password']} title="Could not accept the invitation" />
          <TextInput mt="sm" label="Your name" required autoComplete="name" value={name} onChange={(e) => setName(e.currentTarget.value)} error={fieldProblem(problem, 'name')} />
          <PasswordInput mt="sm" label="Password" required autoComplete="new-password" value={password} onChange={(e) => setPassword(e.currentTarget.value)} error={fieldProblem(problem, 'password')} />
          <Button type="submit" mt="lg" fullWidth loading={result.fetching}>
            Accept the invitation
          </Button>
        </form>
      )}
    </AuthLayout>
  );
}
