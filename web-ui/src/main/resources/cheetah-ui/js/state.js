// The State page: this server's own figures. The `state` report (domain cat) is shown machine by machine —
// scalar fields as a list, repeated children as tables — and the server's /metrics counters (throughput,
// bytes, bad frames, loss by analyzer and priority, ring fill) as a searchable table.
import { el, replace, params, getJson, reportUrl, apiQuery, renderHeader, renderBar, page } from './common.js';
import { dataTable } from './table.js';

function scalars(node) {
  return Object.entries(node).filter(([, v]) => !Array.isArray(v) && typeof v !== 'object');
}

function renderNode(title, node, depth) {
  const parts = [el(depth === 0 ? 'h2' : 'h3', null, title)];
  const fields = scalars(node);
  if (fields.length) {
    parts.push(el('dl', { class: 'kv panel-box' }, fields.map(([k, v]) => [el('dt', null, k), el('dd', null, String(v))])));
  }
  for (const [key, value] of Object.entries(node)) {
    if (!Array.isArray(value) || !value.length) continue;
    if (typeof value[0] !== 'object') {
      parts.push(el('p', null, el('strong', null, key + ': '), value.join(', ')));
      continue;
    }
    const columns = [];
    for (const row of value) for (const [k] of scalars(row)) if (!columns.includes(k)) columns.push(k);
    parts.push(el('h3', null, key + ' (' + value.length + ')'));
    parts.push(dataTable({ id: 'state-' + key.replace(/[^A-Za-z0-9_-]/g, '_'), rows: value, pageSize: 60,
      columns: columns.map((k, i) => ({ key: k, label: k, text: i === 0 && typeof value[0][k] !== 'number',
        value: (r) => (r[k] === undefined ? '' : r[k]) })) }));
  }
  return el('section', null, parts);
}

/** Parses Prometheus text exposition into rows (name, labels, value). */
function metricsRows(text) {
  const out = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([A-Za-z_:][A-Za-z0-9_:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (m) out.push({ metric: m[1], labels: (m[2] || '').slice(1, -1), value: Number(m[3]) });
  }
  return out;
}

async function main() {
  renderHeader('state');
  const pg = page('state');
  const p = params();
  const content = document.getElementById('content');
  const parts = [];
  let period = null;
  try {
    const body = await getJson(reportUrl('state', apiQuery(p, { domain: 'cat', ip: null, type: null, name: null })));
    period = body.period;
    const machines = (body.report && body.report.machine) || [];
    if (machines.length) machines.forEach((m) => parts.push(renderNode('Server ' + (m.ip || ''), m, 0)));
    else parts.push(el('p', { class: 'empty', id: 'state-empty' }, 'No state report for this hour yet.'));
  } catch (e) {
    parts.push(el('p', { class: 'empty', id: 'state-empty' }, 'State report unavailable: ' + e.message));
  }
  try {
    const response = await fetch('/metrics');
    if (response.ok) {
      const rows = metricsRows(await response.text());
      parts.push(el('h2', null, 'Counters ', el('span', { class: 'sub' }, '/metrics')));
      parts.push(dataTable({ id: 'metrics', rows, filterKey: 'metric', pageSize: 200, sort: { key: 'metric', desc: false }, columns: [
        { key: 'metric', label: 'Metric', text: true },
        { key: 'labels', label: 'Labels', text: true },
        { key: 'value', label: 'Value', value: (r) => r.value },
      ] }));
    }
  } catch (e) {
    // no metrics endpoint mounted: the state report alone is shown
  }
  renderBar(pg, p, period, [], [], { noDomain: true, noMachine: true, noHistory: true });
  replace(content, parts);
  document.body.dataset.ready = 'true';
}

main();
