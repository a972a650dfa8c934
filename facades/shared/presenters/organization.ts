import { timestamp, url, z } from './zod';

/** Location and Organisation (spec: "Location", "Organisation"); the organisation carries its locations. */
export const LOCATION_FIELDS = 'id organizationId name createdAt updatedAt';

export interface LocationData {
  id: number;
  organizationId: number;
  name: string;
  createdAt: string;
  updatedAt: string;
}

export const Location = z
  .object({ id: z.number().int(), organization_id: z.number().int(), name: z.string(), created_at: timestamp(), updated_at: timestamp() })
  .openapi('Location');

export const location = (l: LocationData): z.infer<typeof Location> => ({
  id: l.id,
  organization_id: l.organizationId,
  name: l.name,
  created_at: l.createdAt,
  updated_at: l.updatedAt,
});

export const ORGANIZATION_FIELDS = `id name defaultLocationId logo createdAt updatedAt locations { ${LOCATION_FIELDS} }`;

export interface OrganizationData {
  id: number;
  name: string;
  defaultLocationId: number | null;
  logo: string | null;
  createdAt: string;
  updatedAt: string;
  locations: LocationData[];
}

export const Organization = z
  .object({
    id: z.number().int(),
    name: z.string(),
    default_location_id: z.number().int().nullable(),
    logo: url().nullable(),
    locations: z.array(Location),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .openapi('Organization');

export const organization = (o: OrganizationData): z.infer<typeof Organization> => ({
  id: o.id,
  name: o.name,
  default_location_id: o.defaultLocationId,
  logo: o.logo,
  locations: o.locations.map(location),
  created_at: o.createdAt,
  updated_at: o.updatedAt,
});
