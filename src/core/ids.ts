/** Ids the stores hand out: UUIDs (PostgreSQL `uuid`, printed lowercase). */
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `s` is a UUID in either case (PostgreSQL reads both; a store lookup lowercases it first). */
export const isUuid = (s: string): boolean => UUID_RE.test(s);

/** Whether `s` is a UUID as the stores print it (lowercase): ids that are matched as text. */
export const isLowercaseUuid = (s: string): boolean => UUID_RE.test(s) && s === s.toLowerCase();
