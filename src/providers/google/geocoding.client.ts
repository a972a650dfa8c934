import { GridProviderRejected, GridProviderUnavailable, type GeocodeResult, type Geocoder } from '../ranking/types';
import { AnswerTooLarge, describeBytes, readBoundedText } from '../../net/bounded-read';
import { operatorFetch } from '../../net/guarded-fetch';
import { PROVIDER_ANSWER_MAX_BYTES } from '../http';

/** Google's Geocoding API: `GET /maps/api/geocode/json?address=..&key=..`; the outcome is in `status`. */
export interface GoogleGeocoderOptions {
  apiKey: string;
  baseUrl?: string;
  timeoutMs?: number;
}

export const GOOGLE_MAPS_URL = 'https://maps.googleapis.com';

interface GeocodeResponse {
  status?: string;
  error_message?: string;
  results?: Array<{ formatted_address?: string; place_id?: string; geometry?: { location?: { lat?: number; lng?: number } } }>;
}

export class GoogleGeocoder implements Geocoder {
  private readonly baseUrl: string;

  constructor(private readonly opts: GoogleGeocoderOptions) {
    this.baseUrl = (opts.baseUrl ?? GOOGLE_MAPS_URL).replace(/\/$/, '');
  }

  async geocode(address: string): Promise<GeocodeResult | null> {
    const url = `${this.baseUrl}/maps/api/geocode/json?${new URLSearchParams({ address, key: this.opts.apiKey })}`;
    let res: Response;
    try {
      res = await operatorFetch(url, { signal: AbortSignal.timeout(this.opts.timeoutMs ?? 15_000) });
    } catch (e) {
      throw new GridProviderUnavailable('google-geocoding', `request failed: ${(e as Error).message}`);
    }
    if (res.status >= 500 || res.status === 429) throw new GridProviderUnavailable('google-geocoding', `HTTP ${res.status}`);
    let body: GeocodeResponse;
    try {
      body = JSON.parse(await readBoundedText(res, PROVIDER_ANSWER_MAX_BYTES)) as GeocodeResponse;
    } catch (e) {
      const why = e instanceof AnswerTooLarge ? `an answer over ${describeBytes(PROVIDER_ANSWER_MAX_BYTES)}, not read` : 'unreadable answer';
      throw new GridProviderUnavailable('google-geocoding', `HTTP ${res.status}: ${why}`);
    }
    switch (body.status) {
      case 'OK': {
        const first = body.results?.[0];
        const loc = first?.geometry?.location;
        if (!first || loc?.lat == null || loc.lng == null) return null;
        return { lat: loc.lat, lng: loc.lng, formattedAddress: first.formatted_address ?? address, placeId: first.place_id ?? null };
      }
      case 'ZERO_RESULTS':
        return null;
      case 'OVER_QUERY_LIMIT':
      case 'UNKNOWN_ERROR':
        throw new GridProviderUnavailable('google-geocoding', body.error_message ?? body.status);
      default:
        throw new GridProviderRejected('google-geocoding', body.error_message ?? body.status ?? `HTTP ${res.status}`);
    }
  }
}
