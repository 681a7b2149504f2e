// Where the target is hosted, as far as its name tells: a bare IP, a tenant of a curated free-hosting
// platform, a tenant of another shared (private-suffix) platform, or a dedicated host.
import type { FreeHostingMatch, HostingCatalog, Target } from '../../core/plugin-api.ts';

export type HostingTenancy = 'shared_multi_tenant' | 'dedicated_or_unknown';

export interface HostingSurface {
  host: string;
  /** Set when the host is an IP literal (in the normalised spelling `new URL` gives it). */
  ip?: string;
  hosting_tenancy: HostingTenancy;
  /** Curated free-hosting tenant (rules/hosting.json); the platform's own hosts never match. */
  freeHosting?: FreeHostingMatch;
  /** The multi-tenant suffix the host sits on (curated, or a private suffix of the Public Suffix List). */
  shared_hosting_suffix?: string;
}

/** Platform homepages reached as `www.<suffix>` are the platform, not a tenant called `www`. */
const PLATFORM_ALIASES: ReadonlySet<string> = new Set(['www']);

/** The curated free-hosting tenant `target` is, if it is one (never the platform itself). */
export function freeHostingTenant(target: Target, hosting: HostingCatalog): FreeHostingMatch | undefined {
  if (target.isIp || hosting.isPlatformHost(target.host)) return undefined;
  const match = hosting.freeHostingFor(target);
  if (!match || (PLATFORM_ALIASES.has(match.tenant) && target.host === match.tenantSite)) return undefined;
  return match;
}

/** A tenant of any multi-tenant platform: curated free hosting, or a private suffix of the Public Suffix List. */
function isSharedTenant(target: Target, hosting: HostingCatalog, freeHosting?: FreeHostingMatch): boolean {
  if (freeHosting) return true;
  const suffix = target.privateSuffix;
  if (!suffix || target.host === suffix || hosting.isPlatformHost(target.host)) return false;
  return target.site.endsWith(`.${suffix}`) && !PLATFORM_ALIASES.has(target.site.slice(0, -suffix.length - 1));
}

export function classifyHosting(target: Target, hosting: HostingCatalog): HostingSurface {
  const freeHosting = freeHostingTenant(target, hosting);
  const shared = isSharedTenant(target, hosting, freeHosting);
  const suffix = freeHosting?.suffix ?? target.privateSuffix;
  return {
    host: target.host,
    ...(target.isIp ? { ip: target.host } : {}),
    hosting_tenancy: shared ? 'shared_multi_tenant' : 'dedicated_or_unknown',
    ...(freeHosting ? { freeHosting } : {}),
    ...(shared && suffix ? { shared_hosting_suffix: suffix } : {}),
  };
}
