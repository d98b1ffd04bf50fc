export * from './oauth.rules';
export * from './oauth-client.service';
export * from './oauth-settings';
