// The board, drawn as SVG. It knows no rule: it is handed the legal moves (from-square to
// targets) and lets only those be played by click-click or drag; any other drop is sent to
// the server too, so that the person reads the rule's reason, and the piece springs back.
const NS = 'http://www.w3.org/2000/svg';
const CELL = 10;
const MARGIN = 6;

function el(name, attributes = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

export function squareName(x, y) {
  return String.fromCharCode(97 + x) + (y + 1);
}

export function parseSquare(name) {
  const m = /^([a-s])(\d{1,2})$/.exec(name);
  return m ? { x: m[1].charCodeAt(0) - 97, y: parseInt(m[2], 10) - 1 } : null;
}

export class Board {
  constructor(container, { onMove, onAttempt }) {
    this.container = container;
    this.onMove = onMove;        // (from, to): a legal move was made
    this.onAttempt = onAttempt;  // (from, to): a move the page was not handed; the server says why
    this.flipped = false;
    this.selected = null;
    this.drag = null;
    this.state = null;
  }

  // Where square (x, y) is drawn.
  place(x, y) {
    const size = this.state.size;
    const col = this.flipped ? size - 1 - x : x;
    const row = this.flipped ? y : size - 1 - y;
    return { px: MARGIN + col * CELL, py: MARGIN + row * CELL };
  }

  // The square under a point of the SVG, or null.
  squareAt(clientX, clientY) {
    const point = this.svg.createSVGPoint();
    point.x = clientX; point.y = clientY;
    const local = point.matrixTransform(this.svg.getScreenCTM().inverse());
    const size = this.state.size;
    const col = Math.floor((local.x - MARGIN) / CELL);
    const row = Math.floor((local.y - MARGIN) / CELL);
    if (col < 0 || row < 0 || col >= size || row >= size) return null;
    const x = this.flipped ? size - 1 - col : col;
    const y = this.flipped ? row : size - 1 - row;
    return squareName(x, y);
  }

  // state: {size, cells, throne, corners, camps, legal, last: {from, to, captures}, arrow}
  render(state) {
    this.state = state;
    if (this.selected && !(state.legal && state.legal[this.selected])) this.selected = null;
    const size = state.size;
    const full = size * CELL + 2 * MARGIN;
    const svg = el('svg', { viewBox: `0 0 ${full} ${full}`, class: 'board', role: 'img',
      'data-size': size, 'aria-label': state.label || 'board' });
    this.svg = svg;
    el('rect', { x: 0, y: 0, width: full, height: full, class: 'frame' }, svg);
    const kinds = {};
    for (const s of state.camps || []) kinds[s] = 'camp';
    for (const s of state.corners || []) kinds[s] = 'corner';
    for (const s of state.throne || []) kinds[s] = 'throne';
    const squares = el('g', {}, svg);
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        const name = squareName(x, y);
        const { px, py } = this.place(x, y);
        const kind = kinds[name] || ((x + y) % 2 ? 'light' : 'dark');
        el('rect', { x: px, y: py, width: CELL, height: CELL, class: `square ${kind}`,
          'data-square': name }, squares);
        if (kind === 'throne' || kind === 'corner') {
          el('path', { d: `M${px + 2} ${py + 2}L${px + 8} ${py + 8}M${px + 8} ${py + 2}L${px + 2} ${py + 8}`,
            class: 'special-mark' }, squares);
        }
      }
    }
    // Coordinates: files along the bottom and top, ranks along both sides.
    const labels = el('g', { class: 'coords' }, svg);
    for (let i = 0; i < size; i++) {
      const file = this.place(i, 0).px + CELL / 2;
      const rank = this.place(0, i).py + CELL / 2;
      for (const yy of [MARGIN / 2 + 1.2, full - MARGIN / 2 + 1.2]) {
        el('text', { x: file, y: yy }, labels).textContent = String.fromCharCode(97 + i);
      }
      for (const xx of [MARGIN / 2, full - MARGIN / 2]) {
        el('text', { x: xx, y: rank + 1.2 }, labels).textContent = String(i + 1);
      }
    }
    const marks = el('g', { class: 'marks' }, svg);
    if (state.last) {
      for (const s of [state.last.from, state.last.to]) this.mark(marks, s, 'last');
    }
    const pieces = el('g', { class: 'pieces' }, svg);
    this.pieces = {};
    for (let i = 0; i < size * size; i++) {
      const c = state.cells[i];
      if (c === '.') continue;
      const x = i % size, y = Math.floor(i / size);
      const name = squareName(x, y);
      const { px, py } = this.place(x, y);
      const g = el('g', { class: `piece ${c === 't' ? 'attacker' : c === 'K' ? 'king' : 'defender'}`,
        'data-square': name, 'data-piece': c }, pieces);
      el('circle', { cx: px + CELL / 2, cy: py + CELL / 2, r: CELL * 0.38 }, g);
      if (c === 'K') {
        el('path', { d: `M${px + 3.2} ${py + 6.3}L${px + 3.2} ${py + 3.6}L${px + 4.1} ${py + 4.7}L${px + 5} ${py + 3.2}L${px + 5.9} ${py + 4.7}L${px + 6.8} ${py + 3.6}L${px + 6.8} ${py + 6.3}Z`,
          class: 'crown' }, g);
      }
      this.pieces[name] = g;
    }
    this.overlay = el('g', { class: 'overlay' }, svg);
    this.drawOverlay();
    svg.addEventListener('pointerdown', (e) => this.down(e));
    svg.addEventListener('pointermove', (e) => this.moveDrag(e));
    svg.addEventListener('pointerup', (e) => this.up(e));
    svg.addEventListener('pointercancel', () => this.cancelDrag());
    this.container.replaceChildren(svg);
  }

  // The marks that change without a new position: captures, the selection and its targets,
  // the hint's arrow. Redrawn in place, so that a drag in progress keeps its elements.
  drawOverlay() {
    const over = this.overlay;
    const state = this.state;
    over.replaceChildren();
    for (const s of (state.last && state.last.captures) || []) this.cross(over, s);
    if (this.selected) {
      this.mark(over, this.selected, 'selected');
      for (const t of state.legal[this.selected] || []) this.dot(over, t);
    }
    if (state.arrow) this.arrow(over, state.arrow.from, state.arrow.to);
  }

  mark(group, name, kind) {
    const s = parseSquare(name);
    const { px, py } = this.place(s.x, s.y);
    el('rect', { x: px + 0.4, y: py + 0.4, width: CELL - 0.8, height: CELL - 0.8, class: `mark ${kind}` }, group);
  }

  dot(group, name) {
    const s = parseSquare(name);
    const { px, py } = this.place(s.x, s.y);
    el('circle', { cx: px + CELL / 2, cy: py + CELL / 2, r: 1.6, class: 'target', 'data-target': name }, group);
  }

  cross(group, name) {
    const s = parseSquare(name);
    const { px, py } = this.place(s.x, s.y);
    el('path', { d: `M${px + 2.5} ${py + 2.5}L${px + 7.5} ${py + 7.5}M${px + 7.5} ${py + 2.5}L${px + 2.5} ${py + 7.5}`,
      class: 'captured', 'data-captured': name }, group);
  }

  arrow(group, from, to) {
    const a = parseSquare(from), b = parseSquare(to);
    const p = this.place(a.x, a.y), q = this.place(b.x, b.y);
    const defs = el('defs', {}, group);
    const marker = el('marker', { id: 'head', markerWidth: 4, markerHeight: 4, refX: 2, refY: 2, orient: 'auto' }, defs);
    el('path', { d: 'M0 0L4 2L0 4Z', class: 'arrow-head' }, marker);
    el('line', { x1: p.px + CELL / 2, y1: p.py + CELL / 2, x2: q.px + CELL / 2, y2: q.py + CELL / 2,
      class: 'arrow', 'marker-end': 'url(#head)', 'data-arrow': `${from}-${to}` }, group);
  }

  movable(name) {
    return !!(this.state && this.state.legal && this.state.legal[name] && !this.state.frozen);
  }

  select(name) {
    this.selected = name;
    this.drawOverlay();
  }

  // A click (or a drop) on `name`: pick, move or drop the selection.
  clickSquare(name) {
    if (!this.state || this.state.frozen) return;
    if (this.selected && name !== this.selected) {
      const from = this.selected;
      if ((this.state.legal[from] || []).includes(name)) {
        this.selected = null;
        this.onMove(from, name);
        return;
      }
      if (this.movable(name)) { this.select(name); return; }
      this.selected = null;
      this.drawOverlay();
      this.onAttempt(from, name);
      return;
    }
    if (name === this.selected) { this.select(null); return; }
    if (this.movable(name)) this.select(name);
    else if (this.state.cells && this.pieceAt(name) !== '.') this.onAttempt(name, null);
  }

  pieceAt(name) {
    const s = parseSquare(name);
    return this.state.cells[s.y * this.state.size + s.x];
  }

  down(e) {
    const name = this.squareAt(e.clientX, e.clientY);
    if (!name) return;
    if (this.movable(name)) {
      this.drag = { from: name, x: e.clientX, y: e.clientY, moving: false };
      this.svg.setPointerCapture(e.pointerId);
    } else {
      this.drag = { from: null, x: e.clientX, y: e.clientY, moving: false, click: name };
    }
  }

  moveDrag(e) {
    const d = this.drag;
    if (!d || !d.from) return;
    if (!d.moving && Math.hypot(e.clientX - d.x, e.clientY - d.y) < 4) return;
    if (!d.moving) {
      d.moving = true;
      if (this.selected !== d.from) this.select(d.from);
      this.svg.setPointerCapture(e.pointerId);
    }
    const piece = this.pieces[d.from];
    if (!piece) return;
    const scale = this.svg.getScreenCTM().a;
    piece.setAttribute('transform', `translate(${(e.clientX - d.x) / scale} ${(e.clientY - d.y) / scale})`);
    piece.classList.add('dragging');
  }

  up(e) {
    const d = this.drag;
    this.drag = null;
    if (!d) return;
    const name = this.squareAt(e.clientX, e.clientY);
    if (d.moving) {
      const piece = this.pieces[d.from];
      if (piece) { piece.removeAttribute('transform'); piece.classList.remove('dragging'); }
      if (!name || name === d.from) { this.drawOverlay(); return; }
      this.selected = d.from;
      this.clickSquare(name);
      return;
    }
    if (name) this.clickSquare(name);
  }

  cancelDrag() {
    const d = this.drag;
    this.drag = null;
    const piece = d && d.from && this.pieces[d.from];
    if (piece) { piece.removeAttribute('transform'); piece.classList.remove('dragging'); }
  }
}
