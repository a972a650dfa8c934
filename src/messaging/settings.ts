/**
 * Knobs of invite delivery that the worker process reads when its activities run (so the workflow stays
 * deterministic: it only sees what the activities answered). Production uses the defaults; tests shorten time
 * by configuration, never by faking it.
 */
export interface InviteDeliverySettings {
  /** Length of one campaign "hour" (a step's `delayHours`), in ms. */
  hourMs: number;
  /**
   * A step found `sending` (claimed, no provider answer recorded) younger than this is taken to be in flight in
   * another attempt (the activity retries later); older, its attempt died after the claim: counted as sent.
   */
  inFlightGraceMs: number;
  /** Invites whose send time passed more than this long ago are moved into the campaign's next send window. */
  lateAfterMs: number;
}

const DEFAULTS: InviteDeliverySettings = {
  hourMs: 60 * 60_000,
  inFlightGraceMs: 3 * 60_000,
  lateAfterMs: 15 * 60_000,
};

let current: InviteDeliverySettings = { ...DEFAULTS };

export function configureInviteDelivery(settings: Partial<InviteDeliverySettings>): void {
  current = { ...current, ...settings };
}

export function resetInviteDelivery(): void {
  current = { ...DEFAULTS };
}

export const inviteDeliverySettings = (): InviteDeliverySettings => current;
