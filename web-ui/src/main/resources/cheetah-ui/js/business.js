// The Business page: one chart per metric key of the domain's hour (what clients log with logMetricForCount / Sum /
// Duration), showing what CAT shows for the key's type: the count per minute for counts (C, COUNT), the average for
// durations (T, DURATION), the sum for sums (S, S,C, SUM); a search box keeps the keys whose name contains its text.
// Data: /api/v1/reports/business (business-item → segment(minute): count, sum, avg).
import {
  el, replace, params, getJson, reportUrl, apiQuery, num, renderHeader, renderBar, showError, openDomain, page, fmt, safeId,
} from './common.js';
import { lineChart, MINUTES } from './chart.js';

// TD and TC: the tagged durations and counts of CAT's Java client (logMetricForDuration/Count with tags), each key and
// tag combination its own item "key{k=v&k2=v2}".
const SHOWN = { C: 'count', COUNT: 'count', T: 'avg', DURATION: 'avg', S: 'sum', 'S,C': 'sum', SUM: 'sum', TD: 'avg', TC: 'count' };

/** The figure the key's type shows, per minute; null where the minute saw nothing. */
function series(item) {
  const figure = SHOWN[item.type] || 'count';
  const values = new Array(60).fill(null);
  for (const segment of item.segment || []) {
    const minute = num(segment.id);
    if (minute >= 0 && minute < 60) values[minute] = num(segment[figure]);
  }
  return { figure, values };
}

function render(items, filter) {
  const wanted = filter.trim().toLowerCase();
  const shown = items.filter((item) => !wanted || String(item.id).toLowerCase().includes(wanted));
  if (!shown.length) {
    return el('p', { class: 'empty', id: 'no-match' }, 'No metric key contains "' + filter + '".');
  }
  return el('div', { class: 'charts', id: 'charts' }, shown.map((item) => {
    const { figure, values } = series(item);
    const section = el('section', { class: 'metric', 'data-key': item.id, 'data-type': item.type },
      lineChart('chart-' + safeId(item.id), item.id + ' (' + figure + ')', MINUTES, values,
        { labelEvery: 5, format: figure === 'count' ? fmt.int : fmt.dec2 }));
    return section;
  }));
}

async function main() {
  renderHeader('business');
  const pg = page('business');
  const p = params();
  const content = document.getElementById('content');
  try {
    const domains = await openDomain('business', p);
    const body = await getJson(reportUrl('business', apiQuery(p, { ip: null, type: null, name: null })));
    renderBar(pg, p, body.period, domains, [], { noMachine: true });
    const items = body.report ? body.report['business-item'] || [] : [];
    if (!items.length) {
      replace(content, el('p', { class: 'empty', id: 'empty' }, 'No business metrics for domain ' + (p.domain || '') + ' in this period.'));
      document.body.dataset.ready = 'true';
      return;
    }
    const search = el('input', { type: 'search', id: 'search', placeholder: 'Filter metric keys', value: p.name || '' });
    const holder = el('div', { id: 'metrics' }, render(items, search.value));
    search.addEventListener('input', () => replace(holder, render(items, search.value)));
    replace(content,
      el('h2', null, 'Business ', el('span', { class: 'sub' }, p.domain + ' · ' + items.length + ' keys')),
      el('p', { class: 'crumbs' }, search),
      holder);
    document.body.dataset.ready = 'true';
  } catch (e) {
    renderBar(pg, p, null, [], [], { noMachine: true });
    showError(e);
    document.body.dataset.ready = 'error';
  }
}

main();
