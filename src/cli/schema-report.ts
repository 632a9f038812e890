/**
 * The readable form of a schema check's report (`coinwallet schema check` without `--json`): each breaking change
 * with the documents it breaks, each marked in use (with its requests in the window) or not, then the dangerous
 * changes, the documents broken on no listed change, and the verdict that decides the exit code.
 */
import type { AffectedDocument } from '../accounts/schema-check.ts';
import type { SchemaCheckResult } from '../accounts/schema-check-service.ts';
import { SCHEMA_CHECK_WINDOW_DAYS } from '../accounts/schema-check-service.ts';

export function formatSchemaReport(r: SchemaCheckResult, where: { file: string; against: string }): string {
  const out: string[] = [];
  const scope = r.app === null ? 'every app' : `app ${r.app}`;
  out.push(`Schema check of ${where.file}`);
  out.push(`  against the schema served by ${where.against}`);
  out.push(
    `  ${plural(r.documents, 'published document')} of ${scope}; traffic since ${new Date(r.since).toISOString().slice(0, 10)} (${SCHEMA_CHECK_WINDOW_DAYS} days)`,
  );
  out.push('');
  out.push(`Breaking changes: ${r.breaking.length}`);
  for (const c of r.breaking) {
    out.push(`  ${c.type}  ${c.description}`);
    if (c.documents.length === 0) out.push('    breaks no published document');
    for (const d of c.documents) out.push(...documentLines(d));
  }
  if (r.dangerous.length > 0) {
    out.push('', `Dangerous changes: ${r.dangerous.length} (they break no document, but may change answers)`);
    for (const c of r.dangerous) out.push(`  ${c.type}  ${c.description}`);
  }
  if (r.other.length > 0) {
    out.push('', `Documents broken on no listed change: ${r.other.length}`);
    for (const d of r.other) out.push(...documentLines(d));
  }
  if (r.alreadyInvalid.length > 0) {
    out.push(
      '',
      `Documents already invalid against the current schema (not counted): ${r.alreadyInvalid.length}`,
    );
    for (const d of r.alreadyInvalid) out.push(...documentLines(d));
  }
  const inUse = new Set(
    [...r.breaking.flatMap((c) => c.documents), ...r.other].filter((d) => d.inUse).map((d) => d.documentId),
  );
  out.push(
    '',
    r.breaksDocumentsInUse
      ? `FAIL: the proposed schema breaks ${plural(inUse.size, 'document')} in use`
      : 'PASS: no document with traffic in the last 30 days breaks',
  );
  return out.join('\n') + '\n';
}

function documentLines(d: AffectedDocument): string[] {
  const requests = d.requests === null ? 'some requests' : plural(d.requests, 'request');
  const use = d.inUse ? `in use (${requests}/${SCHEMA_CHECK_WINDOW_DAYS} d)` : 'no traffic';
  const versions = `${d.versions.length > 1 ? 'versions' : 'version'} ${d.versions.join(', ')}`;
  return [
    `    ${d.app} ${versions}  ${d.operationName ?? '(anonymous)'}  ${d.documentId}  ${use}`,
    ...d.reasons.map((m) => `      ${m}`),
  ];
}

const plural = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;
