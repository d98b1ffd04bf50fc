// GraphQL fields of the unibox (unified inbox) operations: one e-mail type, the rows of
// unibox.emails, for the inbox, the "others" folder, a lead's conversation and what a send wrote.
import { operations } from '@outreach/core';
import { connectionField } from './connection';
import { entity, operationField, referenceField, run, typeOf } from './operation-field';
import { Lead } from './lead.graphql';

const ops = operations.unibox;
const naming = {
  names: { from_address_json: 'from', to_address_json: 'to', cc_address_json: 'cc', bcc_address_json: 'bcc', camp_id: 'campaignId', parent_camp_id: 'parentCampaignId', data: 'emails' },
  types: { from_address_json: 'UniboxAddress', attachments: 'UniboxAttachment', body: 'UniboxEmailBody', data: 'CampaignEmail' },
};

/** Read back as `<thread id>/<id>` through the thread's listing; drafts are not listed (null). */
const UniboxEmail = entity(typeOf(ops.emails, 'UniboxEmail', naming), {
  load: async (ctx, workspaceId, key) => {
    const [threadId, id] = key.split('/');
    const page = await run(ctx, ops.emails, { workspace_id: workspaceId, thread_id: threadId, limit: 100 });
    return page.data.find((e: { id: string }) => e.id === id);
  },
});
const SendResult = { ref: typeOf(ops.reply, 'UniboxSendResult') };

connectionField('uniboxEmails', ops.emails, { type: 'UniboxEmail', ...naming });
connectionField('uniboxOtherEmails', ops.otherEmails, { type: 'UniboxEmail', ...naming });
connectionField('emails', ops.emails, { on: Lead, bind: { lead: (l) => l.email, campaign_id: (l) => l.campaign_id }, type: 'UniboxEmail', ...naming, description: "The lead's conversation in the unified inbox, newest first" });
operationField('campaignEmails', ops.campaignEmails, { ...naming, type: 'CampaignEmailPage' });
operationField('uniboxUnreadCount', ops.unreadCount, { result: 'count' });
operationField('markUniboxThreadRead', ops.markThreadRead);
operationField('deleteUniboxThread', ops.deleteThread);
operationField('deleteUniboxEmail', ops.deleteEmail);
operationField('replyToUniboxEmail', ops.reply, { ...naming, type: 'UniboxSendResult' });
operationField('forwardUniboxEmail', ops.forward, { ...naming, type: 'UniboxSendResult' });
operationField('composeUniboxEmail', ops.compose, { ...naming, type: 'UniboxSendResult' });
operationField('sendUniboxEmail', ops.send, { ...naming, type: 'UniboxSendResult' });
operationField('saveUniboxDraft', ops.saveDraft, { ...naming, type: 'UniboxSendResult' });
referenceField(SendResult, 'email', UniboxEmail, (out: { thread_id: string; id: string }) => out.thread_id && `${out.thread_id}/${out.id}`, 'The e-mail written, as the inbox lists it; null for a draft (drafts are not listed)');
