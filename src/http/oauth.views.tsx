import type { ComponentChildren, VNode } from 'preact';
import { Layout, logoSrc } from '../../facades/pages/layout';

/**
 * The sign-in and consent pages of MCP's OAuth flow, in the pages' one Layout: the tenant's brand (name and logo of
 * the host's tenant) at the top of the card, no script, styles in nonce'd `<style>` elements, forms that post back
 * to the same origin. The renderer escapes every value (client names and URLs come from client metadata documents).
 */
export interface OAuthBrand {
  name: string;
  logoUrl: string | null;
}

// The renderer escapes `"` in a <style>: font names stay unquoted.
const STYLE = `
*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1f2328;background:#f5f6f8;line-height:1.5}
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
.account{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:center;gap:.4rem 1rem;border:1px solid #e3e5e8;border-radius:8px;padding:.55rem .8rem;margin:0 0 1rem}
.account form{margin:0}
button.link{background:none;border:none;padding:0;color:#1f4fd1;text-decoration:underline;font-size:.95rem}
.destination{background:#f3f6fc;border:1px solid #c9d6f5;border-radius:8px;padding:.6rem .8rem;margin:0 0 1rem;font-size:1.05rem}
.destination strong{overflow-wrap:anywhere}
`;

/** The OAuth frame in the one Layout: English, `title · brand`, the brand inside the card; no header of its own. */
function OAuthLayout({ brand, title, children }: { brand: OAuthBrand; title: string; children: ComponentChildren }): VNode {
  const logo = logoSrc(brand.logoUrl, true);
  return (
    <Layout brand={brand} title={title} titleJoin=" · " lang="en" robots={null} noReferrer={false} base={STYLE} header={null}>
      <div class="brand">
        {logo ? <img src={logo} alt={`${brand.name} logo`} /> : null}
        <span>{brand.name}</span>
      </div>
      {children}
    </Layout>
  );
}

/** The interaction's second form: it ends the interaction without a grant. */
function AbortForm({ uid, label }: { uid: string; label: string }): VNode {
  return (
    <form method="post" action={`/oauth/interaction/${uid}/abort`}>
      <div class="actions">
        <button class="secondary" type="submit">
          {label}
        </button>
      </div>
    </form>
  );
}

/** Who is asking, as the consent page names it (`ClientIdentity`): by a vouched `client_uri` host, else by where Allow goes. */
export interface ClientIdentity {
  clientName: string;
  /** The client's id: its metadata document's URL for a client known by one. */
  clientId: string;
  clientUri: string | null;
  redirectUri: string;
}

export function loginPage(v: { brand: OAuthBrand; uid: string; error: string | null } & ClientIdentity): VNode {
  const home = vouchedClientUri(v.clientUri, v.redirectUri, v.clientId);
  const destination = destinationOf(v.redirectUri);
  return (
    <OAuthLayout brand={v.brand} title="Sign in">
      <h1>Sign in to continue</h1>
      <p class="lead">
        {home ? (
          <>
            <strong>{v.clientName}</strong> ({home.host}) wants to connect to your {v.brand.name} account.
          </>
        ) : (
          <>
            {destination ? <>The app at {destination}</> : 'An app'}, which calls itself <strong>{v.clientName}</strong> (not verified), wants to connect to
            your {v.brand.name} account.
          </>
        )}
      </p>
      {v.error ? (
        <div class="error" role="alert">
          {v.error}
        </div>
      ) : null}
      <form method="post" action={`/oauth/interaction/${v.uid}/login`}>
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="username" required autofocus />
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        <div class="actions">
          <button class="primary" type="submit">
            Sign in
          </button>
        </div>
      </form>
      <AbortForm uid={v.uid} label="Cancel" />
    </OAuthLayout>
  );
}

/** A page that ends the flow here with a message: an interaction that expired or is finished, a form that cannot be read. */
export function messagePage(v: { brand: OAuthBrand; title: string; heading: string; message: string }): VNode {
  return (
    <OAuthLayout brand={v.brand} title={v.title}>
      <h1>{v.heading}</h1>
      <p class="lead">{v.message}</p>
    </OAuthLayout>
  );
}

/**
 * What the user grants, and as whom: the account the session signed in (a session lasts 14 days, so the page says whose
 * it is, and "Not you?" ends it and starts the sign-in again), where Allow sends them, and choices that start at the
 * least: `mcp:access` only (writes and personal data are ticked by the user, whatever the client asked for) and no
 * organisations choice made for them; or, asked again, at what the user granted the client so far.
 *
 * Who the client is: its name and `client_uri` are whatever its registration or metadata document says (registration
 * is open), so the page names it by its `client_uri` host only when that host is also where Allow sends the user or
 * where its metadata document is served (`client_id`); otherwise by the host Allow sends the user to, the name marked
 * as the client's own and the claimed host not shown.
 */
export function consentPage(v: ClientIdentity & {
  brand: OAuthBrand;
  uid: string;
  account: { email: string };
  scopes: Array<{ name: string; text: string; checked: boolean; required: boolean }>;
  organizations: Array<{ id: number; name: string; checked?: boolean }>;
  /** The organisations choice made so far (asked again); none on a first consent. */
  organizationsChoice?: 'all' | 'some' | null;
  /** How many organisations one consent may tick: the page says so when it lists more. */
  maxTicked?: number;
}): VNode {
  const home = vouchedClientUri(v.clientUri, v.redirectUri, v.clientId);
  const destination = destinationOf(v.redirectUri);
  return (
    <OAuthLayout brand={v.brand} title="Allow access">
      {home ? (
        <>
          <h1>Allow {v.clientName}?</h1>
          <p class="lead">
            <strong>{v.clientName}</strong>
            {' ('}
            <a href={home.href} rel="noopener noreferrer">
              {home.host}
            </a>
            {')'} will act on your behalf through the MCP endpoint. You can revoke it any time.
          </p>
        </>
      ) : (
        <>
          <h1>{destination ? <>Allow the app at {destination}?</> : 'Allow this app?'}</h1>
          <p class="lead">
            It calls itself <strong>{v.clientName}</strong> (a name it gave itself, not verified) and will act on your behalf through the MCP endpoint. You
            can revoke it any time.
          </p>
        </>
      )}
      <div class="account">
        <span>
          Signed in as <strong>{v.account.email}</strong>
        </span>
        <form method="post" action={`/oauth/interaction/${v.uid}/switch`}>
          <button class="link" type="submit">
            Not you? Use another account
          </button>
        </form>
      </div>
      <p class="destination">
        After you allow it, you go to <strong>{destination ?? 'the application'}</strong>
      </p>
      <form method="post" action={`/oauth/interaction/${v.uid}/confirm`}>
        <fieldset>
          <legend>What it may do</legend>
          {v.scopes.map((s) => (
            <label class="choice">
              <input type="checkbox" name="scope" value={s.name} checked={s.checked} disabled={s.required} />
              <span>
                {s.text}
                <small>
                  {s.name}
                  {s.required ? ' (always)' : ''}
                </small>
              </span>
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>Which organisations</legend>
          <label class="choice">
            <input type="radio" name="organizations" value="all" required checked={v.organizationsChoice === 'all'} />
            <span>All of them, including ones added later</span>
          </label>
          <label class="choice">
            <input type="radio" name="organizations" value="some" checked={v.organizationsChoice === 'some'} />
            <span>Only the ones ticked below</span>
          </label>
          {v.maxTicked !== undefined && v.organizations.length > v.maxTicked ? (
            <p class="muted">
              Tick at most {v.maxTicked.toLocaleString('en')} of these {v.organizations.length.toLocaleString('en')} organisations. To grant more, choose all of them.
            </p>
          ) : null}
          {v.organizations.length ? (
            v.organizations.map((o) => (
              <label class="choice">
                <input type="checkbox" name="organization" value={o.id} checked={o.checked ?? false} />
                <span>{o.name}</span>
              </label>
            ))
          ) : (
            <p class="muted">No organisations yet.</p>
          )}
        </fieldset>
        <div class="actions">
          <button class="primary" type="submit">
            Allow
          </button>
        </div>
      </form>
      <AbortForm uid={v.uid} label="Deny" />
    </OAuthLayout>
  );
}

/** Where Allow sends the browser: the host of a web redirect URI, the scheme and host of a native app's; null when it cannot be read. */
function destinationOf(redirectUri: string): string | null {
  try {
    const url = new URL(redirectUri);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.host : `${url.protocol}//${url.host}`;
  } catch {
    return null;
  }
}

const webUrl = (value: string | null): URL | null => {
  try {
    const url = new URL(value ?? '');
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
  } catch {
    return null;
  }
};

/**
 * The client's `client_uri` when the page may name the client by its host: that host (name, any port) is the web
 * redirect URI's, where the code goes, or its `client_id` URL's, where its metadata document was fetched from. Those
 * are the hosts a client cannot claim without being there; `client_uri` alone is any text a registrant chose.
 */
function vouchedClientUri(clientUri: string | null, redirectUri: string, clientId: string): URL | null {
  const home = webUrl(clientUri);
  if (!home) return null;
  return [redirectUri, clientId].some((u) => webUrl(u)?.hostname === home.hostname) ? home : null;
}
