// Reading URL parameters under a fixed budget: query strings and fragments are attacker-controlled and can be
// arbitrarily long, so every consumer goes through these caps.

/** Longer query strings or fragments are cut before parsing; an authorize flow fits easily. */
export const MAX_PARAM_SOURCE_CHARS = 16_384;
/** Parameters beyond this count are ignored (parameter stuffing only hides, it never adds meaning). */
export const MAX_PARAMS = 128;

export interface UrlParam {
  name: string;
  value: string;
  from: 'query' | 'fragment';
}

/** Fragments carry parameters in implicit flows (`#access_token=…`) and in SPA routes (`#/cb?code=…`). */
function fragmentQuery(hash: string): string {
  const body = hash.startsWith('#') ? hash.slice(1) : hash;
  const question = body.indexOf('?');
  if (question >= 0) return body.slice(question + 1);
  return body.includes('=') ? body : '';
}

/** Parses a query string (without `?`) into at most MAX_PARAMS parameters. */
export function parseQuery(query: string, from: UrlParam['from'] = 'query'): UrlParam[] {
  const params: UrlParam[] = [];
  for (const [name, value] of new URLSearchParams(query.slice(0, MAX_PARAM_SOURCE_CHARS))) {
    if (params.length >= MAX_PARAMS) break;
    params.push({ name, value, from });
  }
  return params;
}

/** The parameters of the query string and of the fragment, in that order. */
export function urlParams(url: URL): UrlParam[] {
  const query = parseQuery(url.search.slice(1), 'query');
  const fragment = parseQuery(fragmentQuery(url.hash), 'fragment');
  return [...query, ...fragment].slice(0, MAX_PARAMS);
}

/** Values of the parameter called `name` (OAuth parameter names are case-sensitive; phishing kits are not). */
export function paramValues(params: readonly UrlParam[], name: string): string[] {
  return params.filter((p) => p.name.toLowerCase() === name).map((p) => p.value);
}
