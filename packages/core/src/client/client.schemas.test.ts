import { describe, expect, it } from 'vitest';
import { fromZodError } from '../shared/errors';
import { CreateClientInput, UpdateClientPermissionsInput } from './client.schemas';

const WS = '65f99a0dd96fae8ab61130c0';
const WS2 = '65f99a0dd96fae8ab61130c1';
const vendorBody = {
  workspace_id: WS,
  client_email: 'Nova.Smith@Example.com',
  client_first_name: 'Nova',
  client_last_name: '',
  client_business_name: '',
  workspaces: [{ id: WS, permissions: ['CAMPAIGN_LIST'], hide_labels: ['IN_SEQUENCE'] }],
};
const fieldsOf = (input: unknown, schema = CreateClientInput) => {
  const parsed = schema.safeParse(input);
  return parsed.success ? [] : fromZodError(parsed.error).fieldErrors;
};

describe('client bodies', () => {
  it('read the vendor\'s workspaces[] grants as the same grants as client_permissions', () => {
    const vendor = CreateClientInput.parse(vendorBody);
    expect(vendor.client_email).toBe('nova.smith@example.com');
    expect(vendor.grants).toEqual({ field: 'workspaces', idKey: 'id', list: [{ workspace_id: WS, permissions: ['CAMPAIGN_LIST'], hide_labels: ['IN_SEQUENCE'] }] });
    const { workspaces: _w, ...rest } = vendorBody;
    const ours = CreateClientInput.parse({ ...rest, client_permissions: [{ workspace_id: WS, permissions: ['CAMPAIGN_LIST'], hide_labels: ['IN_SEQUENCE'] }] });
    expect(ours.grants.list).toEqual(vendor.grants.list);
    expect(ours.grants.field).toBe('client_permissions');
    // hide_labels may be left out of either shape.
    expect(CreateClientInput.parse({ ...rest, workspaces: [{ id: WS, permissions: [] }] }).grants.list).toEqual([{ workspace_id: WS, permissions: [], hide_labels: [] }]);
  });

  it('take exactly one of workspaces and client_permissions, each workspace once', () => {
    const { workspaces: _w, ...rest } = vendorBody;
    expect(fieldsOf(rest)).toEqual([{ field: 'workspaces', message: expect.stringContaining('is required') }]);
    expect(fieldsOf({ ...vendorBody, client_permissions: [] })).toEqual([{ field: 'workspaces', message: expect.stringContaining('client_permissions') }]);
    expect(fieldsOf({ ...vendorBody, workspaces: [vendorBody.workspaces[0], { id: WS, permissions: [] }] })).toEqual([{ field: 'workspaces.1.id', message: 'is granted twice' }]);
    expect(fieldsOf({ ...vendorBody, workspaces: [{ id: 'nope', permissions: [] }] }).map((f) => f.field)).toEqual(['workspaces.0.id']);
  });

  it('read notify_pos_reply_email as a comma-separated address list', () => {
    expect(CreateClientInput.parse({ ...vendorBody, notify_pos_reply_email: ' A@x.example ; b@x.example,a@x.example,' }).notify_pos_reply_email).toBe('a@x.example,b@x.example');
    expect(CreateClientInput.parse({ ...vendorBody, notify_pos_reply_email: '' }).notify_pos_reply_email).toBe('');
    expect(CreateClientInput.parse({ ...vendorBody, notify_pos_reply_email: null }).notify_pos_reply_email).toBeNull();
    expect(fieldsOf({ ...vendorBody, notify_pos_reply_email: 'a@x.example, nobody' })).toEqual([
      { field: 'notify_pos_reply_email', message: 'must be a comma-separated list of email addresses ("nobody" is not one)' },
    ]);
  });

  it('take the create body with client_id on update, names optional', () => {
    const update = UpdateClientPermissionsInput.parse({ client_id: WS2, client_last_name: 'Smith', workspaces: [{ id: WS2, permissions: ['TAG_LIST'], hide_labels: [] }] });
    expect(update).toMatchObject({ client_id: WS2, client_last_name: 'Smith', grants: { field: 'workspaces', list: [{ workspace_id: WS2, permissions: ['TAG_LIST'], hide_labels: [] }] } });
    expect(update.client_email).toBeUndefined();
    expect(fieldsOf({ client_id: WS2 }, UpdateClientPermissionsInput as never).map((f) => f.field)).toEqual(['workspaces']);
  });
});
