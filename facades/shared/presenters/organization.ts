import { timestamp, url, z } from './zod';
import { graphql } from '../graphql';
import type { LocationFieldsFragment, OrganizationFieldsFragment } from '../graphql/graphql';

/** Location and Organisation (spec: "Location", "Organisation"); the organisation carries its locations. */
graphql(`fragment LocationFields on Location { id organizationId name createdAt updatedAt }`);

export const Location = z
  .object({ id: z.number().int(), organization_id: z.number().int(), name: z.string(), created_at: timestamp(), updated_at: timestamp() })
  .openapi('Location');

export const location = (l: LocationFieldsFragment): z.infer<typeof Location> => ({
  id: l.id,
  organization_id: l.organizationId,
  name: l.name,
  created_at: l.createdAt,
  updated_at: l.updatedAt,
});

graphql(`fragment OrganizationFields on Organization { id name defaultLocationId logo createdAt updatedAt locations { ...LocationFields } }`);

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

export const organization = (o: OrganizationFieldsFragment): z.infer<typeof Organization> => ({
  id: o.id,
  name: o.name,
  default_location_id: o.defaultLocationId,
  logo: o.logo,
  locations: o.locations.map(location),
  created_at: o.createdAt,
  updated_at: o.updatedAt,
});
