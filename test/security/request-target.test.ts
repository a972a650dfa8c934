import net from 'node:net';
import { useServedApp } from '../support/app';

/** Sends `lines` as one raw HTTP/1.1 request and answers the status line and the body. */
function raw(origin: string, lines: string[]): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(`${lines.join('\r\n')}\r\n\r\n`));
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString('utf8')));
    socket.on('error', reject);
    socket.on('close', () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]), body: text.slice(text.indexOf('\r\n\r\n') + 4) }));
  });
}

/**
 * An absolute-form request target (`GET http://evil.example/...`, meant for proxies) is refused: oidc-provider builds its
 * endpoint URLs from the whole target (Koa's `href`), so the discovery document would name the request's host instead
 * of the one the tenant is decided by.
 */
describe('request targets', () => {
  const app = useServedApp();

  it('refuses an absolute-form target with 400 JSON, and answers the same document by its path', async () => {
    const host = new URL(app.origin).host;
    const absolute = await raw(app.origin, ['GET http://evil.example/oauth/.well-known/openid-configuration HTTP/1.1', `Host: ${host}`, 'Connection: close']);
    expect(absolute.status).toBe(400);
    expect(absolute.body).toContain('"code":"bad_request_target"');
    expect(absolute.body).not.toContain('evil.example');

    const path = await raw(app.origin, ['GET /oauth/.well-known/openid-configuration HTTP/1.1', `Host: ${host}`, 'Connection: close']);
    expect(path.status).toBe(200);
    expect(path.body).not.toContain('evil.example');
  });
});
