/// <reference lib="dom" />
/** Small shared pieces of the portal: status badges, times, session-ending error codes. */
import type { JSX } from 'preact';
import { GraphError } from '../../shared/graph.ts';

const STATUS_TEXT: Record<string, string> = {
  PENDING: 'Pending review',
  APPROVED: 'Approved',
  REJECTED: 'Rejected',
  REVOKED: 'Revoked',
  SUBMITTED: 'Submitted, in review',
  DELISTED: 'Delisted',
};

export function Badge(props: { status: string; testid?: string }): JSX.Element {
  return (
    <span class={`badge ${props.status.toLowerCase()}`} data-testid={props.testid} data-status={props.status}>
      {STATUS_TEXT[props.status] ?? props.status}
    </span>
  );
}

const DATE_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const TIME = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });

export const dateTime = (t: string | number): string => DATE_TIME.format(new Date(t));
export const clockTime = (t: number): string => TIME.format(new Date(t));

/** A `<time>` in the reader's time zone, ISO in `datetime`. */
export function When(props: { at: string | number | null; never?: string }): JSX.Element {
  if (props.at === null) return <span class="muted">{props.never ?? '—'}</span>;
  const d = new Date(props.at);
  return <time dateTime={d.toISOString()}>{dateTime(d.getTime())}</time>;
}

/** Errors after which the stored session is useless: sign in again. */
export const SESSION_CODES = new Set(['AUTH_REQUIRED', 'INVALID_SESSION', 'SESSION_EXPIRED']);

export const isSessionLost = (e: unknown): boolean => e instanceof GraphError && SESSION_CODES.has(e.code);

/** An error as one line for the page: the API's code and its contract message. */
export function errorText(e: unknown): string {
  if (e instanceof GraphError) return e.code === 'ERROR' ? e.message : `${e.message} (${e.code})`;
  return e instanceof Error ? e.message : String(e);
}
