// Shared building blocks of the dashboard pages: safe DOM building (text nodes only, data is never parsed as HTML),
// URL parameters in CAT's names, the header, the domain / machine / hour bar, number formatting and fetch.

export const PAGES = [
  { id: 'transaction', label: 'Transaction', path: '/cat/r/t', analyzer: 'transaction' },
  { id: 'event', label: 'Event', path: '/cat/r/e', analyzer: 'event' },
  { id: 'problem', label: 'Problem', path: '/cat/r/p', analyzer: 'problem' },
  { id: 'heartbeat', label: 'Heartbeat', path: '/cat/r/h', analyzer: 'heartbeat' },
  { id: 'state', label: 'State', path: '/cat/r/state', analyzer: 'state' },
  { id: 'business', label: 'Business', path: '/cat/r/business', analyzer: 'business' },
  { id: 'top', label: 'Top', path: '/cat/r/top', analyzer: 'top' },
  { id: 'storage', label: 'Storage', path: '/cat/r/storage', analyzer: 'storage' },
  { id: 'matrix', label: 'Matrix', path: '/cat/r/matrix', analyzer: 'matrix' },
  { id: 'cross', label: 'Cross', path: '/cat/r/cross', analyzer: 'cross' },
  { id: 'dependency', label: 'Dependency', path: '/cat/r/dependency', analyzer: 'dependency' },
  { id: 'alerts', label: 'Alerts', path: '/cat/r/alerts', analyzer: null },
  { id: 'search', label: 'Logview search', path: '/cat/r/search', analyzer: null },
];

const MAX_PARAM = 1024;

/** Creates an element; attributes are set as attributes, children appended as nodes or text. */
export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  if (attrs) {
    for (const [key, value] of Object.entries(attrs)) {
      if (value === null || value === undefined || value === false) continue;
      if (key.startsWith('on')) throw new Error('no inline handlers');
      node.setAttribute(key, value === true ? '' : String(value));
    }
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else if (child instanceof Node) node.appendChild(child);
    else node.appendChild(document.createTextNode(String(child)));
  }
}

/** Replaces a container's content. */
export function replace(node, ...children) {
  node.replaceChildren();
  append(node, children);
}

/** The page's query parameters, each capped in length (they are client input too). */
export function params() {
  const out = {};
  for (const [key, value] of new URLSearchParams(location.search)) {
    out[key] = value.slice(0, MAX_PARAM);
  }
  return out;
}

/** A URL to `path` with the current parameters overridden by `changes` (null removes one). */
export function link(path, changes, base) {
  const merged = Object.assign({}, base || params(), changes || {});
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(merged)) {
    if (value !== null && value !== undefined && value !== '') query.set(key, value);
  }
  const text = query.toString();
  return text ? path + '?' + text : path;
}

/** Fetches JSON; a non-2xx answer becomes an Error carrying the server's reason and its HTTP `status`. */
export async function getJson(url) {
  const response = await fetch(url, { headers: { Accept: 'application/json' } });
  const text = await response.text();
  let body = null;
  try { body = text ? JSON.parse(text) : null; } catch (e) { body = null; }
  if (!response.ok) {
    const error = new Error((body && body.error) || ('HTTP ' + response.status));
    error.status = response.status;
    throw error;
  }
  return body;
}

/** API URL for a report. */
export function reportUrl(analyzer, query, suffix) {
  return link('/api/v1/reports/' + encodeURIComponent(analyzer) + (suffix || ''), null, query);
}

/** The parameters the API understands, taken from the page's. */
export function apiQuery(p, extra) {
  const q = {
    domain: p.domain, ip: p.ip, date: p.date, step: p.step, type: p.type, name: p.name,
  };
  if (p.op && p.op.startsWith('history')) {
    q.reportType = p.reportType || 'day';
    q.startDate = p.startDate; q.endDate = p.endDate;
  }
  return Object.assign(q, extra || {});
}

export function num(value) {
  const n = Number(value);
  return Number.isFinite(n) ? n : 0;
}

const INT = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const DEC = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const DEC2 = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const PCT = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 4 });

export const fmt = {
  int: (v) => INT.format(num(v)),
  ms: (v) => DEC.format(num(v)),
  dec2: (v) => DEC2.format(num(v)),
  pct: (v) => PCT.format(num(v)) + '%',
};

/** "2024051713" → "2024-05-17 13:00"; "20240517" → "2024-05-17". */
export function prettyDate(date) {
  if (!date) return '';
  const d = date.slice(0, 4) + '-' + date.slice(4, 6) + '-' + date.slice(6, 8);
  return date.length >= 10 ? d + ' ' + date.slice(8, 10) + ':00' : d;
}

/**
 * Builds the header with the page tabs; links keep domain and date. `fallback` gives values for parameters the
 * page's URL lacks (the logview takes the domain from its tree).
 */
export function renderHeader(pageId, fallback) {
  const p = params();
  for (const [key, value] of Object.entries(fallback || {})) if (!p[key] && value) p[key] = value;
  const keep = { domain: p.domain, date: p.date, ip: pageId === 'heartbeat' ? p.ip : null };
  const top = document.getElementById('top');
  replace(top,
    el('a', { class: 'brand', href: '/' }, 'Cheetah'),
    el('nav', null, PAGES.map((page) => el('a', {
      href: link(page.path, null, page.id === 'state' || page.id === 'top' ? { date: p.date } : keep),
      class: page.id === pageId ? 'active' : null,
      id: 'tab-' + page.id,
    }, page.label))));
}

/**
 * Builds the bar: domain picker with search, machine picker (All + each ip), hour navigation and the history
 * switches. `period` and `ips` come from the API's answer.
 */
export function renderBar(page, p, period, domains, ips, options) {
  const bar = document.getElementById('bar');
  const opts = options || {};
  const parts = [];
  if (!opts.noDomain) parts.push(domainPicker(page, p, domains));
  if (!opts.noMachine) parts.push(machinePicker(page, p, ips, opts.noAll));
  parts.push(hourNav(page, p, period));
  if (!opts.noHistory) parts.push(historyNav(page, p));
  replace(bar, parts);
}

function domainPicker(page, p, domains) {
  const current = p.domain;
  const search = el('input', { type: 'search', placeholder: 'Search domains…', id: 'domain-search', autocomplete: 'off' });
  const list = el('ul', { id: 'domain-list' });
  const items = domains.map((domain) => {
    const a = el('a', { href: link(page.path, { domain, ip: null, type: null, name: null }), class: domain === current ? 'current' : null }, domain);
    return { domain: domain.toLowerCase(), li: el('li', null, a) };
  });
  const render = () => {
    const q = search.value.trim().toLowerCase();
    replace(list, items.filter((i) => !q || i.domain.includes(q)).map((i) => i.li));
    if (list.childElementCount === 0) list.appendChild(el('li', { class: 'muted' }, 'no domain matches'));
  };
  search.addEventListener('input', render);
  search.addEventListener('keydown', (event) => {
    const first = list.querySelector('a');
    if (event.key === 'Enter' && first) location.href = first.getAttribute('href');
  });
  render();
  const details = el('details', { class: 'picker', id: 'domain-picker' },
    el('summary', { id: 'domain-current' }, current),
    el('div', { class: 'panel' }, search, list));
  details.addEventListener('toggle', () => { if (details.open) search.focus(); });
  return el('div', { class: 'group' }, el('label', null, 'Domain'), details);
}

function machinePicker(page, p, ips, noAll) {
  const select = el('select', { id: 'machine' });
  const current = p.ip || (noAll ? ips[0] : 'All');
  const choices = noAll ? ips : ['All'].concat(ips);
  for (const ip of choices) {
    const option = el('option', { value: ip }, ip);
    if (ip === current) option.selected = true;
    select.appendChild(option);
  }
  select.addEventListener('change', () => { location.href = link(page.path, { ip: select.value === 'All' ? null : select.value }); });
  return el('div', { class: 'group' }, el('label', { for: 'machine' }, 'Machine'), select);
}

function hourNav(page, p, period) {
  if (!period) return null;
  const history = period.kind !== 'hour';
  const range = period.kind === 'range';
  const base = { date: period.date, step: null };
  return el('div', { class: 'group' },
    el('label', null, history ? period.kind : 'Hour'),
    range ? null : el('a', { class: 'btn', id: 'prev', href: link(page.path, Object.assign({}, base, { step: -1 })), title: 'previous' }, '‹'),
    el('span', { class: 'hour', id: 'hour' }, range ? prettyDate(period.date) + ' – ' + prettyDate(period.last) : prettyDate(period.date)),
    period.live || range ? null : el('a', { class: 'btn', id: 'next', href: link(page.path, Object.assign({}, base, { step: 1 })), title: 'next' }, '›'),
    el('a', { class: 'btn', id: 'now', href: link(page.path, { date: null, step: null, op: null, reportType: null }) }, 'now'),
    period.live ? el('span', { class: 'live', id: 'live' }, '● live') : null);
}

function historyNav(page, p) {
  const current = p.op && p.op.startsWith('history') ? (p.startDate ? 'range' : (p.reportType || 'day')) : 'hour';
  const mk = (kind, label) => el('a', {
    class: 'btn' + (current === kind ? ' active' : ''), id: 'history-' + kind,
    href: kind === 'hour' ? link(page.path, { op: null, reportType: null, step: null, startDate: null, endDate: null })
      : link(page.path, { op: 'history', reportType: kind, step: null, startDate: null, endDate: null }),
  }, label);
  return el('div', { class: 'group' }, el('label', null, 'Period'),
    mk('hour', 'Hour'), mk('day', 'Day'), mk('week', 'Week'), mk('month', 'Month'), rangeForm(page, p));
}

// Any range: two dates and Go, sent as CAT's startDate / endDate (yyyyMMdd, end inclusive).
function rangeForm(page, p) {
  const iso = (d) => (d && d.length >= 8 ? d.slice(0, 4) + '-' + d.slice(4, 6) + '-' + d.slice(6, 8) : '');
  const from = el('input', { type: 'date', id: 'range-from', value: iso(p.startDate), 'aria-label': 'from' });
  const to = el('input', { type: 'date', id: 'range-to', value: iso(p.endDate), 'aria-label': 'to' });
  const go = el('button', { type: 'button', id: 'range-go', class: 'btn' }, 'Go');
  go.addEventListener('click', () => {
    if (!from.value || !to.value) return;
    location.href = link(page.path, { op: 'history', reportType: null, step: null, date: null,
      startDate: from.value.replaceAll('-', ''), endDate: to.value.replaceAll('-', '') });
  });
  return el('span', { class: 'range' + (p.startDate ? ' active' : '') }, from, '–', to, go);
}

/** Shows an error in the content area, as text. */
export function showError(error) {
  replace(document.getElementById('content'), el('p', { class: 'error', id: 'error' }, 'Could not load: ' + error.message));
}

/** The domains with `analyzer`'s data in the page's period and the busiest of them (errors: none, not a broken page). */
async function domainListing(analyzer, p) {
  try {
    const body = await getJson(link('/api/v1/domains', null, apiQuery(p, { analyzer, type: null, name: null, ip: null })));
    return { domains: body.domains || [], busiest: body.busiest || null };
  } catch (e) {
    return { domains: [], busiest: null };
  }
}

/** The list of domains for the picker. */
export async function loadDomains(analyzer, p) {
  return (await domainListing(analyzer, p)).domains;
}

// The last domain the user opened, kept in the browser so that a page opened without one returns to it.
const LAST_DOMAIN = 'cheetah.domain';

function lastDomain() {
  try { return localStorage.getItem(LAST_DOMAIN); } catch (e) { return null; }
}

function rememberDomain(domain) {
  try { localStorage.setItem(LAST_DOMAIN, domain); } catch (e) { /* storage disabled: the URL still carries it */ }
}

/**
 * Settles `p.domain` before a page asks for its report, so that a page never opens empty while domains report: the
 * URL's domain; else the last one the user opened, while it still has data in the period; else the period's
 * busiest; else the first listed (`cat` when none is). A chosen domain is written into the URL (a reload or a
 * shared link opens the same) and remembered. Returns the domain list for the picker.
 */
export async function openDomain(analyzer, p) {
  const listing = await domainListing(analyzer, p);
  if (!p.domain) {
    const last = lastDomain();
    p.domain = (last && listing.domains.includes(last)) ? last : (listing.busiest || listing.domains[0] || 'cat');
    history.replaceState(null, '', link(location.pathname, { domain: p.domain }));
  }
  rememberDomain(p.domain);
  return listing.domains;
}

/** Link to a logview by message id (the logview page belongs to /cat/r/m). */
export function logviewLink(messageId, domain, label) {
  return el('a', { href: '/cat/r/m/' + encodeURIComponent(messageId) + '?domain=' + encodeURIComponent(domain || ''), class: 'sample', title: messageId }, label || 'Log View');
}

/**
 * A link to the Logview search listing the trees behind a report count: `query` holds type, name, status or minMs;
 * the period (an hour, or any span of at most a day) and the machine shown (none for All) are added. Null when the
 * period spans more than a day (a search spans at most one).
 */
export function searchLink(domain, period, ip, query, label) {
  if (!period || !(period.end > period.start) || period.end - period.start > 86_400_000) return label;
  const q = Object.assign({ domain, from: period.start, to: period.end, ip: ip && ip !== 'All' ? ip : null }, query);
  return el('a', { href: link('/cat/r/search', q, {}), class: 'search-link', title: 'list these trees' }, label);
}

/** The first text of a CAT child element array (e.g. successMessageUrl). */
export function firstText(node, key) {
  const v = node && node[key];
  if (!Array.isArray(v) || v.length === 0) return null;
  return typeof v[0] === 'string' ? v[0] : (v[0].id || v[0].text || null);
}

/** A DOM id fragment from client text (chart ids): letters, digits, _ and - only, at most 80 characters. */
export function safeId(text) {
  return String(text).replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 80);
}

export function page(id) {
  return PAGES.find((p) => p.id === id);
}
