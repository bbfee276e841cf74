// The page: a new game's form at /, a game at /g/ID. Every rule is the server's: the page shows
// what it is handed (the board, the legal moves, the captures, the result) and sends moves.
import { ApiError, api, heldGames, secretOf } from './api.js';
import { Board } from './board.js';
import { drawReview } from './review.js';
import { chooseLanguage, hasWord, ltr, rememberedLanguage, t } from './i18n.js';
import { renderLearn, showLearn } from './learn.js';

const $ = (id) => document.getElementById(id);
const page = {
  game: null,        // the server's state of the game
  viewing: null,     // the ply shown when looking back, or null
  arrow: null,       // the hint's arrow
  stream: null,      // the engine's thinking, while it runs
  flipped: localStorage.getItem('tafl-flipped') === '1',
  variants: [],
  levels: [],
  analysis: null,    // the three best lines of the position shown
  you: [],           // the seats this browser holds in the game (none: it watches)
  events: null,      // the game's event stream
  lastEvent: null,   // the number of the last event seen
  retry: 0,          // the next reconnection's wait, in ms
  reconnecting: false,
  review: null,      // a finished game's review: {id, data}
};

// Whether this page holds no seat of the game: it watches, read-only.
function watching() {
  return !page.game || page.you.length === 0;
}

// Whether the side to move is this page's to play.
function yourTurn(game) {
  if (watching()) return false;
  return page.you.includes(game.to_move);
}

// The one side this page plays (the creator's or the invited friend's), else null.
function mySide() {
  return page.you.length === 1 ? page.you[0] : null;
}

// Whether both seats are people's (or one waits for a friend): no engine plays in it.
function betweenPeople(game) {
  return !!game.seats && game.mode === 'play'
    && game.seats.attackers !== 'engine' && game.seats.defenders !== 'engine';
}

// A finished game between people: the engine's hints and analyses are open to both players.
function afterPeople(game) {
  return game.finished && betweenPeople(game);
}

// The side to move after `ply` moves of the game (sides alternate).
function sideAt(game, ply) {
  if ((game.ply - ply) % 2 === 0) return game.to_move;
  return game.to_move === 'attackers' ? 'defenders' : 'attackers';
}

// The seat that waits for the invited friend, if any.
function openSeat(game) {
  if (!game.seats) return null;
  return ['attackers', 'defenders'].find((side) => game.seats[side] === 'open') || null;
}

const board = new Board($('board'), {
  onMove: (from, to) => sendMove(`${from}-${to}`),
  onAttempt: (from, to) => {
    if (to === null) { showReason(t('cannot_move')); return; }
    sendMove(`${from}-${to}`);
  },
});

// A built-in game's name and paragraph in the page's language (the server's English for a game
// the page has no words for).
function gameText(kind, key, fallback) {
  const word = `${kind}_${key.replaceAll('-', '_')}`;
  return hasWord(word) ? t(word) : fallback;
}
function gameName(v) { return gameText('name', v.key, v.name); }

function sideName(side) { return t(side === 'attackers' ? 'the_attackers' : 'the_defenders'); }
function capital(text) { return text.charAt(0).toUpperCase() + text.slice(1); }

// A message under the board, by kind: `rule` (a rule's refusal: "Not allowed: ..."),
// `network`, `rate` (too many requests), `stale` (the page was behind), `seat` (no secret, or
// not this seat's) and `other`; each reads differently, and the kind is on the element.
function showReason(text, kind = 'rule') {
  const node = $('reason');
  node.textContent = !text ? '' : kind === 'rule' ? `${t('illegal')}: ${text}` : capital(text);
  node.dataset.kind = text ? kind : '';
}

// A refused request's kind.
function refusalKind(error) {
  if (error.status === 0) return 'network';
  if (error.status === 429) return 'rate';
  if (error.code === 'stale') return 'stale';
  if (error.status === 403) return 'seat';
  if (error.status === 422 && error.code === 'illegal_move') return 'rule';
  if (error.code === 'not_your_turn' || error.code === 'nothing_to_take_back') return 'rule';
  return 'other';
}

// Shows a refused request in words, by its kind.
function showError(error) {
  const kind = refusalKind(error);
  showReason(refusalText(error), kind);
  // A stale page reads the game again.
  if (kind === 'stale') reload();
}

// A refused request in words: an illegal move's reason from its data, another refusal by its
// code; the server's English only for a code the page does not know.
function refusalText(error) {
  if (error.status === 0) return t('err_network');
  if (error.status === 403) {
    const code = { no_secret: 'no_secret', wrong_secret: 'no_secret', bad_secret: 'no_secret', not_your_seat: 'not_your_seat', read_only: 'read_only' }[error.code];
    if (code) return t(`err_${code}`);
  }
  const r = error.reason;
  if (r && hasWord(`why_${r.code}`)) {
    const values = {};
    for (const name of ['square', 'from', 'to', 'text']) if (r[name] !== undefined) values[name] = ltr(r[name]);
    if (r.distance !== undefined) values.n = ltr(String(r.distance));
    if (r.side) values.side = sideName(r.side);
    if (r.kind) values.kind = t(`square_${r.kind}`);
    return t(`why_${r.code}`, values);
  }
  if (error.code && hasWord(`err_${error.code}`)) return t(`err_${error.code}`, { message: error.message });
  return t('err_unknown', { message: error.message });
}

function stopStream() {
  if (page.stream) { page.stream.close(); page.stream = null; }
  $('thinking').hidden = true;
}

// What the game's end was, in words.
function resultText(game) {
  if (game.resigned) {
    return capital(t('resigned', { side: sideName(game.resigned) }));
  }
  if (game.flagged) {
    const text = capital(t('flagged', { side: sideName(game.flagged) }));
    return mySide() ? `${t(game.flagged === mySide() ? lossKey(game) : 'you_win')} ${text}` : text;
  }
  const result = game.result;
  if (!result) return '';
  const reason = t(result.reason);
  let text = result.winner
    ? t('win', { side: sideName(result.winner), reason })
    : t('draw', { reason });
  text = capital(text);
  if (mySide() && result.winner) text = `${t(result.winner === mySide() ? 'you_win' : lossKey(game))} ${text}`;
  return text;
}

// A person's loss: to the engine, or (between people) to the friend.
function lossKey(game) {
  return betweenPeople(game) ? 'you_lost' : 'you_lose';
}

function winner(game) {
  if (game.resigned) return game.resigned === 'attackers' ? 'defenders' : 'attackers';
  if (game.flagged) return game.flagged === 'attackers' ? 'defenders' : 'attackers';
  return game.result ? game.result.winner : null;
}

function statusText(game) {
  if (page.reconnecting) return t('reconnecting');
  if (game.finished) return resultText(game);
  // "The attackers to move · you are watching": the sentence's full stop goes before the dot.
  if (watching()) return `${capital(t('to_move', { side: sideName(game.to_move) })).replace(/\.$/, '')} · ${t('watching')}`;
  if (betweenPeople(game)) {
    if (openSeat(game)) return t('waiting_friend');
    const turn = page.you.includes(game.to_move)
      ? t('your_turn', { side: sideName(game.to_move) })
      : t('friend_turn', { side: sideName(game.to_move) });
    // A standing draw offer, said in words as well as by the buttons that answer it.
    if (!game.draw_offer) return turn;
    return `${turn} ${t(page.you.includes(game.draw_offer) ? 'draw_offer_sent' : 'draw_offer_received')}`;
  }
  if (game.human) {
    return game.to_move === game.human
      ? t('your_turn', { side: sideName(game.human) })
      : t('engine_thinking');
  }
  return capital(t('to_move', { side: sideName(game.to_move) }));
}

/** Scrolls `list` (and nothing else) so that `item` shows: `scrollIntoView` would scroll the
 *  page too, and on a phone, where the list is below the board, the board would slide out of
 *  sight at every move. */
function showInList(list, item) {
  const box = list.getBoundingClientRect();
  const at = item.getBoundingClientRect();
  if (at.top < box.top) list.scrollTop -= box.top - at.top;
  else if (at.bottom > box.bottom) list.scrollTop += at.bottom - box.bottom;
}

function render() {
  const game = page.game;
  if (!game) return;
  const ply = page.viewing ?? game.ply;
  const looking = page.viewing !== null && page.viewing !== game.ply;
  const lastMove = ply > 0 ? game.moves[ply - 1] : null;
  board.flipped = page.flipped;
  const yours = yourTurn(game);
  board.render({
    size: game.size,
    cells: game.history[ply],
    throne: game.throne, corners: game.corners, camps: game.camps,
    legal: !looking && yours && !game.finished ? game.legal : {},
    frozen: looking || !yours || game.finished,
    last: lastMove ? { from: lastMove.move.split('-')[0], to: lastMove.move.split('-')[1], captures: lastMove.captures } : null,
    arrow: page.arrow && (page.arrow.ply ?? game.ply) === ply ? page.arrow : null,
    label: `${game.name} ${game.size}x${game.size}`,
  });
  const svg = $('board').querySelector('svg');
  svg.dataset.ply = String(ply);
  // A built-in game by its name in the page's language; any other by its rules' name.
  const known = page.variants.find((v) => v.rules === game.rules);
  $('game-name').textContent = `${known ? gameName(known) : game.name.replaceAll('_', ' ')} · ${ltr(`${game.size}x${game.size}`)}`;
  $('status').textContent = statusText(game);
  $('status').className = game.finished ? 'over' : '';
  document.body.dataset.finished = game.finished ? '1' : '0';
  // For tests and styles: whose turn the live game is, and its ply.
  document.body.dataset.turn = game.finished ? 'over' : yours ? 'person' : watching() ? 'watching' : 'engine';
  document.body.dataset.ply = String(game.ply);
  document.body.dataset.winner = winner(game) || '';
  $('viewing').hidden = !looking;
  const list = $('move-list');
  list.replaceChildren();
  const fell = new Set((page.review?.id === game.id && page.review.data?.marked || []).map((m) => m.ply));
  // One line a turn (OpenTafl's numbering): the first mover's move, then the answer.
  let item = null;
  game.moves.forEach((m, i) => {
    if (i % 2 === 0) {
      item = document.createElement('li');
      list.appendChild(item);
    }
    const button = document.createElement('button');
    button.textContent = m.full;
    button.className = 'move' + (i + 1 === ply ? ' current' : '') + (fell.has(i + 1) ? ' fell' : '');
    button.dataset.ply = String(i + 1);
    button.addEventListener('click', () => { page.viewing = i + 1 === game.ply ? null : i + 1; render(); });
    item.appendChild(button);
  });
  const current = list.querySelector('.current');
  if (current && !looking) showInList(list, current);
  const analysis = game.mode === 'analysis';
  const watcher = watching();
  $('resign').hidden = analysis || game.finished || watcher;
  $('rematch').hidden = analysis || !game.finished || watcher;
  // The other side asked for a rematch: the button says that it joins theirs.
  const joins = page.rematch?.from === game.id && !secretOf(page.rematch.to);
  $('rematch').textContent = t(joins ? 'join_rematch' : 'rematch');
  $('rematch').dataset.joins = joins ? '1' : '0';
  // A draw: offered by this seat, or answered when the other side's offer stands.
  const offeredToMe = !!game.draw_offer && !page.you.includes(game.draw_offer);
  $('offer-draw').hidden = analysis || game.finished || watcher || !!game.draw_offer;
  $('accept-draw').hidden = !offeredToMe || game.finished || watcher;
  $('decline-draw').hidden = !offeredToMe || game.finished || watcher;
  // Between people no engine moves, and neither takes a move back (the server refuses it).
  $('move-now').hidden = analysis || game.finished || yours || watcher || betweenPeople(game);
  // After a game between people, both players ask the engine about any of its positions.
  const reviewing = afterPeople(game) && !watcher;
  $('hint').hidden = reviewing ? false : game.finished || !yours || betweenPeople(game);
  $('analyse').hidden = reviewing ? false : !analysis || game.finished || watcher;
  $('takeback').hidden = watcher || betweenPeople(game);
  $('takeback').disabled = game.ply === 0;
  document.body.dataset.watching = watcher ? '1' : '0';
  $('download').href = `/api/games/${game.id}/otg`;
  $('move-input').disabled = game.finished || !yours;
  // A spectator has no move to type.
  $('text-move').hidden = watcher;
  $('lines').hidden = !page.analysis || page.analysisPly !== ply;
  showInvite(game);
  showDeadline(game);
  drawClocks();
  showReview(ply);
}

// The invitation: while the other seat waits for a person, the page that holds this game's
// seat shows the link that takes it (/g/ID?join).
function showInvite(game) {
  const open = !watching() && !game.finished && openSeat(game);
  $('invite').hidden = !open;
  if (open) $('invite-link').value = inviteLink(game.id);
}

// A correspondence game's deadline for the side to move, as a date and time of this page's
// language (the server ends the game on time when it passes, page or not).
function showDeadline(game) {
  const node = $('deadline');
  node.hidden = !game.deadline;
  if (!game.deadline) return;
  const when = new Date(game.deadline).toLocaleString(document.documentElement.lang || undefined,
    { dateStyle: 'medium', timeStyle: 'short' });
  node.textContent = `${capital(t('deadline', { side: sideName(game.to_move), date: when }))} (${t('days_per_move', { n: ltr(String(game.days_per_move)) })})`;
}

function inviteLink(id) {
  return `${window.location.origin}/g/${id}?join`;
}

// A finished game's review under the move list: asked for once the game is over, then every
// 2 s until the server has evaluated every position.
function showReview(ply) {
  const game = page.game;
  $('review').hidden = !game.finished;
  if (!game.finished) { page.review = null; return; }
  if (page.review?.id !== game.id) {
    page.review = { id: game.id, data: null };
    fetchReview(game.id);
  }
  const data = page.review.data;
  $('review-status').textContent = data?.complete ? t('review_done') : t('review_pending');
  if (!data) return;
  drawReview($('review-graph'), data, {
    ply,
    label: t('review'),
    onPick: (picked) => { page.viewing = picked === game.ply ? null : picked; render(); },
    pointText: (p) => `${ltr(String(p.ply))} · ${capital(t('the_attackers'))} ${ltr(`${Math.round(p.win)} %`)}`,
  });
}

async function fetchReview(id) {
  try {
    const data = await api.review(id);
    if (page.review?.id !== id) return;
    page.review.data = data;
    render();
    if (!data.complete) setTimeout(() => fetchReview(id), 2000);
  } catch {
    if (page.review?.id === id) setTimeout(() => fetchReview(id), 5000);
  }
}

// The clocks: the server's times, the running one counted down here between answers; at
// zero the server is asked, and it ends the game on time.
function formatClock(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), sec = total % 60;
  const two = (n) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${two(m)}:${two(sec)}` : `${m}:${two(sec)}`;
}

function drawClocks() {
  const game = page.game;
  const clock = game && game.clock;
  $('clocks').hidden = !clock;
  if (!clock) return;
  const elapsed = performance.now() - page.clockAt;
  for (const node of document.querySelectorAll('#clocks .clock')) {
    const side = node.dataset.side;
    const running = clock.running === side;
    const left = clock[side] - (running ? elapsed : 0);
    node.querySelector('b').textContent = formatClock(left);
    node.classList.toggle('running', running);
    node.classList.toggle('low', left < 10000);
    if (running && left <= 0 && !page.flagAsked) {
      page.flagAsked = true;
      setTimeout(() => reload(), 300);
    }
  }
}
setInterval(drawClocks, 200);

function setGame(game) {
  // An answer can arrive after the events that followed it (the engine answers at once): the
  // page keeps the newest state of its game.
  // The same event's state twice (a move's answer, then its event) is drawn once: drawing
  // again would replace the board under the person's pointer.
  if (page.game && page.game.id === game.id && game.event <= page.game.event) {
    if (game.you) page.you = game.you;
    return false;
  }
  if (game.you) page.you = game.you;
  else if (!secretOf(game.id)) page.you = [];
  page.clockAt = performance.now();
  page.flagAsked = false;
  page.game = game;
  page.viewing = null;
  page.arrow = null;
  page.analysis = null;
  $('lines').replaceChildren();
  render();
  if (game.engine_to_move && !page.stream) {
    // The server plays the engine's move by itself; its thinking comes with the game's events.
    page.viewer = game.human || game.to_move;
    $('thinking').hidden = false;
    $('depth').textContent = '';
    $('pv').textContent = '';
  } else if (!page.stream) {
    $('thinking').hidden = true;
  }
  if (!page.events || page.events.id !== game.id) follow(game.id);
  return true;
}

// The game's events: every move (a person's or the engine's), takeback and end reaches every
// page of the game at once. A stream that breaks (network, a server restart) is reopened by
// itself after a growing wait, from the last event seen; meanwhile the page says so.
const EVENT_KINDS = ['move', 'takeback', 'resign', 'flag', 'join', 'draw', 'offer', 'decline', 'rematch'];

function follow(id) {
  if (page.events) page.events.close();
  if (!page.events || page.events.id !== id) page.lastEvent = null;
  const handlers = {
    state: (e) => {
      page.lastEvent = e.last_event_id;
      page.retry = 0;
      if (page.reconnecting) { page.reconnecting = false; showReason(''); }
      if (!setGame(e.state)) render();
    },
    queue: (e) => { if (page.game && page.game.engine_to_move) $('queue').textContent = e.place > 0 ? t('queue', { n: e.place }) : t('started'); },
    started: () => { if (page.game && page.game.engine_to_move) $('queue').textContent = t('started'); },
    info: (e) => { if (page.game && page.game.engine_to_move && !page.stream) showThought(e, false); },
    failed: (e) => showReason(t('err_unknown', { message: e.message }), 'other'),
    // The server stops (an update, fewer servers): come back at once, through the balancer to
    // another server, from the last event seen. Not a lost connection: the page says nothing
    // unless that fails too.
    reconnect: () => {
      stream.close();
      page.retry = 0;
      setTimeout(() => { if (page.game && page.game.id === id && page.events === stream) follow(id); }, 100 + Math.random() * 400);
    },
    refused: (e) => {
      if (e.status === 404) { showError(e); return; }
      retry(id);
    },
    error: () => retry(id),
  };
  for (const kind of EVENT_KINDS) {
    handlers[kind] = (e, number) => {
      if (number !== null) page.lastEvent = Number(number);
      // A rematch asked for by the other side: this page's Rematch button takes its seat.
      if (kind === 'rematch' && e.id) { page.rematch = { from: id, to: e.id }; render(); }
      // A replayed event has no state: the game as it is now follows the replay.
      if (e.state && e.state.id === id) setGame(e.state);
    };
  }
  const stream = api.events(id, page.lastEvent, handlers);
  stream.id = id;
  page.events = stream;
}

function retry(id) {
  if (!page.game || page.game.id !== id) return;
  page.reconnecting = true;
  render();
  // 0.5 s, 1 s, 2 s ... up to 8 s, a little random so that pages do not come back at once.
  const wait = Math.min(8000, page.retry || 500);
  page.retry = wait * 2;
  setTimeout(() => { if (page.game && page.game.id === id && page.reconnecting) follow(id); }, wait * (0.75 + Math.random() / 2));
}

function showThought(info, forSide) {
  $('thinking').hidden = false;
  $('win-text').textContent = `${Math.round(info.win)}%`;
  $('win-bar').style.width = `${info.win}%`;
  let depth = t('depth', { n: info.depth });
  if (info.forced !== null && info.forced !== undefined && page.viewer) {
    const side = info.forced >= 0 ? page.viewer : (page.viewer === 'attackers' ? 'defenders' : 'attackers');
    depth += ` · ${capital(t('mate_in', { side: sideName(side), n: Math.abs(info.forced) }))}`;
  }
  $('depth').textContent = depth;
  $('queue').textContent = '';
  $('pv').textContent = info.pv.join(' ');
  $('thinking').querySelector('[data-i18n]').textContent = forSide ? t('side_win_chance') : t('win_chance');
}

// Asks the engine: `move` (it plays), `hint` (an arrow) or `analysis` (three lines).
function think(purpose) {
  stopStream();
  const id = page.game.id;
  const after = afterPeople(page.game);
  const forSide = page.game.mode === 'analysis' || after;
  // The position asked about: the shown one of a finished game between people, else the game's.
  const ply = after ? (page.viewing ?? page.game.ply) : page.game.ply;
  // Whose win chance the engine reports: the person's, or the side to move's in an analysis.
  page.viewer = after ? sideAt(page.game, ply) : page.game.human || page.game.to_move;
  $('thinking').hidden = false;
  $('queue').textContent = t('started');
  $('depth').textContent = '';
  $('pv').textContent = '';
  const done = () => { if (page.stream === source) page.stream = null; source.close(); };
  const source = api.think(id, purpose, after ? ply : null, {
    queue: (e) => { $('queue').textContent = e.place > 0 ? t('queue', { n: e.place }) : t('started'); },
    started: () => { $('queue').textContent = t('started'); },
    info: (e) => showThought(e, forSide),
    state: (e) => { done(); $('thinking').hidden = true; setGame(e.state); },
    hint: (e) => {
      done();
      if (e.best) {
        const [from, to] = e.best.split('-');
        page.arrow = { from, to, ply };
        $('status').textContent = t('hint_is', { move: e.best });
        render();
        $('status').textContent = t('hint_is', { move: e.best });
      }
    },
    analysis: (e) => {
      done();
      page.analysis = e.lines;
      page.analysisPly = ply;
      const list = $('lines');
      list.replaceChildren();
      for (const line of e.lines) {
        const item = document.createElement('li');
        item.textContent = `${Math.round(line.win)}% · ${line.pv.join(' ')}`
          + (line.forced !== null ? ` (${t('mate_in', { side: sideName(line.forced >= 0 ? page.viewer : (page.viewer === 'attackers' ? 'defenders' : 'attackers')), n: Math.abs(line.forced) })})` : '');
        list.appendChild(item);
      }
      if (e.best) { const [from, to] = e.best.split('-'); page.arrow = { from, to, ply }; }
      render();
    },
    failed: (e) => { done(); showReason(t('err_unknown', { message: e.message }), 'other'); },
    refused: (e) => { done(); $('thinking').hidden = true; showError(e); },
    error: () => {
      if (page.stream !== source) return;
      page.stream = null;
      // The stream broke (a restart, a network fault): read the game again and go on.
      setTimeout(() => reload(), 500);
    },
  });
  page.stream = source;
}

async function reload() {
  if (!page.game) return;
  try { setGame(await api.game(page.game.id)); } catch (e) { showError(e); }
}

async function sendMove(text) {
  const game = page.game;
  if (!game) return;
  showReason('');
  try {
    const next = await api.move(game.id, text, game.ply);
    setGame(next);
  } catch (e) {
    showError(e);
    render();  // the piece springs back
  }
}

// An invitation opened (/g/ID?join): takes the open seat, keeping its secret; a seat taken
// already (or a finished game) leaves this browser watching, told why. The creator opening
// their own link just plays.
async function acceptInvitation(id) {
  window.history.replaceState({}, '', `/g/${id}`);
  if (!secretOf(id)) {
    try {
      const joined = await api.join(id);
      page.you = [joined.side];
      $('setup').hidden = true;
      $('play').hidden = false;
      setGame(joined.state);
      return;
    } catch (e) {
      if (e instanceof ApiError && e.code === 'seat_taken') {
        await loadGame(id);
        showReason(t('invitation_taken'), 'seat');
        return;
      }
      if (e.status === 404) { await loadGame(id); return; }
      showError(e);
    }
  }
  await loadGame(id);
}

async function loadGame(id) {
  $('setup').hidden = true;
  $('play').hidden = false;
  try {
    setGame(await api.game(id));
  } catch (e) {
    if (e.status === 0 || e.status === 429 || e.status >= 500) {
      // The server is down or busy: say so, and try again.
      $('status').textContent = t('reconnecting');
      setTimeout(() => loadGame(id), 2000);
      return;
    }
    $('status').textContent = refusalText(e);
  }
}

function wirePlay() {
  $('move-now').addEventListener('click', () => page.game && api.stop(page.game.id).catch(() => {}));
  $('hint').addEventListener('click', () => page.game && think('hint'));
  $('analyse').addEventListener('click', () => page.game && think('analysis'));
  $('takeback').addEventListener('click', async () => {
    stopStream();
    try { setGame(await api.takeback(page.game.id)); } catch (e) { showError(e); }
  });
  $('flip').addEventListener('click', () => {
    page.flipped = !page.flipped;
    localStorage.setItem('tafl-flipped', page.flipped ? '1' : '0');
    render();
  });
  $('resign').addEventListener('click', async () => {
    if (!window.confirm(t('confirm_resign'))) return;
    stopStream();
    try { setGame(await api.resign(page.game.id)); } catch (e) { showError(e); }
  });
  const sendDraw = async (action) => {
    try {
      const next = await api.draw(page.game.id, action);
      setGame(next);
      if (next.accepted === false) showReason(t('draw_declined'), 'other');
    } catch (e) { showError(e); }
  };
  $('offer-draw').addEventListener('click', () => sendDraw('offer'));
  $('accept-draw').addEventListener('click', () => sendDraw('accept'));
  $('decline-draw').addEventListener('click', () => sendDraw('decline'));
  // Rematch: take the seat of the one the other side asked for, or ask for one (sides swapped).
  $('rematch').addEventListener('click', async () => {
    const id = page.game.id;
    try {
      let next;
      if (page.rematch?.from === id && !secretOf(page.rematch.to)) {
        next = (await api.join(page.rematch.to)).state;
      } else {
        next = await api.rematch(id);
      }
      window.history.pushState({}, '', `/g/${next.id}`);
      page.review = null;
      setGame(next);
    } catch (e) { showError(e); }
  });
  $('live').addEventListener('click', () => { page.viewing = null; render(); });
  $('copy-invite').addEventListener('click', async () => {
    const link = $('invite-link');
    link.select();
    try {
      await navigator.clipboard.writeText(link.value);
    } catch {
      // No clipboard (an insecure origin, a refusal): the link stays selected for copying.
    }
    $('copy-invite').textContent = t('copied');
  });
  $('text-move').addEventListener('submit', (e) => {
    e.preventDefault();
    const text = $('move-input').value.trim();
    if (text) { $('move-input').value = ''; sendMove(text); }
  });
  document.addEventListener('keydown', (e) => {
    if (!page.game || e.target.tagName === 'INPUT' || e.target.tagName === 'TEXTAREA') return;
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      const ply = page.viewing ?? page.game.ply;
      const next = Math.max(0, Math.min(page.game.ply, ply + (e.key === 'ArrowLeft' ? -1 : 1)));
      page.viewing = next === page.game.ply ? null : next;
      render();
    }
  });
}

// The new game's form.
function fillSetup() {
  const select = $('variant');
  select.replaceChildren();
  for (const v of page.variants) {
    const option = document.createElement('option');
    option.value = v.key;
    // One name per game, with its board and its escape: told apart before choosing.
    option.textContent = `${gameName(v)} · ${ltr(`${v.size}x${v.size}`)} · ${t(`escape_${v.escape}`)}`;
    select.appendChild(option);
  }
  const custom = document.createElement('option');
  custom.value = '';
  custom.textContent = t('custom_rules');
  select.appendChild(custom);
  select.value = localStorage.getItem('tafl-variant') ?? 'tablut';
  if (select.selectedIndex < 0) select.value = 'tablut';
  // Correspondence: days per move, worded in the page's language.
  const clock = $('clock');
  const chosen = clock.value;
  for (const option of clock.querySelectorAll('option[data-days]')) option.remove();
  for (const days of [1, 3, 7, 14]) {
    const option = document.createElement('option');
    option.value = `d${days}`;
    option.dataset.days = String(days);
    option.textContent = t('days_per_move', { n: ltr(String(days)) });
    clock.appendChild(option);
  }
  clock.value = chosen;
  if (clock.selectedIndex < 0) clock.value = '';
  const level = $('level');
  level.replaceChildren();
  page.levels.forEach((l, i) => {
    const option = document.createElement('option');
    option.value = String(i);
    option.textContent = t(`level_${l.key}`);
    level.appendChild(option);
  });
  level.value = localStorage.getItem('tafl-level') ?? '1';
  describe();
}

function describe() {
  const v = page.variants.find((x) => x.key === $('variant').value);
  $('rules-label').hidden = !!v;
  $('summary').textContent = v
    ? `${gameText('sum', v.key, v.summary)} ${t('board_size', { n: v.size })} ${capital(t('first', { side: sideName(v.first) }))}`
    : '';
  const mode = document.querySelector('input[name=mode]:checked').value;
  const analysis = mode === 'analysis';
  $('play-options').hidden = analysis;
  // A friend plays the other side: no engine strength to choose.
  $('level-label').hidden = mode === 'friend';
  // The game's learn page, when it has one.
  $('learn-link').hidden = !(v && v.learn);
  if (v) $('learn-link').href = `/learn/${v.key}`;
}

function wireSetup() {
  $('variant').addEventListener('change', describe);
  for (const radio of document.querySelectorAll('input[name=mode]')) radio.addEventListener('change', describe);
  $('setup-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    $('setup-error').textContent = '';
    const key = $('variant').value;
    const mode = document.querySelector('input[name=mode]:checked').value;
    const request = { mode: mode === 'friend' ? 'play' : mode };
    if (mode === 'friend') request.opponent = 'open';
    if (key) request.variant = key; else request.rules = $('rules').value.trim();
    if (request.mode === 'play') {
      request.human = $('human').value;
      if (mode !== 'friend') request.level = parseInt($('level').value, 10);
      const clock = $('clock').value;
      if (clock.startsWith('d')) {
        request.days_per_move = parseInt(clock.slice(1), 10);
      } else if (clock) {
        const [seconds, increment] = clock.split('+').map((n) => parseInt(n, 10));
        request.clock_seconds = seconds;
        request.increment_seconds = increment;
      }
    }
    const setup = $('position').value.trim();
    if (setup) {
      if (setup.includes('[') || /\n\s*1\./.test(setup)) { request.otg = setup; delete request.variant; delete request.rules; }
      else request.position = setup;
    }
    localStorage.setItem('tafl-variant', key);
    localStorage.setItem('tafl-level', $('level').value);
    try {
      const game = await api.create(request);
      window.history.pushState({}, '', `/g/${game.id}`);
      $('setup').hidden = true;
      $('play').hidden = false;
      setGame(game);
    } catch (err) {
      // A refused rules string, position or record, in the page's language.
      $('setup-error').textContent = refusalText(err);
    }
  });
}

// "My games" on the start page: the games this browser holds a seat in (its stored secrets),
// the newest first, each with whose turn it is or its result; a click resumes it.
const MY_GAMES_SHOWN = 20;

async function showMyGames() {
  const ids = heldGames().slice(0, MY_GAMES_SHOWN);
  const games = (await Promise.all(ids.map((id) => api.game(id).catch(() => null)))).filter(Boolean);
  const list = $('my-games-list');
  list.replaceChildren();
  for (const game of games) {
    const known = page.variants.find((v) => v.rules === game.rules);
    const you = game.you || [];
    let status;
    if (game.finished) status = resultText(game);
    else if (you.includes(game.to_move)) status = t('your_turn', { side: sideName(game.to_move) });
    else status = capital(t('to_move', { side: sideName(game.to_move) }));
    const item = document.createElement('li');
    item.dataset.id = game.id;
    item.dataset.turn = game.finished ? 'over' : you.includes(game.to_move) ? 'yours' : 'theirs';
    const link = document.createElement('a');
    link.href = `/g/${game.id}`;
    link.textContent = `${known ? gameName(known) : game.name.replaceAll('_', ' ')} · ${ltr(`${game.size}x${game.size}`)}`;
    item.append(link, ` — ${status}`);
    list.appendChild(item);
  }
  $('my-games').hidden = games.length === 0;
}

async function main() {
  const lang = $('lang');
  lang.value = chooseLanguage(rememberedLanguage());
  lang.addEventListener('change', () => {
    chooseLanguage(lang.value);
    if (page.variants.length) fillSetup();
    if (!$('setup').hidden) showMyGames();
    render();
    renderLearn();
  });
  wirePlay();
  wireSetup();
  const [variants, levels] = await Promise.all([api.variants(), api.levels()]);
  page.variants = variants.variants;
  page.levels = levels.levels;
  const match = /^\/g\/([0-9a-zA-Z]+)$/.exec(window.location.pathname);
  const learning = /^\/learn\/([a-z0-9-]+)$/.exec(window.location.pathname);
  if (match && new URLSearchParams(window.location.search).has('join')) {
    await acceptInvitation(match[1]);
  } else if (match) {
    await loadGame(match[1]);
  } else if (learning) {
    await showLearn(learning[1], { gameName, variants: () => page.variants, refusal: refusalText });
  } else {
    $('setup').hidden = false;
    await showMyGames();
  }
  fillSetup();
  render();
  document.body.dataset.ready = '1';
}

window.addEventListener('popstate', () => window.location.reload());
main();
