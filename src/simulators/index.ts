import express, { type Router } from 'express';
import { SIGN_IN_PROVIDERS, type SignInProvider } from '../providers/types';
import { SIMULATOR_PATHS } from '../providers';
import { isSimulated, oauthSimulatorPath } from '../services/provider-connections.service';
import { oauthSimulatorRouter } from './oauth';
import { facebookGraphSimulator } from './facebook-graph';
import { googleBusinessSimulator } from './google-business';

/**
 * The in-process simulators of the third parties the embedded default runs without (`npm start` with no
 * provider credentials). Each provider's simulators are mounted only while that provider runs simulated
 * (its OAuth CLIENT_ID unset); `createApp` mounts this router only when some provider does.
 */
export function simulatedProviders(env: NodeJS.ProcessEnv = process.env): SignInProvider[] {
  return SIGN_IN_PROVIDERS.filter((p) => isSimulated(p, env));
}

export function simulatorsRouter(env: NodeJS.ProcessEnv = process.env): Router {
  const router = express.Router();
  for (const provider of simulatedProviders(env)) {
    router.use(oauthSimulatorPath(provider), oauthSimulatorRouter(provider));
    // The review platform APIs (businesses, reviews, replies) in the providers' wire formats, held in memory.
    if (provider === 'google') router.use(SIMULATOR_PATHS.google, googleBusinessSimulator().router);
    if (provider === 'facebook') router.use(SIMULATOR_PATHS.facebook, facebookGraphSimulator().router);
  }
  return router;
}
