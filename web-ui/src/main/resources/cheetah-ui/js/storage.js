// The Storage page: CAT's Database and Cache pages. For one store (a database, a cache, an RPC service) of the
// chosen kind, the calls each client domain made, per operation: count, average ms, errors and long calls (over
// 1,000 ms for SQL, 50 ms for caches, 100 ms for RPC); minute charts of the same figures; and for a database the
// SQL statements behind the calls. The store is CAT's `id` parameter and the kind its `type` (SQL, Cache, RPC);
// the report's domain is `<id>-<type>`, as CAT files it.
// Data: /api/v1/reports/storage (machine All → domain → operation(count avg sum error long-count) → segment(minute);
// domain → sql(id statement count)), /api/v1/domains?analyzer=storage for the stores of the hour.
import {
  el, replace, params, getJson, reportUrl, apiQuery, num, renderHeader, renderBar, showError, loadDomains, page, fmt,
  link,
} from './common.js';
import { dataTable } from './table.js';
import { lineChart, MINUTES } from './chart.js';

const KINDS = [
  { type: 'SQL', label: 'Database' },
  { type: 'Cache', label: 'Cache' },
  { type: 'RPC', label: 'RPC' },
];

function kindOf(p) {
  return KINDS.find((k) => k.type === p.type) || KINDS[0];
}

/** The stores of one kind among the report domains `<id>-<type>`. */
function storesOf(domains, type) {
  const suffix = '-' + type;
  return domains.filter((d) => d.endsWith(suffix)).map((d) => d.slice(0, -suffix.length)).sort();
}

function kindTabs(pg, kind, picker) {
  return el('div', { class: 'kinds', id: 'kinds' }, el('label', null, 'Kind'), KINDS.map((k) => el('a', {
    class: 'btn' + (k.type === kind.type ? ' active' : ''), id: 'kind-' + k.type,
    href: link(pg.path, { type: k.type, id: null, ip: null }),
  }, k.label)), picker || null);
}

function storePicker(pg, stores, current) {
  const select = el('select', { id: 'store' });
  for (const id of stores) {
    const option = el('option', { value: id }, id);
    if (id === current) option.selected = true;
    select.appendChild(option);
  }
  select.addEventListener('change', () => { location.href = link(pg.path, { id: select.value, ip: null }); });
  return el('span', null, el('label', { for: 'store' }, 'Store'), select);
}

function figures(node) {
  return { count: num(node.count), sum: num(node.sum), error: num(node.error), long: num(node['long-count']) };
}

function render(report, kind) {
  const machine = (report.machine || [])[0] || { domain: [] };
  const ops = (report.op || []).map(String);
  const rows = [];
  const statements = [];
  const perMinute = { count: new Array(60).fill(0), sum: new Array(60).fill(0), error: new Array(60).fill(0), long: new Array(60).fill(0) };
  for (const domain of machine.domain || []) {
    const row = { domain: domain.id, total: { count: 0, sum: 0, error: 0, long: 0 }, ops: {} };
    for (const op of domain.operation || []) {
      const f = figures(op);
      row.ops[op.id] = f;
      for (const k of Object.keys(row.total)) row.total[k] += f[k];
      for (const segment of op.segment || []) {
        const m = num(segment.id);
        if (m < 0 || m >= 60) continue;
        const s = figures(segment);
        for (const k of Object.keys(perMinute)) perMinute[k][m] += s[k];
      }
    }
    rows.push(row);
    for (const sql of domain.sql || []) {
      statements.push({ domain: domain.id, id: String(sql.id), statement: String(sql.statement || ''), count: num(sql.count) });
    }
  }
  const avg = (f) => (f && f.count ? f.sum / f.count : 0);
  const columns = [
    { key: 'domain', label: 'Domain', text: true },
    { key: 'count', label: 'Calls', value: (r) => r.total.count, render: (r) => fmt.int(r.total.count) },
    { key: 'avg', label: 'Avg (ms)', value: (r) => avg(r.total), render: (r) => fmt.ms(avg(r.total)) },
    { key: 'error', label: 'Errors', value: (r) => r.total.error, render: (r) => fmt.int(r.total.error), cls: (r) => (r.total.error ? 'bad' : null) },
    { key: 'long', label: 'Long', value: (r) => r.total.long, render: (r) => fmt.int(r.total.long), title: 'calls over ' + kind.long + ' ms' },
  ];
  for (const op of ops) {
    const f = (r) => r.ops[op] || { count: 0, sum: 0, error: 0, long: 0 };
    columns.push({ key: 'op-' + op + '-count', label: op, title: op + ' calls', value: (r) => f(r).count, render: (r) => fmt.int(f(r).count) });
    columns.push({ key: 'op-' + op + '-avg', label: op + ' avg', title: op + ' average ms', value: (r) => avg(f(r)), render: (r) => fmt.ms(avg(f(r))) });
    columns.push({ key: 'op-' + op + '-error', label: op + ' err', title: op + ' errors', value: (r) => f(r).error, render: (r) => fmt.int(f(r).error) });
    columns.push({ key: 'op-' + op + '-long', label: op + ' long', title: op + ' long calls', value: (r) => f(r).long, render: (r) => fmt.int(f(r).long) });
  }
  // minutes without calls are left out of the lines rather than drawn as zeros
  const seen = (values) => values.map((v, i) => (perMinute.count[i] ? v : null));
  const minuteAvg = perMinute.count.map((c, i) => (c ? perMinute.sum[i] / c : null));
  const parts = [
    el('div', { class: 'charts' },
      lineChart('chart-count', 'Calls per minute', MINUTES, seen(perMinute.count), { labelEvery: 5, format: fmt.int }),
      lineChart('chart-avg', 'Average ms per minute', MINUTES, minuteAvg, { labelEvery: 5 }),
      lineChart('chart-error', 'Errors per minute', MINUTES, seen(perMinute.error), { labelEvery: 5, format: fmt.int }),
      lineChart('chart-long', 'Long calls per minute', MINUTES, seen(perMinute.long), { labelEvery: 5, format: fmt.int })),
    el('h2', null, 'Calls by domain ', el('span', { class: 'sub' }, ops.length + ' operations')),
    dataTable({ id: 'storage-domains', rows, filterKey: 'domain', sort: { key: 'count', desc: true }, columns }),
  ];
  if (statements.length) {
    parts.push(el('h2', null, 'SQL statements'),
      dataTable({ id: 'storage-sql', rows: statements, filterKey: 'statement', sort: { key: 'count', desc: true }, columns: [
        { key: 'domain', label: 'Domain', text: true },
        { key: 'id', label: 'Name', text: true },
        { key: 'count', label: 'Count', value: (r) => r.count, render: (r) => fmt.int(r.count) },
        { key: 'statement', label: 'Statement', text: true, render: (r) => el('code', null, r.statement) },
      ] }));
  }
  return parts;
}

async function main() {
  renderHeader('storage');
  const pg = page('storage');
  const p = params();
  const kind = Object.assign({ long: { SQL: 1000, Cache: 50, RPC: 100 }[kindOf(p).type] }, kindOf(p));
  const content = document.getElementById('content');
  try {
    const stores = storesOf(await loadDomains('storage', Object.assign({}, p, { domain: 'cat' })), kind.type);
    const id = stores.includes(p.id) ? p.id : stores[0];
    if (!id) {
      const body = await getJson(reportUrl('storage', apiQuery(p, { domain: 'none-' + kind.type, ip: null, type: null, name: null })));
      renderBar(pg, p, body.period, [], [], { noDomain: true, noMachine: true, noHistory: true });
      replace(content, kindTabs(pg, kind), el('p', { class: 'empty', id: 'empty' }, 'No ' + kind.label.toLowerCase() + ' calls in this period.'));
      document.body.dataset.ready = 'true';
      return;
    }
    const body = await getJson(reportUrl('storage', apiQuery(p, { domain: id + '-' + kind.type, type: null, name: null })));
    const report = body.report || {};
    renderBar(pg, p, body.period, [], (report.ip || []).map(String), { noDomain: true });
    replace(content, kindTabs(pg, kind, storePicker(pg, stores, id)),
      el('h2', null, kind.label + ' ', el('span', { id: 'store-name' }, id)),
      render(report, kind));
    document.body.dataset.ready = 'true';
  } catch (e) {
    renderBar(pg, p, null, [], [], { noDomain: true, noMachine: true, noHistory: true });
    showError(e);
    document.body.dataset.ready = 'error';
  }
}

main();
