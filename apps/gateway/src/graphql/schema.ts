import { builder } from './builder';
import './workspace.graphql';
import './lead-label.graphql';
import './campaign.graphql';
import './unibox.graphql';
import './lead.graphql';
import './dfy.graphql';
import './placement.graphql';
import './vitals.graphql';

export const schema = builder.toSchema({ sortSchema: true });
