// The Preflight web console: a small single-page app over the service's own JSON API. The session lives in an
// HttpOnly cookie that no script can read; the CSRF token is kept in memory only (it is not a credential by
// itself). Everything from the server is rendered as text nodes, never as HTML.

const main = document.getElementById('main');
let session = null;
let refreshTimer = null;

/** h('tag', {attr: value, onclick: fn}, ...children): a DOM element; strings become text nodes. */
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) el.append(c instanceof Node ? c : document.createTextNode(String(c ?? '')));
  return el;
}

async function api(method, path, body) {
  const headers = { Accept: 'application/json' };
  if (session?.csrf_token) headers['X-CSRF-Token'] = session.csrf_token;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(path, {
    method,
    headers,
    credentials: 'same-origin',
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  if (res.status === 204) return null;
  const data = await res.json().catch(() => ({}));
  if (res.status === 401 && path !== '/console/session') {
    session = null;
    location.hash = '#/sign-in';
  }
  if (!res.ok) throw new Error(data.message || `${method} ${path}: ${res.status}`);
  return data;
}

function table(columns, rows) {
  return h(
    'table',
    {},
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        columns.map((c) => h('th', {}, c.title)),
      ),
    ),
    h(
      'tbody',
      {},
      rows.map((row) =>
        h(
          'tr',
          {},
          columns.map((c) => h('td', {}, c.cell(row))),
        ),
      ),
    ),
  );
}

function render(...nodes) {
  main.replaceChildren(...nodes);
}

function failure(err) {
  return h('p', { class: 'error', role: 'alert' }, err.message);
}

function when(iso) {
  return iso ? new Date(iso).toISOString().replace('T', ' ').slice(0, 19) : '';
}

// ---- pages ----

function signInPage() {
  const input = h('input', { type: 'password', name: 'api_key', autocomplete: 'off', required: true, size: 48 });
  const status = h('p');
  const form = h(
    'form',
    {
      onsubmit: async (e) => {
        e.preventDefault();
        try {
          session = await api('POST', '/console/session', { api_key: input.value });
          input.value = '';
          if (location.hash === '#/') await route();
          else location.hash = '#/';
        } catch (err) {
          status.replaceChildren(failure(err));
        }
      },
    },
    h('label', {}, 'Admin API key', input),
    h('button', { type: 'submit' }, 'Sign in'),
  );
  render(
    h(
      'section',
      {},
      h('h1', {}, 'Sign in'),
      h('p', {}, 'Use an admin key of your workspace. The console keeps a session cookie, never the key.'),
      form,
      status,
    ),
  );
}

async function overviewPage() {
  const usage = await api('GET', '/usage?days=7');
  render(
    h(
      'section',
      {},
      h('h1', {}, `Workspace ${usage.workspace}`),
      h(
        'p',
        {},
        `Plan ${usage.plan}: ${usage.today.scan_quota_used} of ${usage.limits.scan_quota_daily} scans used today.`,
      ),
      table(
        [
          { title: 'Day', cell: (d) => d.day },
          { title: 'Checks', cell: (d) => Object.values(d.checks).reduce((a, b) => a + b, 0) },
          { title: 'Scans', cell: (d) => d.scans },
        ],
        usage.days,
      ),
    ),
  );
}

async function keysPage(shown) {
  const { keys } = await api('GET', '/keys');
  const role = h(
    'select',
    { name: 'role' },
    h('option', { value: 'agent' }, 'agent'),
    h('option', { value: 'admin' }, 'admin'),
  );
  const label = h('input', { name: 'label', placeholder: 'what uses it' });
  const status = h('div');
  const create = h(
    'form',
    {
      onsubmit: async (e) => {
        e.preventDefault();
        try {
          const created = await api('POST', '/keys', {
            role: role.value,
            ...(label.value ? { label: label.value } : {}),
          });
          await keysPage(created);
        } catch (err) {
          status.replaceChildren(failure(err));
        }
      },
    },
    h('label', {}, 'Role', role),
    h('label', {}, 'Label', label),
    h('button', { type: 'submit' }, 'Create key'),
  );
  const revoke = (k) =>
    k.revoked_at
      ? `revoked ${when(k.revoked_at)}`
      : h(
          'button',
          {
            type: 'button',
            'data-revoke': k.prefix,
            onclick: async () => {
              if (!confirm(`Revoke ${k.prefix}?`)) return;
              try {
                await api('DELETE', `/keys/${k.id}`);
                await keysPage();
              } catch (err) {
                status.replaceChildren(failure(err));
              }
            },
          },
          'Revoke',
        );
  render(
    h(
      'section',
      {},
      h('h1', {}, 'API keys'),
      shown
        ? h(
            'div',
            { id: 'new-key' },
            h('p', {}, `New ${shown.role} key ${shown.prefix}: copy it now, it is shown once.`),
            h('div', { class: 'secret' }, shown.key),
          )
        : '',
      create,
      status,
    ),
    h(
      'section',
      {},
      table(
        [
          { title: 'Prefix', cell: (k) => k.prefix },
          { title: 'Role', cell: (k) => k.role },
          { title: 'Label', cell: (k) => k.label ?? '' },
          { title: 'Created', cell: (k) => when(k.created_at) },
          { title: '', cell: revoke },
        ],
        keys,
      ),
    ),
  );
}

async function scansPage(params) {
  const filters = new URLSearchParams(params);
  const status = filters.get('status') ?? '';
  const domain = filters.get('domain') ?? '';
  const query = new URLSearchParams({ limit: '50', ...(status ? { status } : {}), ...(domain ? { domain } : {}) });
  const list = await api('GET', `/scan/jobs?${query}`);
  const target = h('input', { name: 'domain', placeholder: 'example.com or a URL', required: true, size: 40 });
  const message = h('div');
  const submit = h(
    'form',
    {
      id: 'submit-scan',
      onsubmit: async (e) => {
        e.preventDefault();
        try {
          await api('POST', '/scan_async', { domain: target.value });
          await scansPage(params);
        } catch (err) {
          message.replaceChildren(failure(err));
        }
      },
    },
    h('label', {}, 'Scan', target),
    h('button', { type: 'submit' }, 'Submit'),
  );
  const statusFilter = h(
    'select',
    { name: 'status' },
    ['', 'queued', 'running', 'done', 'failed', 'dead_letter'].map((s) =>
      h('option', { value: s, selected: s === status }, s || 'any status'),
    ),
  );
  const domainFilter = h('input', { name: 'domain', value: domain, placeholder: 'domain' });
  const filter = h(
    'form',
    {
      onsubmit: (e) => {
        e.preventDefault();
        const next = new URLSearchParams({
          ...(statusFilter.value ? { status: statusFilter.value } : {}),
          ...(domainFilter.value ? { domain: domainFilter.value } : {}),
        });
        location.hash = `#/scans?${next}`;
      },
    },
    h('label', {}, 'Status', statusFilter),
    h('label', {}, 'Domain', domainFilter),
    h('button', { type: 'submit' }, 'Filter'),
  );
  const counts = h(
    'p',
    { class: 'counts' },
    Object.entries(list.meta.counts).map(([k, v]) => h('span', {}, `${k}: ${v}`)),
  );
  render(
    h('section', {}, h('h1', {}, 'Scans'), submit, message),
    h(
      'section',
      {},
      filter,
      counts,
      table(
        [
          { title: 'Job', cell: (j) => h('a', { href: `#/scans/${j.scan_id}` }, String(j.scan_id)) },
          { title: 'Domain', cell: (j) => j.domain },
          { title: 'Status', cell: (j) => h('span', { class: 'job-status' }, j.status) },
          {
            title: 'Risk',
            cell: (j) =>
              j.result
                ? h('span', { class: `risk-${j.result.risk_level}` }, `${j.result.risk_level} (${j.result.score})`)
                : '',
          },
          { title: 'Queued', cell: (j) => when(j.queued_at) },
        ],
        list.jobs,
      ),
    ),
  );
  // A live list: poll while anything is still moving.
  if (list.jobs.some((j) => j.status === 'queued' || j.status === 'running')) {
    refreshTimer = setTimeout(() => route(), 1500);
  }
}

async function scanPage(id) {
  const job = await api('GET', `/scan/jobs/${encodeURIComponent(id)}`);
  if (job.status !== 'done') {
    render(
      h(
        'section',
        {},
        h('h1', {}, `Scan ${id}`),
        h('p', {}, `Status: ${job.status}`),
        job.error ? failure(new Error(job.error)) : '',
      ),
    );
    if (job.status === 'queued' || job.status === 'running') refreshTimer = setTimeout(() => route(), 1500);
    return;
  }
  const [r, { flags: explained }] = await Promise.all([
    api('GET', `/scan/jobs/${encodeURIComponent(id)}/scan`),
    api('GET', '/rules'),
  ]);
  const b = r.score_breakdown;
  const visual = r.detailed_results?.visual?.data ?? {};
  const packId = r.tabs?.detection?.evidencepack?.id;
  render(
    h(
      'section',
      {},
      h('h1', {}, r.domain),
      h(
        'p',
        {},
        'Risk ',
        h('span', { class: `risk-${r.risk_level}`, id: 'risk' }, `${r.risk_level} (${r.score})`),
        ` · ${r.target_url ?? ''}`,
      ),
      h(
        'p',
        {},
        packId
          ? h('a', { href: `/evidencepacks/${packId}`, download: `evidencepack-${packId}.json` }, 'Evidence pack')
          : '',
        ' · ',
        h('a', { href: `/reports/${r.scan_id ?? id}`, target: '_blank' }, 'PDF report'),
      ),
    ),
    h(
      'section',
      {},
      h('h2', {}, 'Score breakdown'),
      table(
        [
          { title: 'Category', cell: ([k]) => k },
          { title: 'Points', cell: ([, v]) => v },
        ],
        Object.entries(b.categories ?? {}),
      ),
      h('p', {}, `Raw total ${b.raw_total}, applied ${b.applied_score}, reconciles: ${b.reconciles}`),
      b.adjustments?.length
        ? table(
            [
              { title: 'Adjustment', cell: (a) => a.reason },
              { title: 'Detail', cell: (a) => a.detail },
              { title: 'From → to', cell: (a) => `${a.from} → ${a.to}` },
            ],
            b.adjustments,
          )
        : '',
    ),
    h(
      'section',
      { id: 'flags' },
      h('h2', {}, 'Flags'),
      table(
        [
          { title: 'Flag', cell: (f) => f },
          { title: 'What it means', cell: (f) => explained[f]?.description ?? describePrefix(explained, f) },
          { title: 'Weight', cell: (f) => explained[f]?.weight ?? '' },
        ],
        r.flags,
      ),
    ),
    h(
      'section',
      { id: 'timeline' },
      h('h2', {}, 'Redirect timeline'),
      table(
        [
          { title: 'Step', cell: (s) => s.step },
          { title: 'Kind', cell: (s) => s.kind },
          { title: 'Status', cell: (s) => s.status ?? '' },
          { title: 'Source', cell: (s) => s.source },
          { title: 'URL', cell: (s) => s.url },
        ],
        r.tabs?.redirect_timeline ?? [],
      ),
    ),
    h(
      'section',
      { id: 'screenshot' },
      h('h2', {}, 'Screenshot'),
      visual.screenshot_url
        ? h('img', { class: 'screenshot', src: visual.screenshot_url, alt: `Screenshot of ${r.domain}` })
        : h('p', {}, `No screenshot (${visual.degraded_reason ?? 'browser capture degraded'})`),
    ),
  );
}

function describePrefix(explained, flag) {
  const hit = Object.entries(explained).find(([k]) => flag.startsWith(k));
  return hit ? hit[1].description : '';
}

async function auditPage(params) {
  const q = new URLSearchParams(params);
  const inputs = {
    surface: h(
      'select',
      { name: 'surface' },
      ['', 'agent_content', 'agent_action', 'agent_tool_call', 'web_access'].map((s) =>
        h('option', { value: s, selected: s === (q.get('surface') ?? '') }, s || 'any surface'),
      ),
    ),
    outcome: h(
      'select',
      { name: 'outcome' },
      ['', 'allow', 'approval_required', 'block', 'warn'].map((s) =>
        h('option', { value: s, selected: s === (q.get('outcome') ?? '') }, s || 'any outcome'),
      ),
    ),
    actor: h('input', { name: 'actor', value: q.get('actor') ?? '', placeholder: 'actor' }),
  };
  const query = new URLSearchParams({ limit: '100' });
  for (const k of ['surface', 'outcome', 'actor']) if (q.get(k)) query.set(k, q.get(k));
  const { events } = await api('GET', `/audit/events?${query}`);
  const form = h(
    'form',
    {
      id: 'audit-filter',
      onsubmit: (e) => {
        e.preventDefault();
        const next = new URLSearchParams();
        for (const [k, el] of Object.entries(inputs)) if (el.value) next.set(k, el.value);
        location.hash = `#/audit?${next}`;
      },
    },
    h('label', {}, 'Surface', inputs.surface),
    h('label', {}, 'Outcome', inputs.outcome),
    h('label', {}, 'Actor', inputs.actor),
    h('button', { type: 'submit' }, 'Filter'),
  );
  render(
    h('section', {}, h('h1', {}, 'Audit events'), form),
    h(
      'section',
      {},
      h('p', { id: 'audit-count' }, `${events.length} events`),
      table(
        [
          { title: 'Time', cell: (e) => when(e.created_at) },
          { title: 'Surface', cell: (e) => e.surface },
          { title: 'Outcome', cell: (e) => h('span', { class: 'outcome' }, e.outcome) },
          { title: 'Actor', cell: (e) => e.actor ?? '' },
          { title: 'Endpoint', cell: (e) => e.endpoint },
          { title: 'Preview (redacted)', cell: (e) => e.prompt_preview },
        ],
        events,
      ),
    ),
  );
}

async function policyPage() {
  const policy = await api('GET', '/agent/policy');
  const lines = (list) => (list ?? []).join('\n');
  const parse = (text) =>
    text
      .split('\n')
      .map((s) => s.trim())
      .filter(Boolean);
  const mode = h(
    'select',
    { name: 'mode' },
    ['open', 'allowlist'].map((m) => h('option', { value: m, selected: m === policy.tool_policy.mode }, m)),
  );
  const allowed = h('textarea', { name: 'allowed_tools' }, lines(policy.tool_policy.allowed_tools));
  const denied = h('textarea', { name: 'denied_tools' }, lines(policy.tool_policy.denied_tools));
  const connectors = h(
    'textarea',
    { name: 'connectors', placeholder: 'empty: connector governance off' },
    lines(policy.connectors),
  );
  const highImpact = h('textarea', { name: 'high_impact_tools' }, lines(policy.high_impact_tools));
  const status = h('div');
  render(
    h(
      'section',
      {},
      h('h1', {}, 'Guardrail policy'),
      h(
        'form',
        {
          onsubmit: async (e) => {
            e.preventDefault();
            try {
              const c = parse(connectors.value);
              await api('PUT', '/agent/policy', {
                tool_policy: {
                  mode: mode.value,
                  allowed_tools: parse(allowed.value),
                  denied_tools: parse(denied.value),
                },
                connectors: c.length ? c : null,
                high_impact_tools: parse(highImpact.value),
              });
              status.replaceChildren(h('p', {}, 'Saved.'));
            } catch (err) {
              status.replaceChildren(failure(err));
            }
          },
        },
        h('label', {}, 'Tool policy mode', mode),
        h('label', {}, 'Allowed tools (one per line)', allowed),
        h('label', {}, 'Denied tools', denied),
        h('label', {}, 'Sanctioned connectors', connectors),
        h('label', {}, 'High-impact tools', highImpact),
        h('button', { type: 'submit' }, 'Save'),
      ),
      status,
    ),
  );
}

async function rulesPage() {
  const { ruleset_hash, rules } = await api('GET', '/rules');
  render(
    h(
      'section',
      {},
      h('h1', {}, 'Rules in effect'),
      h('p', {}, 'ruleset_hash ', h('code', { id: 'ruleset-hash' }, ruleset_hash)),
    ),
    ...Object.entries(rules).map(([name, value]) =>
      h('section', {}, h('h2', {}, name), h('pre', {}, JSON.stringify(value, null, 2))),
    ),
  );
}

// ---- routing ----

const PAGES = [
  [/^#\/api-keys$/, () => keysPage()],
  [/^#\/scans\/(\d+)$/, (m) => scanPage(m[1])],
  [/^#\/scans(?:\?(.*))?$/, (m) => scansPage(m[1] ?? '')],
  [/^#\/audit(?:\?(.*))?$/, (m) => auditPage(m[1] ?? '')],
  [/^#\/policy$/, () => policyPage()],
  [/^#\/rules$/, () => rulesPage()],
  [/^(#\/?)?$/, () => overviewPage()],
];

async function route() {
  clearTimeout(refreshTimer);
  const hash = location.hash;
  if (!session) {
    try {
      session = await api('GET', '/console/session');
    } catch {
      session = null;
    }
  }
  document.getElementById('nav').hidden = !session;
  document.getElementById('sign-out').hidden = !session;
  document.getElementById('who').textContent = session ? `${session.workspace} · ${session.key_prefix}` : '';
  if (!session) return signInPage();
  for (const a of document.querySelectorAll('nav a'))
    a.classList.toggle('active', hash.startsWith(a.getAttribute('href')) && a.getAttribute('href') !== '#/');
  for (const [pattern, page] of PAGES) {
    const m = pattern.exec(hash);
    if (m) {
      try {
        await page(m);
      } catch (err) {
        render(failure(err));
      }
      return;
    }
  }
  render(h('p', {}, 'No such page.'));
}

document.getElementById('sign-out').addEventListener('click', async () => {
  await api('DELETE', '/console/session').catch(() => {});
  session = null;
  location.hash = '#/sign-in';
  route();
});
window.addEventListener('hashchange', route);
route();
