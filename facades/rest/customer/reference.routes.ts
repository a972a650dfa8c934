import { route } from '../route';

interface SourceData {
  id: number;
  name: string;
  url: string;
  logo: string;
  available: boolean;
  canCollectReviews: boolean;
  deepLinkingSupported: boolean;
}

export const referenceRoutes = [
  route<{ sources: SourceData[] }>({
    method: 'get',
    path: '/sources',
    document: `{ sources { id name url logo available canCollectReviews deepLinkingSupported } }`,
    variables: () => ({}),
    respond: (d) => ({
      body: {
        data: d.sources.map((s) => ({
          id: s.id,
          name: s.name,
          url: s.url,
          logo: s.logo,
          available: s.available,
          can_collect_reviews: s.canCollectReviews,
          deep_linking_supported: s.deepLinkingSupported,
        })),
      },
    }),
  }),
  route<{ countries: { id: string; name: string }[] }>({
    method: 'get',
    path: '/countries',
    document: `{ countries { id name } }`,
    variables: () => ({}),
    respond: (d) => ({ body: d.countries.map((c) => ({ id: c.id, name: c.name })) }),
  }),
  route<{ me: { id: number; name: string; email: string } }>({
    method: 'get',
    path: '/me',
    document: `{ me { id name email } }`,
    variables: () => ({}),
    respond: (d) => ({ body: { id: d.me.id, name: d.me.name, email: d.me.email } }),
  }),
];
