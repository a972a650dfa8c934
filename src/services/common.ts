import type { Transaction } from 'sequelize';
import type { Sequelize } from 'sequelize-typescript';
import { literal, Op, type WhereOptions } from 'sequelize';
import { systemClock, type Clock } from '../domain/clock';
import { DAY_MS, dayOf } from '../domain/days';
import { Validation } from '../domain/errors';
import { charCount, MAX_NAME_CHARS, MAX_PAGE_DEPTH, maxPageFor } from '../domain/limits';
import { isRestricted, isTenantOwner, restrictedLocationsSql } from '../domain/permissions';
import type { Principal } from '../domain/principal';
import { Organization } from '../models';

export interface ServiceOptions {
  transaction?: Transaction;
  clock?: Clock;
}

export interface PageArgs {
  page: number;
  perPage: number;
}

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  perPage: number;
}

export const clockOf = (opts: ServiceOptions): Clock => opts.clock ?? systemClock;

/** Refuses a page deeper than `MAX_PAGE_DEPTH` rows (422 `page`, invalid params on MCP, a validation error on GraphQL). */
export function checkPageDepth({ page, perPage }: PageArgs): void {
  const max = maxPageFor(perPage);
  if (page > max) {
    throw new Validation({ page: [`The page must not be greater than ${max} (at most ${MAX_PAGE_DEPTH} rows deep; narrow the filters to see further).`] });
  }
}

/** LIMIT and OFFSET of a page, within the maximum depth. */
export function offset(args: PageArgs): { offset: number; limit: number } {
  checkPageDepth(args);
  return { offset: (args.page - 1) * args.perPage, limit: args.perPage };
}

/** The Sequelize instance the models are bound to (raw statements of services). */
export function db(): Sequelize {
  const s = Organization.sequelize;
  if (!s) throw new Error('Database not initialised');
  return s as Sequelize;
}

/** Runs `fn` in the caller's transaction when there is one, otherwise in a new one. */
export async function inTransaction<T>(opts: ServiceOptions, fn: (t: Transaction) => Promise<T>): Promise<T> {
  if (opts.transaction) return fn(opts.transaction);
  return db().transaction((t) => fn(t));
}

export const escape = (value: string | number): string => db().escape(value);

/**
 * The tenant filter every scoped read starts with (every row carries its tenant): `{ tenantId }` of the principal, or
 * of the row a read without a principal starts from (a worker reading a run's pins knows the scan). Spread it into a
 * where. Child tables (scan pins, snapshots and results, webhook attempts, invite messages, inbound submissions,
 * organisation members, location assignments, NFC order items, idempotency keys) carry `tenant_id` for it, so their
 * reads are scoped at the source instead of through the parent alone; `organizationScoped`, `locationScoped` and
 * `scopeSql` narrow the same clause to an account and its assignments.
 */
export function tenantScoped(owner: { readonly tenantId: number }): { tenantId: number } {
  return { tenantId: owner.tenantId };
}

/**
 * Row scope of the caller as SQL, for any table carrying tenant_id, customer_id and a location column:
 * a tenant owner sees the tenant, an organisation owner their account, a team member their assigned locations; an
 * OAuth grant to some organisations narrows either to the grant's locations (a tenant owner's may span accounts).
 * Every value is one of the principal's own integers, so the fragment is safe to inline; with `bind` they become
 * parameters instead, so the statement text is the same for every caller of a role (prepared statements are
 * cached per text: inlined ids would make one per account).
 */
export function scopeSql(p: Principal, alias = '', locationColumn = 'location_id', bind?: (value: number) => string): string {
  const a = alias ? `${alias}.` : '';
  const v = (n: number | null) => (bind ? bind(n ?? -1) : String(Math.trunc(Number(n ?? -1))));
  let sql = isTenantOwner(p) ? `${a}tenant_id = ${v(p.tenantId)}` : `${a}tenant_id = ${v(p.tenantId)} AND ${a}customer_id = ${v(p.customerId)}`;
  if (isRestricted(p)) sql += ` AND ${a}${locationColumn} IN ${restrictedLocationsSql(p, v)}`;
  return sql;
}

/** The same scope as a Sequelize where clause (spread it into a where object and add the filters). */
export function locationScoped(p: Principal, locationColumn = 'location_id'): WhereOptions {
  return { [Op.and]: [literal(`(${scopeSql(p, '', locationColumn)})`)] };
}

export function organizationScoped(p: Principal): WhereOptions {
  const where: Record<string, unknown> = isTenantOwner(p) ? tenantScoped(p) : { ...tenantScoped(p), customerId: p.customerId ?? -1 };
  if (isRestricted(p)) where.id = { [Op.in]: [...p.assignedOrganizationIds, -1] };
  return where;
}

/** `Y-m-d` → midnight UTC, or null when the string is not a real calendar date (or before the year 1000). */
export function parseDate(value: string): Date | null {
  const day = dayOf(value);
  return day === null ? null : new Date(day * DAY_MS);
}

/** C0 and C1 control characters, DEL, and a lone UTF-16 surrogate (a paired one is part of one code point). */
const CONTROL_CHARACTER = /[\p{Cc}\p{Cs}]/u;

/** Line breaks and tabs: what text of several lines (a review's message) may hold of the control characters. */
const CONTROL_CHARACTER_BUT_LINES = /\p{Cs}|(?![\t\n\r])\p{Cc}/u;

/**
 * Free text as sent (not trimmed), refused with a control character or a lone UTF-16 surrogate: one line (an author,
 * a title), or with `lines` several (a message: line breaks and tabs allowed). A lone surrogate would be stored as
 * U+FFFD while the answer echoed it; a NUL or an escape sequence would reach every page, mail and export.
 */
export function plainText(value: string, field: string, opts: { lines?: boolean } = {}): string {
  if ((opts.lines ? CONTROL_CHARACTER_BUT_LINES : CONTROL_CHARACTER).test(value)) {
    const label = field.replace(/_/g, ' ');
    throw new Validation({ [field]: [opts.lines ? `The ${label} may not contain control characters other than line breaks and tabs.` : `The ${label} may not contain control characters.`] });
  }
  return value;
}

/** A name as the interface allows it: trimmed, present, one line, at most 255 characters (code points). */
export function cleanName(name: string, field = 'name'): string {
  const trimmed = name.trim();
  const label = field.replace(/_/g, ' ');
  if (!trimmed) throw new Validation({ [field]: [`The ${label} field is required.`] });
  // A name is one line of text: control characters (NUL, line breaks, escapes) and lone UTF-16 surrogates, which
  // JSON can carry, would be stored and echoed into every page, mail and export that shows it.
  if (CONTROL_CHARACTER.test(trimmed)) {
    throw new Validation({ [field]: [`The ${label} may not contain control characters.`] });
  }
  if (charCount(trimmed) > MAX_NAME_CHARS) throw new Validation({ [field]: [`The ${label} may not be greater than ${MAX_NAME_CHARS} characters.`] });
  return trimmed;
}
