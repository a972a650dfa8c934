/** Limits of the interface that more than one layer needs to know. */
export const MAX_IMAGE_BYTES = 250 * 1024;
export const MAX_NAME_CHARS = 255;
/** A private feedback's message (the service checks it; the feedback page says it in the account's language). */
export const MAX_FEEDBACK_MESSAGE_CHARS = 5000;
/** Largest body the inbound contact webhook reads (spec: Limits > Inbound body size). */
export const MAX_INBOUND_BODY_BYTES = 256 * 1024;

/** Length in characters (code points), as the database's VARCHAR counts them: an emoji is one character. */
export const charCount = (s: string): number => [...s].length;

/**
 * Deepest row a page may start at: `page` becomes an OFFSET, and a deep one makes the database read and throw away
 * every row before it. 10,000 rows is where search APIs stop too; a client that needs more narrows its filters
 * (dates, organisation, location). The deepest page is `floor(10000 / per_page)` (1,000 at the default 10).
 */
export const MAX_PAGE_DEPTH = 10_000;

export const maxPageFor = (perPage: number): number => Math.max(1, Math.floor(MAX_PAGE_DEPTH / Math.max(1, perPage)));

/** Contacts in one batch invite (`POST .../campaigns/{campaign}/invites`, GraphQL `inviteContacts`). */
export const MAX_BATCH_INVITES = 1000;
