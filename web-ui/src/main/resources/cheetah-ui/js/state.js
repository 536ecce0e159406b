// The State page: this server's own figures. The `state` report (domain cat) is shown machine by machine —
// scalar fields as a list, repeated children as tables — and the server's /metrics counters (throughput,
// bytes, bad frames, loss by analyzer and priority, ring fill) as a searchable table.
import { el, replace, params, getJson, reportUrl, apiQuery, renderHeader, renderBar, page, fmt } from './common.js';
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

/** A machine with CAT's processDomains > processDomain lifted to one processDomain table. */
function flatDomains(machine) {
  const out = Object.assign({}, machine);
  delete out.processDomains;
  out.processDomain = (machine.processDomains || []).flatMap((group) => group.processDomain || []);
  return out;
}

/** Parses Prometheus text exposition into rows (name, labels text, label map, value). */
function metricsRows(text) {
  const out = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([A-Za-z_:][A-Za-z0-9_:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (!m) continue;
    const labels = (m[2] || '').slice(1, -1);
    const map = {};
    for (const pair of labels.matchAll(/([A-Za-z_][A-Za-z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) map[pair[1]] = pair[2];
    out.push({ metric: m[1], labels, map, value: Number(m[3]) });
  }
  return out;
}

function total(rows, metric) {
  return rows.filter((r) => r.metric === metric).reduce((sum, r) => sum + r.value, 0);
}

// The figures an operator looks at first: traffic, bad frames, loss by analyzer and priority, ring room.
function summary(rows, rates) {
  const rate = (metric) => (rates && rates[metric] !== undefined ? ' (' + fmt.dec2(rates[metric]) + '/s)' : '');
  const items = [
    ['Frames received', 'cheetah_frames_received_total'],
    ['Bytes received', 'cheetah_bytes_received_total'],
    ['Trees received', 'cheetah_trees_received_total'],
    ['Bad frames', 'cheetah_frames_bad_total'],
    ['Out of period', 'cheetah_trees_out_of_period_total'],
    ['Connections', 'cheetah_connections'],
    ['Trees dropped (all analyzers)', 'cheetah_analyzer_dropped_total'],
  ].filter(([, metric]) => rows.some((r) => r.metric === metric));
  const parts = [el('h2', null, 'This server ', el('span', { class: 'sub' }, 'from /metrics, refreshed every 5 s'))];
  parts.push(el('dl', { class: 'kv panel-box', id: 'state-summary' }, items.map(([label, metric]) =>
    [el('dt', null, label), el('dd', { 'data-metric': metric }, fmt.int(total(rows, metric)) + rate(metric))])));
  const analyzers = new Map();
  for (const r of rows) {
    if (!r.map.analyzer) continue;
    if (!analyzers.has(r.map.analyzer)) analyzers.set(r.map.analyzer, { analyzer: r.map.analyzer, processed: 0, HIGH: 0, MID: 0, LOW: 0, errors: 0 });
    const a = analyzers.get(r.map.analyzer);
    if (r.metric === 'cheetah_analyzer_processed_total') a.processed += r.value;
    if (r.metric === 'cheetah_analyzer_errors_total') a.errors += r.value;
    // /metrics writes levels in lower case (level="mid"); the columns are named as the configuration names them
    const level = String(r.map.level || '').toUpperCase();
    if (r.metric === 'cheetah_analyzer_dropped_total' && level in a) a[level] += r.value;
  }
  if (analyzers.size) {
    const num = (key, label) => ({ key, label, value: (r) => r[key], render: (r) => fmt.int(r[key]), cls: (r) => (key !== 'processed' && r[key] > 0 ? 'bad' : null) });
    parts.push(el('h3', null, 'Analyzers: processed and lost by priority'));
    parts.push(dataTable({ id: 'state-loss', rows: Array.from(analyzers.values()), sort: { key: 'analyzer', desc: false }, columns: [
      { key: 'analyzer', label: 'Analyzer', text: true }, num('processed', 'Processed'),
      num('HIGH', 'Lost (HIGH)'), num('MID', 'Lost (MID)'), num('LOW', 'Lost (LOW)'), num('errors', 'Errors'),
    ] }));
  }
  // Storage and the tree journal: an outage or a failing disk shows here, in red, before anything is lost.
  const storage = [
    ['MySQL', 'cheetah_storage_database_up', (v) => (v > 0 ? 'reachable' : 'unreachable'), (v) => v === 0],
    ['Closed-hour reports waiting for MySQL', 'cheetah_storage_pending_reports', fmt.int, (v) => v > 0],
    ['MySQL store failures', 'cheetah_storage_store_failures_total', fmt.int, (v) => v > 0],
    ['Checkpoint failures', 'cheetah_storage_checkpoint_failures_total', fmt.int, (v) => v > 0],
    ['Journal write errors', 'cheetah_journal_write_errors_total', fmt.int, (v) => v > 0],
    ['Trees replayed from the journal at start-up', 'cheetah_journal_replayed_trees_total', fmt.int, () => false],
  ].filter(([, metric]) => rows.some((r) => r.metric === metric));
  if (storage.length) {
    parts.push(el('h3', null, 'Storage'));
    parts.push(el('dl', { class: 'kv panel-box', id: 'state-storage' }, storage.map(([label, metric, show, bad]) => {
      const v = total(rows, metric);
      return [el('dt', null, label), el('dd', { 'data-metric': metric, class: bad(v) ? 'bad' : null }, show(v))];
    })));
  }
  // The logview: its writes, its search index, and the archive (an HDFS outage shows as a growing backlog).
  const logview = [
    ['Trees stored', 'cheetah_logview_trees_stored_total', fmt.int, () => false],
    ['Write errors', 'cheetah_logview_write_errors_total', fmt.int, (v) => v > 0],
    ['Search index write errors', 'cheetah_logview_search_write_errors_total', fmt.int, (v) => v > 0],
    ['Damage found', 'cheetah_logview_damage_total', fmt.int, (v) => v > 0],
    ['Archive backlog (hours)', 'cheetah_logview_archive_backlog_hour_directories', fmt.int, (v) => v > 0],
    ['Archive backlog (bytes)', 'cheetah_logview_archive_backlog_bytes', fmt.int, (v) => v > 0],
    ['Archive upload failures', 'cheetah_logview_archive_failures_total', fmt.int, (v) => v > 0],
    ['Local hours kept, not archived', 'cheetah_logview_local_hour_directories_kept_unarchived', fmt.int, (v) => v > 0],
  ].filter(([, metric]) => rows.some((r) => r.metric === metric));
  if (logview.length) {
    parts.push(el('h3', null, 'Logview'));
    parts.push(el('dl', { class: 'kv panel-box', id: 'state-logview' }, logview.map(([label, metric, show, bad]) => {
      const v = total(rows, metric);
      return [el('dt', null, label), el('dd', { 'data-metric': metric, class: bad(v) ? 'bad' : null }, show(v))];
    })));
  }
  // The Kafka mode: the edge's produce and back-pressure, the aggregator's partitions and how far behind each is.
  const kafka = [
    ['Trees produced', 'cheetah_kafka_edge_records_total', fmt.int, () => false],
    ['Trees Kafka refused or left unsent', 'cheetah_kafka_edge_failed_total', fmt.int, (v) => v > 0],
    ['Bytes waiting for the brokers', 'cheetah_kafka_edge_pending_bytes', fmt.int, () => false],
    ['Sockets paused for the brokers (s)', 'cheetah_kafka_edge_paused_seconds_total', fmt.dec2, (v) => v > 0],
    ['Aggregator', 'cheetah_kafka_aggregator_up', (v) => (v > 0 ? 'consuming' : 'stopped'), (v) => v === 0],
    ['Partitions owned', 'cheetah_kafka_aggregator_partitions', fmt.int, () => false],
    ['Rebalances', 'cheetah_kafka_aggregator_rebalances_total', fmt.int, () => false],
    ['Partitions restored', 'cheetah_kafka_aggregator_restored_partitions_total', fmt.int, () => false],
    ['Checkpoint failures', 'cheetah_kafka_aggregator_checkpoints_failed_total', fmt.int, (v) => v > 0],
    ['Records that did not decode', 'cheetah_kafka_aggregator_bad_records_total', fmt.int, (v) => v > 0],
  ].filter(([, metric]) => rows.some((r) => r.metric === metric));
  if (kafka.length) {
    parts.push(el('h3', null, 'Kafka'));
    parts.push(el('dl', { class: 'kv panel-box', id: 'state-kafka' }, kafka.map(([label, metric, show, bad]) => {
      const v = total(rows, metric);
      return [el('dt', null, label), el('dd', { 'data-metric': metric, class: bad(v) ? 'bad' : null }, show(v))];
    })));
    const lag = rows.filter((r) => r.metric === 'cheetah_kafka_aggregator_lag');
    if (lag.length) {
      parts.push(dataTable({ id: 'state-kafka-lag', rows: lag.map((r) => ({ partition: Number(r.map.partition), lag: r.value })),
        sort: { key: 'partition' }, columns: [
          { key: 'partition', label: 'Partition', value: (r) => r.partition, render: (r) => fmt.int(r.partition) },
          { key: 'lag', label: 'Records behind', value: (r) => r.lag, render: (r) => fmt.int(r.lag) },
        ] }));
    }
  }
  const rings = rows.filter((r) => r.metric === 'cheetah_ring_remaining');
  if (rings.length) {
    parts.push(el('h3', null, 'Rings: free slots'));
    parts.push(dataTable({ id: 'state-rings', rows: rings.map((r) => ({ ring: r.map.ring, free: r.value })), columns: [
      { key: 'ring', label: 'Ring', text: true }, { key: 'free', label: 'Free slots', value: (r) => r.free, render: (r) => fmt.int(r.free) },
    ] }));
  }
  return parts;
}

// Cheetah's own figures per client domain (not in CAT's XML): refused admissions and trees outside every open hour.
async function clientDomains(p) {
  const body = await getJson(reportUrl('state', apiQuery(p, { domain: 'cat', ip: null, type: null, name: null }), '/native'));
  const rows = [];
  for (const m of (body && body.machines) || []) {
    for (const d of m.domains || []) rows.push(Object.assign({ server: m.ip }, d));
  }
  if (!rows.length) return [];
  const num = (key, label) => ({ key, label, value: (r) => r[key], render: (r) => fmt.int(r[key]), cls: (r) => (key !== 'trees' && r[key] > 0 ? 'bad' : null) });
  return [el('h2', null, 'Client domains ', el('span', { class: 'sub' }, 'refused admissions; trees outside every open hour since start')),
    dataTable({ id: 'state-clients', rows, pageSize: 100, sort: { key: 'trees', desc: true }, columns: [
      { key: 'domain', label: 'Domain', text: true }, { key: 'server', label: 'Server', text: true }, num('trees', 'Trees'),
      num('lossTrees', 'Trees with loss'), num('refusals', 'Refused admissions'), num('tooEarly', 'Too early'), num('tooLate', 'Too late'),
    ] })];
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
    if (machines.length) machines.forEach((m) => parts.push(renderNode('Server ' + (m.ip || ''), flatDomains(m), 0)));
    else parts.push(el('p', { class: 'empty', id: 'state-empty' }, 'No state report for this hour yet.'));
    if (machines.length) parts.push(...await clientDomains(p));
  } catch (e) {
    parts.push(el('p', { class: 'empty', id: 'state-empty' }, 'State report unavailable: ' + e.message));
  }
  const live = el('div', { id: 'state-live' });
  parts.unshift(live);
  try {
    const response = await fetch('/metrics');
    if (response.ok) {
      const rows = metricsRows(await response.text());
      replace(live, summary(rows, null));
      poll(live, rows);
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

// Re-reads /metrics every 5 s and shows per-second rates from the difference.
function poll(live, first) {
  let previous = first;
  let at = Date.now();
  setInterval(async () => {
    try {
      const response = await fetch('/metrics');
      if (!response.ok) return;
      const rows = metricsRows(await response.text());
      const now = Date.now();
      const seconds = (now - at) / 1000;
      const rates = {};
      for (const metric of ['cheetah_frames_received_total', 'cheetah_bytes_received_total', 'cheetah_trees_received_total']) {
        rates[metric] = Math.max(0, (total(rows, metric) - total(previous, metric)) / seconds);
      }
      replace(live, summary(rows, rates));
      previous = rows;
      at = now;
    } catch (e) {
      // keep the last figures; the next poll retries
    }
  }, 5000);
}

main();
