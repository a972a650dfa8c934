import { createHash } from 'node:crypto';

/** What `api_tokens.token_hash` holds for a bearer secret: its SHA-256, hex. The secret itself is never stored. */
export const hashToken = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');
