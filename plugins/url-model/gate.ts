// Which destinations the learned URL scorer judges at all. A brand's own property and a popular site's own host
// are not look-alikes whatever their names look like (`rr5---sn-p5qlsn76.googlevideo.com`), so they never reach
// the model, in training or in production; tenants of shared platforms always do.

import type { BrandCatalog, HostingCatalog, Target } from '../../core/plugin-api.ts';
import { brandOwning } from '../../core/plugin-api.ts';

export function isScorable(target: Target, ctx: { brands: BrandCatalog; hosting: HostingCatalog }): boolean {
  if (target.isIp) return true;
  // A listed platform's own front page (`https://netlify.app/`) is its operator's; tenants and paths are scored.
  if (ctx.brands.isListedFrontPage(target)) return false;
  if (ctx.hosting.freeHostingFor(target)) return true;
  if (brandOwning(target, ctx.brands)) return false;
  // Names the platform assigned (CDN distributions, cloud instances) carry none of a phisher's word choices.
  if (ctx.brands.isMachineNamed(target)) return false;
  return !ctx.brands.isPopularHost(target);
}
