/** What a Local Search Grid run needs from the outside world: map rankings at a point, and geocoding. */

export interface MapResult {
  placeId: string;
  name: string;
  /** 1-based position in the local results at that point. */
  rank: number;
}

export interface RankingProvider {
  readonly name: string;
  /** The top 20 local results for `keyword` as seen from (lat, lng). */
  searchMaps(query: { keyword: string; lat: number; lng: number; zoom?: number; languageCode?: string }): Promise<MapResult[]>;
}

export interface GeocodeResult {
  lat: number;
  lng: number;
  formattedAddress: string;
  placeId: string | null;
}

export interface Geocoder {
  /** null when the address matches nothing. */
  geocode(address: string): Promise<GeocodeResult | null>;
}

/** The provider refused the request (credentials, quota, bad task): not worth retrying. */
export class GridProviderRejected extends Error {
  constructor(
    readonly provider: string,
    readonly reason: string,
  ) {
    super(`${provider}: ${reason}`);
    this.name = 'GridProviderRejected';
  }
}

/** Network failure, 5xx or rate limiting: retry later (Retry-After in ms when the provider said). */
export class GridProviderUnavailable extends Error {
  constructor(
    readonly provider: string,
    message: string,
    readonly retryAfterMs: number | null = null,
  ) {
    super(`${provider}: ${message}`);
    this.name = 'GridProviderUnavailable';
  }
}
