import type { VNode } from 'preact';
import { translator, type Translator } from '../../src/i18n';
import { Layout, Msg, type Brand } from './layout';

/**
 * The views of the customer-facing connect page (`/connect/{token}`), in the customer's language (src/i18n), in the
 * pages' one Layout. No script runs.
 */

export type SignInProvider = 'google' | 'facebook';

/** A business the signed-in account manages, as the picker lists it. */
export interface BusinessChoice {
  externalId: string;
  name: string;
  address: string | null;
}

const PROVIDER_NAMES: Record<SignInProvider, string> = { google: 'Google', facebook: 'Facebook' };

/** The provider's name and what it calls a business ("Business Profile", "Page"), in the page's language. */
export function providerLabels(tr: Translator, provider: SignInProvider): { name: string; thing: string; things: string } {
  return {
    name: PROVIDER_NAMES[provider],
    thing: tr.t(`connect.providers.${provider}.thing`),
    things: tr.t(`connect.providers.${provider}.things`),
  };
}

/** A hidden CSRF field and one button: the start (and restart) form of a link. */
function PostButton({ action, csrf, label }: { action: string; csrf: string; label: string }): VNode {
  return (
    <form method="post" action={action}>
      <input type="hidden" name="csrf" value={csrf} />
      <button type="submit">{label}</button>
    </form>
  );
}

export function LandingPage(props: { brand: Brand; provider: SignInProvider; locationName: string; startAction: string; csrf: string; continueUrl: string | null }): VNode {
  const tr = translator(props.brand.language);
  const p = providerLabels(tr, props.provider);
  const v = { provider: p.name, thing: p.thing, things: p.things };
  return (
    <Layout brand={props.brand} title={tr.t('connect.title', v)}>
      <h1>{tr.t('connect.heading', v)}</h1>
      <p>
        <Msg tr={tr} k="connect.intro" vars={{ ...v, brand: props.brand.name, location: <strong>{props.locationName}</strong> }} />
      </p>
      <ol>
        <li>{tr.t('connect.step1', v)}</li>
        <li>{tr.t('connect.step2', { ...v, location: props.locationName })}</li>
        <li>{tr.t('connect.step3', v)}</li>
      </ol>
      {props.continueUrl ? (
        <p class="notice">
          {tr.t('connect.resume')} <a href={props.continueUrl}>{tr.t('connect.resumeLink', v)}</a>, {tr.t('connect.resumeAfter')}
        </p>
      ) : null}
      <PostButton action={props.startAction} csrf={props.csrf} label={tr.t('connect.signIn', v)} />
      <p class="notice">{tr.t('connect.onceOnly', { location: props.locationName })}</p>
    </Layout>
  );
}

export function SelectionPage(props: {
  brand: Brand;
  provider: SignInProvider;
  locationName: string;
  businesses: BusinessChoice[];
  action: string;
  nonce: string;
  restartAction: string;
  csrf: string;
  error?: string | null;
}): VNode {
  const tr = translator(props.brand.language);
  const p = providerLabels(tr, props.provider);
  const v = { provider: p.name, thing: p.thing, things: p.things, location: props.locationName };
  if (props.businesses.length === 0) {
    return (
      <Layout brand={props.brand} title={tr.t('connect.noneTitle', { things: p.things })}>
        <h1>{tr.t('connect.noneTitle', v)}</h1>
        <p>{tr.t('connect.noneText', v)}</p>
        <PostButton action={props.restartAction} csrf={props.csrf} label={tr.t('connect.otherAccount')} />
      </Layout>
    );
  }
  return (
    <Layout brand={props.brand} title={tr.t('connect.chooseTitle', { thing: p.thing })}>
      <h1>{tr.t('connect.chooseHeading', v)}</h1>
      {props.error ? (
        <p class="notice" role="alert">
          <strong>{props.error}</strong>
        </p>
      ) : null}
      <form method="post" action={props.action}>
        <input type="hidden" name="nonce" value={props.nonce} />
        <ul class="businesses">
          {props.businesses.map((b, i) => (
            <li>
              <label>
                <input type="radio" name="business" value={b.externalId} checked={i === 0} required />
                <span>
                  <span class="name">{b.name}</span>
                  {b.address ? (
                    <>
                      <br />
                      <span class="address">{b.address}</span>
                    </>
                  ) : null}
                </span>
              </label>
            </li>
          ))}
        </ul>
        <button type="submit">{tr.t('connect.connectThis', v)}</button>
      </form>
    </Layout>
  );
}

export function SuccessPage(props: { brand: Brand; provider: SignInProvider; businessName: string; locationName: string }): VNode {
  const tr = translator(props.brand.language);
  const p = providerLabels(tr, props.provider);
  return (
    <Layout brand={props.brand} title={tr.t('connect.connectedTitle')}>
      <h1>{tr.t('connect.connectedTitle')}</h1>
      <p>
        <Msg tr={tr} k="connect.connectedText" vars={{ business: <strong>{props.businessName}</strong>, provider: p.name, location: props.locationName }} />{' '}
        {tr.t('common.closePage')}
      </p>
    </Layout>
  );
}

/** Unknown, used, expired, revoked links and failed sign-ins: a friendly explanation, never a stack. */
export function MessagePage(props: { brand: Brand; title: string; message: string; action?: { url: string; label: string; csrf: string } }): VNode {
  return (
    <Layout brand={props.brand} title={props.title}>
      <h1>{props.title}</h1>
      <p>{props.message}</p>
      {props.action ? <PostButton action={props.action.url} csrf={props.action.csrf} label={props.action.label} /> : null}
    </Layout>
  );
}
