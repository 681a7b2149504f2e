import {
  attachmentRisk,
  BrandCatalog,
  defineDetector,
  type Finding,
  type PluginModule,
} from '../../core/plugin-api.ts';
import { brandTokensIn, lookalikeBrandTokensIn } from '../_shared/brand-matching/brand-tokens.ts';
import weights from './weights.json' with { type: 'json' };

const FAILING = new Set(['fail', 'softfail', 'permerror']);

/**
 * Email protection: sender-identity headers, the receiving server's Authentication-Results, attachment types and
 * the links' fast-check verdicts (computed by core/services/email before this runs). Pure: no I/O.
 */
const detector = defineDetector({
  meta: {
    id: 'email',
    version: '1.0.0',
    description: 'Sender identity, authentication results, attachments and links of an email message.',
    surfaces: ['email'],
    flags: {
      'email:reply_to_mismatch': {
        description: 'Replies go to a different registrable domain than the From address.',
        extension: true,
      },
      'email:return_path_mismatch': {
        description: 'The envelope sender (Return-Path) is on a different registrable domain than From.',
        extension: true,
      },
      'email:display_name_brand_spoof': {
        description: "The From display name names a trusted brand the sender's domain does not belong to.",
        extension: true,
      },
      'email:spf_fail': { description: 'Authentication-Results reports SPF fail or softfail.', extension: true },
      'email:dkim_fail': { description: 'Authentication-Results reports a failing DKIM signature.', extension: true },
      'email:dmarc_fail': { description: 'Authentication-Results reports DMARC fail.', extension: true },
      'email:dangerous_attachment': {
        description: 'An attachment that runs code or script when opened (executables, scripts, HTML, macros).',
        extension: true,
      },
      'email:archive_attachment': {
        description: 'An archive attachment whose contents are not inspected.',
        extension: true,
      },
      'email:malicious_link': {
        description: 'A link the fast URL check blocks (threat feed, or a high-risk destination).',
        extension: true,
      },
      'email:suspicious_link': {
        description: 'A link the fast URL check would hold for approval (a look-alike or lure address).',
        extension: true,
      },
      'email:link_text_mismatch': {
        description: 'A link whose visible text shows one domain while it points at another.',
        extension: true,
      },
    },
    timeoutMs: 1_000,
  },
  deps: { brands: BrandCatalog },
  create: ({ deps }) => ({
    detect(ctx) {
      const email = ctx.email;
      if (!email) return { findings: [] };
      const findings: Finding[] = [];
      const from = email.from;
      if (from) {
        const other = email.reply_to.find((r) => r.domain && r.domain !== from.domain);
        if (other) {
          findings.push({
            flag: 'email:reply_to_mismatch',
            detail: `Reply-To ${other.address} is not on ${from.domain}`,
          });
        }
        const rp = email.return_path;
        if (rp?.domain && rp.domain !== from.domain) {
          findings.push({
            flag: 'email:return_path_mismatch',
            detail: `Return-Path ${rp.address} is not on ${from.domain}`,
          });
        }
        if (from.name) {
          const named = [
            ...brandTokensIn(from.name, deps.brands.brands),
            ...lookalikeBrandTokensIn(from.name, deps.brands.brands),
          ];
          const owner = deps.brands.ownerOf(from.domain);
          const spoofed = named.find((hit) => hit.brand.id !== owner?.id);
          if (spoofed) {
            findings.push({
              flag: 'email:display_name_brand_spoof',
              detail: `display name "${from.name}" names ${spoofed.brand.name}, but ${from.domain} is not one of its domains`,
            });
          }
        }
      }
      const auth = email.authentication;
      for (const [method, flag] of [
        ['spf', 'email:spf_fail'],
        ['dkim', 'email:dkim_fail'],
        ['dmarc', 'email:dmarc_fail'],
      ] as const) {
        const result = auth[method];
        if (result && FAILING.has(result))
          findings.push({ flag, detail: `Authentication-Results: ${method}=${result}` });
      }
      for (const a of email.attachments) {
        const { risk, reason } = attachmentRisk(a.filename, a.content_type);
        if (risk === 'dangerous')
          findings.push({ flag: 'email:dangerous_attachment', detail: `${a.filename}: ${reason}` });
        if (risk === 'archive') findings.push({ flag: 'email:archive_attachment', detail: `${a.filename}: ${reason}` });
      }
      for (const link of email.links) {
        if (link.action === 'block') {
          findings.push({ flag: 'email:malicious_link', detail: `${link.url}: ${link.category}, ${link.risk} risk` });
        } else if (link.action === 'approval_required') {
          findings.push({ flag: 'email:suspicious_link', detail: `${link.url}: ${link.category}, ${link.risk} risk` });
        }
        if (link.text_domain && link.text_domain !== link.registrable_domain) {
          findings.push({
            flag: 'email:link_text_mismatch',
            detail: `the text shows ${link.text_domain} but the link goes to ${link.registrable_domain}`,
          });
        }
      }
      return { findings };
    },
  }),
});

export default detector;

/** Its one line in plugins/index.ts: the detector, the weights shipped beside it and any role it fills. */
export const plugin: PluginModule = { detector, weights };
