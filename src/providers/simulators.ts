import express, { type Router } from 'express';
import { SIGN_IN_PROVIDERS, type SignInProvider } from './types';
import { SIMULATOR_PATHS } from './';
import { isSimulated, oauthSimulatorPath } from '../services/provider-connections.service';
import { oauthSimulatorRouter } from './oauth-simulator';
import { facebookGraphSimulator } from './facebook/graph.simulator';
import { googleBusinessSimulator } from './google/business.simulator';
import { GBP_PERFORMANCE_SIMULATOR_PATH } from './google/performance.client';
import { gbpPerformanceSimulator } from './google/performance.simulator';
import { smsSimulatorEnabled } from '../config';
import { TWILIO_SIMULATOR_PATH, twilioSimulator } from './twilio/simulator';

/**
 * The in-process simulators of the third parties the embedded default runs without (`npm start` with no
 * provider credentials). Each provider's simulators are mounted only while that provider runs simulated
 * (its OAuth CLIENT_ID unset); `createApp` mounts this router only when some provider does.
 */
export function simulatedProviders(env: NodeJS.ProcessEnv = process.env): SignInProvider[] {
  return SIGN_IN_PROVIDERS.filter((p) => isSimulated(p, env));
}

/** Whether any simulator is mounted (a third-party sign-in provider, or the SMS provider). */
export function anySimulator(env: NodeJS.ProcessEnv = process.env): boolean {
  return simulatedProviders(env).length > 0 || smsSimulatorEnabled(env);
}

export function simulatorsRouter(env: NodeJS.ProcessEnv = process.env): Router {
  const router = express.Router();
  for (const provider of simulatedProviders(env)) {
    router.use(oauthSimulatorPath(provider), oauthSimulatorRouter(provider));
    // The review platform APIs (businesses, reviews, replies) in the providers' wire formats, held in memory.
    if (provider === 'google') router.use(SIMULATOR_PATHS.google, googleBusinessSimulator().router);
    // Business-profile performance (daily metrics, monthly search keywords), in the Performance API's wire format.
    if (provider === 'google') router.use(GBP_PERFORMANCE_SIMULATOR_PATH, gbpPerformanceSimulator().router);
    if (provider === 'facebook') router.use(SIMULATOR_PATHS.facebook, facebookGraphSimulator().router);
  }
  // Review-request SMS of accounts without their own SMS settings, while SMS_SIMULATOR is on (see src/config.ts).
  if (smsSimulatorEnabled(env)) router.use(TWILIO_SIMULATOR_PATH, twilioSimulator().router);
  return router;
}
