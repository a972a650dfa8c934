import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

/** 127.0.0.0/8, ::1 and their IPv4-mapped form. */
export function isLoopbackAddress(address: string | undefined | null): boolean {
  if (!address) return false;
  const a = address.toLowerCase().replace(/^::ffff:/, '');
  if (isIP(a) === 4) return a.startsWith('127.');
  return a === '::1' || a === '0:0:0:0:0:0:0:1';
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
