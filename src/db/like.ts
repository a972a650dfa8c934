/** A `LIKE` pattern matching values that contain `term` literally (`%`, `_` and `\` in it match only themselves). */
export const containsPattern = (term: string): string => `%${term.replace(/[\\%_]/g, '\\$&')}%`;
