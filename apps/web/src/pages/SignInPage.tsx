import { useState, type FormEvent } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { Button, PasswordInput, TextInput } from '@mantine/core';
import { useMutation } from 'urql';
import { graphql } from '../graphql/graphql';
import { fieldProblem, problemOf } from '../graphql/errors';
import { ProblemAlert } from '../components/ProblemAlert';
import { useSession, ViewerFields } from '../session';
import { AuthLayout } from './AuthLayout';

const SignIn = graphql(
  `
    mutation SignIn($email: String!, $password: String!) {
      signIn(email: $email, password: $password) { ...ViewerFields }
    }
  `,
  [ViewerFields],
);

export function SignInPage() {
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [result, signIn] = useMutation(SignIn);
  const from = (location.state as { from?: string } | null)?.from ?? '/campaigns';

  if (session.viewer && !result.data) return <Navigate to={from} replace />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const answer = await signIn({ email, password });
    if (answer.data?.signIn) {
      session.signedIn(answer.data.signIn);
      navigate(from, { replace: true });
    }
  };
  const problem = problemOf(result.error);

  return (
    <AuthLayout title="Sign in">
      <form onSubmit={submit} noValidate>
        <ProblemAlert problem={problem} fields={['email', 'password']} title="Could not sign in" />
        <TextInput
          mt="sm"
          label="E-mail"
          type="email"
          autoComplete="username"
          required
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
          error={fieldProblem(problem, 'email')}
        />
        <PasswordInput
          mt="sm"
          label="Password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          error={fieldProblem(problem, 'password')}
        />
        <Button type="submit" mt="lg" fullWidth loading={result.fetching}>
          Sign in
        </Button>
      </form>
    </AuthLayout>
  );
}
