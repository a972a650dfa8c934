import { charCount } from './limits';

/**
 * The one spelling of a sign-in email: trimmed, lower case, NFC. What the MCP sign-in's failure lock counts
 * (facades/shared/rate-limit.ts) and its look-up compares exactly (src/services/mcp-oauth.service.ts), so every
 * spelling that can sign in to an account shares one budget. It is also the spelling every user's email is stored in
 * (`createUser` in src/services/admin.service.ts), so the exact look-up finds an address typed in either Unicode form;
 * migration 20261213000100 brought rows stored before that to it.
 */
export const signInEmail = (email: string): string => email.trim().toLowerCase().normalize('NFC');

/** The longest email address an account takes, in characters: the `email` columns are VARCHAR(255). */
export const MAX_EMAIL_CHARS = 255;

/** `local@domain.tld` with no white space and one `@`: matched only once the length is known to be short. */
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Whether `email` is an address an account takes: at most MAX_EMAIL_CHARS characters, then the shape. The length comes
 * first: the pattern's backtracking grows with the square of the length, so an 80 KB value held the event loop 5 s and
 * a 200 KB one 44 s before the length was looked at. (A string of more than twice the limit in UTF-16 units cannot be
 * short enough in characters: no need to count them.)
 */
export function isAccountEmail(email: string): boolean {
  if (email.length > 2 * MAX_EMAIL_CHARS || charCount(email) > MAX_EMAIL_CHARS) return false;
  return EMAIL_SHAPE.test(email);
}
