// The Top page: what is failing and what is slow across every domain, CAT's one-screen view. Per minute (latest
// first) the domains with the most error events and their top exception; the slowest domains of the minute for the
// chosen kind of call (URL, Service, SQL, Call, Cache: average ms, calls, failures); below, every domain's hour:
// errors, top exception, URL calls, failures and average, and the other kinds' averages. Each domain links to its
// Problem page. For the live hour the page reloads its data every minute.
// Data: /api/v1/reports/top (domain cat: domain → segment(minute): error, url url-error url-duration url-sum, …
// cache-sum, error(exception) → count, machine → count).
import {
  el, replace, params, getJson, reportUrl, apiQuery, num, renderHeader, renderBar, showError, page, fmt, link,
} from './common.js';
import { dataTable } from './table.js';
import { barChart, MINUTES } from './chart.js';

const PER_MINUTE = 5;
const REFRESH_SECONDS = 60;
const KINDS = [
  { id: 'url', label: 'URL' }, { id: 'service', label: 'Service' }, { id: 'sql', label: 'SQL' },
  { id: 'call', label: 'Call' }, { id: 'cache', label: 'Cache' },
];

/** A kind's figures in a segment (CAT's url, url-error, url-sum attributes). */
function calls(segment, kind) {
  return { count: num(segment[kind]), error: num(segment[kind + '-error']), sum: num(segment[kind + '-sum']) };
}

function add(total, c) {
  total.count += c.count; total.error += c.error; total.sum += c.sum;
}

const avg = (c) => (c.count ? c.sum / c.count : 0);

/** The exception with the highest count (the first by name on a tie). */
function topException(segment) {
  let best = null;
  for (const e of segment.errors || []) {
    if (!best || num(e.count) > num(best.count)) best = e;
  }
  return best;
}

function problemLink(domain, p) {
  return el('a', { href: link('/cat/r/p', null, { domain, date: p.date }), class: 'domain-link' }, domain);
}

function slowTable(slow, kind, p) {
  const rows = [...slow.entries()].sort((a, b) => b[0] - a[0]).map(([minute, entries]) => {
    const shown = entries.filter((e) => e.calls[kind].count > 0)
      .sort((a, b) => avg(b.calls[kind]) - avg(a.calls[kind]) || (a.domain < b.domain ? -1 : 1));
    return { minute, entries: shown.slice(0, PER_MINUTE) };
  }).filter((r) => r.entries.length);
  return dataTable({ id: 'top-slow', rows, sort: { key: 'minute', desc: true }, columns: [
    { key: 'minute', label: 'Minute', value: (r) => r.minute, render: (r) => String(r.minute).padStart(2, '0') },
    { key: 'domains', label: 'Slowest domains (avg ms, calls, failures)', text: true, value: (r) => r.entries.map((e) => e.domain).join(' '),
      render: (r) => el('span', null, r.entries.map((e) => el('span', { class: 'top-entry', 'data-domain': e.domain },
        problemLink(e.domain, p), ' ' + fmt.ms(avg(e.calls[kind])) + ' ms · ' + fmt.int(e.calls[kind].count) +
        (e.calls[kind].error ? ' · ' + fmt.int(e.calls[kind].error) + ' failed' : '') + '  '))) },
  ] });
}

function render(report, p) {
  const minutes = new Map();
  const slow = new Map();
  const domainRows = [];
  const perMinute = new Array(60).fill(0);
  for (const domain of report.domains || []) {
    let total = 0;
    const exceptions = new Map();
    const hour = {};
    for (const k of KINDS) hour[k.id] = { count: 0, error: 0, sum: 0 };
    for (const segment of domain.segment || []) {
      const minute = num(segment.id);
      const error = num(segment.error);
      total += error;
      if (minute >= 0 && minute < 60) perMinute[minute] += error;
      const minuteCalls = {};
      for (const k of KINDS) {
        minuteCalls[k.id] = calls(segment, k.id);
        add(hour[k.id], minuteCalls[k.id]);
      }
      if (!slow.has(minute)) slow.set(minute, []);
      slow.get(minute).push({ domain: domain.name, calls: minuteCalls });
      if (!error) continue;
      if (!minutes.has(minute)) minutes.set(minute, []);
      const top = topException(segment);
      minutes.get(minute).push({ domain: domain.name, error, exception: top ? top.id : '' });
      for (const e of segment.errors || []) exceptions.set(e.id, (exceptions.get(e.id) || 0) + num(e.count));
    }
    let topName = '';
    for (const [id, count] of exceptions) if (!topName || count > exceptions.get(topName)) topName = id;
    domainRows.push({ domain: domain.name, errors: total, exception: topName, calls: hour });
  }
  const minuteRows = [...minutes.entries()].sort((a, b) => b[0] - a[0]).map(([minute, entries]) => {
    entries.sort((a, b) => b.error - a.error || (a.domain < b.domain ? -1 : 1));
    return { minute, total: entries.reduce((s, e) => s + e.error, 0), entries: entries.slice(0, PER_MINUTE) };
  });
  return [
    el('div', { class: 'charts' }, barChart('chart-errors', 'Errors per minute, every domain', MINUTES, perMinute, { labelEvery: 5, bad: true })),
    el('h2', null, 'Most failing domains per minute'),
    dataTable({ id: 'top-minutes', rows: minuteRows, sort: { key: 'minute', desc: true }, columns: [
      { key: 'minute', label: 'Minute', value: (r) => r.minute, render: (r) => String(r.minute).padStart(2, '0') },
      { key: 'total', label: 'Errors', value: (r) => r.total, render: (r) => fmt.int(r.total) },
      { key: 'domains', label: 'Domains (errors, top exception)', text: true, value: (r) => r.entries.map((e) => e.domain).join(' '),
        render: (r) => el('span', null, r.entries.map((e) => el('span', { class: 'top-entry', 'data-domain': e.domain },
          problemLink(e.domain, p), ' ' + fmt.int(e.error) + (e.exception ? ' · ' + e.exception : '') + '  '))) },
    ] }),
    el('h2', null, 'Slowest domains per minute ', el('span', { class: 'sub' }, 'average ms')),
    slowSection(slow, p),
    el('h2', null, 'Domains ', el('span', { class: 'sub' }, 'this hour')),
    dataTable({ id: 'top-domains', rows: domainRows, filterKey: 'domain', sort: { key: 'errors', desc: true }, columns: [
      { key: 'domain', label: 'Domain', text: true, render: (r) => problemLink(r.domain, p) },
      { key: 'errors', label: 'Errors', value: (r) => r.errors, render: (r) => fmt.int(r.errors) },
      { key: 'exception', label: 'Top exception', text: true },
      { key: 'url', label: 'URL calls', value: (r) => r.calls.url.count, render: (r) => fmt.int(r.calls.url.count) },
      { key: 'url-error', label: 'URL failed', value: (r) => r.calls.url.error, render: (r) => fmt.int(r.calls.url.error), cls: (r) => (r.calls.url.error ? 'bad' : null) },
    ].concat(KINDS.map((k) => ({ key: k.id + '-avg', label: k.label + ' avg', title: k.label + ' average ms',
      value: (r) => avg(r.calls[k.id]), render: (r) => (r.calls[k.id].count ? fmt.ms(avg(r.calls[k.id])) : '') }))) }),
  ];
}

/** Kind buttons over the slowest-domains table; the chosen kind is the page's `kind` parameter (URL by default). */
function slowSection(slow, p) {
  const holder = el('div', { id: 'top-slow-holder' });
  const buttons = KINDS.map((k) => el('button', { type: 'button', class: 'btn', id: 'slow-' + k.id }, k.label));
  const show = (kind) => {
    buttons.forEach((b, i) => b.classList.toggle('active', KINDS[i].id === kind));
    replace(holder, slowTable(slow, kind, p));
  };
  buttons.forEach((b, i) => b.addEventListener('click', () => show(KINDS[i].id)));
  show(KINDS.some((k) => k.id === p.kind) ? p.kind : 'url');
  return el('div', null, el('div', { class: 'kinds' }, el('label', null, 'Kind'), buttons), holder);
}

async function load(pg, p, content) {
  const body = await getJson(reportUrl('top', apiQuery(p, { domain: 'cat', ip: null, type: null, name: null })));
  renderBar(pg, p, body.period, [], [], { noDomain: true, noMachine: true, noHistory: true });
  if (!body.report || !(body.report.domains || []).length) {
    replace(content, el('p', { class: 'empty', id: 'empty' }, 'No error events or timed calls in this period.'));
  } else {
    replace(content, el('h2', null, 'Top ', el('span', { class: 'sub' }, 'errors and slow calls across every domain')), render(body.report, p));
  }
  return body.period && body.period.live;
}

async function main() {
  renderHeader('top');
  const pg = page('top');
  const p = params();
  const content = document.getElementById('content');
  try {
    const live = await load(pg, p, content);
    if (live) {
      document.body.dataset.refresh = String(REFRESH_SECONDS);
      setInterval(() => load(pg, p, content).catch(showError), REFRESH_SECONDS * 1000);
    }
    document.body.dataset.ready = 'true';
  } catch (e) {
    renderBar(pg, p, null, [], [], { noDomain: true, noMachine: true, noHistory: true });
    showError(e);
    document.body.dataset.ready = 'error';
  }
}

main();
