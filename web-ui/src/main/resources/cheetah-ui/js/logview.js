// The logview page (/cat/r/m/<messageId>): one stored message tree, in the dashboard's frame. The server embeds
// the tree as JSON text (the ?forceDownload=json schema: header, message with children) in #tree-data; this script
// draws the header, a waterfall of the transactions (CAT's logview with waterfall=true: one row per transaction
// with its start offset from the root and a duration bar, events as markers on their transaction's row) and every
// message in tree order with its data. Every string of the tree goes into the page as a text node or an attribute,
// never as markup.
import { el, replace, params, fmt, num, renderHeader } from './common.js';

const NS = 'http://www.w3.org/2000/svg';
const TRACK = 1000; // the timeline's width in SVG units: the whole span of the tree
const MIN_BAR = 2; // a bar is drawn at least this wide (0.2% of the span) so zero-length transactions show
const MARKER = 4;
const MAX_INDENT = 40; // levels; deeper messages say their depth instead of moving further right
const MAX_ROWS = 10000; // per table: a larger tree is cut, with a note, and stays whole in JSON and raw form
const MS = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 3 });

function svg(tag, attrs, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, String(value));
  for (const child of children) node.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

/** The tree's messages in pre-order, each with its depth and parent index; iterative, so any depth is drawn. */
function flatten(root) {
  const out = [];
  const stack = [{ m: root, depth: 0, parent: -1 }];
  while (stack.length) {
    const item = stack.pop();
    item.index = out.length;
    out.push(item);
    const children = Array.isArray(item.m.children) ? item.m.children : [];
    for (let i = children.length - 1; i >= 0; i--) stack.push({ m: children[i], depth: item.depth + 1, parent: item.index });
  }
  return out;
}

function isTransaction(m) {
  return m.kind === 'transaction';
}

/** CAT's rule: only status "0" is a success. */
function failed(m) {
  return m.status !== '0';
}

function utc(ms) {
  const d = new Date(num(ms));
  return Number.isNaN(d.getTime()) ? '' : d.toISOString().replace('T', ' ').replace('Z', '');
}

/** A present id (clients send "null" or nothing for none). */
function present(id) {
  return id && id !== 'null' ? id : null;
}

function logviewHref(id, domain) {
  return '/cat/r/m/' + encodeURIComponent(id) + (domain ? '?domain=' + encodeURIComponent(domain) : '');
}

function indent(cell, depth) {
  cell.style.paddingLeft = 8 + 14 * Math.min(depth, MAX_INDENT) + 'px'; // CSSOM, which the CSP allows
  if (depth > MAX_INDENT) cell.appendChild(el('span', { class: 'depth' }, ' (depth ' + depth + ')'));
  return cell;
}

function bar(nodes, summary) {
  const parts = [
    el('div', { class: 'group' }, el('label', null, 'Message'), el('span', { class: 'hour', id: 'message-id' }, summary.id)),
  ];
  if (summary.domain) parts.push(el('div', { class: 'group' }, el('label', null, 'Domain'), el('span', { id: 'message-domain' }, summary.domain)));
  const self = location.pathname;
  parts.push(el('div', { class: 'group' }, el('label', null, 'Download'),
    el('a', { class: 'btn', id: 'download-json', href: self + '?forceDownload=json' }, 'JSON'),
    el('a', { class: 'btn', id: 'download-raw', href: self + '?raw=true' }, 'Raw frame')));
  replace(nodes, parts);
}

function headerPanel(tree, root, domain) {
  const h = tree.header || {};
  const kv = [];
  const add = (label, value, id) => { kv.push(el('dt', null, label), el('dd', { id }, value)); };
  add('Domain', h.domain || '', 'hdr-domain');
  add('Host', (h.hostname || '') + ' / ' + (h.ip || ''), 'hdr-host');
  add('Thread', (h.threadGroupName || '') + ' / ' + (h.threadId || '') + ' / ' + (h.threadName || ''), 'hdr-thread');
  add('Message id', h.messageId || '', 'hdr-id');
  for (const [label, id] of [['Parent id', present(h.parentMessageId)], ['Root id', present(h.rootMessageId)]]) {
    add(label, id ? el('a', { href: logviewHref(id, domain) }, id) : '—', null);
  }
  add('Session', present(h.sessionToken) || '—', null);
  add('Codec', tree.codec || '', null);
  if (root) {
    add('Started (UTC)', utc(root.timestamp), 'hdr-start');
    if (isTransaction(root)) add('Duration', MS.format(num(root.durationMicros) / 1000) + ' ms', 'hdr-duration');
  }
  if (Array.isArray(tree.warnings) && tree.warnings.length) add('Decoder warnings', tree.warnings.join('; '), 'hdr-warnings');
  return el('div', { class: 'panel-box' }, el('dl', { class: 'kv', id: 'tree-header' }, kv));
}

/** One row per transaction: offset from the root, duration, and a bar on the tree's timeline; events as markers. */
function waterfall(items, start, span) {
  const x = (offsetMs) => Math.min(TRACK, Math.max(0, (offsetMs / span) * TRACK));
  const rows = [];
  const rowOf = new Map();
  let shown = 0;
  for (const item of items) {
    const m = item.m;
    if (!isTransaction(m)) continue;
    if (shown >= MAX_ROWS) { shown++; continue; }
    shown++;
    const offset = num(m.timestamp) - start;
    const duration = num(m.durationMicros) / 1000;
    const width = Math.max(MIN_BAR, Math.min(TRACK - x(offset), (duration / span) * TRACK));
    const track = svg('svg', { viewBox: '0 0 ' + TRACK + ' 14', preserveAspectRatio: 'none', class: 'track', role: 'img' },
      svg('rect', { class: failed(m) ? 'span bad' : 'span', x: x(offset), y: 2, width, height: 10 },
        svg('title', null, m.type + ' ' + m.name + ': +' + offset + ' ms, ' + MS.format(duration) + ' ms')));
    const tr = el('tr', { class: 'wf-row', 'data-depth': item.depth, 'data-offset': offset, 'data-duration': duration },
      indent(el('td', { class: 'text wf-type' }, m.type), item.depth),
      el('td', { class: 'text wf-name' }, m.name),
      el('td', { class: failed(m) ? 'wf-status bad' : 'wf-status' }, m.status),
      el('td', { class: 'wf-offset' }, fmt.int(offset)),
      el('td', { class: 'wf-duration' }, MS.format(duration)),
      el('td', { class: 'wf-track' }, track));
    rows.push(tr);
    rowOf.set(item.index, track);
  }
  for (const item of items) {
    const m = item.m;
    if (isTransaction(m) || !rowOf.has(item.parent)) continue;
    const offset = num(m.timestamp) - start;
    const label = m.kind + ' ' + m.type + ' ' + m.name + (failed(m) ? ' (' + m.status + ')' : '') + ': +' + offset + ' ms';
    rowOf.get(item.parent).appendChild(svg('rect', {
      class: failed(m) ? 'marker bad' : 'marker', x: Math.min(TRACK - MARKER, Math.max(0, x(offset) - MARKER / 2)), y: 0,
      width: MARKER, height: 14, 'data-offset': offset, 'data-name': m.name,
    }, svg('title', null, label)));
  }
  const head = el('tr', null, ['Type', 'Name', 'Status', 'Start (ms)', 'Duration (ms)'].map((label) => el('th', { class: label === 'Type' || label === 'Name' ? 'text' : null }, label)),
    el('th', { class: 'wf-track' }, el('span', { class: 'wf-axis' }, el('span', null, '0'), el('span', { id: 'wf-span' }, MS.format(span) + ' ms'))));
  const out = [el('table', { class: 'data waterfall', id: 'waterfall' }, el('thead', null, head), el('tbody', null, rows))];
  if (shown > MAX_ROWS) out.push(el('p', { class: 'muted' }, 'First ' + fmt.int(MAX_ROWS) + ' of ' + fmt.int(shown) + ' transactions; the JSON has them all.'));
  return out;
}

/** Every message in tree order, with its time, status, duration and data (what the old plain page listed). */
function messages(items, start) {
  const rows = items.slice(0, MAX_ROWS).map((item) => {
    const m = item.m;
    return el('tr', { class: 'msg-row' },
      indent(el('td', { class: 'text' }, m.kind), item.depth),
      el('td', { class: 'mono' }, utc(m.timestamp)),
      el('td', null, '+' + fmt.int(num(m.timestamp) - start)),
      el('td', { class: 'text' }, m.type),
      el('td', { class: 'text' }, m.name),
      el('td', { class: failed(m) ? 'bad' : null }, m.status),
      el('td', null, isTransaction(m) ? MS.format(num(m.durationMicros) / 1000) : ''),
      el('td', { class: 'text data' }, m.data || ''));
  });
  const head = el('tr', null, [['Kind', true], ['Time (UTC)'], ['Start (ms)'], ['Type', true], ['Name', true], ['Status'], ['Duration (ms)'], ['Data', true]]
    .map(([label, text]) => el('th', { class: text ? 'text' : null }, label)));
  const out = [el('table', { class: 'data messages', id: 'messages' }, el('thead', null, head), el('tbody', null, rows))];
  if (items.length > MAX_ROWS) out.push(el('p', { class: 'muted' }, 'First ' + fmt.int(MAX_ROWS) + ' of ' + fmt.int(items.length) + ' messages; the JSON has them all.'));
  return out;
}

function main() {
  const p = params();
  const content = document.getElementById('content');
  const data = document.getElementById('tree-data');
  let tree = null;
  try {
    tree = JSON.parse(data ? data.textContent : '');
  } catch (e) {
    tree = null;
  }
  const header = (tree && tree.header) || {};
  const domain = p.domain || header.domain || '';
  renderHeader('logview', { domain });
  if (!tree || typeof tree !== 'object') {
    replace(content, el('p', { class: 'error', id: 'error' }, 'This page holds no message tree.'));
    document.body.dataset.ready = 'error';
    return;
  }
  const id = header.messageId || decodeURIComponent(location.pathname.replace(/^.*\//, ''));
  document.title = 'Logview ' + id + ' · Cheetah';
  bar(document.getElementById('bar'), { id, domain: header.domain });
  const root = tree.message && typeof tree.message === 'object' ? tree.message : null;
  const items = root ? flatten(root) : [];
  const start = root ? num(root.timestamp) : 0;
  let span = 0;
  let transactions = 0;
  for (const item of items) {
    const offset = num(item.m.timestamp) - start;
    if (isTransaction(item.m)) {
      transactions++;
      span = Math.max(span, offset + num(item.m.durationMicros) / 1000);
    } else {
      span = Math.max(span, offset);
    }
  }
  if (span <= 0) span = 1;
  const title = root ? [root.type, ' ', el('span', { class: 'sub' }, root.name)] : 'Empty tree';
  replace(content,
    el('h2', { id: 'tree-title' }, title),
    headerPanel(tree, root, domain),
    el('h2', null, 'Waterfall ', el('span', { class: 'sub' }, fmt.int(transactions) + ' transactions · ' + fmt.int(items.length - transactions) + ' other messages')),
    transactions ? waterfall(items, start, span) : el('p', { class: 'empty', id: 'empty' }, 'This tree holds no transaction.'),
    el('h2', null, 'Messages'),
    messages(items, start));
  document.body.dataset.ready = 'true';
}

main();
