// The Heartbeat page: one machine at a time (CAT requires an ip; the first machine by default), one chart per
// extension detail, grouped by extension. Data: /api/v1/reports/heartbeat (machine → period(minute) → extension → detail).
import {
  el, replace, params, getJson, reportUrl, apiQuery, num, renderHeader, renderBar, showError, openDomain, page, fmt, safeId,
} from './common.js';
import { lineChart, MINUTES } from './chart.js';

/** extension id → detail id → 60 values, null where no heartbeat came (the last of each minute wins). */
function series(machine) {
  const out = new Map();
  for (const period of machine.period || []) {
    const minute = num(period.minute);
    if (minute < 0 || minute >= 60) continue;
    for (const extension of period.extension || []) {
      if (!out.has(extension.id)) out.set(extension.id, new Map());
      const details = out.get(extension.id);
      for (const detail of extension.detail || []) {
        if (!details.has(detail.id)) details.set(detail.id, new Array(60).fill(null));
        details.get(detail.id)[minute] = num(detail.value);
      }
    }
  }
  return out;
}

async function main() {
  renderHeader('heartbeat');
  const pg = page('heartbeat');
  const p = params();
  const content = document.getElementById('content');
  try {
    const domains = await openDomain('heartbeat', p);
    let body = await getJson(reportUrl('heartbeat', apiQuery(p, { type: null, name: null })));
    let ips = body.report ? body.report.ip || [] : [];
    if ((!p.ip || p.ip === 'All') && ips.length) {
      p.ip = ips[0];
      body = await getJson(reportUrl('heartbeat', apiQuery(p, { type: null, name: null })));
      ips = body.report ? body.report.ip || ips : ips;
    }
    renderBar(pg, p, body.period, domains, ips, { noAll: true });
    const machine = body.report && (body.report.machine || []).find((m) => m.ip === p.ip);
    if (!machine) {
      replace(content, el('p', { class: 'empty', id: 'empty' }, 'No heartbeats for domain ' + p.domain + (p.ip ? ' on ' + p.ip : '') + ' in this period.'));
      document.body.dataset.ready = 'true';
      return;
    }
    const groups = [];
    for (const [extension, details] of series(machine)) {
      const charts = [];
      for (const [detail, values] of details) {
        charts.push(lineChart('chart-' + safeId(extension) + '-' + safeId(detail), detail, MINUTES, values, { labelEvery: 5, format: fmt.dec2 }));
      }
      groups.push(el('section', { class: 'extension', 'data-extension': extension },
        el('h2', null, extension), el('div', { class: 'charts' }, charts)));
    }
    replace(content,
      el('h2', null, 'Heartbeat ', el('span', { class: 'sub' }, p.domain + ' · ' + p.ip)),
      machine.classpath ? el('p', { class: 'crumbs', id: 'classpath' }, 'classpath: ' + machine.classpath) : null,
      groups.length ? groups : el('p', { class: 'empty' }, 'Heartbeats carry no extensions.'));
    document.body.dataset.ready = 'true';
  } catch (e) {
    renderBar(pg, p, null, [], [], { noAll: true });
    showError(e);
    document.body.dataset.ready = 'error';
  }
}

main();
