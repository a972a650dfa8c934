import { escapeHtml as esc } from '../domain/html';

/**
 * The sign-in and consent pages of MCP's OAuth flow: the tenant's brand (name and logo of the host's tenant), no
 * script, styles in one nonce'd `<style>`, forms that post back to the same origin.
 */
export interface OAuthBrand {
  name: string;
  logoUrl: string | null;
}

const safeUrl = (url: string | null): string | null => (url && /^(https?:\/\/|\/(?!\/))/i.test(url) ? url : null);

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;background:#f5f6f8;line-height:1.5}
main{max-width:30rem;margin:3rem auto;background:#fff;border:1px solid #e3e5e8;border-radius:12px;padding:2rem}
.brand{display:flex;align-items:center;gap:.7rem;font-weight:650;font-size:1.15rem;margin-bottom:1.5rem}
.brand img{max-height:40px;max-width:160px}
h1{font-size:1.3rem;margin:0 0 .5rem}
p.lead{color:#4b5563;margin:0 0 1.25rem}
label{display:block;margin:.6rem 0 .2rem;font-weight:550}
input[type=email],input[type=password]{width:100%;padding:.55rem .7rem;border:1px solid #c9ced6;border-radius:8px;font-size:1rem}
fieldset{border:1px solid #e3e5e8;border-radius:8px;margin:1rem 0;padding:.6rem 1rem}
legend{font-weight:600;padding:0 .3rem}
.choice{display:flex;gap:.6rem;align-items:flex-start;margin:.45rem 0;font-weight:400}
.choice small{display:block;color:#5b6470}
.actions{display:flex;gap:.75rem;margin-top:1.5rem}
button{padding:.6rem 1.2rem;border-radius:8px;border:1px solid #1f2328;font-size:1rem;cursor:pointer}
button.primary{background:#1f2328;color:#fff}
button.secondary{background:#fff;color:#1f2328}
.error{background:#fdecec;color:#8a1c1c;border-radius:8px;padding:.6rem .8rem;margin-bottom:1rem}
.muted{color:#5b6470;font-size:.9rem}
`;

function layout(nonce: string, brand: OAuthBrand, title: string, body: string): string {
  const logo = safeUrl(brand.logoUrl);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · ${esc(brand.name)}</title><style nonce="${esc(nonce)}">${STYLE}</style></head>
<body><main><div class="brand">${logo ? `<img src="${esc(logo)}" alt="${esc(brand.name)} logo">` : ''}<span>${esc(brand.name)}</span></div>${body}</main></body></html>`;
}

export function loginPage(v: { nonce: string; brand: OAuthBrand; uid: string; clientName: string; error: string | null }): string {
  return layout(
    v.nonce,
    v.brand,
    'Sign in',
    `<h1>Sign in to continue</h1>
<p class="lead"><strong>${esc(v.clientName)}</strong> wants to connect to your ${esc(v.brand.name)} account.</p>
${v.error ? `<div class="error" role="alert">${esc(v.error)}</div>` : ''}
<form method="post" action="/oauth/interaction/${esc(v.uid)}/login">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required autofocus>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<div class="actions"><button class="primary" type="submit">Sign in</button></div>
</form>
<form method="post" action="/oauth/interaction/${esc(v.uid)}/abort"><div class="actions"><button class="secondary" type="submit">Cancel</button></div></form>`,
  );
}

export function consentPage(v: {
  nonce: string;
  brand: OAuthBrand;
  uid: string;
  clientName: string;
  clientUri: string | null;
  redirectUri: string;
  scopes: Array<{ name: string; text: string; checked: boolean; required: boolean }>;
  organizations: Array<{ id: number; name: string }>;
}): string {
  const scopes = v.scopes
    .map(
      (s) =>
        `<label class="choice"><input type="checkbox" name="scope" value="${esc(s.name)}"${s.checked ? ' checked' : ''}${s.required ? ' disabled' : ''}><span>${esc(s.text)}<small>${esc(s.name)}${s.required ? ' (always)' : ''}</small></span></label>`,
    )
    .join('');
  const orgs = v.organizations
    .map((o) => `<label class="choice"><input type="checkbox" name="organization" value="${o.id}" checked><span>${esc(o.name)}</span></label>`)
    .join('');
  const clientUri = safeUrl(v.clientUri);
  return layout(
    v.nonce,
    v.brand,
    'Allow access',
    `<h1>Allow ${esc(v.clientName)}?</h1>
<p class="lead"><strong>${esc(v.clientName)}</strong>${clientUri ? ` (<a href="${esc(clientUri)}" rel="noopener noreferrer">${esc(new URL(clientUri).host)}</a>)` : ''} will act on your behalf through the MCP endpoint. You can revoke it any time.</p>
<form method="post" action="/oauth/interaction/${esc(v.uid)}/confirm">
<fieldset><legend>What it may do</legend>${scopes}</fieldset>
<fieldset><legend>Which organisations</legend>
<label class="choice"><input type="radio" name="organizations" value="all" checked><span>All of them, including ones added later</span></label>
<label class="choice"><input type="radio" name="organizations" value="some"><span>Only the ones ticked below</span></label>
${orgs || '<p class="muted">No organisations yet.</p>'}
</fieldset>
<p class="muted">After you allow it, you go back to ${esc(safeHost(v.redirectUri))}.</p>
<div class="actions"><button class="primary" type="submit">Allow</button></div>
</form>
<form method="post" action="/oauth/interaction/${esc(v.uid)}/abort"><div class="actions"><button class="secondary" type="submit">Deny</button></div></form>`,
  );
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the application';
  }
}
