// The Cross page: whom the domain calls and who calls it, per local machine and remote end, as CAT's cross report
// counts them: the services it called (role Pigeon.Server), the callers seen from their own trees (Pigeon.Caller) and
// the clients its services saw (Pigeon.Client), each with calls, failures, average time and calls per second; the
// remote end's domain links to its own Cross page. Each list comes first summed by remote domain and role (as CAT's
// project view; a caller's and a client's view of the same calls are never added together), then per machine. A last
// table lists the calls by method.
// Data: /api/v1/reports/cross (local → remote → type → name; sum in ms).
import {
  el, replace, params, getJson, reportUrl, apiQuery, num, renderHeader, renderBar, showError, openDomain, page, fmt,
  link,
} from './common.js';
import { dataTable } from './table.js';

function first(value) {
  return Array.isArray(value) ? value[0] : value;
}

function figures(node) {
  const total = num(node.totalCount);
  return { total, fail: num(node.failCount), failPercent: num(node.failPercent), avg: num(node.avg), tps: num(node.tps) };
}

function appLink(app) {
  if (!app || app === 'unknown') return app || '';
  return el('a', { href: link('/cat/r/cross', { domain: app, ip: null, type: null, name: null }), class: 'app' }, app);
}

const FIGURES = [
  { key: 'total', label: 'Calls', value: (r) => r.total, render: (r) => fmt.int(r.total) },
  { key: 'fail', label: 'Failures', value: (r) => r.fail, render: (r) => fmt.int(r.fail) },
  { key: 'failPercent', label: 'Fail %', value: (r) => r.failPercent, render: (r) => fmt.dec2(r.failPercent) },
  { key: 'avg', label: 'Avg (ms)', value: (r) => r.avg, render: (r) => fmt.dec2(r.avg) },
  { key: 'tps', label: 'TPS', value: (r) => r.tps, render: (r) => fmt.dec2(r.tps) },
];

/** The rows summed per remote domain and role: calls, failures and calls per second add up, the average is weighted. */
function byDomain(rows) {
  const sums = new Map();
  for (const r of rows) {
    const key = r.app + '\u0000' + r.role;
    const s = sums.get(key) || { app: r.app, role: r.role, total: 0, fail: 0, sum: 0, tps: 0 };
    s.total += r.total; s.fail += r.fail; s.sum += r.avg * r.total; s.tps += r.tps;
    sums.set(key, s);
  }
  return [...sums.values()].map((s) => Object.assign(s, {
    avg: s.total ? s.sum / s.total : 0, failPercent: s.total ? 100 * s.fail / s.total : 0,
  }));
}

function domainTable(id, rows) {
  return dataTable({
    id,
    rows: byDomain(rows),
    filterKey: 'app',
    sort: { key: 'total', desc: true },
    columns: [
      { key: 'app', label: 'Domain', text: true, render: (r) => appLink(r.app) },
      { key: 'role', label: 'Role', text: true, cls: () => 'nowrap' },
      ...FIGURES,
    ],
  });
}

function domainCount(rows) {
  const n = new Set(rows.map((r) => r.app)).size;
  return n + (n === 1 ? ' domain' : ' domains');
}

function endpointTable(id, rows) {
  return dataTable({
    id,
    rows,
    filterKey: 'remote',
    sort: { key: 'total', desc: true },
    columns: [
      { key: 'local', label: 'Local', text: true, cls: () => 'nowrap' },
      { key: 'remote', label: 'Remote', text: true, cls: () => 'nowrap' },
      { key: 'role', label: 'Role', text: true, cls: () => 'nowrap' },
      { key: 'app', label: 'Domain', text: true, render: (r) => appLink(r.app) },
      ...FIGURES,
    ],
  });
}

async function main() {
  renderHeader('cross');
  const pg = page('cross');
  const p = params();
  const content = document.getElementById('content');
  try {
    const domains = await openDomain('cross', p);
    const body = await getJson(reportUrl('cross', apiQuery(p, { ip: null, type: null, name: null })));
    renderBar(pg, p, body.period, domains, [], { noMachine: true });
    const callees = [];
    const callers = [];
    const methods = [];
    for (const local of (body.report && body.report.local) || []) {
      for (const remote of local.remote || []) {
        const type = first(remote.type) || {};
        const row = Object.assign({ local: local.id, remote: remote.ip, role: remote.role, app: remote.app, type: type.id }, figures(type));
        (remote.role === 'Pigeon.Server' ? callees : callers).push(row);
        for (const name of type.name || []) {
          methods.push(Object.assign({ local: local.id, remote: remote.ip, role: remote.role, app: remote.app, method: name.id }, figures(name)));
        }
      }
    }
    if (!callees.length && !callers.length) {
      replace(content, el('p', { class: 'empty', id: 'empty' }, 'No remote calls for domain ' + (p.domain || '') + ' in this period.'));
      document.body.dataset.ready = 'true';
      return;
    }
    replace(content,
      el('h2', null, 'Cross ', el('span', { class: 'sub' }, p.domain + ' · calls ' + domainCount(callees) + ', called by ' + domainCount(callers))),
      el('h3', null, 'Services this domain calls'),
      callees.length ? domainTable('cross-callee-domains', callees) : el('p', { class: 'empty', id: 'no-callees' }, 'None.'),
      el('h3', null, 'Callers of this domain'),
      callers.length ? domainTable('cross-caller-domains', callers) : el('p', { class: 'empty', id: 'no-callers' }, 'None.'),
      callees.length ? el('h3', null, 'Services this domain calls, per machine') : null,
      callees.length ? endpointTable('cross-callees', callees) : null,
      callers.length ? el('h3', null, 'Callers of this domain, per machine') : null,
      callers.length ? endpointTable('cross-callers', callers) : null,
      el('h3', null, 'By method'),
      dataTable({
        id: 'cross-methods',
        rows: methods,
        filterKey: 'method',
        sort: { key: 'total', desc: true },
        columns: [
          { key: 'method', label: 'Method', text: true, cls: () => 'name' },
          { key: 'remote', label: 'Remote', text: true, cls: () => 'nowrap' },
          { key: 'role', label: 'Role', text: true, cls: () => 'nowrap' },
          { key: 'app', label: 'Domain', text: true, render: (r) => appLink(r.app) },
          ...FIGURES,
        ],
      }));
    document.body.dataset.ready = 'true';
  } catch (e) {
    renderBar(pg, p, null, [], [], { noMachine: true });
    showError(e);
    document.body.dataset.ready = 'error';
  }
}

main();
