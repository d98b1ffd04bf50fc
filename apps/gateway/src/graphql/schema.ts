import { builder } from './builder';
import './workspace.graphql';
import './lead-label.graphql';

export const schema = builder.toSchema({ sortSchema: true });
