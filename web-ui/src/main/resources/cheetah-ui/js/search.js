// The Logview search page: every stored tree of a domain found by what it holds (GET /api/v1/logview/search,
// docs/openapi.yaml): a form whose fields are the URL's parameters (so a link shares a search, and the report
// tables link their counts here), a results table newest first whose rows open the tree's logview, and "Next page"
// following the answer's cursor. Times are shown in the browser's zone; the form's from/to are local date-times
// sent as epoch ms. Every value from the server is shown as text, never parsed as HTML.
import { el, replace, params, link, getJson, renderHeader, showError, page, logviewLink, fmt } from './common.js';
import { dataTable } from './table.js';

const HOUR = 3_600_000;
const FIELDS = [
  { key: 'type', label: 'Type', placeholder: 'URL, SQL, Error…' },
  { key: 'name', label: 'Name', placeholder: 'any transaction or event name' },
  { key: 'status', label: 'Status', placeholder: 'fail, ok or exact status' },
  { key: 'minMs', label: 'Min ms', placeholder: '' },
  { key: 'maxMs', label: 'Max ms', placeholder: '' },
  { key: 'ip', label: 'Client IP', placeholder: '' },
  { key: 'host', label: 'Client host', placeholder: '' },
];

/** epoch ms ⇄ the value of a datetime-local input (the browser's zone). */
function toLocal(ms) {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
}

function fromLocal(value) {
  const ms = new Date(value).getTime();
  return Number.isFinite(ms) ? String(ms) : '';
}

function timeOf(p, key, fallback) {
  const v = p[key];
  if (!v) return fallback;
  if (/^[0-9]+$/.test(v)) return Number(v);
  const ms = new Date(v).getTime();
  return Number.isFinite(ms) ? ms : fallback;
}

function form(p, pg) {
  const hour = Math.floor(Date.now() / HOUR) * HOUR;
  const from = timeOf(p, 'from', hour);
  const to = timeOf(p, 'to', from + HOUR);
  const inputs = {};
  const field = (key, label, attrs) => {
    inputs[key] = el('input', Object.assign({ id: 'search-' + key, name: key }, attrs));
    return el('label', { class: 'field' }, label, inputs[key]);
  };
  const domainList = el('datalist', { id: 'search-domains' });
  const fields = [
    field('domain', 'Domain', { required: true, value: p.domain || '', list: 'search-domains', autocomplete: 'off' }),
    field('from', 'From', { type: 'datetime-local', value: toLocal(from) }),
    field('to', 'To', { type: 'datetime-local', value: toLocal(to) }),
  ];
  for (const f of FIELDS) fields.push(field(f.key, f.label, { value: p[f.key] || '', placeholder: f.placeholder }));
  fields.push(field('limit', 'Per page', { type: 'number', min: 1, max: 1000, value: p.limit || 50 }));
  const go = el('button', { type: 'submit', id: 'search-go', class: 'btn' }, 'Search');
  const f = el('form', { id: 'search-form', class: 'search-form' }, fields, domainList, go);
  f.addEventListener('submit', (event) => {
    event.preventDefault();
    const changes = { cursor: null };
    for (const [key, input] of Object.entries(inputs)) {
      const value = input.value.trim();
      changes[key] = key === 'from' || key === 'to' ? fromLocal(value) : value;
    }
    location.href = link(pg.path, changes, {});
  });
  getJson('/api/v1/domains').then((body) => {
    for (const d of (body && body.domains) || []) domainList.appendChild(el('option', { value: d }));
  }).catch(() => {});
  return f;
}

function results(body, p, pg) {
  const trees = body.trees || [];
  const parts = [];
  if (body.partial) {
    parts.push(el('p', { class: 'warn', id: 'search-partial' },
      'The search reached its work bound: every tree after ' + new Date(body.scannedTo).toLocaleString() +
      ' was examined. Next page goes on from there.'));
  }
  parts.push(el('p', { class: 'sub', id: 'search-count' }, trees.length === 0 ? 'No tree matches.' :
    fmt.int(trees.length) + (trees.length === 1 ? ' tree' : ' trees') + (p.cursor ? ' on this page' : '') + (body.next ? ' (more on the next page)' : '')));
  if (trees.length) {
    parts.push(dataTable({ id: 'search-results', rows: trees, sort: { key: 'timestamp', desc: true }, columns: [
      { key: 'timestamp', label: 'Time', value: (r) => r.timestamp, render: (r) => new Date(r.timestamp).toLocaleString() },
      { key: 'messageId', label: 'Message id', text: true, render: (r) => logviewLink(r.messageId, r.domain, r.messageId) },
      { key: 'ip', label: 'IP', text: true },
      { key: 'host', label: 'Host', text: true },
      { key: 'type', label: 'Type', text: true },
      { key: 'name', label: 'Name', text: true },
      { key: 'status', label: 'Status', text: true, cls: (r) => (r.status !== '0' ? 'bad' : null) },
      { key: 'durationMs', label: 'Duration(ms)', value: (r) => (r.durationMs === null ? -1 : r.durationMs),
        render: (r) => (r.durationMs === null ? '' : fmt.ms(r.durationMs)) },
    ] }));
  }
  const nav = [];
  if (p.cursor) nav.push(el('a', { class: 'btn', id: 'search-first', href: link(pg.path, { cursor: null }) }, 'First page'));
  if (body.next) nav.push(el('a', { class: 'btn', id: 'search-next', href: link(pg.path, { cursor: body.next }) }, 'Next page'));
  if (nav.length) parts.push(el('div', { class: 'pager' }, nav));
  return parts;
}

async function main() {
  renderHeader('search');
  const pg = page('search');
  const p = params();
  const content = document.getElementById('content');
  replace(document.getElementById('bar'));
  const f = form(p, pg);
  if (!p.domain) {
    replace(content, el('h2', null, 'Logview search'), f,
      el('p', { class: 'empty', id: 'empty' }, 'Choose a domain: every tree it stored can be found by type, name, status, duration, machine and time.'));
    document.body.dataset.ready = 'true';
    return;
  }
  try {
    const query = {};
    for (const key of ['domain', 'from', 'to', 'type', 'name', 'status', 'minMs', 'maxMs', 'ip', 'host', 'limit', 'cursor']) {
      if (p[key]) query[key] = p[key];
    }
    const body = await getJson(link('/api/v1/logview/search', null, query));
    replace(content, el('h2', null, 'Logview search ', el('span', { class: 'sub' }, p.domain)), f, results(body, p, pg));
    document.body.dataset.ready = 'true';
  } catch (e) {
    replace(content, el('h2', null, 'Logview search'), f, el('p', { class: 'error', id: 'error' }, 'Could not search: ' + e.message));
    document.body.dataset.ready = 'error';
  }
}

main();
