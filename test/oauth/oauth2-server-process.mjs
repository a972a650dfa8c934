// A real OAuth 2 authorization server on loopback (oauth2-mock-server), run as its own Node process: the
// package is ESM-only. Prints `{"url": ...}` once listening, then one JSON line per token request it answered.
/* global process */
import { OAuth2Server } from 'oauth2-mock-server';

const server = new OAuth2Server();
await server.issuer.keys.generate('RS256');
server.service.on('beforeResponse', (response, req) => {
  const body = { ...req.body };
  process.stdout.write(`${JSON.stringify({ tokenRequest: body, status: response.statusCode })}\n`);
});
await server.start(0, '127.0.0.1');
process.stdout.write(`${JSON.stringify({ url: server.issuer.url })}\n`);
const stop = async () => {
  await server.stop();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
