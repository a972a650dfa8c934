import { timingSafeEqual } from 'node:crypto';
import { mac, macsOf } from './secrets';

/**
 * The signed host in a connect sign-in's OAuth state (`signInState`, src/services/connect-links.service.ts): when the
 * agency's link base is on another host than PUBLIC_URL, the state is `<random>.<host>.<MAC, 22 characters>` and the
 * callback on PUBLIC_URL relays the browser to that host, never to one the platform did not sign. The service makes the
 * state; the connect page (facades/pages/connect.tsx) and the simulated sign-in page (src/providers/oauth-simulator.ts)
 * read it back here.
 */
const CALLBACK_RELAY_PURPOSE = 'connect-callback-relay';
export const RELAY_MAC_CHARS = 22;
const HOSTNAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;
/** A MAC as written: base64url, so one character is one byte (a state is read from a URL: anything may come). */
const MAC_TEXT = new RegExp(`^[A-Za-z0-9_-]{${RELAY_MAC_CHARS}}$`);

/** The MAC that ends a state naming a host, of `<random>.<host>`. */
export const relayTagOf = (tagged: string): string => mac(CALLBACK_RELAY_PURPOSE, tagged).slice(0, RELAY_MAC_CHARS);

const same = (a: string, b: string): boolean => {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
};

/** The host a state names, when the platform signed it (under any key of the ring); null otherwise. */
export function relayHostOf(state: string): string | null {
  const first = state.indexOf('.');
  const last = state.lastIndexOf('.');
  if (first < 0 || last <= first) return null;
  const tagged = state.slice(0, last);
  const sig = state.slice(last + 1);
  const host = state.slice(first + 1, last);
  if (!MAC_TEXT.test(sig) || !macsOf(CALLBACK_RELAY_PURPOSE, tagged).some((m) => same(sig, m.slice(0, RELAY_MAC_CHARS)))) return null;
  return HOSTNAME.test(host) ? host : null;
}
