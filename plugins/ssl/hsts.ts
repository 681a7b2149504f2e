import type { FetchResult, Finding } from '../../core/plugin-api.ts';

/**
 * Judges only a page that was fetched to its end over HTTPS: a chain that broke, looped or ran out of hops did
 * not show us the final response, and a plain-HTTP site is a different problem from a missing header.
 */
export function missingHstsFinding(page: FetchResult, minMaxAgeSeconds: number): Finding | undefined {
  const final = page.final;
  if (!final || page.stopped !== 'final' || !final.url.startsWith('https:')) return undefined;
  if (page.hsts && page.hsts.max_age >= minMaxAgeSeconds) return undefined;
  const header = final.headers['strict-transport-security'];
  const why = header
    ? `its Strict-Transport-Security header ("${header.slice(0, 120)}") does not keep browsers on HTTPS`
    : 'it sends no Strict-Transport-Security header';
  return {
    flag: 'ssl:missing_hsts',
    detail: `The final HTTPS response (${final.url}) ${why}, so a visitor can be downgraded to plain HTTP.`,
    evidence: { final_url: final.url, status: final.status, ...(header ? { header } : {}) },
  };
}
