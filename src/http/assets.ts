import { Router, type Request, type Response } from 'express';
import { brandLogo } from '../reports/logo';
import { findFile } from '../services/files.service';
import { logoUrlOfKey } from '../services/host-brand.service';
import { sources } from '../services/reference.service';
import { escapeHtml as esc } from '../domain/html';

const PALETTE = ['#2563eb', '#7c3aed', '#db2777', '#ea580c', '#16a34a', '#0891b2', '#4f46e5', '#b45309'];

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? [parts[0], parts[parts.length - 1]] : parts;
  return letters.map((p) => [...p][0]?.toUpperCase() ?? '').join('') || '?';
}

function colourOf(seed: string): string {
  let h = 0;
  for (const ch of seed) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return PALETTE[h % PALETTE.length];
}

/** Served by the API itself, so a white-label deployment leaks no third-party host to its customers. */
export function assetRoutes(): Router {
  const router = Router();

  router.get('/avatars/placeholder.svg', (req: Request, res: Response) => {
    const name = typeof req.query.name === 'string' ? req.query.name.slice(0, 255) : '';
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128"><rect width="128" height="128" rx="64" fill="${colourOf(name)}"/><text x="64" y="64" dy=".35em" text-anchor="middle" font-family="Arial, sans-serif" font-size="52" fill="#fff">${esc(initials(name))}</text></svg>`;
    res.type('image/svg+xml').set('Cache-Control', 'public, max-age=86400').send(svg);
  });

  router.get('/assets/sources/:file', async (req: Request, res: Response) => {
    const slug = String(req.params.file).replace(/\.svg$/, '');
    const source = (await sources()).find((s) => s.slug === slug);
    if (!source) {
      res.status(404).json({ message: 'Not found.' });
      return;
    }
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64"><rect width="64" height="64" rx="12" fill="${colourOf(source.slug)}"/><text x="32" y="32" dy=".35em" text-anchor="middle" font-family="Arial, sans-serif" font-size="28" fill="#fff">${esc(initials(source.name))}</text></svg>`;
    res.type('image/svg+xml').set('Cache-Control', 'public, max-age=86400').send(svg);
  });

  // The agency's logo, fetched by the platform from the URL it configured (src/reports/logo.ts): the pages show it from
  // here, never from the agency's host.
  router.get('/brand/logo/:key', async (req: Request, res: Response, next) => {
    try {
      const key = String(req.params.key);
      const url = /^[0-9a-f]{32}$/.test(key) ? await logoUrlOfKey(key) : null;
      const logo = url ? await brandLogo(url) : null;
      if (!logo) {
        res.status(404).json({ message: 'Logo not found.' });
        return;
      }
      res
        .type(logo.type)
        .set({
          // The key follows the URL; the image behind a URL may change, so it is kept as long as the platform keeps it.
          'Cache-Control': 'public, max-age=600',
          'X-Content-Type-Options': 'nosniff',
          'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
        })
        .send(logo.bytes);
    } catch (e) {
      next(e);
    }
  });

  router.get('/files/:id', async (req: Request, res: Response, next) => {
    try {
      const file = await findFile(String(req.params.id));
      if (!file) {
        res.status(404).json({ message: 'File not found.' });
        return;
      }
      res
        .type(file.contentType)
        .set({
          'Cache-Control': 'public, max-age=31536000, immutable',
          'X-Content-Type-Options': 'nosniff',
          // Defence in depth for SVG opened directly: no script, no external loads, even if sanitising missed one.
          'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
        })
        .send(file.content);
    } catch (e) {
      next(e);
    }
  });

  return router;
}
