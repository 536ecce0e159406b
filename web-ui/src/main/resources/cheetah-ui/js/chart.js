// Hand-written SVG charts: per-minute bars and lines, and a bucket histogram. Small on purpose; labels are
// text nodes, numbers only in attributes, no script in the SVG.
import { el, fmt } from './common.js';

const NS = 'http://www.w3.org/2000/svg';
const W = 600;
const H = 200;
const PAD = { left: 48, right: 10, top: 10, bottom: 26 };

function svg(tag, attrs, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, String(value));
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// The axis top: four gridline steps of a "nice" size (1, 2, 2.5, 5 × 10^k); whole steps for counts.
function niceTop(max, integer) {
  if (max <= 0) return integer ? 4 : 1;
  const raw = max / 4;
  const power = Math.pow(10, Math.floor(Math.log10(raw)));
  let step = 10 * power;
  for (const m of [1, 2, 2.5, 5]) {
    if (m * power >= raw) { step = m * power; break; }
  }
  if (integer) step = Math.max(1, Math.ceil(step));
  return 4 * step;
}

function frame(maxValue, labels, labelEvery, integer) {
  const top = niceTop(maxValue, integer);
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const grid = svg('g', { class: 'grid' });
  const axis = svg('g', { class: 'axis' });
  for (let i = 0; i <= 4; i++) {
    const y = PAD.top + plotH - (plotH * i) / 4;
    grid.appendChild(svg('line', { x1: PAD.left, x2: W - PAD.right, y1: y, y2: y }));
    axis.appendChild(svg('text', { x: PAD.left - 6, y: y + 3, 'text-anchor': 'end' }, compact((top * i) / 4)));
  }
  const step = plotW / labels.length;
  labels.forEach((label, i) => {
    if (i % labelEvery === 0) {
      axis.appendChild(svg('text', { x: PAD.left + step * i + step / 2, y: H - 8, 'text-anchor': 'middle' }, label));
    }
  });
  return { top, plotW, plotH, step, grid, axis };
}

function compact(v) {
  if (v >= 1e6) return (v / 1e6).toFixed(1) + 'M';
  if (v >= 1e3) return (v / 1e3).toFixed(1) + 'k';
  return Number.isInteger(v) ? String(v) : v.toFixed(1);
}

/** A bar chart over categories (minutes or buckets). values: numbers; labels: strings. */
export function barChart(id, title, labels, values, options) {
  const opts = options || {};
  const f = frame(Math.max(0, ...values), labels, opts.labelEvery || 1, !opts.format);
  const bars = svg('g', { class: 'bars' });
  values.forEach((v, i) => {
    const h = f.top > 0 ? (f.plotH * v) / f.top : 0;
    const x = PAD.left + f.step * i + f.step * 0.12;
    const y = PAD.top + f.plotH - h;
    bars.appendChild(svg('rect', { class: 'bar' + (opts.bad ? ' bad' : ''), x: x.toFixed(1), y: y.toFixed(1), width: (f.step * 0.76).toFixed(1), height: Math.max(0, h).toFixed(1), 'data-value': v },
      svg('title', null, labels[i] + ': ' + (opts.format || fmt.int)(v))));
  });
  return wrap(id, title, svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': title }, f.grid, f.axis, bars));
}

/** A line over categories; null values (minutes without data) are left out, zeros are drawn. */
export function lineChart(id, title, labels, values, options) {
  const opts = options || {};
  const f = frame(Math.max(0, ...values.filter((v) => v !== null)), labels, opts.labelEvery || 1, false);
  const points = values.map((v, i) => {
    const x = PAD.left + f.step * i + f.step / 2;
    const y = PAD.top + f.plotH - (f.top > 0 ? (f.plotH * (v || 0)) / f.top : 0);
    return [x, y, v];
  });
  const drawn = points.filter((p) => p[2] !== null && p[2] !== undefined);
  const path = svg('polyline', { class: 'line', points: drawn.map((p) => p[0].toFixed(1) + ',' + p[1].toFixed(1)).join(' ') });
  const dots = svg('g', { class: 'dots' });
  points.forEach((p, i) => {
    if (p[2] !== null && p[2] !== undefined) dots.appendChild(svg('circle', { class: 'dot', cx: p[0].toFixed(1), cy: p[1].toFixed(1), r: 2, 'data-value': p[2] },
      svg('title', null, labels[i] + ': ' + (opts.format || fmt.ms)(p[2]))));
  });
  return wrap(id, title, svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': title }, f.grid, f.axis, path, dots));
}

function wrap(id, title, chart) {
  return el('div', { class: 'chart', id }, el('h3', null, title), chart);
}

/** 60 minute labels ("0" … "59"). */
export const MINUTES = Array.from({ length: 60 }, (_, i) => String(i));

/** Spreads CAT per-minute elements ({value|id: minute, key}) into an array of 60. */
export function perMinute(items, key, minuteKey) {
  const out = new Array(60).fill(0);
  for (const item of items || []) {
    const m = Number(item[minuteKey || 'value']);
    if (m >= 0 && m < 60) out[m] += Number(item[key]) || 0;
  }
  return out;
}
