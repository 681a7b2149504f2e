// The phishing-kit signals a page carries by itself, with no help from registration, certificate or history
// evidence: what it asks for, where that goes, whether its markup was hidden, and the generic lures (account
// threats, investment promises, ClickFix and fake updates) in many languages.
import type { Finding } from '../../core/plugin-api.ts';
import { clonedPage } from './cloned-page.ts';
import type { CredentialFunnel } from './credential-fields.ts';
import { type CredentialSink, credentialSinks } from './credential-sinks.ts';
import { accountThreat, clickFix, fakeUpdate, investmentPromises } from './intl-lures.ts';
import type { PageView } from './page-view.ts';

export const KIT_FLAGS = {
  credentialForm: 'content:credential_form',
  exfilSink: 'content:credential_exfil_sink',
  offsitePost: 'content:offsite_credential_post',
  obfuscated: 'content:obfuscated_page',
  accountThreat: 'content:account_threat_lure',
  investment: 'content:investment_scam_lure',
  seedPhrase: 'content:seed_phrase_request',
  clickFix: 'content:clickfix_lure',
  fakeUpdate: 'content:fake_update_lure',
  clonedPage: 'content:cloned_sign_in_page',
  phpDrop: 'content:php_credential_drop',
} as const;

/** A form action (or fetch target) that is a PHP script: where a static kit page drops what it collects. */
const PHP_SCRIPT = /\.php\d?$/i;

/** Decoded markup this large (or carrying a form) is a page hidden from static readers, not a packed widget. */
const OBFUSCATION_MIN_CHARS = 1_000;
/** Visible text of a kit's page: sign-in and lure pages are short, articles are not. */
const KIT_PAGE_CHARS = 5_000;
/** A ClickFix lure page is short; an article about ClickFix is not. */
const SHORT_PAGE_CHARS = 2_500;
/** Fields that take a name, phone or email: what an investment lead form collects. */
const CONTACT_FIELD = /\b(?:phone|tel|mobile|e ?mail|name|whatsapp|telegram)\b|телефон|имя|почт/i;

function lowerText(view: PageView): string {
  return `${view.doc.title} ${view.doc.headings.join(' ')} ${view.visibleText}`
    .slice(0, 100_000)
    .normalize('NFKC')
    .toLowerCase();
}

export interface KitSignals {
  findings: Finding[];
  data: Record<string, unknown>;
}

function phpActions(funnel: CredentialFunnel, base: URL): string[] {
  const out: string[] = [];
  for (const form of funnel.credential_forms) {
    try {
      const url = new URL(form.action || base.href, base);
      if (PHP_SCRIPT.test(url.pathname)) out.push(url.pathname.slice(0, 200));
    } catch {
      // an unparsable action is no evidence
    }
  }
  return out;
}

export function kitSignals(view: PageView, funnel: CredentialFunnel, brandOwned: boolean): KitSignals {
  const { doc, page } = view;
  const findings: Finding[] = [];
  const text = lowerText(view);
  const secretKinds = funnel.kinds.filter((k) => k !== 'identity' && k !== 'card_expiry');
  const collects = funnel.harvestsSecrets || funnel.credential_forms.length > 0;

  if (collects) {
    findings.push({
      flag: KIT_FLAGS.credentialForm,
      detail: `The page asks its visitor for ${funnel.kinds.join(', ').replaceAll('_', ' ')}.`,
      evidence: { credential_kinds: funnel.kinds, forms: funnel.credential_forms.slice(0, 5) },
    });
  }

  const sinks: CredentialSink[] = collects ? credentialSinks(doc, funnel, page) : [];
  const relays = sinks.filter((s) => s.kind === 'chat_bot' || s.kind === 'form_relay');
  if (relays.length > 0) {
    findings.push({
      flag: KIT_FLAGS.exfilSink,
      detail: `What the visitor types is sent to ${relays[0]!.host} (${relays[0]!.kind.replace('_', ' ')}), not to a sign-in service.`,
      evidence: { sinks: relays },
    });
  }
  const offsite = sinks.filter((s) => s.kind === 'offsite' || s.kind === 'offsite_script');
  if (offsite.length > 0 && !brandOwned) {
    findings.push({
      flag: KIT_FLAGS.offsitePost,
      detail: `The credential form posts to ${offsite[0]!.host}, another site than ${page.site}.`,
      evidence: { sinks: offsite },
    });
  }

  // Secrets posted to a PHP script of the same site (other sites' scripts are offsite posts above). Weak alone:
  // many honest sites are PHP; it corroborates the page's identity and copy signals.
  const phpForms = collects && funnel.harvestsSecrets && !brandOwned ? phpActions(funnel, page.url) : [];
  if (phpForms.length > 0 && offsite.length === 0) {
    findings.push({
      flag: KIT_FLAGS.phpDrop,
      detail: `The form asking for ${secretKinds.join(', ').replaceAll('_', ' ')} posts to a PHP script (${phpForms[0]}).`,
      evidence: { actions: phpForms },
    });
  }

  // A copy of another site's page (its save/copier marks, or its canonical address kept) that asks for secrets.
  const cloned = collects && !brandOwned && view.visibleText.length <= KIT_PAGE_CHARS ? clonedPage(view) : undefined;
  if (cloned && cloned.markers.length > 0) {
    findings.push({
      flag: KIT_FLAGS.clonedPage,
      detail: `The sign-in page is a copy of another page (${cloned.markers.join(', ').replaceAll('_', ' ')}${cloned.origin ? `; it names ${cloned.origin} as its address` : ''}) served on ${page.site}.`,
      evidence: { ...cloned },
    });
  }

  const decoded = view.decoded;
  const decodedHasForm = /<(?:form|input)\b/i.test(decoded.html);
  if (decoded.html && (decodedHasForm || (decoded.writes_document && decoded.html.length >= OBFUSCATION_MIN_CHARS))) {
    findings.push({
      flag: KIT_FLAGS.obfuscated,
      detail: `The page hides ${decoded.html.length} characters of markup${decodedHasForm ? ' (with a form)' : ''} in ${decoded.encodings.join(', ').replaceAll('_', ' ')}-encoded script literals.`,
      evidence: {
        encodings: decoded.encodings,
        decoded_chars: decoded.html.length,
        writes_document: decoded.writes_document,
        has_form: decodedHasForm,
      },
    });
  }

  const account = accountThreat(text);
  const titled = accountThreat(`${doc.title} ${doc.headings.join(' ')}`.normalize('NFKC').toLowerCase()).threat;
  // The threat must be what the page is about: in its title or headings, or on a kit-sized page with pressure or a
  // second threat. An article that quotes such wording somewhere in its text, next to a site login, does not count.
  const kitSized = view.visibleText.length <= KIT_PAGE_CHARS;
  const accountFires =
    !brandOwned &&
    collects &&
    account.threat.length > 0 &&
    (titled.length > 0 || (kitSized && (account.pressure.length > 0 || account.threat.length >= 2)));
  if (accountFires) {
    findings.push({
      flag: KIT_FLAGS.accountThreat,
      detail: `Account-threat wording (${[...account.threat, ...account.pressure]
        .slice(0, 3)
        .map((p) => `"${p}"`)
        .join(', ')}) with a form asking for ${funnel.kinds.join(', ').replaceAll('_', ' ')}.`,
      evidence: { phrases: account.threat, pressure: account.pressure, credential_kinds: funnel.kinds },
    });
  }

  const investment = investmentPromises(text);
  const leadForm = [...doc.forms.flatMap((f) => f.fields), ...doc.looseFields].some(
    (f) => f.type === 'tel' || CONTACT_FIELD.test(`${f.attrs.name ?? ''} ${f.attrs.placeholder ?? ''} ${f.label}`),
  );
  // Two promise families with a phone or credential field, or three with any contact field: an article about
  // investment scams quotes the promises but asks for nothing beyond a newsletter address.
  const phoneOrSecret =
    collects ||
    [...doc.forms.flatMap((f) => f.fields), ...doc.looseFields].some(
      (f) =>
        f.type === 'tel' ||
        /\b(?:phone|tel|mobile|whatsapp)\b|телефон/i.test(
          `${f.attrs.name ?? ''} ${f.attrs.placeholder ?? ''} ${f.label}`,
        ),
    );
  if (!brandOwned && ((investment.length >= 2 && phoneOrSecret) || (investment.length >= 3 && leadForm))) {
    findings.push({
      flag: KIT_FLAGS.investment,
      detail: `Investment-return promises (${investment
        .slice(0, 3)
        .map((p) => `"${p}"`)
        .join(', ')}) with a form collecting contact or account details.`,
      evidence: { phrases: investment },
    });
  }

  if (funnel.kinds.includes('seed_phrase') && !brandOwned) {
    findings.push({
      flag: KIT_FLAGS.seedPhrase,
      detail:
        'The page asks for a wallet recovery (seed) phrase or private key, which no wallet service asks for on a web page.',
      evidence: { credential_kinds: funnel.kinds },
    });
  }

  const fix = clickFix(text, [...doc.inlineScripts, decoded.html]);
  // A clipboard write of a command (or of anything, with two instruction steps) is the trap itself; a command only
  // shown in text counts on a short page, so an article explaining ClickFix stays silent.
  const shortPage = view.visibleText.length <= SHORT_PAGE_CHARS;
  const clickFixFires =
    fix.steps.length > 0 &&
    (fix.clipboard_write
      ? Boolean(fix.command) || fix.steps.length >= 2
      : Boolean(fix.command) && fix.steps.length >= 2 && shortPage);
  if (clickFixFires) {
    findings.push({
      flag: KIT_FLAGS.clickFix,
      detail: `The page tells its visitor to ${fix.steps
        .slice(0, 2)
        .map((s) => `"${s}"`)
        .join(
          ' and ',
        )}${fix.command ? ` and puts a command on the clipboard ("${fix.command.slice(0, 80)}")` : ' after copying text to the clipboard'}.`,
      evidence: { ...fix },
    });
  }

  const update = fakeUpdate(
    text,
    doc.links.map((l) => l.href),
  );
  if (!brandOwned && update.phrases.length > 0 && update.downloads.length > 0) {
    findings.push({
      flag: KIT_FLAGS.fakeUpdate,
      detail: `Browser or plugin update wording (${update.phrases
        .slice(0, 2)
        .map((p) => `"${p}"`)
        .join(', ')}) offering a download (${update.downloads[0]}).`,
      evidence: { ...update },
    });
  }

  return {
    findings,
    data: {
      credential_sinks: sinks,
      decoded_markup: {
        chars: decoded.html.length,
        encodings: decoded.encodings,
        writes_document: decoded.writes_document,
      },
      account_threat_phrases: account.threat,
      account_pressure_phrases: account.pressure,
      investment_phrases: investment,
      clickfix: fix,
      fake_update: update,
      secret_kinds: secretKinds,
      php_credential_actions: phpForms,
      cloned_page: cloned ?? null,
    },
  };
}
