// The documents of the analytics screens: the workspace's figures by day, per campaign and per
// mailbox over a range of UTC days, and one campaign's daily figures and variation statistics.
import { graphql, type ResultOf } from '../../graphql/graphql';

export const WorkspaceAnalyticsQuery = graphql(`
  query WorkspaceAnalytics($workspaceId: ID!, $startDate: String!, $endDate: String!) {
    workspace(id: $workspaceId) {
      id
      emailStats(startDate: $startDate, endDate: $endDate) {
        header {
          totalSentCount totalContactedCount totalOpenCount totalReplyCount totalPosReplyCount totalBounceCount
          openRate replyRate posReplyRate bounceRate
        }
        chart { date label totalSentCount totalOpenCount totalReplyCount totalPosReplyCount totalBounceCount }
      }
      campaignPerformance(startDate: $startDate, endDate: $endDate) {
        campaignId campaignName status sent contacted opened openRate replied replyRate positiveReplies bounced
      }
    }
  }
`);
export type WorkspaceAnalytics = NonNullable<ResultOf<typeof WorkspaceAnalyticsQuery>['workspace']>;

export const MailboxStatsQuery = graphql(`
  query MailboxStats($workspaceId: ID!, $startDate: String!, $endDate: String!, $page: Int) {
    workspace(id: $workspaceId) {
      id
      emailStatsBulk(startDate: $startDate, endDate: $endDate, includeChart: false, page: $page, limit: 100) {
        totalAccounts
        hasMore
        accounts {
          emailAccountId
          email
          header { totalSentCount totalOpenCount totalReplyCount totalPosReplyCount totalBounceCount replyRate bounceRate }
        }
      }
    }
  }
`);

export const CampaignAnalyticsQuery = graphql(`
  query CampaignAnalytics($workspaceId: ID!, $id: ID!, $startDate: String!, $endDate: String!) {
    campaign(workspaceId: $workspaceId, id: $id) {
      id
      name
      status
      openTracking
      summary { totalSentEmails contacted leadsWhoRead leadsWhoReplied positiveReplyCount bounced unsubscribed completed }
      dailyStats(startDate: $startDate, endDate: $endDate) { date sentCount openedCount repliedCount bouncedCount unsubscribedCount }
      variationStats(startDate: $startDate, endDate: $endDate) {
        step
        variations { variation name isActive isDeleted sent open reply posReply }
      }
    }
  }
`);
