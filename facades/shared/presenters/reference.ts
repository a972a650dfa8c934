import { url, z } from './zod';
import { graphql } from '../graphql';
import type { SourceFieldsFragment } from '../graphql/graphql';

/** Reference data and identity (spec: "Review source", "Country", "Current user"). */
graphql(`fragment SourceFields on ReviewSource { id name url logo available canCollectReviews deepLinkingSupported }`);
export const Source = z
  .object({
    id: z.number().int(),
    name: z.string(),
    url: url(),
    logo: url(),
    available: z.boolean(),
    can_collect_reviews: z.boolean(),
    deep_linking_supported: z.boolean(),
  })
  .openapi('ReviewSource');
export const source = (s: SourceFieldsFragment): z.infer<typeof Source> => ({
  id: s.id,
  name: s.name,
  url: s.url,
  logo: s.logo,
  available: s.available,
  can_collect_reviews: s.canCollectReviews,
  deep_linking_supported: s.deepLinkingSupported,
});

export const Country = z.object({ id: z.string().openapi({ example: 'US' }), name: z.string() }).openapi('Country');
export const country = (c: { id: string; name: string }): z.infer<typeof Country> => ({ id: c.id, name: c.name });

export const CurrentUser = z.object({ id: z.number().int(), name: z.string(), email: z.string() }).openapi('CurrentUser');
export const currentUser = (u: { id: number; name: string; email: string }): z.infer<typeof CurrentUser> => ({ id: u.id, name: u.name, email: u.email });

export const Campaign = z.object({ id: z.string().openapi({ format: 'uuid' }), name: z.string() }).openapi('Campaign');
export const campaign = (c: { id: string; name: string }): z.infer<typeof Campaign> => ({ id: c.id, name: c.name });

export const InviteAccepted = z
  .object({ id: z.string().openapi({ format: 'uuid', description: 'The contact\'s id.' }), message: z.string() })
  .openapi('InviteAccepted');
