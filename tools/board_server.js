// board_server.js: what the analysis board (tools/board.html) asks kalah serve: the moves of a
// position, its values as they are proven, the computer's move, game records and positions.
"use strict";
// Asks for the values of the current position: with valueOnly, the position's value first (a
// search that finds only it is far shorter), shown while every move's value is searched for.
async function analyse(budget, valueOnly) {
  if (state.request) state.request.abort();
  const controller = new AbortController();
  state.request = controller;
  const position = current();
  const params = { position, ...state.rules, budget_ms: budget };
  if (valueOnly) params.value_only = 1;
  // Named, so that its estimate and bounds can be shown as they come and it can be stopped.
  params.search = Math.random().toString(36).slice(2);
  state.search = params.search;
  watch(params.search, position);
  try {
    const response = await fetch("api/v1/analyse?" + query(params), { signal: controller.signal });
    const answer = await response.json();
    if (position !== current() || state.editing) return;
    if (answer.interrupted) {
      state.proven = { lower: answer.lower, upper: answer.upper };
      if (answer.estimate) state.estimate = answer.estimate;
    }
    if (valueOnly && (answer.value_only || answer.interrupted)) {
      if (answer.value_only) {
        state.value = answer;
        showAnswer();
      }
      analyse(60000, false);  // its bounds show as they come: no need to stop it early
      return;
    }
    state.answer = answer;
    drawBoard();
    showAnswer();
    // Bounds only: search again with a larger budget, showing the bounds meanwhile.
    if (answer.interrupted && budget < 60000) analyse(60000, false);
  } catch (e) {
    if (e.name !== "AbortError") $("status").textContent = "error: " + e;
  }
}

// The estimate and each move's bounds so far from the named search: first after 150 ms (the
// server's first estimate is ready by then), then twice a second until it answers.
async function watch(search, position) {
  for (let wait = 150; ; wait = 500) {
    await new Promise((done) => setTimeout(done, wait));
    if (state.search !== search || answered()) return;
    const p = await (await fetch("api/v1/progress?" + query({ search }))).json();
    if (state.search !== search || answered() || position !== current()) return;
    if (p.moves) state.bounds = p.moves;
    if (p.lower !== undefined) state.proven = { lower: p.lower, upper: p.upper };
    if (p.estimate) state.estimate = p.estimate;
    drawBoard();
    showAnswer();
  }
}

// "best move ▶": the proven best when every value is known, else the estimate's best (said so),
// else kalah's move within a second.
async function bestMove() {
  const a = state.answer, e = state.estimate, position = current();
  if (a && !a.interrupted && a.best_line && a.best_line.length) {
    $("computer-note").textContent = `best move: pit ${a.best_line[0].split("-")[0]}, proven`;
    return play(Number(a.best_line[0].split("-")[0]));
  }
  if (e && e.best) {
    $("computer-note").textContent = e.exact ? `best move: pit ${e.best}, exact`
      : `best move so far: pit ${e.best}, the estimate's at depth ${e.depth} (not proven)`;
    return play(e.best);
  }
  const answer = await (await fetch("api/v1/move?" + query({ position, ...state.rules,
                                                              budget_ms: 1000 }))).json();
  if (answer.error || answer.finished || position !== current()) return;
  $("computer-note").textContent = `best move: pit ${answer.pit}, ` +
    (answer.proven ? "proven" : `the estimate's at depth ${answer.depth} (not proven)`);
  play(answer.pit);
}

// Whether every move's exact value is here (an interrupted search's bounds are not).
function answered() { return state.answer && !state.answer.interrupted; }

// Stops the named search the page no longer needs.
function dropSearch() {
  if (state.search && !answered())  // keepalive: also sent while the page goes away
    fetch("api/v1/cancel?" + query({ search: state.search }), { keepalive: true });
  state.search = null;
  state.bounds = null;
}

// /api/v1/moves's answer for a position: its moves and where they lead, at once.
async function fetchMoves(position) {
  return (await fetch("api/v1/moves?" + query({ position, ...state.rules }))).json();
}

// The moves of the current position: no search, so the board can be played at once.
async function loadMoves() {
  const position = current();
  try {
    const moves = await fetchMoves(position);
    if (position !== current() || state.editing) return;
    state.moves = moves;
    if (moves.error) { $("status").textContent = "error: " + moves.error; return; }
    drawBoard();
    if (moves.finished && !state.answer) $("status").textContent = gameOver(parse(position).south, moves.value);
  } catch (e) {
    $("status").textContent = "error: " + e;
  }
}

// When the computer has the move: kalah's move (/api/v1/move), perfect where its value is proven
// within the time set (database or search), otherwise the best of a heuristic search, said so.
async function computerMoves() {
  const side = $("computer").value, position = current();
  if (side === "nobody" || state.editing || state.thinking === position) return;
  const p = parse(position);
  if ((side === "South") !== p.south || state.at !== state.history.length - 1) return;
  state.thinking = position;
  const seconds = Number($("computer-time").value);
  try {
    const q = query({ position, ...state.rules, budget_ms: seconds * 1000 });
    const answer = await (await fetch("api/v1/move?" + q)).json();
    if (position !== current() || state.editing || $("computer").value !== side) return;
    if (answer.error || answer.finished) return;
    $("computer-note").textContent = `computer (${side}) played ${answer.pit}: ` +
      (answer.proven ? `perfect (${answer.source})`
                     : `not proven in ${seconds} s, the best of a ${answer.depth}-ply search`);
    await new Promise((done) => setTimeout(done, 300));  // let the last move be seen
    if (position === current()) setPosition(answer.next_absolute, { pit: answer.pit, south: p.south });
  } catch (e) {
    $("status").textContent = "error: " + e;
  } finally {
    if (state.thinking === position) state.thinking = null;
  }
}

// Replays a game record ("S:3-6 N:2-1", as the move list shows it) from a start position.
async function replay(startText, moves) {
  let answer = await fetchMoves(startText);
  const fail = (why) => { show(); $("status").textContent = "error: " + why; };
  if (answer.error) return fail(answer.error);
  state.history = [{ position: answer.absolute, played: null }];
  state.at = 0;
  $("pits").value = answer.pits;
  for (const turn of moves.trim().split(/\s+/)) {
    const m = /^([SN]):([1-8](?:-[1-8])*)$/.exec(turn);
    if (!m) return fail(`'${turn}' is not a turn like S:3-6`);
    for (const pit of m[2].split("-").map(Number)) {
      const south = parse(current()).south;
      const move = answer.moves && answer.moves.find((mv) => mv.pit === pit);
      if ((south ? "S" : "N") !== m[1] || !move)
        return fail(`${turn}: pit ${pit} cannot be played here`);
      state.history.push({ position: move.absolute, played: { pit, south } });
      state.at++;
      answer = await fetchMoves(move.absolute);
    }
  }
  show();
}

// Starts from a position in either notation: the server answers with its absolute form (the
// board's own), or with what is wrong with it.
async function load(text) {
  const q = new URLSearchParams({ position: text, ...state.rules, budget_ms: 1 });
  const answer = await (await fetch("api/v1/analyse?" + q.toString())).json();
  if (answer.error) { $("status").textContent = "error: " + answer.error; return; }
  state.history = [{ position: answer.absolute, played: null }];
  state.at = 0;
  $("pits").value = answer.pits;
  show();
}
