/**
 * The one error table. Services throw these; the GraphQL layer carries `code`, `reason` and `fields`
 * in `extensions`; each facade maps `code` with one exhaustive switch.
 */
export type ErrorCode =
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'VALIDATION'
  | 'PLAN_LIMIT'
  | 'CONFLICT'
  | 'UPSTREAM'
  | 'RATE_LIMITED';

export type FieldErrors = Record<string, string[]>;

export abstract class DomainError extends Error {
  abstract readonly code: ErrorCode;
  /** Machine-readable reason named by the spec (`location_access_denied`, `last_location`, ...). */
  readonly reason?: string;
  readonly fields?: FieldErrors;

  constructor(message: string, reason?: string, fields?: FieldErrors) {
    super(message);
    this.name = new.target.name;
    this.reason = reason;
    this.fields = fields;
  }
}

export class Unauthenticated extends DomainError {
  readonly code = 'UNAUTHENTICATED' as const;
  constructor(message = 'Unauthenticated.') {
    super(message);
  }
}

export class Forbidden extends DomainError {
  readonly code = 'FORBIDDEN' as const;
  constructor(message = 'This action is unauthorized.', reason?: string) {
    super(message, reason);
  }
}

export class NotFound extends DomainError {
  readonly code = 'NOT_FOUND' as const;
  constructor(what = 'Resource') {
    super(`${what} not found.`);
  }
}

export class Validation extends DomainError {
  readonly code = 'VALIDATION' as const;
  constructor(fields: FieldErrors, reason?: string, message?: string) {
    super(message ?? firstMessage(fields), reason, fields);
  }
}

export class PlanLimit extends DomainError {
  readonly code = 'PLAN_LIMIT' as const;
  constructor(message: string, reason = 'upgrade_required') {
    super(message, reason);
  }
}

export class Conflict extends DomainError {
  readonly code = 'CONFLICT' as const;
  constructor(message: string, reason?: string) {
    super(message, reason);
  }
}

export class Upstream extends DomainError {
  readonly code = 'UPSTREAM' as const;
  constructor(message: string, reason?: string) {
    super(message, reason);
  }
}

/** Why a connect link cannot be used (any more): not there, or used, expired or revoked. */
export type LinkUnavailableStatus = 'unknown' | 'used' | 'expired' | 'revoked';

/**
 * A connect link that cannot be used (any more): NOT_FOUND, reason `link_<status>`. Its page explains why with 404
 * (unknown) or 410 (the others).
 */
export class LinkUnavailable extends DomainError {
  readonly code = 'NOT_FOUND' as const;
  constructor(readonly status: LinkUnavailableStatus) {
    super(`Connect link ${status}`, `link_${status}`);
  }
}

/** A step of a connect link that needs the sign-in first (its page sends the customer back to the start). */
export class SignInRequired extends DomainError {
  readonly code = 'FORBIDDEN' as const;
  constructor() {
    super('Sign in first.', 'sign_in_required');
  }
}

/** How a provider sign-in can fail: the reasons of SignInFailed. */
export const SIGN_IN_FAILURES = ['access_denied', 'state_mismatch', 'provider_error', 'exchange_failed'] as const;
export type SignInFailure = (typeof SIGN_IN_FAILURES)[number];

/** A provider sign-in that did not complete (cancelled, refused, a foreign or reused answer): FORBIDDEN, the reason says why. */
export class SignInFailed extends DomainError {
  readonly code = 'FORBIDDEN' as const;
  declare readonly reason: SignInFailure;
  constructor(message: string, reason: SignInFailure) {
    super(message, reason);
  }
}

/** A business rule with a spec code on a 422 that is not about one field (`last_location`). */
export function ruleViolation(message: string, reason: string): Validation {
  return new Validation({}, reason, message);
}

function firstMessage(fields: FieldErrors): string {
  const all = Object.values(fields).flat();
  if (all.length === 0) return 'The given data was invalid.';
  const extra = all.length - 1;
  return extra > 0 ? `${all[0]} (and ${extra} more error${extra > 1 ? 's' : ''})` : all[0];
}

/** The REST status of each code; MCP codes join this table in the MCP issue. */
export function restStatus(code: ErrorCode): number {
  switch (code) {
    case 'UNAUTHENTICATED':
      return 401;
    case 'FORBIDDEN':
      return 403;
    case 'NOT_FOUND':
      return 404;
    case 'VALIDATION':
      return 422;
    case 'PLAN_LIMIT':
      return 402;
    case 'CONFLICT':
      return 409;
    case 'UPSTREAM':
      return 502;
    case 'RATE_LIMITED':
      return 429;
  }
}
