import { JSDOM } from 'jsdom';
import { useApp } from '../support/app';

/** The scan report's answers to paths it cannot read: a page, like /u, /r and /connect, never the APIs' JSON. */
describe('GET /reports/scans/{uuid} with a path that cannot be read', () => {
  const t = useApp();

  it('answers a malformed percent-encoding with the HTML "Report not found" page and 400', async () => {
    for (const path of ['/reports/scans/%E0%A4%A', '/reports/scans/%E0%A4%A.pdf']) {
      const res = await t.http().get(path).set('Accept', 'text/html');
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['content-security-policy']).toContain("script-src 'none'");
      expect(res.headers['x-robots-tag']).toMatch(/noindex/);
      const d = new JSDOM(res.text).window.document;
      expect(d.querySelector('.empty h2')!.textContent).toBe('Report not found');
      expect(d.querySelectorAll('script')).toHaveLength(0);
      expect(res.text).not.toMatch(/reviewgrid|could not be read/i);
    }
  });
});

/** The review link's and the connect page's answers to a path that cannot be decoded: a damaged link, not a form. */
describe('/r and /connect with a path that cannot be read', () => {
  const t = useApp();

  it('answer a malformed percent-encoding with the HTML "The link could not be read" page and 400', async () => {
    for (const [method, path] of [['get', '/r/%zz'], ['post', '/r/%zz/rate'], ['get', '/connect/%E0%A4%A'], ['post', '/connect/%zz/start']] as const) {
      const res = await t.http()[method](path).type('form').send(method === 'post' ? { rating: '5' } : undefined);
      expect({ path, status: res.status }).toEqual({ path, status: 400 });
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      const d = new JSDOM(res.text).window.document;
      expect(d.querySelector('h1')!.textContent).toBe('The link could not be read');
      expect(res.text).not.toMatch(/form could not be read/i);
    }
  });
});
