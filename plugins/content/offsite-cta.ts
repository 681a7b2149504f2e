// A tenant of a shared platform borrows the platform's reputation and certificate, then sends the visitor to the
// kit's own domain for the credentials. The action link leaving the tenant is the tell; an ordinary site linking
// elsewhere is not (a company's own domain may well sign in on another of its domains).

import type { BrandCatalog, HostingCatalog, HtmlDocument } from '../../core/plugin-api.ts';
import { brandOwning, parseTarget, type Target } from '../../core/plugin-api.ts';
import { lureWordsIn, wordRuns } from '../_shared/brand-matching/lexicon.ts';
import type { CredentialFunnel } from './credential-fields.ts';

export interface OffsiteCredentialCta {
  text: string;
  url: string;
  host: string;
  registrable_domain: string;
}

export interface PageSurface {
  tenancy: 'shared_multi_tenant' | 'dedicated_or_unknown';
  provider?: string;
  suffix?: string;
  tenant_site?: string;
}

export function pageSurface(page: Target, hosting: HostingCatalog): PageSurface {
  const free = hosting.freeHostingFor(page);
  if (free)
    return {
      tenancy: 'shared_multi_tenant',
      provider: free.provider,
      suffix: free.suffix,
      tenant_site: free.tenantSite,
    };
  if (page.privateSuffix) return { tenancy: 'shared_multi_tenant', suffix: page.privateSuffix, tenant_site: page.site };
  return { tenancy: 'dedicated_or_unknown' };
}

/** Link wording that asks for credentials or gates content behind them (not "View on GitHub", not "PyPI"). */
const CREDENTIAL_CTA_TEXT =
  /\b(?:sign|log) ?(?:in|on)\b|\blogin\b|\bverify\b|\bconfirm\b|\bauthenticat|\bunlock\b|\bvalidate\b|\b(?:view|open|access|download|review|retrieve|preview|read) (?:the |these |this |your |all |shared |secure |my )?(?:documents?|files?|folders?|pdfs?|attachments?|invoices?|statements?|messages?|voicemails?|fax|account|payment|order|delivery|parcel)\b|\b(?:update|restore|reactivate|secure|recover) (?:your |my )?(?:account|payment|billing|access|details|mailbox)\b|\bclaim (?:your |my )?\w{1,20}\b|\bcontinue to (?:sign|log|your account)\b/;

/** Labels too generic to say who a site is (`app`, `docs`, `help`), ignored when comparing names. */
const GENERIC_LABELS: ReadonlySet<string> = new Set([
  'app',
  'www',
  'docs',
  'doc',
  'help',
  'site',
  'web',
  'page',
  'pages',
  'blog',
  'home',
  'portal',
  'login',
  'secure',
  'online',
  'my',
  'get',
]);

/** The link's site shares a distinctive name with the tenant (`acme-docs.pages.dev` → `app.acme.io`). */
function isRelatedSite(page: Target, link: Target): boolean {
  const tenantWords = new Set(
    wordRuns(page.site.split('.')[0] ?? '').filter((w) => w.length >= 4 && !GENERIC_LABELS.has(w)),
  );
  const linkLabel = (link.registrableDomain ?? link.site).split('.')[0] ?? '';
  if (linkLabel.length >= 4 && tenantWords.has(linkLabel)) return true;
  return wordRuns(linkLabel).some((w) => w.length >= 4 && !GENERIC_LABELS.has(w) && tenantWords.has(w));
}

function resolveLink(href: string, base: URL): Target | undefined {
  try {
    const url = new URL(href.trim(), base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return parseTarget(url.href);
  } catch {
    return undefined;
  }
}

interface ActionCandidate {
  href: string;
  text: string;
  collectsCredentials: boolean;
}

function candidatesOf(doc: HtmlDocument, funnel: CredentialFunnel): ActionCandidate[] {
  const fromLinks = doc.links.map((l) => ({ href: l.href, text: l.text, collectsCredentials: false }));
  const credentialActions = new Set(funnel.credential_forms.map((f) => f.action));
  const fromForms = doc.forms
    .filter((f) => f.action)
    .map((f) => ({ href: f.action, text: f.submitText, collectsCredentials: credentialActions.has(f.action) }));
  return [...fromForms, ...fromLinks];
}

const MAX_CTAS = 10;

/**
 * Credential-oriented action links (and credential forms) of a page on a shared multi-tenant platform that leave
 * for an unrelated registrable domain. A destination a catalogued brand owns is the genuine sign-in, not a lure.
 */
export function offsiteCredentialCtas(
  doc: HtmlDocument,
  funnel: CredentialFunnel,
  page: Target,
  surface: PageSurface,
  brands: BrandCatalog,
): OffsiteCredentialCta[] {
  if (surface.tenancy !== 'shared_multi_tenant') return [];
  const ctas: OffsiteCredentialCta[] = [];
  const seen = new Set<string>();
  for (const c of candidatesOf(doc, funnel)) {
    const link = resolveLink(c.href, page.url);
    if (!link || link.site === page.site || seen.has(link.url.href)) continue;
    // The platform itself (`pages.dev`, its dashboard) is where every tenant links.
    if (
      link.site === page.registrableDomain ||
      (link.registrableDomain === page.registrableDomain && !link.privateSuffix)
    ) {
      continue;
    }
    if (isRelatedSite(page, link) || brandOwning(link, brands)) continue;
    const text = c.text.slice(0, 120);
    const credentialOriented =
      c.collectsCredentials ||
      CREDENTIAL_CTA_TEXT.test(text.toLowerCase()) ||
      lureWordsIn(`${link.host} ${link.url.pathname}`).length > 0;
    if (!credentialOriented) continue;
    seen.add(link.url.href);
    ctas.push({
      text,
      url: link.url.href.slice(0, 2048),
      host: link.host,
      registrable_domain: link.registrableDomain ?? link.host,
    });
    if (ctas.length >= MAX_CTAS) break;
  }
  return ctas;
}
