/**
 * The one spelling of a sign-in email: trimmed, lower case, NFC. What the MCP sign-in's failure lock counts
 * (facades/shared/rate-limit.ts) and its look-up compares exactly (src/services/mcp-oauth.service.ts), so every
 * spelling that can sign in to an account shares one budget. It is also the spelling every user's email is stored in
 * (`createUser` in src/services/admin.service.ts), so the exact look-up finds an address typed in either Unicode form;
 * migration 20261213000100 brought rows stored before that to it.
 */
export const signInEmail = (email: string): string => email.trim().toLowerCase().normalize('NFC');
