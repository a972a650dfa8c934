import { createHash, timingSafeEqual } from 'node:crypto';
import ipaddr from 'ipaddr.js';

/** 127.0.0.0/8, ::1 and their IPv4-mapped form, classified by ipaddr.js (as src/net/address-policy.ts does). */
export function isLoopbackAddress(address: string | undefined | null): boolean {
  // Socket addresses only: four-part decimal IPv4 or IPv6, no zone index.
  if (!address || address.includes('%') || !(ipaddr.IPv6.isValid(address) || ipaddr.IPv4.isValidFourPartDecimal(address))) return false;
  const parsed = ipaddr.parse(address);
  const ip = parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress() ? (parsed as ipaddr.IPv6).toIPv4Address() : parsed;
  return ip.range() === 'loopback';
}

/**
 * Whether the caller is on this machine. The socket's peer must be loopback; behind a proxy (TRUST_PROXY=true) a
 * local proxy forwards public clients from 127.0.0.1 too, so the forwarded client address (`req.ip`) must be
 * loopback as well.
 */
export function isLoopbackClient(input: { remoteAddress: string | undefined; ip: string | undefined; trustProxy: boolean }): boolean {
  if (!isLoopbackAddress(input.remoteAddress)) return false;
  return input.trustProxy ? isLoopbackAddress(input.ip) : true;
}

/** Constant-time comparison of `Authorization: Bearer <token>` with the configured token. */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!m) return false;
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(m[1]), digest(token));
}
