// The Problem page: entities by type and status with sample links, thread groups, and problems per minute.
// Data: /api/v1/reports/problem (CAT's problem-report: machine → entity(type, status) → duration, thread → segment).
import {
  el, replace, params, link, getJson, reportUrl, apiQuery, fmt, num, renderHeader, renderBar, showError,
  openDomain, logviewLink, page, searchLink,
} from './common.js';
import { dataTable } from './table.js';
import { barChart, MINUTES } from './chart.js';

const SAMPLES_SHOWN = 10;
// The search behind a problem count (the Problem analyzer's entities): a failed transaction is its type with the
// name as status; an error is a failed event named by the exception; a long execution is a transaction of the family's
// type and that name at least as slow as its duration key. Heartbeats and families of several types link nowhere.
const LONG_TYPES = { 'long-url': 'URL', 'long-sql': 'SQL', 'long-call': 'Call', 'long-service': 'Service' };

function problemSearch(r) {
  if (r.type === 'error') return { name: r.status, status: 'fail' };
  if (r.type === 'heartbeat' || r.type === 'long-cache') return null;
  if (Object.prototype.hasOwnProperty.call(LONG_TYPES, r.type)) {
    return { type: LONG_TYPES[r.type], name: r.status, minMs: r.minDuration > 0 && r.minDuration < Infinity ? r.minDuration : null };
  }
  return { type: r.type, name: r.status, status: 'fail' };
}

function messageId(m) {
  return typeof m === 'string' ? m : (m && (m.id || m.text)) || null;
}

/** Folds a machine's entities into rows: one per type:status, with counts, samples, threads and minutes. */
function rows(machine, typeFilter) {
  const out = [];
  for (const entity of machine.entity || []) {
    if (typeFilter && entity.type !== typeFilter) continue;
    const row = { type: entity.type || '', status: entity.status || '', count: 0, samples: [], minutes: new Array(60).fill(0), threads: new Map() };
    row.minDuration = Infinity;
    for (const d of entity.duration || []) {
      row.count += num(d.count);
      row.minDuration = Math.min(row.minDuration, num(d.value !== undefined ? d.value : d.id));
      for (const m of d.message || []) if (row.samples.length < 60 && messageId(m)) row.samples.push(messageId(m));
    }
    for (const t of entity.thread || []) {
      const group = t['group-name'] || t.id || '';
      let n = 0;
      for (const s of t.segment || []) {
        const minute = num(s.id);
        if (minute >= 0 && minute < 60) row.minutes[minute] += num(s.count);
        n += num(s.count);
      }
      row.threads.set(group, (row.threads.get(group) || 0) + n);
    }
    out.push(row);
  }
  return out;
}

// One link per sample message id, numbered 1, 2, … (CAT's page also gives each sample its own link); the id is
// the link's title.
function samples(row, domain) {
  return el('span', { class: 'samples' }, row.samples.slice(0, SAMPLES_SHOWN).map((id, i) => logviewLink(id, domain, String(i + 1))));
}

async function main() {
  renderHeader('problem');
  const pg = page('problem');
  const p = params();
  const content = document.getElementById('content');
  try {
    const domains = await openDomain('problem', p);
    const body = await getJson(reportUrl('problem', apiQuery(p, { type: null, name: null, queryType: 'detail' })));
    const report = body.report;
    const period = body.period;
    renderBar(pg, p, period, domains, report ? report.ip || [] : []);
    if (!report || !(report.machine || []).length) {
      replace(content, el('p', { class: 'empty', id: 'empty' }, 'No problems for domain ' + p.domain + ' in this period.'));
      document.body.dataset.ready = 'true';
      return;
    }
    const machine = report.machine[0];
    const all = rows(machine, null);
    const shown = p.type ? all.filter((r) => r.type === p.type) : all;
    const byType = new Map();
    for (const r of all) byType.set(r.type, (byType.get(r.type) || 0) + r.count);
    const typeRows = Array.from(byType, ([type, count]) => ({ type, count, statuses: all.filter((r) => r.type === type).length }));

    const threads = new Map();
    const minutes = new Array(60).fill(0);
    for (const r of shown) {
      for (const [group, n] of r.threads) threads.set(group, (threads.get(group) || 0) + n);
      r.minutes.forEach((n, i) => { minutes[i] += n; });
    }
    const threadRows = Array.from(threads, ([group, count]) => ({ group, count }));

    replace(content,
      el('div', { class: 'crumbs' }, el('a', { href: link(pg.path, { type: null }), id: 'crumb-all' }, 'All types'), p.type ? ['›', el('span', { id: 'crumb-type' }, p.type)] : null),
      el('h2', null, 'Problem types ', el('span', { class: 'sub' }, p.domain + ' · ' + (p.ip || 'All'))),
      dataTable({ id: 'problem-types', rows: typeRows, sort: { key: 'count', desc: true }, columns: [
        { key: 'type', label: 'Type', text: true, render: (r) => el('a', { href: link(pg.path, { type: r.type }), class: 'type-link' }, r.type) },
        { key: 'count', label: 'Total', value: (r) => r.count, render: (r) => fmt.int(r.count) },
        { key: 'statuses', label: 'Statuses', value: (r) => r.statuses, render: (r) => fmt.int(r.statuses) },
      ] }),
      el('h2', null, 'Problems by status ', el('span', { class: 'sub' }, p.type || 'all types')),
      dataTable({ id: 'problems', rows: shown, filterKey: 'status', sort: { key: 'count', desc: true }, columns: [
        { key: 'type', label: 'Type', text: true },
        { key: 'status', label: 'Status', text: true },
        { key: 'count', label: 'Count', value: (r) => r.count,
          render: (r) => (problemSearch(r) ? searchLink(p.domain, period, p.ip, problemSearch(r), fmt.int(r.count)) : fmt.int(r.count)) },
        { key: 'samples', label: 'Sample Links', text: true, value: (r) => r.samples.length, render: (r) => samples(r, p.domain) },
      ] }),
      el('div', { class: 'charts' }, barChart('chart-minutes', 'Problems per minute', MINUTES, minutes, { labelEvery: 5, bad: true })),
      el('h2', null, 'Thread groups'),
      dataTable({ id: 'threads', rows: threadRows, sort: { key: 'count', desc: true }, columns: [
        { key: 'group', label: 'Thread group', text: true },
        { key: 'count', label: 'Count', value: (r) => r.count, render: (r) => fmt.int(r.count) },
      ] }));
    document.body.dataset.ready = 'true';
  } catch (e) {
    renderBar(pg, p, null, [], []);
    showError(e);
    document.body.dataset.ready = 'error';
  }
}

main();
