// The dashboard's light table (dashboards/light_table.py): a plain <table> built from the rows
// Python sends, sortable by its headers, whose rows (when they lead somewhere) open their page
// in the same session: a click, or Enter on a focused row, sends the row's number back to Python.
// A Ctrl/Cmd or middle click opens the row's address in a new tab, as a link would. From the
// keyboard the rows are one Tab stop (the first row, or the last one moved to): the arrow keys,
// Home and End move between them, so a list of 300 matches is not 300 Tabs to get past.

const FIRST_ROWS = 60; // more than the box shows before it scrolls (a page may send up to 1000)
const BATCH_ROWS = 100;

function cell(tag, text, align) {
  const element = document.createElement(tag);
  element.textContent = text;
  if (align) element.className = align;
  return element;
}

// a row's page address (relative, as the pages' own links are): match?match=zwaan-3&lang=nl
function address(links, index) {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...links.targets[index], ...links.lang })) params.set(name, String(value));
  return `${links.page}?${params}`;
}

function draw(box, data, setTriggerValue) {
  const { columns, sorting } = data;
  const links = data.links;
  // a detail column is a line under each row's cells, across the table, not a column of its own
  const detail = columns.find((column) => column.detail);
  const table = document.createElement("table");
  if (data.caption) table.setAttribute("aria-label", data.caption);
  const head = table.createTHead().insertRow();
  columns.forEach((column, index) => {
    if (column.detail) return;
    const th = cell("th", "", column.align);
    th.scope = "col";
    const sort = box.__sort;
    if (sort && sort.column === index) th.setAttribute("aria-sort", sort.descending ? "descending" : "ascending");
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = column.label;
    button.title = sorting;
    button.onclick = () => {
      const before = box.__sort;
      const descending = before && before.column === index ? !before.descending : column.align === "num";
      box.__sort = { column: index, descending };
      draw(box, data, setTriggerValue);
    };
    th.appendChild(button);
    head.appendChild(th);
  });
  const body = table.createTBody();
  const scroller = document.createElement("div");
  const shown = Array.from({ length: data.rows }, (_, index) => index);
  const sort = box.__sort;
  if (sort && sort.column < columns.length) {
    const keys = columns[sort.column].keys || columns[sort.column].cells;
    const sign = sort.descending ? -1 : 1;
    const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });
    shown.sort((a, b) => {
      const x = keys[a], y = keys[b];
      const blankX = x === null || x === "", blankY = y === null || y === "";
      if (blankX || blankY) return blankX === blankY ? a - b : blankX ? 1 : -1; // blanks last
      const compared = typeof x === "number" && typeof y === "number" ? x - y : collator.compare(String(x), String(y));
      return compared === 0 ? a - b : sign * compared;
    });
  }
  const addRow = (index) => {
    const tr = body.insertRow();
    const line = detail && detail.cells[index] ? body.insertRow() : null;
    columns.forEach((column) => {
      if (column.detail) return;
      const td = cell("td", column.cells[index], column.align);
      if (column.notes) {  // a mark in a box of its own width, so that the figures stay aligned
        const note = document.createElement("span");
        note.className = "note";
        note.textContent = column.notes[index];
        td.appendChild(note);
      }
      const bar = column.bars;
      if (bar && bar[index] !== null) td.style.setProperty("--bar", `${bar[index]}%`);
      if (bar) td.classList.add("bar");
      tr.appendChild(td);
    });
    if (line) {
      tr.classList.add("has-detail");
      line.className = "detail";
      const td = line.insertCell();
      td.colSpan = columns.length - 1;
      const text = document.createElement("div");  // kept in view while a wide row scrolls sideways
      text.textContent = detail.cells[index];
      td.appendChild(text);
    }
    if (links) {
      tr.dataset.row = String(index);
      tr.tabIndex = body.querySelector("tr[data-row]") === tr ? 0 : -1;
      tr.title = data.hint || "";
      const open = (event) => {
        if (event.ctrlKey || event.metaKey || event.shiftKey || event.button === 1) {
          window.open(address(links, index), "_blank", "noopener");
          return;
        }
        tr.classList.add("chosen");
        if (line) line.classList.add("chosen");
        setTriggerValue("row", index);
      };
      tr.onclick = open;
      tr.onauxclick = (event) => event.button === 1 && open(event);
      if (line) {
        line.onclick = open;
        line.onauxclick = tr.onauxclick;
        line.title = tr.title;
      }
      tr.onkeydown = (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          open(event);
          return;
        }
        const step = { ArrowDown: 1, ArrowUp: -1, PageDown: 10, PageUp: -10, Home: -Infinity, End: Infinity }[event.key];
        if (step === undefined || event.altKey || event.ctrlKey || event.metaKey) return;
        event.preventDefault();
        const linked = () => [...body.querySelectorAll("tr[data-row]")];
        let rows = linked();
        const at = rows.indexOf(tr);
        let target = step === -Infinity ? 0 : at + step;
        if (target >= rows.length && drawn < shown.length) {  // past the rows drawn: draw more first
          drawAll(step === Infinity ? shown.length : drawn + Math.max(step, BATCH_ROWS));
          rows = linked();
        }
        target = Math.max(0, Math.min(rows.length - 1, target));
        const next = rows[target];
        if (!next || next === tr) return;
        next.focus();  // the stop follows the focus (below)
      };
      // one stop, wherever the focus went (the arrow keys, a click, a Ctrl+click that stayed here)
      tr.onfocus = () => {
        for (const row of body.querySelectorAll("tr[data-row]")) row.tabIndex = row === tr ? 0 : -1;
      };
    }
  };
  // more rows as the box is scrolled near their end: a long list costs the page its first rows only
  let drawn = Math.min(FIRST_ROWS, shown.length);
  shown.slice(0, drawn).forEach(addRow);
  const drawAll = (upto) => {  // the rows up to ``upto`` drawn, for a key that moves past them
    const until = Math.min(upto, shown.length);
    if (until > drawn) shown.slice(drawn, until).forEach(addRow);
    drawn = Math.max(drawn, until);
  };
  const more = () => {
    if (drawn >= shown.length) return;
    if (scroller.scrollTop + scroller.clientHeight < scroller.scrollHeight - 400) return;
    shown.slice(drawn, drawn + BATCH_ROWS).forEach(addRow);
    drawn = Math.min(drawn + BATCH_ROWS, shown.length);
  };
  scroller.className = "scroller";
  scroller.appendChild(table);
  scroller.onscroll = more;
  const foot = document.createElement("div");
  foot.className = "foot";
  if (data.more) {  // the page sent only the first rows: this asks it for them all
    const all = document.createElement("button");
    all.type = "button";
    all.className = "more";
    all.textContent = data.more;
    all.onclick = () => setTriggerValue("more", true);
    foot.appendChild(all);
  }
  if (data.grid) {
    const grid = document.createElement("button");
    grid.type = "button";
    grid.className = "grid";
    grid.textContent = data.grid;
    grid.title = data.grid_hint || "";
    grid.onclick = () => setTriggerValue("grid", true);
    foot.appendChild(grid);
  }
  box.replaceChildren(scroller, ...(foot.children.length ? [foot] : []));
}

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  let box = parentElement.querySelector(".mr-light-table");
  if (!box) {
    box = document.createElement("div");
    box.className = "mr-light-table";
    parentElement.appendChild(box);
  }
  const shape = JSON.stringify(data);
  if (box.__shape === shape) return; // a rerun with the same rows: keep the sort and the focus
  if (box.__columns !== JSON.stringify(data.columns.map((column) => column.label))) box.__sort = null;
  box.__shape = shape;
  box.__columns = JSON.stringify(data.columns.map((column) => column.label));
  box.dataset.table = data.name;
  draw(box, data, setTriggerValue);
}
