/**
 * The one spelling of a sign-in email: trimmed, lower case, NFC. What the MCP sign-in's failure lock counts
 * (facades/shared/rate-limit.ts) and its look-up compares exactly (src/services/mcp-oauth.service.ts), so every
 * spelling that can sign in to an account shares one budget.
 */
export const signInEmail = (email: string): string => email.trim().toLowerCase().normalize('NFC');
