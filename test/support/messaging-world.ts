import { useApp } from './app';
import { useEnv } from './env';
import { useSmtpServer } from './providers/smtp';
import { startTwilioServer, type TwilioSink } from './providers/twilio';

/** A GraphQL answer as the messaging settings' tests read it. */
export interface GqlAnswer {
  data?: Record<string, unknown> | null;
  errors?: Array<{ message: string; extensions: { code: string; reason: string | null; fields: Record<string, string[]> | null } }>;
}

/**
 * The world of the messaging settings' tests (test/invites/messaging-settings.test.ts, test-message-language.test.ts):
 * the app, a local SMTP server and a Twilio wire-format server, both on loopback (so private receivers are allowed),
 * the SMS simulator off, and GraphQL as a bearer of a token. `restore`: more environment keys a test may change,
 * put back after the file (see useEnv). Call inside the `describe`.
 */
export function useMessagingWorld(restore: string[] = []) {
  const t = useApp();
  const sink = useSmtpServer();
  const env = useEnv({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true', SMS_SIMULATOR: 'false' }, restore);
  let twilio: TwilioSink;
  beforeAll(async () => {
    twilio = await startTwilioServer();
  });
  afterAll(async () => {
    await twilio.close();
  });
  const gql = async (token: string, query: string, variables: Record<string, unknown> = {}): Promise<GqlAnswer> =>
    (await t.http().post('/graphql').set('Authorization', `Bearer ${token}`).set('Content-Type', 'application/json').send({ query, variables })).body as GqlAnswer;
  return { t, sink, env, gql, twilio: () => twilio };
}
