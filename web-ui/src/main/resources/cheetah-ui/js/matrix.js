// The Matrix page: what each entry point of the domain (URL, Service, PigeonService roots) costs per request: its
// requests and average time, and for SQL, Call and Cache the calls one request makes (average, CAT's min and max,
// the request with the most as a logview link), their average time and their share of the request time.
// Data: /api/v1/reports/matrix (matrix → ratio, times in µs).
import {
  el, replace, params, getJson, reportUrl, apiQuery, num, renderHeader, renderBar, showError, openDomain, page, fmt,
  logviewLink,
} from './common.js';
import { dataTable } from './table.js';

const KINDS = ['SQL', 'Call', 'Cache'];

/** One row per entry point, with per-kind figures flattened (sql_avg, call_max, …). */
function rows(matrices) {
  return matrices.map((m) => {
    const count = num(m.count);
    const totalMs = num(m.totalTime) / 1000;
    const row = { type: m.type, name: m.name, count, avg: count ? totalMs / count : 0, url: m.url };
    for (const kind of KINDS) {
      const r = (m.ratio || []).find((x) => x.type === kind) || {};
      const key = kind.toLowerCase();
      const calls = num(r.totalCount);
      const ms = num(r.totalTime) / 1000;
      row[key + '_avg'] = count ? calls / count : 0;
      row[key + '_min'] = num(r.min);
      row[key + '_max'] = num(r.max);
      row[key + '_url'] = r.url || null;
      row[key + '_time'] = calls ? ms / calls : 0;
      row[key + '_share'] = totalMs ? 100 * ms / totalMs : 0;
    }
    return row;
  });
}

function columns(domain) {
  const cols = [
    { key: 'type', label: 'Type', text: true, value: (r) => r.type, cls: () => 'nowrap' },
    { key: 'name', label: 'Name', text: true, value: (r) => r.name, cls: () => 'name',
      render: (r) => (r.url ? el('span', null, r.name, ' ', logviewLink(r.url, domain, '[:: show ::]')) : r.name) },
    { key: 'count', label: 'Requests', value: (r) => r.count, render: (r) => fmt.int(r.count) },
    { key: 'avg', label: 'Avg (ms)', value: (r) => r.avg, render: (r) => fmt.ms(r.avg) },
  ];
  for (const kind of KINDS) {
    const key = kind.toLowerCase();
    cols.push(
      // calls per request, then CAT's min–max of one request, the heaviest request as a logview link
      { key: key + '_avg', label: kind + ' / request', title: 'average (min–max) ' + kind + ' calls in one request',
        value: (r) => r[key + '_avg'],
        render: (r) => el('span', null, fmt.dec2(r[key + '_avg']) + ' (' + fmt.int(r[key + '_min']) + '–' +
          fmt.int(r[key + '_max']) + ')', r[key + '_url'] ? [' ', logviewLink(r[key + '_url'], domain, 'max')] : null) },
      { key: key + '_time', label: kind + ' avg (ms)', value: (r) => r[key + '_time'], render: (r) => fmt.ms(r[key + '_time']) },
      { key: key + '_share', label: kind + ' % time', title: 'share of the request time spent in ' + kind + ' calls',
        value: (r) => r[key + '_share'], render: (r) => fmt.pct(r[key + '_share']) },
    );
  }
  return cols;
}

async function main() {
  renderHeader('matrix');
  const pg = page('matrix');
  const p = params();
  const content = document.getElementById('content');
  try {
    const domains = await openDomain('matrix', p);
    const body = await getJson(reportUrl('matrix', apiQuery(p, { ip: null, type: null, name: null })));
    renderBar(pg, p, body.period, domains, [], { noMachine: true });
    const matrices = body.report ? body.report.matrix || [] : [];
    if (!matrices.length) {
      replace(content, el('p', { class: 'empty', id: 'empty' }, 'No URL or Service requests for domain ' + (p.domain || '') + ' in this period.'));
      document.body.dataset.ready = 'true';
      return;
    }
    replace(content,
      el('h2', null, 'Matrix ', el('span', { class: 'sub' }, p.domain + ' · ' + matrices.length + ' entry points')),
      dataTable({ id: 'matrix', columns: columns(p.domain), rows: rows(matrices), filterKey: 'name',
        sort: { key: 'count', desc: true }, filter: p.name || '' }));
    document.body.dataset.ready = 'true';
  } catch (e) {
    renderBar(pg, p, null, [], [], { noMachine: true });
    showError(e);
    document.body.dataset.ready = 'error';
  }
}

main();
