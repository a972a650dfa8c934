/** Limits of the interface that more than one layer needs to know. */
export const MAX_IMAGE_BYTES = 250 * 1024;
export const MAX_NAME_CHARS = 255;

/** Length in characters (code points), as the database's VARCHAR counts them: an emoji is one character. */
export const charCount = (s: string): number => [...s].length;
