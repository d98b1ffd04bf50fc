// The campaigns list's query: in the app's first chunk, so the list can be read while the
// screen's own code still loads (App.tsx, SCREENS).
import type { Client } from 'urql';
import { graphql, type VariablesOf } from '../../graphql/graphql';

export const CampaignsQuery = graphql(`
  query Campaigns($workspaceId: ID!, $status: CampaignStatus, $name: String, $first: Int) {
    workspace(id: $workspaceId) {
      id
      campaigns(first: $first, status: $status, name: $name, type: parent, sort: created_at, direction: desc) {
        totalCount
        pageInfo { hasNextPage }
        edges {
          node { id name status leadCount emailSentToday sentCount repliedCount openRate }
        }
      }
    }
  }
`);

/** Campaigns shown at first, and added by "Show more". */
export const PAGE = 50;

export function campaignsVariables(workspaceId: string, options: { status?: VariablesOf<typeof CampaignsQuery>['status']; name?: string; first?: number } = {}): VariablesOf<typeof CampaignsQuery> {
  return { workspaceId, status: options.status ?? null, name: options.name || null, first: options.first ?? PAGE };
}

const prefetched = new Map<string, number>();

/** Reads the first page into the client's cache, where the screen finds it. */
export function prefetchCampaigns(client: Client, workspaceId: string): Promise<unknown> {
  prefetched.set(workspaceId, Date.now());
  return client.query(CampaignsQuery, campaignsVariables(workspaceId)).toPromise();
}

/**
 * How the screen reads its first page: from the cache alone (or the read still on its way) when
 * `prefetchCampaigns` read it in the last few seconds (the visit's first screen), else from the
 * cache and then the network.
 */
export function firstReadPolicy(workspaceId: string, now = Date.now()): 'cache-first' | 'cache-and-network' {
  // Not forgotten once asked: a screen that suspends (its code loading) renders again from scratch.
  const at = prefetched.get(workspaceId);
  return at !== undefined && now - at < 5_000 ? 'cache-first' : 'cache-and-network';
}
