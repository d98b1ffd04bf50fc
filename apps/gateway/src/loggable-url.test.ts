import { describe, expect, it } from 'vitest';
import { loggableUrl } from './loggable-url';

describe('loggableUrl', () => {
  it('redacts every secret query parameter, whatever its case, and keeps the rest', () => {
    const names = ['api_key', 'apikey', 'key', 'password', 'token', 'access_token', 'refresh_token', 'secret', 'code', 'state', 'signature', 'variables', 'input'];
    for (const name of names) {
      for (const spelled of [name, name.toUpperCase()]) {
        expect(loggableUrl(`/api/v1/x?limit=10&${spelled}=s3cret&skip=2`)).toBe(`/api/v1/x?limit=10&${spelled}=[redacted]&skip=2`);
      }
    }
  });

  it('leaves URLs without secrets alone', () => {
    expect(loggableUrl('/api/v1/campaigns?workspace_id=abc&limit=10')).toBe('/api/v1/campaigns?workspace_id=abc&limit=10');
    expect(loggableUrl('/api/v1/campaigns')).toBe('/api/v1/campaigns');
    expect(loggableUrl('/api/v1/campaigns?')).toBe('/api/v1/campaigns?');
    expect(loggableUrl('/x?keyword=a&monkey=b&flag')).toBe('/x?keyword=a&monkey=b&flag');
  });

  it('redacts repeated, encoded and nested names', () => {
    expect(loggableUrl('/x?api_key=a&api_key=b')).toBe('/x?api_key=[redacted]&api_key=[redacted]');
    expect(loggableUrl('/x?api%5Fkey=a')).toBe('/x?api%5Fkey=[redacted]');
    expect(loggableUrl('/x?user%5Bpassword%5D=a&user[name]=n')).toBe('/x?user%5Bpassword%5D=[redacted]&user[name]=n');
    expect(loggableUrl('/x?api_key[]=a')).toBe('/x?api_key[]=[redacted]');
    expect(loggableUrl('/x?%E0%A4%A=1&token=t')).toBe('/x?%E0%A4%A=1&token=[redacted]');
  });

  it('keeps a GraphQL document but not its variables, and no tRPC input', () => {
    const query = encodeURIComponent('query($p: String!) { workspaces { id } }');
    const variables = encodeURIComponent(JSON.stringify({ p: 'hunter2' }));
    expect(loggableUrl(`/graphql?query=${query}&variables=${variables}`)).toBe(`/graphql?query=${query}&variables=[redacted]`);
    expect(loggableUrl(`/trpc/workspace.get?input=${variables}`)).toBe('/trpc/workspace.get?input=[redacted]');
    expect(loggableUrl(`/trpc/a,b?batch=1&input=${variables}`)).toBe('/trpc/a,b?batch=1&input=[redacted]');
  });

  it('takes the token out of tracking and unsubscribe links', () => {
    expect(loggableUrl('/t/o/abc.def.gif')).toBe('/t/o/[redacted]');
    expect(loggableUrl('/t/u/abc.def?x=1')).toBe('/t/u/[redacted]?x=1');
  });
});
