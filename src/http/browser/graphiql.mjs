/* global document, window, fetch, URLSearchParams */
// The browser side of the self-hosted GraphiQL at `/graphql` (bundled by src/http/graphiql-bundle.ts with esbuild):
// React, GraphiQL and its stylesheet from node_modules, no CDN. The page (src/http/graphiql-page.ts) renders the
// brand header and `<div id="graphiql" data-...>` with the endpoint, the brand name and the default headers.
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { GraphiQL } from 'graphiql';
import { setNonce } from 'get-nonce';
import 'graphiql/style.css';

// Radix dialogs add a `<style>` element for scroll locking: it carries the page's nonce, as the CSP asks.
const script = document.currentScript;
if (script && script.nonce) setNonce(script.nonce);

const mount = document.getElementById('graphiql');
const { endpoint, brand, placeholder, defaultHeaders } = mount.dataset;

/**
 * POSTs each operation as JSON to the endpoint with the headers of the headers editor. The placeholder bearer of the
 * default headers is not sent: it is not a token, and failed sign-ins count against the caller's rate limit.
 */
async function fetcher(params, opts) {
  const headers = { 'Content-Type': 'application/json', Accept: 'application/graphql-response+json, application/json' };
  for (const [name, value] of Object.entries((opts && opts.headers) || {})) {
    if (typeof value === 'string' && value !== placeholder) headers[name] = value;
  }
  const res = await fetch(endpoint, { method: 'POST', headers, body: JSON.stringify(params), credentials: 'omit' });
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    return { errors: [{ message: `HTTP ${res.status}: ${text.slice(0, 200)}` }] };
  }
}

const query = new URLSearchParams(window.location.search).get('query');
createRoot(mount).render(
  createElement(
    GraphiQL,
    {
      fetcher,
      defaultHeaders,
      defaultEditorToolsVisibility: 'headers',
      shouldPersistHeaders: false,
      ...(query ? { query } : {}),
    },
    createElement(GraphiQL.Logo, null, `${brand} GraphQL`),
  ),
);
