// The Dependency page: every domain's dependencies of the chosen hour, or of one minute of it, drawn as one graph.
// Domains are circles, databases squares, caches diamonds; a node's colour is its failure rate (errors over requests
// for a domain, over calls for a database or cache): green under 1 %, amber under 5 %, red from 5 %, grey without
// traffic. Edges are calls (domain → domain), database and cache use; red when some failed. The layout is a seeded
// force-directed one (Fruchterman–Reingold from a circle, then overlaps pushed apart), so the same data always gives
// the same picture and 200 domains stay apart. The graph is drawn at a scale where a label stays readable (at least
// READABLE of its natural size), wider than the page if it must, and the zoom buttons above it shrink it to fit the
// window, or enlarge it. A sortable table lists the nodes below.
// Data: /api/v1/topology?date=&minute=.
import { el, replace, params, getJson, link, renderHeader, renderBar, showError, page, fmt } from './common.js';
import { dataTable } from './table.js';

const NS = 'http://www.w3.org/2000/svg';
const RADIUS = 9;
const GAP = 26; // room for a label between two nodes
const READABLE = 0.9; // labels are 11 px at scale 1: below ~10 px on screen they are hard to read
const MAX_SCALE = 1; // a small system is drawn at its natural size, not blown up
const ZOOM_STEP = 1.25;

function svg(tag, attrs, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, String(value));
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** ok, warn, bad, or idle: the failure rate class of a node. */
export function rateClass(total, errors) {
  if (!total) return 'idle';
  const rate = errors / total;
  return rate >= 0.05 ? 'bad' : rate >= 0.01 ? 'warn' : 'ok';
}

/** Positions for the nodes: circle, force-directed passes, then overlaps removed; returns [{x, y}] in node order. */
function layout(nodes, edges) {
  const n = nodes.length;
  const index = new Map(nodes.map((node, i) => [node.id, i]));
  const side = Math.max(600, Math.sqrt(n) * (2 * RADIUS + GAP) * 2.2);
  const k = side / Math.sqrt(Math.max(1, n)) * 0.9;
  const pos = nodes.map((_, i) => ({
    x: side / 2 + side / 2.5 * Math.cos(2 * Math.PI * i / Math.max(1, n)),
    y: side / 2 + side / 2.5 * Math.sin(2 * Math.PI * i / Math.max(1, n)),
  }));
  const links = edges.map((e) => [index.get(e.from), index.get(e.to)]).filter(([a, b]) => a !== undefined && b !== undefined && a !== b);
  let temperature = side / 10;
  const rounds = n > 400 ? 80 : 250;
  for (let round = 0; round < rounds; round++) {
    const dx = new Float64Array(n);
    const dy = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        let x = pos[i].x - pos[j].x;
        let y = pos[i].y - pos[j].y;
        let d2 = x * x + y * y;
        if (d2 < 0.01) { x = 0.1 * (i - j); y = 0.1; d2 = x * x + y * y; }
        const f = k * k / d2;
        dx[i] += x * f; dy[i] += y * f; dx[j] -= x * f; dy[j] -= y * f;
      }
    }
    for (const [a, b] of links) {
      const x = pos[a].x - pos[b].x;
      const y = pos[a].y - pos[b].y;
      const d = Math.sqrt(x * x + y * y) || 0.01;
      const f = d / k;
      dx[a] -= x * f; dy[a] -= y * f; dx[b] += x * f; dy[b] += y * f;
    }
    for (let i = 0; i < n; i++) {
      // a weak pull to the centre keeps unconnected parts on the page
      dx[i] += (side / 2 - pos[i].x) * 0.01 * k / side * 50;
      dy[i] += (side / 2 - pos[i].y) * 0.01 * k / side * 50;
      const d = Math.sqrt(dx[i] * dx[i] + dy[i] * dy[i]) || 1;
      const step = Math.min(d, temperature);
      pos[i].x += dx[i] / d * step;
      pos[i].y += dy[i] / d * step;
    }
    temperature *= 0.97;
  }
  const min = 2 * RADIUS + GAP;
  for (let pass = 0; pass < 60; pass++) {
    let moved = false;
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const x = pos[j].x - pos[i].x;
        const y = pos[j].y - pos[i].y;
        const d = Math.sqrt(x * x + y * y) || 0.01;
        if (d < min) {
          const push = (min - d) / 2 + 0.5;
          pos[i].x -= x / d * push; pos[i].y -= y / d * push;
          pos[j].x += x / d * push; pos[j].y += y / d * push;
          moved = true;
        }
      }
    }
    if (!moved) break;
  }
  return pos;
}

function nodeShape(node, p) {
  if (node.kind === 'database') {
    return svg('rect', { x: p.x - RADIUS, y: p.y - RADIUS, width: 2 * RADIUS, height: 2 * RADIUS, rx: 2 });
  }
  if (node.kind === 'cache') {
    const r = RADIUS * 1.25;
    return svg('polygon', { points: [[p.x, p.y - r], [p.x + r, p.y], [p.x, p.y + r], [p.x - r, p.y]].map((q) => q.join(',')).join(' ') });
  }
  return svg('circle', { cx: p.x, cy: p.y, r: RADIUS });
}

function label(node) {
  if (node.kind === 'database') return node.id.slice(3);
  if (node.kind === 'cache') return node.id.slice(6);
  return node.id;
}

function graph(nodes, edges) {
  const pos = layout(nodes, edges);
  const xs = pos.map((p) => p.x);
  const ys = pos.map((p) => p.y);
  const pad = 60;
  const minX = Math.min(...xs) - pad;
  const minY = Math.min(...ys) - pad;
  const width = Math.max(...xs) - minX + pad;
  const height = Math.max(...ys) - minY + pad;
  const index = new Map(nodes.map((node, i) => [node.id, i]));
  const lines = svg('g', { class: 'edges' });
  for (const e of edges) {
    const a = pos[index.get(e.from)];
    const b = pos[index.get(e.to)];
    if (!a || !b) continue;
    lines.appendChild(svg('line', {
      x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: 'edge ' + (e.errors ? 'failing' : 'fine') + ' ' + e.type,
      'stroke-width': Math.min(6, 1 + Math.log10(1 + e.total)), 'data-from': e.from, 'data-to': e.to,
    }, svg('title', null, e.from + ' → ' + label(nodes[index.get(e.to)]) + ' (' + e.type + '): ' + fmt.int(e.total) +
      ' calls, ' + fmt.int(e.errors) + ' failed, avg ' + fmt.dec2(e.avg) + ' ms')));
  }
  const dots = svg('g', { class: 'nodes' });
  nodes.forEach((node, i) => {
    const p = pos[i];
    const cls = rateClass(node.total, node.errors);
    const g = svg('g', { class: 'node ' + node.kind + ' ' + cls, 'data-id': node.id, 'data-rate': cls,
      'data-x': p.x.toFixed(1), 'data-y': p.y.toFixed(1) },
    nodeShape(node, p),
    svg('text', { x: p.x, y: p.y + RADIUS + 12, 'text-anchor': 'middle' }, label(node)),
    svg('title', null, label(node) + ' (' + node.kind + '): ' + fmt.int(node.total) + ' ' +
      (node.kind === 'domain' ? 'requests' : 'calls') + ', ' + fmt.int(node.errors) + ' failed, avg ' +
      fmt.dec2(node.avg) + ' ms' + (node.exceptions ? ', ' + fmt.int(node.exceptions) + ' exceptions' : '')));
    if (node.kind === 'domain') {
      const a = svg('a', { href: link('/cat/r/cross', { domain: node.id, minute: null }) });
      a.appendChild(g);
      dots.appendChild(a);
    } else {
      dots.appendChild(g);
    }
  });
  return svg('svg', { id: 'topology', class: 'topology', viewBox: [minX, minY, width, height].map((v) => v.toFixed(1)).join(' '),
    'data-width': width.toFixed(1), 'data-height': height.toFixed(1), role: 'img', 'aria-label': 'dependency graph' }, lines, dots);
}

/**
 * The graph in a scrolling frame, with zoom buttons: it opens at the scale that shows all of it in what is left of
 * the window, but never below READABLE (a large system then scrolls) nor above MAX_SCALE; Fit shows all of it
 * whatever the scale.
 */
function zoomable(picture) {
  const width = Number(picture.getAttribute('data-width'));
  const height = Number(picture.getAttribute('data-height'));
  const frame = el('div', { class: 'topology-wrap', id: 'topology-wrap' }, picture);
  const shown = el('span', { class: 'zoom-level', id: 'zoom-level' });
  let scale = 1;
  const apply = (s) => {
    scale = s;
    picture.setAttribute('width', (width * s).toFixed(0));
    picture.setAttribute('height', (height * s).toFixed(0));
    picture.dataset.scale = s.toFixed(3);
    shown.textContent = Math.round(100 * s) + ' %';
  };
  const button = (id, text, title, onClick) => {
    const b = el('button', { type: 'button', class: 'btn', id, title }, text);
    b.addEventListener('click', onClick);
    return b;
  };
  const fitWidth = () => (frame.clientWidth - 2) / width;
  // the room below the frame's top edge (or the window's, once scrolled past it) down to the window's bottom
  const room = () => window.innerHeight - Math.max(0, frame.getBoundingClientRect().top) - 16;
  const fitWindow = () => Math.min(fitWidth(), room() / height);
  const controls = el('p', { class: 'zoom' },
    button('zoom-out', '−', 'smaller', () => apply(scale / ZOOM_STEP)),
    button('zoom-fit', 'Fit', 'all of it in the window', () => apply(fitWindow())),
    button('zoom-in', '+', 'larger', () => apply(scale * ZOOM_STEP)),
    shown);
  // the frame has its width only once it is in the page
  const open = () => apply(Math.min(MAX_SCALE, Math.max(READABLE, fitWindow())));
  return { nodes: [controls, frame], open };
}

function minutePicker(p) {
  const select = el('select', { id: 'minute' },
    el('option', { value: '', selected: !p.minute }, 'Whole hour'),
    Array.from({ length: 60 }, (_, m) => el('option', { value: String(m), selected: p.minute === String(m) }, 'Minute ' + String(m).padStart(2, '0'))));
  select.addEventListener('change', () => { location.href = link('/cat/r/dependency', { minute: select.value || null }); });
  return el('label', { class: 'picker' }, 'MINUTE ', select);
}

async function main() {
  renderHeader('dependency');
  const pg = page('dependency');
  const p = params();
  const content = document.getElementById('content');
  try {
    const body = await getJson(link('/api/v1/topology', { date: p.date, minute: p.minute }, {}));
    renderBar(pg, p, body.period, [], [], { noMachine: true, noDomain: true, noHistory: true });
    document.getElementById('bar').appendChild(minutePicker(p));
    if (!body.nodes.length) {
      replace(content, el('p', { class: 'empty', id: 'empty' }, 'No dependencies in this period.'));
      document.body.dataset.ready = 'true';
      return;
    }
    const domains = body.nodes.filter((n) => n.kind === 'domain').length;
    const topology = zoomable(graph(body.nodes, body.edges));
    replace(content,
      el('h2', null, 'Dependency ', el('span', { class: 'sub' }, domains + ' domains · ' + (body.nodes.length - domains) +
        ' databases and caches · ' + body.edges.length + ' edges' + (body.minute >= 0 ? ' · minute ' + body.minute : ' · whole hour') +
        (body.leftOut ? ' · ' + body.leftOut + ' domains left out' : ''))),
      el('p', { class: 'legend' }, el('span', { class: 'key ok' }, 'under 1 % failed'), el('span', { class: 'key warn' }, 'under 5 %'),
        el('span', { class: 'key bad' }, '5 % or more'), el('span', { class: 'key idle' }, 'no traffic')),
      ...topology.nodes,
      dataTable({
        id: 'nodes',
        rows: body.nodes.map((n) => Object.assign({ name: label(n), rate: n.total ? 100 * n.errors / n.total : 0 }, n)),
        filterKey: 'name',
        sort: { key: 'rate', desc: true },
        columns: [
          { key: 'name', label: 'Node', text: true, cls: () => 'name' },
          { key: 'kind', label: 'Kind', text: true },
          { key: 'total', label: 'Requests / calls', render: (r) => fmt.int(r.total) },
          { key: 'errors', label: 'Failed', render: (r) => fmt.int(r.errors) },
          { key: 'rate', label: 'Fail %', render: (r) => fmt.dec2(r.rate) },
          { key: 'avg', label: 'Avg (ms)', render: (r) => fmt.dec2(r.avg) },
          { key: 'exceptions', label: 'Exceptions', render: (r) => fmt.int(r.exceptions) },
        ],
      }));
    topology.open();
    document.body.dataset.ready = 'true';
  } catch (e) {
    renderBar(pg, p, null, [], [], { noMachine: true, noDomain: true, noHistory: true });
    showError(e);
    document.body.dataset.ready = 'error';
  }
}

main();
