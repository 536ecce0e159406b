// A data table: sortable by any column (click the header), filterable by text, paginated so a type with
// thousands of names renders only one page of rows at a time. Cells are built with text nodes only.
import { el, replace } from './common.js';

/**
 * @param spec.id          table id (for tests and styling)
 * @param spec.columns     [{ key, label, text, value(row) → sort key, render(row) → node|string, cls(row) }]
 * @param spec.rows        the data rows
 * @param spec.pinned      rows always shown first (e.g. TOTAL), not sorted or filtered
 * @param spec.pageSize    rows per page (default 100)
 * @param spec.filterKey   column key matched by the filter box (omit for no filter)
 * @param spec.sort        initial { key, desc }
 * @param spec.filter      initial filter text (CAT's queryname: |-separated substrings, case-insensitive)
 */
export function dataTable(spec) {
  const pageSize = spec.pageSize || 100;
  let sort = spec.sort || null;
  let pageIndex = 0;
  let query = (spec.filter || '').trim().toLowerCase();
  const table = el('table', { class: 'data', id: spec.id });
  const head = el('tr');
  const body = el('tbody');
  table.appendChild(el('thead', null, head));
  table.appendChild(body);
  const info = el('span', { class: 'count', id: spec.id + '-count' });
  const prev = el('button', { type: 'button', id: spec.id + '-prev' }, '‹ Prev');
  const next = el('button', { type: 'button', id: spec.id + '-next' }, 'Next ›');
  const pageLabel = el('span', { id: spec.id + '-page' });
  const tools = el('div', { class: 'table-tools' });
  if (spec.filterKey) {
    const search = el('input', { type: 'search', placeholder: 'Filter… (a|b)', title: 'substrings, | for either', id: spec.id + '-filter', autocomplete: 'off', value: spec.filter || null });
    search.addEventListener('input', () => { query = search.value.trim().toLowerCase(); pageIndex = 0; draw(); });
    tools.appendChild(search);
  }
  tools.appendChild(info);
  tools.appendChild(el('span', { class: 'pager' }, prev, pageLabel, next));
  prev.addEventListener('click', () => { pageIndex -= 1; draw(); });
  next.addEventListener('click', () => { pageIndex += 1; draw(); });

  for (const column of spec.columns) {
    const th = el('th', { class: column.text ? 'text' : null, 'data-key': column.key, title: column.title || null }, column.label);
    th.addEventListener('click', () => {
      sort = sort && sort.key === column.key ? { key: column.key, desc: !sort.desc } : { key: column.key, desc: !column.text };
      pageIndex = 0;
      draw();
    });
    head.appendChild(th);
  }

  function valueOf(column, row) {
    return column.value ? column.value(row) : row[column.key];
  }

  function draw() {
    let rows = spec.rows;
    if (query) {
      const terms = query.split('|').filter((t) => t);
      const column = spec.columns.find((c) => c.key === spec.filterKey);
      rows = rows.filter((row) => terms.some((t) => String(valueOf(column, row)).toLowerCase().includes(t)));
    }
    if (sort) {
      const column = spec.columns.find((c) => c.key === sort.key);
      const sign = sort.desc ? -1 : 1;
      rows = rows.slice().sort((a, b) => {
        const x = valueOf(column, a);
        const y = valueOf(column, b);
        if (typeof x === 'number' && typeof y === 'number') return sign * (x - y);
        return sign * String(x).localeCompare(String(y));
      });
    }
    for (const th of head.children) {
      th.classList.toggle('sorted-asc', !!sort && th.dataset.key === sort.key && !sort.desc);
      th.classList.toggle('sorted-desc', !!sort && th.dataset.key === sort.key && sort.desc);
    }
    const pages = Math.max(1, Math.ceil(rows.length / pageSize));
    pageIndex = Math.min(Math.max(0, pageIndex), pages - 1);
    const shown = rows.slice(pageIndex * pageSize, (pageIndex + 1) * pageSize);
    const trs = [];
    for (const row of spec.pinned || []) trs.push(rowNode(row, 'total'));
    for (const row of shown) trs.push(rowNode(row, null));
    replace(body, trs);
    const unit = spec.rows.length === 1 ? ' row' : ' rows';
    info.textContent = rows.length === spec.rows.length ? rows.length + unit : rows.length + ' of ' + spec.rows.length + unit;
    pageLabel.textContent = 'page ' + (pageIndex + 1) + ' / ' + pages;
    prev.disabled = pageIndex === 0;
    next.disabled = pageIndex >= pages - 1;
    tools.querySelector('.pager').hidden = pages <= 1;
  }

  function rowNode(row, cls) {
    const tr = el('tr', { class: cls });
    for (const column of spec.columns) {
      const content = column.render ? column.render(row) : valueOf(column, row);
      const extra = column.cls ? column.cls(row) : null;
      tr.appendChild(el('td', { class: [column.text ? 'text' : null, extra].filter((c) => c).join(' ') || null }, content));
    }
    return tr;
  }

  draw();
  return el('div', { class: 'table-wrap' }, tools, table);
}
