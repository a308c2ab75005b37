import { join } from 'node:path';

/** `proto/` at the repository root is the single source of every service definition. */
export const PROTO_ROOT = join(__dirname, '..', '..', '..', 'proto');
