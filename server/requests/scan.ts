import { parseTarget, type Target, TargetError } from '../../core/engine/url/target.ts';
import { badRequest } from '../errors.ts';
import { compileBody } from './validation.ts';

export const scanBodySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    domain: { type: 'string', maxLength: 4096, description: 'Domain or URL to scan.' },
    url: { type: 'string', maxLength: 4096, description: 'Alias of domain.' },
    force_scan: { type: 'boolean', description: 'Bypass the cache (counts against the force-scan quota).' },
  },
} as const;

interface ScanBody {
  domain?: string;
  url?: string;
  force_scan?: boolean;
}

const parseBody = compileBody<ScanBody>(scanBodySchema);

// A scannable host: a dotted DNS name (letters, digits, hyphens; punycode welcome) or an IP literal.
const HOST_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** A domain, or a URL in `domain` (or `url`). A bare name without a dot, `localhost` and junk are 400. */
export function scanTargetOf(input: string): Target {
  let target: Target;
  try {
    target = parseTarget(input);
  } catch (err) {
    if (err instanceof TargetError) throw badRequest(`invalid domain: ${err.message}`);
    throw err;
  }
  if (target.isIp) return target;
  const labels = target.host.split('.');
  if (labels.length < 2 || !labels.every((l) => HOST_LABEL.test(l)) || target.host === 'localhost') {
    throw badRequest(`invalid domain: ${JSON.stringify(input.slice(0, 200))} is not a public host name`);
  }
  return target;
}

export function parseScanRequest(body: unknown): { target: Target; force_scan: boolean } {
  const parsed = parseBody(body);
  const input = parsed.domain ?? parsed.url;
  if (typeof input !== 'string' || input.trim() === '') {
    throw badRequest('domain is required: a domain or URL to scan (url is accepted as an alias)');
  }
  return { target: scanTargetOf(input), force_scan: parsed.force_scan ?? false };
}
