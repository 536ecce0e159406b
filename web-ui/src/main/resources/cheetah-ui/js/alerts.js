// The Alerts page: the alert history (docs/alerting.md): the rules' alerts when they start firing and when they
// resolve, and those CAT clients insert through /cat/r/alert?op=insert. Listed by minute, latest first, over a span
// of hours ending with the chosen hour (`hours`, default 24; `date` and `step` as on the other pages, default the
// current hour), filtered by domain, kind, level and status; every filter is a URL parameter, so a link shares the
// view. Each alert links to the report page of its domain and hour. Minutes and hours are the server's
// (storage.timeZone), as on the report pages. Contents come from clients and rule files: shown as text only, CAT's
// <br/> as a line break and any other markup verbatim, never parsed as HTML.
// Data: /api/v1/domains (the hour in the server's zone, and domains to suggest), /api/v1/alerts (404 when the
// server keeps no history: storage off).
import {
  el, replace, params, link, getJson, renderHeader, showError, page, prettyDate, fmt, PAGES,
} from './common.js';
import { dataTable } from './table.js';
import { barChart } from './chart.js';

const HOUR = 3_600_000;
const DEFAULT_HOURS = 24;
const MAX_HOURS = 720;
const DEFAULT_LIMIT = 1000;
const REFRESH_SECONDS = 60;
const SPANS = [1, 3, 6, 12, 24, 48, 168];
const KINDS = ['transaction', 'event', 'exception', 'heartbeat', 'business', 'network', 'database', 'system'];
const LEVELS = ['warning', 'error'];
const STATUSES = ['firing', 'resolved', 'inserted'];
// the report page of an alert's kind; any other kind opens the Transaction page
const REPORTS = {
  transaction: '/cat/r/t', event: '/cat/r/e', exception: '/cat/r/p', heartbeat: '/cat/r/h', business: '/cat/r/business',
};

/** The span in hours: a whole number from 1 to MAX_HOURS (default 24). */
function spanOf(p) {
  if (p.hours === undefined || p.hours === '') return DEFAULT_HOURS;
  const n = Number(p.hours);
  if (!/^[0-9]+$/.test(p.hours) || n < 1 || n > MAX_HOURS) {
    throw new Error('hours must be a whole number from 1 to ' + MAX_HOURS);
  }
  return n;
}

function spanLabel(hours) {
  return hours % 24 === 0 && hours > 24 ? hours / 24 + ' days' : hours + (hours === 1 ? ' hour' : ' hours');
}

/** A `yyyyMMddHH` moved by whole hours on the wall clock (labels only; the window itself is in epoch ms). */
function shiftHour(date, hours) {
  const t = Date.UTC(Number(date.slice(0, 4)), Number(date.slice(4, 6)) - 1, Number(date.slice(6, 8)),
    Number(date.slice(8, 10))) + hours * HOUR;
  return new Date(t).toISOString().slice(0, 13).replace(/[-T]/g, '');
}

/** The values of a comma list parameter. */
function list(value) {
  return String(value || '').split(',').map((v) => v.trim()).filter((v) => v);
}

/** A select of `choices` with All first; a value in the URL the list lacks is kept as an option of its own. */
function select(id, choices, current) {
  const node = el('select', { id, name: id.replace('filter-', '') });
  const values = current && !choices.includes(current) ? choices.concat([current]) : choices;
  node.appendChild(el('option', { value: '' }, 'All'));
  for (const value of values) {
    const option = el('option', { value }, value);
    if (value === current) option.selected = true;
    node.appendChild(option);
  }
  return node;
}

function group(label, id, ...controls) {
  return el('div', { class: 'group' }, el('label', { for: id }, label), controls);
}

/** The bar: the window (‹ span › now), then the filters, applied as URL parameters. */
function renderBar(pg, p, period, hours, domains) {
  const parts = [];
  if (period) {
    const base = { date: period.date, step: null };
    const first = shiftHour(period.date, 1 - hours);
    parts.push(el('div', { class: 'group' },
      el('label', null, 'Period'),
      el('a', { class: 'btn', id: 'prev', href: link(pg.path, Object.assign({}, base, { step: -hours })), title: 'previous ' + spanLabel(hours) }, '‹'),
      el('span', { class: 'hour', id: 'hour' }, prettyDate(first) + ' – ' + prettyDate(period.date).replace(/:00$/, ':59')),
      period.live ? null : el('a', { class: 'btn', id: 'next', href: link(pg.path, Object.assign({}, base, { step: hours })), title: 'next ' + spanLabel(hours) }, '›'),
      el('a', { class: 'btn', id: 'now', href: link(pg.path, { date: null, step: null }) }, 'now'),
      period.live ? el('span', { class: 'live', id: 'live' }, '● live') : null));
  } else {
    parts.push(el('div', { class: 'group' }, el('label', null, 'Period'),
      el('a', { class: 'btn', id: 'now', href: link(pg.path, { date: null, step: null }) }, 'now')));
  }
  const span = el('select', { id: 'filter-hours', name: 'hours' });
  for (const h of SPANS.includes(hours) ? SPANS : SPANS.concat([hours]).sort((a, b) => a - b)) {
    const option = el('option', { value: String(h) }, spanLabel(h));
    if (h === hours) option.selected = true;
    span.appendChild(option);
  }
  const domain = el('input', {
    type: 'search', id: 'filter-domain', name: 'domain', list: 'alert-domains', placeholder: 'All domains',
    autocomplete: 'off', value: p.domain || null,
  });
  const kind = select('filter-kind', KINDS, p.kind);
  const level = select('filter-level', LEVELS, p.level);
  const status = select('filter-status', STATUSES, p.status);
  const form = el('form', { class: 'filters', id: 'alert-filters' },
    group('Span', 'filter-hours', span),
    group('Domain', 'filter-domain', domain, el('datalist', { id: 'alert-domains' }, domains.map((d) => el('option', { value: d })))),
    group('Kind', 'filter-kind', kind),
    group('Level', 'filter-level', level),
    group('Status', 'filter-status', status),
    el('button', { type: 'submit', class: 'btn', id: 'filter-apply' }, 'Apply'),
    el('a', { class: 'btn', id: 'filter-clear', href: link(pg.path, { domain: null, kind: null, level: null, status: null }) }, 'Clear'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    location.href = link(pg.path, {
      hours: span.value === String(DEFAULT_HOURS) ? null : span.value,
      domain: domain.value.trim() || null, kind: kind.value || null, level: level.value || null, status: status.value || null,
    });
  });
  for (const control of [span, kind, level, status]) control.addEventListener('change', () => form.requestSubmit());
  parts.push(form);
  replace(document.getElementById('bar'), parts);
}

/** Content as text for a table cell: CAT's <br/> becomes a line break; nothing else is interpreted. */
function readable(content) {
  return content.replace(/<br\s*\/?>/gi, '\n');
}

/** An API alert as a row: its minute and hour in the server's zone, and its report page. */
function rowOf(a) {
  const minute = String(a.minute || '');
  const hour = minute.replace(/[^0-9]/g, '').slice(0, 10);
  const domain = String(a.domain || '');
  const kind = String(a.category || '');
  const path = REPORTS[kind.toLowerCase()] || REPORTS.transaction;
  const target = PAGES.find((pg) => pg.path === path);
  const content = String(a.content || '');
  return {
    time: Date.parse(a.alertTime) || 0, minute, hour, domain, kind, level: String(a.level || ''),
    status: String(a.status || ''), metric: String(a.metric || ''), content, text: readable(content),
    report: { label: target.label, href: link(path, null, { domain, date: hour }) },
  };
}

function summary(rows) {
  const count = (key, value) => rows.filter((r) => r[key] === value).length;
  const parts = [fmt.int(rows.length) + (rows.length === 1 ? ' alert' : ' alerts')];
  for (const s of STATUSES) if (count('status', s)) parts.push(fmt.int(count('status', s)) + ' ' + s);
  for (const l of LEVELS) if (count('level', l)) parts.push(fmt.int(count('level', l)) + ' ' + l + (count('level', l) === 1 ? '' : 's'));
  return parts.join(' · ');
}

/** Alerts per hour of the window (the rows shown). */
function hourChart(rows, period, hours) {
  const keys = Array.from({ length: hours }, (_, i) => shiftHour(period.date, i + 1 - hours));
  const index = new Map(keys.map((k, i) => [k, i]));
  const values = new Array(hours).fill(0);
  for (const r of rows) if (index.has(r.hour)) values[index.get(r.hour)] += 1;
  const labels = keys.map((k) => (k.endsWith('00') && hours > 24 ? k.slice(6, 8) + '/' : '') + k.slice(8, 10));
  return barChart('chart-hours', 'Alerts per hour', labels, values, { labelEvery: Math.max(1, Math.ceil(hours / 24)), bad: true });
}

function table(pg, rows) {
  return dataTable({ id: 'alerts', rows, filterKey: 'content', sort: { key: 'minute', desc: true }, columns: [
    { key: 'minute', label: 'Minute', text: true, value: (r) => r.time, render: (r) => r.minute, cls: () => 'nowrap mono' },
    { key: 'domain', label: 'Domain', text: true,
      render: (r) => el('a', { href: link(pg.path, { domain: r.domain }), class: 'domain-link', title: 'alerts of ' + r.domain }, r.domain) },
    { key: 'kind', label: 'Kind', text: true },
    { key: 'level', label: 'Level', text: true, cls: (r) => (r.level === 'error' ? 'bad' : null) },
    { key: 'status', label: 'Status', text: true, cls: (r) => (r.status === 'firing' ? 'bad' : (r.status === 'resolved' ? 'good' : null)) },
    { key: 'metric', label: 'Metric', text: true },
    { key: 'content', label: 'Content', text: true, value: (r) => r.content, render: (r) => r.text, cls: () => 'content' },
    { key: 'report', label: 'Report', text: true, value: (r) => r.report.label,
      render: (r) => el('a', { href: r.report.href, class: 'report-link', title: r.domain + ' ' + prettyDate(r.hour) }, r.report.label) },
  ] });
}

/** The window's alerts, filtered; null when the server keeps no alert history (no /api/v1/alerts: 404). */
async function alerts(p, period, hours) {
  const to = period.end;
  const query = {
    from: new Date(to - hours * HOUR).toISOString(), to: new Date(to).toISOString(),
    domain: p.domain, kind: p.kind, level: p.level, limit: p.limit || DEFAULT_LIMIT,
  };
  try {
    return await getJson(link('/api/v1/alerts', null, query));
  } catch (e) {
    if (e.status === 404) return null;
    throw e;
  }
}

// the hour the bar was drawn for: a refresh redraws it only when the live hour has moved on (not while one types)
let barHour = null;

function bar(pg, p, period, hours, domains) {
  if (barHour === period.date) return;
  barHour = period.date;
  renderBar(pg, p, period, hours, domains);
}

/** Loads and draws the window; the answer says whether the history exists and the window is the live one. */
async function load(pg, p, hours) {
  const day = await getJson(link('/api/v1/domains', null, { analyzer: 'transaction', date: p.date, step: p.step }));
  const period = day.period;
  const found = await alerts(p, period, hours);
  const content = document.getElementById('content');
  if (found === null) {
    bar(pg, p, period, hours, day.domains || []);
    replace(content, el('p', { class: 'empty', id: 'unavailable' },
      'Alert history is not available: this server keeps no alerts (it runs with storage.enabled=false). ' +
      'Alerts are stored, and listed here, only when storage is on; see docs/alerting.md.'));
    return { live: false };
  }
  const statuses = list(p.status);
  const all = found.map(rowOf);
  const rows = statuses.length ? all.filter((r) => statuses.includes(r.status)) : all;
  const domains = [...new Set((day.domains || []).concat(all.map((r) => r.domain)))].sort();
  bar(pg, p, period, hours, domains);
  const limit = Number(p.limit || DEFAULT_LIMIT);
  const truncated = found.length >= limit
    ? el('p', { class: 'muted', id: 'truncated' }, 'Only the latest ' + fmt.int(limit) + (limit === 1 ? ' alert' : ' alerts') + ' of the period are listed: '
      + 'narrow the filters or the period for the others.')
    : null;
  if (!rows.length) {
    replace(content, truncated, el('p', { class: 'empty', id: 'empty' }, 'No alerts in this period' +
      (p.domain || p.kind || p.level || p.status ? ' matching the filters.' : '.')));
  } else {
    replace(content,
      el('div', { class: 'charts' }, hourChart(rows, period, hours)),
      el('h2', null, 'Alerts ', el('span', { class: 'sub', id: 'summary' }, summary(rows))),
      truncated,
      table(pg, rows));
  }
  return { live: period.live };
}

async function main() {
  renderHeader('alerts');
  const pg = page('alerts');
  const p = params();
  try {
    const hours = spanOf(p);
    const shown = await load(pg, p, hours);
    if (shown.live) {
      document.body.dataset.refresh = String(REFRESH_SECONDS);
      setInterval(() => load(pg, p, hours).catch(showError), REFRESH_SECONDS * 1000);
    }
    document.body.dataset.ready = 'true';
  } catch (e) {
    renderBar(pg, p, null, DEFAULT_HOURS, []);
    showError(e);
    document.body.dataset.ready = 'error';
  }
}

main();
