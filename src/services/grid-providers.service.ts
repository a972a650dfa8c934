import { decryptSecret, encryptSecret } from '../crypto/secrets';
import { ruleViolation, Validation } from '../domain/errors';
import { charCount } from '../domain/limits';
import { DataForSeoClient } from '../providers/ranking/dataforseo.client';
import { GoogleGeocoder } from '../providers/google/geocoding.client';
import { SimulatedMarket } from '../providers/ranking/simulator';
import type { Geocoder, RankingProvider } from '../providers/ranking/types';
import { GridProviderSetting } from '../models';
import { GRID_PROVIDER_MODES, type GridProviderMode } from '../models/grid-provider-setting.model';
import { clockOf, type ServiceOptions } from './common';

/**
 * Per-tenant Local Search Grid providers (`grid_provider_settings`). `simulator`: the deterministic simulated market
 * for ranking and geocoding. `live`: DataForSEO (login + password) and Google Geocoding (API key), secrets stored
 * encrypted. No row: not configured (422 `provider_not_configured` on create and run).
 */
export interface GridProviders {
  mode: GridProviderMode;
  ranking: RankingProvider;
  geocoder: Geocoder;
}

export interface ConfigureGridProvidersInput {
  tenantId: number;
  mode: string;
  dataforseoLogin?: string | null;
  dataforseoPassword?: string | null;
  googleMapsKey?: string | null;
  dataforseoBaseUrl?: string | null;
  googleMapsBaseUrl?: string | null;
}

const market = new SimulatedMarket();

const isUrl = (v: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(v).protocol);
  } catch {
    return false;
  }
};

/** Sets (replaces) the tenant's providers: the CLI `grid:configure` and the demo seed. */
export async function configureGridProviders(input: ConfigureGridProvidersInput, opts: ServiceOptions = {}): Promise<GridProviderSetting> {
  if (!(GRID_PROVIDER_MODES as readonly string[]).includes(input.mode)) {
    throw new Validation({ mode: [`The mode must be one of ${GRID_PROVIDER_MODES.join(', ')}.`] });
  }
  const fields: Record<string, string[]> = {};
  if (input.mode === 'live') {
    if (!input.dataforseoLogin) fields.dataforseo_login = ['The DataForSEO login is required in live mode.'];
    if (!input.dataforseoPassword) fields.dataforseo_password = ['The DataForSEO password is required in live mode.'];
    if (!input.googleMapsKey) fields.google_maps_key = ['The Google Maps API key is required in live mode.'];
  }
  if (input.dataforseoLogin && charCount(input.dataforseoLogin) > 255) fields.dataforseo_login = ['The DataForSEO login may not be greater than 255 characters.'];
  for (const [key, v] of [['dataforseo_base_url', input.dataforseoBaseUrl], ['google_maps_base_url', input.googleMapsBaseUrl]] as const) {
    if (v && !isUrl(v)) fields[key] = ['Must be an http(s) URL.'];
    else if (v && v.length > 500) fields[key] = ['The URL may not be greater than 500 characters.'];
  }
  if (Object.keys(fields).length) throw new Validation(fields);
  const now = clockOf(opts).now();
  const values = {
    tenantId: input.tenantId,
    mode: input.mode as GridProviderMode,
    dataforseoLogin: input.dataforseoLogin ?? null,
    dataforseoPassword: input.dataforseoPassword ? encryptSecret(input.dataforseoPassword) : null,
    googleMapsKey: input.googleMapsKey ? encryptSecret(input.googleMapsKey) : null,
    dataforseoBaseUrl: input.dataforseoBaseUrl ?? null,
    googleMapsBaseUrl: input.googleMapsBaseUrl ?? null,
    updatedAt: now,
  };
  const existing = await GridProviderSetting.findByPk(input.tenantId, { transaction: opts.transaction });
  if (existing) return existing.update(values, { transaction: opts.transaction });
  return GridProviderSetting.create({ ...values, createdAt: now }, { transaction: opts.transaction });
}

export function providersOf(setting: GridProviderSetting): GridProviders {
  if (setting.mode === 'simulator') return { mode: 'simulator', ranking: market, geocoder: market };
  return {
    mode: 'live',
    ranking: new DataForSeoClient({
      login: setting.dataforseoLogin ?? '',
      password: decryptSecret(setting.dataforseoPassword ?? ''),
      baseUrl: setting.dataforseoBaseUrl ?? undefined,
    }),
    geocoder: new GoogleGeocoder({ apiKey: decryptSecret(setting.googleMapsKey ?? ''), baseUrl: setting.googleMapsBaseUrl ?? undefined }),
  };
}

/** The tenant's providers, or null when none are configured. */
export async function gridProvidersFor(tenantId: number, opts: ServiceOptions = {}): Promise<GridProviders | null> {
  const setting = await GridProviderSetting.findByPk(tenantId, { transaction: opts.transaction });
  return setting ? providersOf(setting) : null;
}

export async function requireGridProviders(tenantId: number, opts: ServiceOptions = {}): Promise<GridProviders> {
  const providers = await gridProvidersFor(tenantId, opts);
  if (!providers) {
    throw ruleViolation('Ranking-data and maps credentials are not configured for this account.', 'provider_not_configured');
  }
  return providers;
}
