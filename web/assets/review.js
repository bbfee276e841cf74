// The review graph of a finished game: the attackers' win chance after every move (the
// engine's evaluation, computed by the server in the background), as an SVG line from 100 %
// at the top to 0 % at the bottom; the moves where the mover's chance fell most are marked.
// Clicking a point shows that position.
const NS = 'http://www.w3.org/2000/svg';
const WIDTH = 300;
const HEIGHT = 90;

function el(name, attributes) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attributes || {})) node.setAttribute(key, String(value));
  return node;
}

/** Draws `review` (the server's `/review` answer) into `host`; `ply` is the position shown,
 *  `onPick(ply)` is called with the point clicked, `label` names the graph, `pointText(point)`
 *  is a point's tooltip. */
export function drawReview(host, review, { ply, onPick, label, pointText }) {
  host.replaceChildren();
  const plies = Math.max(1, review.positions - 1);
  const x = (p) => (p / plies) * WIDTH;
  const y = (win) => HEIGHT - (win / 100) * HEIGHT;
  const svg = el('svg', {
    viewBox: `-6 -6 ${WIDTH + 12} ${HEIGHT + 12}`, class: 'review-graph', role: 'img', 'aria-label': label,
  });
  svg.dataset.points = String(review.points.length);
  svg.appendChild(el('rect', { x: 0, y: 0, width: WIDTH, height: HEIGHT, class: 'frame' }));
  svg.appendChild(el('line', { x1: 0, y1: HEIGHT / 2, x2: WIDTH, y2: HEIGHT / 2, class: 'even' }));
  const points = review.points;
  if (points.length > 1) {
    svg.appendChild(el('polyline', {
      points: points.map((p) => `${x(p.ply).toFixed(1)},${y(p.win).toFixed(1)}`).join(' '), class: 'win',
    }));
  }
  const marked = new Set(review.marked.map((m) => m.ply));
  for (const p of points) {
    const classes = ['point'];
    if (marked.has(p.ply)) classes.push('marked');
    if (p.ply === ply) classes.push('current');
    const dot = el('circle', {
      cx: x(p.ply).toFixed(1), cy: y(p.win).toFixed(1), r: marked.has(p.ply) ? 4.5 : 3, class: classes.join(' '),
      'data-ply': p.ply, tabindex: 0,
    });
    const title = el('title');
    title.textContent = pointText(p);
    dot.appendChild(title);
    dot.addEventListener('click', () => onPick(p.ply));
    dot.addEventListener('keydown', (event) => { if (event.key === 'Enter') onPick(p.ply); });
    svg.appendChild(dot);
  }
  host.appendChild(svg);
}
