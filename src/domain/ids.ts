/** A UUID in its text form, any case (no `g` flag: `test` keeps no state, so one instance is shared). */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
