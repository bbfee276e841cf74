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

async function call(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers['content-type'] = 'application/json';
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

export const api = {
  variants: () => call('GET', '/api/variants'),
  levels: () => call('GET', '/api/levels'),
  create: (request) => call('POST', '/api/games', request),
  game: (id) => call('GET', `/api/games/${id}`),
  move: (id, move, ply) => call('POST', `/api/games/${id}/moves`, { move, ply }),
  takeback: (id) => call('POST', `/api/games/${id}/takeback`),
  resign: (id) => call('POST', `/api/games/${id}/resign`),
  stop: (id) => call('POST', `/api/games/${id}/stop`),
  // The engine's thinking, streamed: handlers by event name.
  think(id, purpose, handlers) {
    const source = new EventSource(`/api/games/${id}/think?for=${purpose}`);
    for (const [name, handler] of Object.entries(handlers)) {
      if (name === 'error') continue;
      source.addEventListener(name, (event) => handler(JSON.parse(event.data)));
    }
    // A stream that ends or fails is not reopened: the page decides what comes next.
    source.onerror = () => { source.close(); if (handlers.error) handlers.error(); };
    return source;
  },
};
