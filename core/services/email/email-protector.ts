import { simpleParser } from 'mailparser';
import { getDomain } from 'tldts';
import { inject, injectable } from 'tsyringe';
import { PluginCatalog } from '../../engine/pipeline/plugin-catalog.ts';
import { DetectorSet } from '../../engine/pipeline/run-detectors.ts';
import type { RiskLevel } from '../../engine/scoring/risk-level.ts';
import { Scorer } from '../../engine/scoring/score-breakdown.ts';
import { htmlToText } from '../../engine/text/html-text.ts';
import { parseTarget } from '../../engine/url/target.ts';
import { ActionCheck } from '../checks/action-check.ts';
import { firedFlags, flagExplanations, injectionSummary, promptInjectionView } from '../checks/injection-summary.ts';
import type { CallContext } from '../checks/seal.ts';
import { attachmentRisk } from './attachment-risk.ts';
import type { EmailAddress, EmailFacts, EmailLink } from './email-facts.ts';

/** Parsed fields, for callers that already split the message (gateways, mail APIs). */
export interface EmailFields {
  from: string;
  reply_to?: string;
  return_path?: string;
  subject?: string;
  text?: string;
  html?: string;
  authentication_results?: string;
  attachments?: { filename: string; content_type: string; size?: number }[];
}

export type EmailInput = { raw: string } | EmailFields;

export type EmailVerdict = 'allow' | 'warn' | 'quarantine';

const MAX_LINKS = 25;
const MAX_BODY = 200_000;

interface Normalised {
  from?: EmailAddress;
  reply_to: EmailAddress[];
  return_path?: EmailAddress;
  subject: string;
  message_id: string | null;
  date: string | null;
  text: string;
  html: string;
  authentication_results: string;
  attachments: { filename: string; content_type: string; size?: number }[];
}

/**
 * POST /email/protect: header checks, Authentication-Results, every link through the fast URL check, attachments by
 * type, and the injection screen over the body (for agents that read mail). The message itself is never stored.
 */
@injectable()
export class EmailProtector {
  constructor(
    @inject(ActionCheck) private readonly actionCheck: ActionCheck,
    @inject(DetectorSet) private readonly detectors: DetectorSet,
    @inject(Scorer) private readonly scorer: Scorer,
    @inject(PluginCatalog) private readonly catalog: PluginCatalog,
  ) {}

  async protect(input: EmailInput, call: CallContext) {
    const mail = 'raw' in input ? await fromRaw(input.raw) : fromFields(input);
    const body = (mail.text || htmlToText(mail.html)).slice(0, MAX_BODY);
    const links = await this.judgeLinks(extractLinks(mail.text, mail.html), call);
    const facts: EmailFacts = {
      ...(mail.from ? { from: mail.from } : {}),
      reply_to: mail.reply_to,
      ...(mail.return_path ? { return_path: mail.return_path } : {}),
      authentication: parseAuthenticationResults(mail.authentication_results),
      attachments: mail.attachments,
      links,
    };
    const [emailRuns, screenRuns] = await Promise.all([
      this.detectors.run('email', { email: facts }),
      this.detectors.run('agent_content', {
        texts: { ...(mail.subject ? { subject: mail.subject } : {}), ...(body ? { body } : {}) },
      }),
    ]);
    const runs = [...emailRuns, ...screenRuns];
    const flags = firedFlags(runs);
    const injection = injectionSummary(screenRuns);
    // Two parts, the higher wins: the message's own flags, and the agent screen's over its text.
    const emailPoints = await this.scorer.agentPoints(firedFlags(emailRuns));
    const screen = await this.scorer.screenPoints(injection.severity, firedFlags(screenRuns));
    const score = Math.max(emailPoints, screen);
    const riskLevel = this.scorer.riskLevelOf(score);
    const verdict = verdictOf(riskLevel);
    const explanations = flagExplanations(runs, this.catalog, this.scorer);
    const reasons = Object.entries(explanations).map(
      ([flag, e]) => `${flag}: ${e.evidence.join('; ') || e.description}`,
    );
    if (reasons.length === 0) reasons.push('no_findings: no check objected; this does not prove the message is safe');
    return {
      verdict,
      score,
      risk_level: riskLevel,
      flags,
      reasons,
      flag_explanations: explanations,
      message: {
        from: mail.from ?? null,
        reply_to: mail.reply_to,
        return_path: mail.return_path ?? null,
        subject: mail.subject,
        message_id: mail.message_id,
        date: mail.date,
      },
      authentication: facts.authentication,
      links,
      attachments: mail.attachments.map((a) => ({ ...a, ...attachmentRisk(a.filename, a.content_type) })),
      prompt_injection: promptInjectionView(injection),
      warnings: [
        ...(links.length >= MAX_LINKS ? [`only the first ${MAX_LINKS} links were checked`] : []),
        ...(mail.authentication_results ? [] : ['no Authentication-Results header: SPF, DKIM and DMARC not judged']),
        ...runs.filter((r) => r.skipped).map((r) => `detector ${r.pluginId} skipped: ${r.skipped!.reason}`),
      ],
    };
  }

  /** Every http(s) link through the fast action check (reputation + URL detectors), without its audit. */
  private async judgeLinks(found: { url: string; text: string }[], call: CallContext): Promise<EmailLink[]> {
    const out: EmailLink[] = [];
    for (const { url, text } of found.slice(0, MAX_LINKS)) {
      try {
        parseTarget(url);
      } catch {
        continue; // not a destination the URL check judges (localhost, bare words)
      }
      const { response } = await this.actionCheck.check(
        { url, intent: 'visit', depth: 'fast' },
        { ...call, endpoint: `${call.endpoint} link` },
        { connectors: null },
      );
      const v = response.url_verdict;
      const textDomain = domainShownIn(text);
      out.push({
        url,
        domain: v.domain,
        action: v.action,
        category: v.category,
        risk: v.risk,
        registrable_domain: getDomain(new URL(url).hostname) ?? new URL(url).hostname,
        ...(textDomain ? { text_domain: textDomain } : {}),
      });
    }
    return out;
  }
}

function verdictOf(risk: RiskLevel): EmailVerdict {
  if (risk === 'high' || risk === 'critical') return 'quarantine';
  if (risk === 'medium') return 'warn';
  return 'allow';
}

function addressOf(name: string | undefined, address: string | undefined): EmailAddress | undefined {
  if (!address) return undefined;
  const a = address.trim().toLowerCase();
  const host = a.includes('@') ? a.slice(a.lastIndexOf('@') + 1) : '';
  return { name: (name ?? '').trim(), address: a, domain: (host && getDomain(host)) || host };
}

/** `Name <a@b>` or a bare address. */
function parseAddress(value: string | undefined): EmailAddress | undefined {
  if (!value) return undefined;
  const m = /^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/.exec(value);
  return m ? addressOf(m[1], m[2]) : addressOf('', value.replace(/[<>]/g, ''));
}

async function fromRaw(raw: string): Promise<Normalised> {
  const parsed = await simpleParser(raw, { skipImageLinks: true, skipTextToHtml: true });
  const firstAddress = (v: typeof parsed.from) => {
    const list = v ? (Array.isArray(v) ? v : [v]).flatMap((x) => x.value) : [];
    return list.map((x) => addressOf(x.name, x.address)).filter((x): x is EmailAddress => x !== undefined);
  };
  const header = (name: string) => {
    const v = parsed.headers.get(name);
    if (v === undefined) return '';
    return Array.isArray(v)
      ? v.map(String).join('; ')
      : typeof v === 'string'
        ? v
        : String((v as { text?: string }).text ?? v);
  };
  const returnPath = parsed.headers.get('return-path') as { value?: { address?: string }[]; text?: string } | undefined;
  return {
    from: firstAddress(parsed.from)[0],
    reply_to: firstAddress(parsed.replyTo),
    return_path: returnPath?.value?.[0]?.address
      ? addressOf('', returnPath.value[0].address)
      : parseAddress(returnPath?.text),
    subject: parsed.subject ?? '',
    message_id: parsed.messageId ?? null,
    date: parsed.date ? parsed.date.toISOString() : null,
    text: parsed.text ?? '',
    html: typeof parsed.html === 'string' ? parsed.html : '',
    authentication_results: header('authentication-results'),
    attachments: parsed.attachments.map((a) => ({
      filename: a.filename ?? '(unnamed)',
      content_type: a.contentType,
      size: a.size,
    })),
  };
}

function fromFields(f: EmailFields): Normalised {
  return {
    from: parseAddress(f.from),
    reply_to: (f.reply_to ?? '')
      .split(',')
      .map((x) => parseAddress(x))
      .filter((x): x is EmailAddress => x !== undefined),
    return_path: parseAddress(f.return_path),
    subject: f.subject ?? '',
    message_id: null,
    date: null,
    text: f.text ?? '',
    html: f.html ?? '',
    authentication_results: f.authentication_results ?? '',
    attachments: f.attachments ?? [],
  };
}

/** `spf=pass`, `dkim=fail`, `dmarc=fail`: the first result per method (RFC 8601), as written. */
export function parseAuthenticationResults(header: string): EmailFacts['authentication'] {
  const out: EmailFacts['authentication'] = {};
  for (const method of ['spf', 'dkim', 'dmarc'] as const) {
    const m = new RegExp(`\\b${method}\\s*=\\s*([a-z]+)`, 'i').exec(header.slice(0, 10_000));
    if (m) out[method] = m[1]!.toLowerCase();
  }
  return out;
}

/** Links in the HTML (with their visible text) and bare URLs in the text part; deduplicated, in order. */
export function extractLinks(text: string, html: string): { url: string; text: string }[] {
  const seen = new Set<string>();
  const out: { url: string; text: string }[] = [];
  const add = (url: string, shown: string) => {
    const u = url.trim().replace(/&amp;/g, '&');
    if (!/^https?:\/\//i.test(u) || seen.has(u)) return;
    seen.add(u);
    out.push({ url: u, text: shown });
  };
  const anchor = /<a\b[^>]{0,2000}?href\s*=\s*["']([^"']{1,4096})["'][^>]{0,2000}>([\s\S]{0,500}?)<\/a>/gi;
  for (const m of html.slice(0, MAX_BODY).matchAll(anchor)) add(m[1]!, m[2]!.replace(/<[^>]*>/g, '').trim());
  for (const m of text.slice(0, MAX_BODY).matchAll(/https?:\/\/[^\s<>"'()[\]]{1,4096}/gi)) add(m[0]!, '');
  return out;
}

/** The registrable domain a link's visible text shows, when the text reads as a URL or a host name. */
function domainShownIn(text: string): string | undefined {
  const t = text.trim();
  if (!t || /\s/.test(t) || !/^(https?:\/\/)?[a-z0-9.-]+\.[a-z]{2,}(\/\S*)?$/i.test(t)) return undefined;
  const host = new URL(/^https?:\/\//i.test(t) ? t : `https://${t}`).hostname;
  return getDomain(host) ?? undefined;
}
