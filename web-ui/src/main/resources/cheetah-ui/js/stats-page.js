// The Transaction and Event pages: a type table, a type's name table (with TOTAL), and one name's minute
// charts, duration distribution and per-machine table. Data: /api/v1/reports/{analyzer}, CAT's report shape.
import {
  el, replace, params, link, getJson, reportUrl, apiQuery, fmt, num, renderHeader, renderBar, showError,
  openDomain, logviewLink, firstText, page, searchLink,
} from './common.js';
import { dataTable } from './table.js';
import { barChart, lineChart, MINUTES, perMinute } from './chart.js';

const BUCKETS = Array.from({ length: 17 }, (_, i) => Math.pow(2, i));
const TYPE_FIGURES = ['line50Value', 'line90Value', 'line95Value', 'line99Value', 'line999Value', 'line9999Value', 'std'];

function sampleCell(row, domain) {
  const id = firstText(row, 'failMessageUrl') || firstText(row, 'successMessageUrl');
  return id ? logviewLink(id, domain) : '';
}

/** Columns shared by type and name tables; `durations` adds the timing columns (transactions). */
function columns(config, p, level, totalCount) {
  const pg = page(config.id);
  const cols = [];
  if (level === 'type') {
    cols.push({ key: 'id', label: 'Type', text: true, value: (r) => r.id,
      render: (r) => el('a', { href: link(pg.path, { type: r.id, name: null }), class: 'type-link' }, r.id) });
  } else {
    cols.push({ key: 'id', label: 'Name', text: true, value: (r) => r.id,
      render: (r) => r.total ? 'TOTAL' : el('a', { href: link(pg.path, { name: r.id }), class: 'name-link' }, r.id) });
  }
  // each count links to the search listing exactly its trees (the type or name, the hour and machine shown)
  const search = (r, extra, label) => {
    const q = level === 'type' ? { type: r.id } : { type: p.type, name: r.total ? null : r.id };
    return num(label) > 0 ? searchLink(p.domain, config.period, p.ip, Object.assign(q, extra), fmt.int(label)) : fmt.int(label);
  };
  cols.push({ key: 'totalCount', label: 'Total', value: (r) => num(r.totalCount), render: (r) => search(r, {}, r.totalCount) });
  cols.push({ key: 'failCount', label: 'Failure', value: (r) => num(r.failCount), render: (r) => search(r, { status: 'fail' }, r.failCount),
    cls: (r) => (num(r.failCount) > 0 ? 'bad' : null) });
  cols.push({ key: 'failPercent', label: 'Failure%', value: (r) => num(r.failPercent), render: (r) => fmt.pct(r.failPercent) });
  cols.push({ key: 'sample', label: 'Sample Link', value: () => 0, render: (r) => (r.total ? '' : sampleCell(r, p.domain)) });
  if (config.durations) {
    const ms = (key, label, title) => cols.push({ key, label, title, value: (r) => num(r[key]), render: (r) => (r.total && r[key] === undefined ? '-' : fmt.ms(r[key])) });
    ms('min', 'Min(ms)');
    ms('max', 'Max(ms)');
    ms('avg', 'Avg(ms)');
    ms('line50Value', 'P50(ms)', '50th percentile');
    ms('line95Value', 'P95(ms)', '95th percentile (CAT 95Line)');
    ms('line99Value', 'P99(ms)', '99th percentile (shown by CAT as 99.9Line)');
    ms('line999Value', 'P99.9(ms)', '99.9th percentile');
    ms('std', 'Std(ms)');
  }
  cols.push({ key: 'tps', label: 'QPS', value: (r) => num(r.tps), render: (r) => fmt.dec2(r.tps) });
  if (level === 'name') {
    cols.push({ key: 'percent', label: 'Percent%', value: (r) => num(r.totalCount), render: (r) => fmt.pct(totalCount ? (100 * num(r.totalCount)) / totalCount : 0) });
  }
  return cols;
}

function totalRow(type, names, durations) {
  const total = { id: 'TOTAL', total: true, totalCount: 0, failCount: 0, tps: 0 };
  let sum = 0;
  for (const n of names) {
    total.totalCount += num(n.totalCount);
    total.failCount += num(n.failCount);
    total.tps += num(n.tps);
    sum += num(n.sum);
  }
  total.failPercent = total.totalCount ? (100 * total.failCount) / total.totalCount : 0;
  if (durations) {
    total.min = names.length ? Math.min(...names.map((n) => num(n.min))) : 0;
    total.max = names.length ? Math.max(...names.map((n) => num(n.max))) : 0;
    total.avg = total.totalCount ? sum / total.totalCount : 0;
    // percentiles and deviation do not add up over names: the type element carries them, from the type's merged
    // sketch and sums (CAT's TOTAL row is the type's own figures); a report without them keeps "-"
    for (const key of TYPE_FIGURES) {
      if (typeof type[key] === 'number') total[key] = type[key];
    }
  }
  return total;
}

function crumbs(config, p) {
  const pg = page(config.id);
  const parts = [el('a', { href: link(pg.path, { type: null, name: null }), id: 'crumb-all' }, 'All types')];
  if (p.type) {
    parts.push('›', p.name ? el('a', { href: link(pg.path, { name: null }), id: 'crumb-type' }, p.type) : el('span', { id: 'crumb-type' }, p.type));
  }
  if (p.name) parts.push('›', el('span', { id: 'crumb-name' }, p.name));
  return el('div', { class: 'crumbs' }, parts);
}

function typeView(config, p, types) {
  return [
    el('h2', null, config.label + ' types ', el('span', { class: 'sub' }, p.domain + ' · ' + (p.ip || 'All'))),
    dataTable({ id: 'types', columns: columns(config, p, 'type'), rows: types, filterKey: 'id', sort: { key: 'totalCount', desc: true } }),
  ];
}

function nameView(config, p, type) {
  const names = type.name || [];
  const total = totalRow(type, names, config.durations);
  return [
    el('h2', null, config.label + ' ', el('span', { class: 'sub' }, p.type + ' · ' + names.length + ' names')),
    dataTable({
      id: 'names', columns: columns(config, p, 'name', total.totalCount), rows: names, pinned: [total],
      filterKey: 'id', pageSize: 100, filter: p.queryname, sort: config.durations ? { key: 'avg', desc: true } : { key: 'totalCount', desc: true },
    }),
  ];
}

// History periods: one point per hour or day (CAT's history graphs) instead of minutes of one hour.
async function trendCharts(config, p, analyzer) {
  const trend = await getJson(reportUrl(analyzer, apiQuery(p), '/trend'));
  const unit = trend.step;
  const labels = trend.points.map((pt) => (unit === 'hour' ? pt.label.slice(8, 10) : pt.label.slice(4, 6) + '-' + pt.label.slice(6, 8)));
  const names = trend.points.map((pt) => {
    const machine = pt.report && (pt.report.machine || [])[0];
    const t = machine && (machine.type || [])[0];
    return (t && (t.name || [])[0]) || null;
  });
  const hits = names.map((n) => (n ? num(n.totalCount) : 0));
  const every = Math.max(1, Math.ceil(labels.length / 12));
  const charts = [barChart('chart-hits', 'Hits per ' + unit, labels, hits, { labelEvery: every })];
  if (config.durations) {
    charts.push(lineChart('chart-avg', 'Average duration per ' + unit + ' (ms)', labels, names.map((n) => (n && num(n.totalCount) ? num(n.avg) : null)), { labelEvery: every }));
  }
  charts.push(barChart('chart-fails', 'Failures per ' + unit, labels, names.map((n) => (n ? num(n.failCount) : 0)), { labelEvery: every, bad: true }));
  return charts;
}

async function nameDetailView(config, p, type, analyzer, period) {
  const name = (type.name || [])[0];
  if (!name) return [el('p', { class: 'empty' }, 'No such name in this period.')];
  let charts;
  if (period && period.kind !== 'hour') {
    charts = await trendCharts(config, p, analyzer);
  } else {
    const ranges = name.range || [];
    const hits = perMinute(ranges, 'count');
    const fails = perMinute(ranges, 'fails');
    charts = [barChart('chart-hits', 'Hits per minute', MINUTES, hits, { labelEvery: 5 })];
    if (config.durations) {
      const avg = perMinute(ranges, 'sum').map((s, i) => (hits[i] ? s / hits[i] : null));
      charts.push(lineChart('chart-avg', 'Average duration per minute (ms)', MINUTES, avg, { labelEvery: 5 }));
    }
    charts.push(barChart('chart-fails', 'Failures per minute', MINUTES, fails, { labelEvery: 5, bad: true }));
  }
  if (config.durations) {
    const counts = BUCKETS.map((b) => {
      const d = (name.duration || []).find((x) => num(x.value) === b);
      return d ? num(d.count) : 0;
    });
    charts.push(barChart('chart-distribution', 'Duration distribution (ms, ≤ bucket)', BUCKETS.map(String), counts, { labelEvery: 2 }));
  }
  const summary = el('dl', { class: 'kv', id: 'name-summary' },
    el('dt', null, 'Total'), el('dd', null, fmt.int(name.totalCount)),
    el('dt', null, 'Failures'), el('dd', null, fmt.int(name.failCount) + ' (' + fmt.pct(name.failPercent) + ')'),
    config.durations ? [el('dt', null, 'Avg / P95 / P99'), el('dd', null, fmt.ms(name.avg) + ' / ' + fmt.ms(name.line95Value) + ' / ' + fmt.ms(name.line99Value) + ' ms')] : null,
    el('dt', null, 'Sample'), el('dd', null, sampleCell(name, p.domain)));
  const out = [el('h2', null, p.name, ' ', el('span', { class: 'sub' }, p.type)), el('div', { class: 'panel-box' }, summary), el('div', { class: 'charts' }, charts)];
  const statuses = name.statusCode || [];
  if (statuses.length) {
    out.push(el('h2', null, 'Failure status'));
    out.push(dataTable({ id: 'statuses', rows: statuses, sort: { key: 'count', desc: true }, columns: [
      { key: 'id', label: 'Status', text: true },
      { key: 'count', label: 'Count', value: (r) => num(r.count), render: (r) => fmt.int(r.count) },
    ] }));
  }
  if (!p.ip || p.ip === 'All') {
    const machines = await getJson(reportUrl(analyzer, apiQuery(p), '/machines'));
    const rows = [];
    for (const m of machines.machines || []) {
      const machine = ((m.report && m.report.machine) || [])[0];
      const t = machine && (machine.type || [])[0];
      const n = t && (t.name || [])[0];
      if (n) rows.push(Object.assign({ ip: m.ip }, n));
    }
    const pg = page(config.id);
    const cols = [
      { key: 'ip', label: 'Machine', text: true, render: (r) => el('a', { href: link(pg.path, { ip: r.ip }) }, r.ip) },
      { key: 'totalCount', label: 'Total', value: (r) => num(r.totalCount), render: (r) => fmt.int(r.totalCount) },
      { key: 'failCount', label: 'Failure', value: (r) => num(r.failCount), render: (r) => fmt.int(r.failCount), cls: (r) => (num(r.failCount) > 0 ? 'bad' : null) },
      { key: 'failPercent', label: 'Failure%', value: (r) => num(r.failPercent), render: (r) => fmt.pct(r.failPercent) },
    ];
    if (config.durations) {
      for (const [key, label] of [['min', 'Min(ms)'], ['max', 'Max(ms)'], ['avg', 'Avg(ms)'], ['std', 'Std(ms)']]) {
        cols.push({ key, label, value: (r) => num(r[key]), render: (r) => fmt.ms(r[key]) });
      }
    }
    out.push(el('h2', null, 'By machine'));
    out.push(dataTable({ id: 'machines', rows, columns: cols, sort: { key: 'totalCount', desc: true } }));
  }
  return out;
}

/** Renders a Transaction-like page. config: { id, label, durations }. */
export async function statsPage(config) {
  renderHeader(config.id);
  const pg = page(config.id);
  const p = params();
  const content = document.getElementById('content');
  try {
    const domains = await openDomain(pg.analyzer, p);
    const body = await getJson(reportUrl(pg.analyzer, apiQuery(p)));
    const report = body.report;
    renderBar(pg, p, body.period, domains, report ? (report.ip || []) : []);
    if (!report) {
      replace(content, crumbs(config, p), el('p', { class: 'empty', id: 'empty' }, 'No ' + config.label.toLowerCase() + ' data for domain ' + p.domain + ' in this period.'));
      document.body.dataset.ready = 'true';
      return;
    }
    const machine = (report.machine || [])[0];
    const types = machine ? machine.type || [] : [];
    config.period = body.period;
    let view;
    if (!p.type) view = typeView(config, p, types);
    else if (!types.length) view = [el('p', { class: 'empty', id: 'empty' }, 'No type ' + p.type + ' in this period.')];
    else if (!p.name) view = nameView(config, p, types[0]);
    else view = await nameDetailView(config, p, types[0], pg.analyzer, body.period);
    replace(content, crumbs(config, p), view);
    document.body.dataset.ready = 'true';
  } catch (e) {
    renderBar(pg, p, null, [], []);
    showError(e);
    document.body.dataset.ready = 'error';
  }
}
