// The JSON API (docs/web.md): every answer is JSON; an error is {error, message}.
export class ApiError extends Error {
  constructor(status, body) {
    super(body && body.message ? body.message : `HTTP ${status}`);
    this.status = status;
    this.code = body && body.error;
    // An illegal move's reason as data ({code, square, ...}): the page words it.
    this.reason = body && body.reason;
  }
}

// The secrets of the seats this browser holds, by game id: handed out once by the server (a
// game's creation, a seat taken), kept here, sent as `Authorization: Bearer`.
const SECRETS = 'tafl-secrets';

function secrets() {
  try { return JSON.parse(localStorage.getItem(SECRETS) || '{}') || {}; } catch { return {}; }
}

export function secretOf(id) {
  return secrets()[id] || null;
}

// The games this browser holds a seat in, the newest first.
export function heldGames() {
  return Object.keys(secrets()).reverse();
}

export function keepSecret(id, secret) {
  if (!id || !secret) return;
  const all = secrets();
  all[id] = secret;
  try { localStorage.setItem(SECRETS, JSON.stringify(all)); } catch { /* storage full or off */ }
}

function headersFor(id) {
  const secret = id ? secretOf(id) : null;
  return secret ? { authorization: `Bearer ${secret}` } : {};
}

async function call(method, path, body, id) {
  const options = { method, headers: headersFor(id) };
  if (body !== undefined) {
    options.headers['content-type'] = 'application/json';
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (error) {
    // No answer at all: the network or a server that is down.
    throw new ApiError(0, { error: 'network', message: String(error && error.message || error) });
  }
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

// Reads a `text/event-stream` answer, calling `handlers[event name](data)`.
async function readEvents(response, handlers) {
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let name = 'message';
  let data = [];
  let lastId = null;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end;
    while ((end = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, end).replace(/\r$/, '');
      buffer = buffer.slice(end + 1);
      if (line === '') {
        if (data.length && handlers[name]) handlers[name](JSON.parse(data.join('\n')), lastId);
        name = 'message';
        data = [];
        lastId = null;
      } else if (line.startsWith('event:')) {
        name = line.slice(6).trim();
      } else if (line.startsWith('data:')) {
        data.push(line.slice(5).replace(/^ /, ''));
      } else if (line.startsWith('id:')) {
        lastId = line.slice(3).trim();
      }
    }
  }
}

// A stream of events over fetch (EventSource cannot send the secret): handlers by event name;
// `failed` gets a refusal (an ApiError), `error` a stream that broke or ended. Returns
// {close()}.
function stream(path, id, handlers) {
  const controller = new AbortController();
  const broke = () => { if (!controller.signal.aborted && handlers.error) handlers.error(); };
  (async () => {
    let response;
    try {
      response = await fetch(path, { headers: headersFor(id), signal: controller.signal });
    } catch { broke(); return; }
    if (!response.ok) {
      let body = null;
      try { body = await response.json(); } catch { body = null; }
      if (handlers.refused) handlers.refused(new ApiError(response.status, body));
      return;
    }
    try { await readEvents(response, handlers); } catch { /* cut */ }
    broke();
  })();
  return { close: () => controller.abort() };
}

export const api = {
  variants: () => call('GET', '/api/variants'),
  levels: () => call('GET', '/api/levels'),
  async create(request) {
    const game = await call('POST', '/api/games', request);
    keepSecret(game.id, game.secret);
    return game;
  },
  game: (id) => call('GET', `/api/games/${id}`, undefined, id),
  move: (id, move, ply) => call('POST', `/api/games/${id}/moves`, { move, ply }, id),
  takeback: (id) => call('POST', `/api/games/${id}/takeback`, undefined, id),
  resign: (id) => call('POST', `/api/games/${id}/resign`, undefined, id),
  stop: (id) => call('POST', `/api/games/${id}/stop`, undefined, id),
  // A finished game's review: the engine's evaluation of every position (while it is computed, part).
  review: (id) => call('GET', `/api/games/${id}/review`),
  // A draw: `offer`, `accept` or `decline`.
  draw: (id, action) => call('POST', `/api/games/${id}/draw`, { action }, id),
  // A rematch of a finished game (sides swapped): the new game, its secret kept.
  async rematch(id) {
    const game = await call('POST', `/api/games/${id}/rematch`, undefined, id);
    keepSecret(game.id, game.secret);
    return game;
  },
  async join(id, side) {
    const answer = await call('POST', `/api/games/${id}/join`, side ? { side } : {}, id);
    keepSecret(id, answer.secret);
    return answer;
  },
  // The engine's thinking, streamed: handlers by event name.
  // `ply`: a position of a finished game between people (null: the game's position).
  think: (id, purpose, ply, handlers) => stream(
    `/api/games/${id}/think?for=${purpose}${ply !== null && ply !== undefined ? `&ply=${ply}` : ''}`, id, handlers),
  // The game's numbered events (moves, results, clocks), from after event `after`.
  events: (id, after, handlers) => stream(
    `/api/games/${id}/events${after !== null && after !== undefined ? `?last_event_id=${after}` : ''}`, id, handlers),
};
