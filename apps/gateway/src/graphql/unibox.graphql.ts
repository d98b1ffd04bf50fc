// GraphQL fields of the unibox (unified inbox) operations: one e-mail type, the rows of unibox.emails,
// for the inbox, the "others" folder, a lead's or a thread's conversation and what a send wrote.
import { operations } from '@outreach/core';
import { connectionField } from './connection';
import { entity, lookupField, operationField, run, typeOf } from './operation-field';
import { Campaign } from './campaign.graphql';
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
/** A conversation; `lead` and `campaign` are the objects (the address is `leadEmail`), `lastMessage` its latest e-mail. */
const UniboxThread = entity(typeOf(ops.threads, 'UniboxThread', { ...naming, names: { ...naming.names, thread_id: 'id', lead: 'leadEmail' } }), {
  node: true,
  load: async (ctx, workspaceId, id) => (await run(ctx, ops.threads, { workspace_id: workspaceId, thread_id: id, limit: 1 })).data[0],
});

connectionField('uniboxEmails', ops.emails, { type: 'UniboxEmail', ...naming });
connectionField('uniboxOtherEmails', ops.otherEmails, { type: 'UniboxEmail', ...naming });
connectionField('uniboxThreads', ops.threads, { type: 'UniboxThread', ...naming });
connectionField('emails', ops.emails, { on: UniboxThread, bind: { thread_id: (t) => t.thread_id }, type: 'UniboxEmail', ...naming, description: "The thread's e-mails in the inbox, newest first" });
lookupField('lead', Lead, 'The lead of the conversation; null when none', UniboxThread, (t: { lead_id: string }) => t.lead_id);
lookupField('campaign', Campaign, 'The campaign of the conversation; null when none', UniboxThread, (t: { campaign_id: string }) => t.campaign_id);
connectionField('emails', ops.emails, { on: Lead, bind: { lead: (l) => l.email, campaign_id: (l) => l.campaign_id }, type: 'UniboxEmail', ...naming, description: "The lead's conversation in the unified inbox, newest first" });
operationField('campaignEmails', ops.campaignEmails, { ...naming, type: 'CampaignEmailPage' });
operationField('uniboxUnreadCount', ops.unreadCount, { result: 'count' });
operationField('markUniboxThreadRead', ops.markThreadRead);
operationField('markUniboxThreadUnread', ops.markThreadUnread);
operationField('deleteUniboxThread', ops.deleteThread);
operationField('deleteUniboxEmail', ops.deleteEmail);
operationField('replyToUniboxEmail', ops.reply, { ...naming, type: 'UniboxSendResult' });
operationField('forwardUniboxEmail', ops.forward, { ...naming, type: 'UniboxSendResult' });
operationField('composeUniboxEmail', ops.compose, { ...naming, type: 'UniboxSendResult' });
operationField('sendUniboxEmail', ops.send, { ...naming, type: 'UniboxSendResult' });
operationField('saveUniboxDraft', ops.saveDraft, { ...naming, type: 'UniboxSendResult' });
lookupField('email', UniboxEmail, 'The e-mail written, as the inbox lists it; null for a draft (drafts are not listed)', SendResult, (out: { thread_id: string; id: string }) => out.thread_id && `${out.thread_id}/${out.id}`);
