// The product's version: the root package.json's, shown by /healthz and `cli --version`.
import { readFileSync } from 'node:fs';

export const PRODUCT_VERSION: string = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
