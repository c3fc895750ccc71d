// board_server.js: what the analysis board (tools/server/board.html) asks kalah serve: the moves of a
// position, its values as they are proven, the computer's move; loading a game from the address
// or a record, every parameter checked.
"use strict";
// Asks for the values of the current position: with valueOnly, the position's value first (a
// search that finds only it is far shorter), shown while every move's value is searched for.
async function analyse(budget, valueOnly) {
  if (state.request) state.request.abort();
  const controller = new AbortController();
  state.request = controller;
  if (state.stopped !== null) {  // the clock goes on from where it stopped
    state.shown += performance.now() - state.stopped;
    state.stopped = null;
  }
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
      if (answer.estimate) state.estimate = mergeEstimate(state.estimate, answer.estimate);
    }
    if (valueOnly && (answer.value_only || answer.interrupted)) {
      if (answer.value_only) {
        state.value = answer;
        noteValue(position, answer.value, true);
        showAnswer();
      }
      analyse(kAnalysisMs, false);  // its bounds show as they come: no need to stop it early
      return;
    }
    state.answer = answer;
    if (!answer.interrupted && !answer.error) noteAnswer(position, answer);
    drawBoard();
    showAnswer();
    // Bounds only: search again with a larger budget, showing the bounds meanwhile.
    if (answer.interrupted && budget < kAnalysisMs) analyse(kAnalysisMs, false);
  } catch (e) {
    if (e.name !== "AbortError") $("status").textContent = "error: " + e;
  } finally {
    if (state.request === controller) {  // the analysis is over: "go on" may start another
      state.request = null;
      state.stopped = performance.now();
      showEngine();
    }
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
    if (p.estimate) state.estimate = mergeEstimate(state.estimate, p.estimate);
    drawBoard();
    showAnswer();
  }
}

// "best move": the proven best when every value is known, else the estimate's best (said so),
// else kalah's move within a second.
async function bestMove() {
  const a = state.answer, e = state.estimate, position = current();
  if (computerToMove()) return;
  if (a && !a.interrupted && a.best_line && a.best_line.length) {
    const pit = turnPits(a.best_line[0])[0];
    $("computer-note").textContent = `best move: pit ${pit}, proven`;
    return play(pit);
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

// /api/v1/moves's answer for a position: its moves and where they lead, at once (and kept:
// replaying a game with variations asks for the same positions again).
const movesAsked = new Map();
async function fetchMoves(position, rules = state.rules) {
  const q = query({ position, ...rules });
  if (!movesAsked.has(q)) {
    const answer = await (await fetch("api/v1/moves?" + q)).json();
    if (answer.error) return answer;
    movesAsked.set(q, answer);
  }
  return movesAsked.get(q);
}

// The moves of the current position: no search, so the board can be played at once.
// The opening explorer: how deep the book (kalah book build) goes from the position shown and
// from each of its moves; shown with the moves' exact values (the book's) when it is in it.
async function loadBook() {
  const position = current();
  try {
    const book = await (await fetch("api/v1/book?" + query({ position, ...state.rules }))).json();
    if (position !== current()) return;
    state.book = book;
    showBook();
  } catch (e) {
    $("status").textContent = "error: " + e;
  }
}
function showBook() {
  const b = state.book, a = state.answer && !state.answer.interrupted && state.answer;
  $("book-panel").hidden = !(b && b.in_book);
  if (!b || !b.in_book) return;
  $("book-depth").textContent = `in the book, ${b.depth} pl${b.depth === 1 ? "y" : "ies"} deep ` +
    "from here (a ply: one pit)";
  $("book-moves").innerHTML = "";
  const value = (pit) => a && (a.moves.find((mv) => mv.pit === pit) || {}).value;
  const sorted = [...b.moves].sort((x, y) => (value(y.pit) ?? -99) - (value(x.pit) ?? -99));
  for (const mv of sorted) {
    const li = document.createElement("li"), v = value(mv.pit);
    li.innerHTML = `pit ${mv.pit} ${v === undefined ? "" : `<b>${signed(v)}</b>`} ` +
      `<span class="muted">${mv.depth ? `book ${mv.depth} pl${mv.depth === 1 ? "y" : "ies"}`
                                      : "leaves the book"}</span>`;
    li.onclick = () => play(mv.pit);
    $("book-moves").appendChild(li);
  }
}

async function loadMoves() {
  const position = current();
  try {
    const moves = await fetchMoves(position);
    if (position !== current() || state.editing) return;
    state.moves = moves;
    if (moves.error) { $("status").textContent = "error: " + moves.error; return; }
    if (moves.finished) noteValue(position, moves.value, true);
    drawBoard();
    if (moves.finished) showAnswer();
  } catch (e) {
    $("status").textContent = "error: " + e;
  }
}

// Plays pits one after the other from the node shown (a best line up to a turn), none for the
// computer.
async function playPits(pits) {
  for (const pit of pits) {
    if (computerToMove()) break;
    const moves = await fetchMoves(current());
    const move = moves.moves && moves.moves.find((mv) => mv.pit === pit);
    if (!move) break;
    state.node = child(state.node, pit, move.absolute);
  }
  show();
}

// When the computer has the move at the end of a line: kalah's move (/api/v1/move) at its
// level. Its pits are locked meanwhile (drawBoard, play) and #thinking says for how long and
// its best so far.
async function computerMoves() {
  const side = $("computer").value, position = current();
  if (!computerToMove() || state.editing || state.node.children.length) return;
  if (state.thinking && state.thinking.position === position) return;
  const levelName = $("level").value, chosen = level(levelName);
  state.thinking = { position, since: performance.now(), side };
  showThinking();
  try {
    const answer = await (await fetch("api/v1/move?" + query({ position, ...state.rules,
                                                                level: levelName }))).json();
    if (answer.error || answer.finished) return;
    const pit = answer.pit;
    const why = answer.best !== undefined
      ? `within ${chosen.within} seeds of the best: ` +
        (answer.value === answer.best ? "the best" : `${answer.best - answer.value} seeds below it`) +
        (answer.proven ? " (proven)" : ` (estimated by a ${answer.depth}-ply search)`)
      : answer.proven ? `perfect (${answer.source})`
      : `not proven in ${chosen.seconds} s, the best of a ${answer.depth}-ply search`;
    if (position !== current() || state.editing || $("computer").value !== side) return;
    await new Promise((done) => setTimeout(done, 300));  // let the last move be seen
    if (position !== current()) return;
    state.thinking = null;  // its move is played now, not dropped
    if (!play(pit, true)) return;
    const turn = [];  // the computer's whole turn so far
    for (let n = state.node; n.parent && n.played.south === (side === "South"); n = n.parent)
      turn.unshift(n.played.pit);
    $("computer-note").textContent = `computer (${side}, ${levelName}) played ${turn.join("-")}: ${why}`;
  } catch (e) {
    $("status").textContent = "error: " + e;
  } finally {
    if (state.thinking && state.thinking.position === position) state.thinking = null;
    showThinking();
  }
}
function showThinking() {
  const t = state.thinking, e = state.estimate;
  $("thinking").hidden = !t;
  if (!t) return;
  const best = e && e.best ? ` · best so far pit ${e.best} (≈${signed(e.value)})` : "";
  $("thinking").innerHTML = `the computer (${t.side}) is thinking… ` +
    `${((performance.now() - t.since) / 1000).toFixed(1)} s<span class="best">${best}</span>`;
}
setInterval(() => { if (state.thinking) showThinking(); }, 100);

// Loads a game from the address's parameters or an imported record: each parameter checked, its
// error shown in #url-error naming it, and what was good of it kept (the start, the moves up to
// the first that cannot be played; the defaults for a bad rule or option).
async function load(params, fromUrl = false) {
  const errors = [], shown = (v) => (v.length > 40 ? v.slice(0, 40) + "…" : v);
  const known = ["position", "start", "pits", "seeds", "moves", "lines", "line", "ply", "computer",
                 "level", "flip",
                 ...Object.keys(state.info.rules)];
  for (const k in params)
    if (!known.includes(k)) errors.push(`unknown parameter '${shown(k)}'`);
  for (const k in state.info.rules) {
    const choices = state.info.rules[k];
    if (params[k] === undefined) continue;
    if (choices.includes(params[k])) state.rules[k] = params[k];
    else errors.push(`${k}=${shown(params[k])}: ${k} is ${choices.join(" or ")}`);
  }
  const option = (k, id, values) => {
    if (params[k] === undefined) return;
    if (values.includes(params[k])) $(id).value = params[k];
    else errors.push(`${k}=${shown(params[k])}: ${k} is ${values.join(", ")}`);
  };
  option("computer", "computer", ["nobody", "North", "South"]);
  option("level", "level", state.info.levels.map((l) => l.name));
  if (params.flip !== undefined) {
    if (params.flip === "0" || params.flip === "1") $("flip").checked = params.flip === "1";
    else errors.push(`flip=${shown(params.flip)}: flip is 0 or 1`);
  }
  let root = fromUrl ? start(6, 4) : state.root.position;  // the last good state
  if (params.pits !== undefined || params.seeds !== undefined) {  // a start, by its numbers
    const m = params.pits === undefined ? 6 : Number(params.pits);
    const n = params.seeds === undefined ? 4 : Number(params.seeds);
    if (!Number.isInteger(m) || m < 1 || m > 8) errors.push(`pits=${shown(params.pits)}: pits is 1..8`);
    else if (!Number.isInteger(n) || n < 1 || n > Math.floor(254 / (2 * m)))
      errors.push(`seeds=${shown(params.seeds)}: seeds is 1..${Math.floor(254 / (2 * m))} ` +
                  `for ${m} pits`);
    else root = start(m, n);
  }
  const startKey = params.start !== undefined ? "start"
                   : params.moves === undefined && params.position !== undefined ? "position" : null;
  const startText = params.start !== undefined ? params.start
                    : params.moves !== undefined ? (params.position || root) : params.position;
  if (startText !== undefined) {
    const a = await fetchMoves(startText);
    if (a.error) errors.push(`${startKey || "position"}=${shown(startText)}: ${a.error}`);
    else root = a.absolute;
  }
  state.root = state.node = node(root, null, null);
  const ends = [];
  if (params.moves !== undefined) ends.push(await replay(params.moves, "moves", errors));
  if (params.lines !== undefined)
    for (const l of params.lines.split(";")) ends.push(await replay(l, "lines", errors));
  state.node = ends.length ? ends[0] : state.root;
  if (params.line !== undefined) {
    const i = Number(params.line);
    if (Number.isInteger(i) && i >= 0 && i < ends.length) state.node = ends[i];
    else errors.push(`line=${shown(params.line)}: a line is 0 (the main one)..${ends.length - 1}`);
  }
  if (params.ply !== undefined) {
    const nodes = path(), ply = Number(params.ply);
    if (Number.isInteger(ply) && ply >= 0 && ply < nodes.length) state.node = nodes[ply];
    else errors.push(`ply=${shown(params.ply)}: a ply is 0..${nodes.length - 1} on this line`);
  }
  $("url-error").hidden = !errors.length;
  $("url-error").textContent = errors.length
    ? `${fromUrl ? "in the address" : "in the record"}: ${errors.join("; ")}` : "";
  syncControls();
  showRules();
  show();
}

// Adds a game record ("S:3-6 N:2-1", as the move list shows it; a {comment} after a turn is
// kept on the node that ends it) to the tree from its root; at the first turn that cannot be
// played, says why (naming the parameter) and stops there.
async function replay(text, name, errors) {
  let n = state.root;
  for (const turn of text.match(/\{[^}]*\}|[^\s{}]+/g) || []) {
    if (turn.startsWith("{")) { n.comment = cleanComment(turn.slice(1, -1)); continue; }
    const m = /^([SN]):(\d+(?:-\d+)*)$/.exec(turn);
    if (!m) { errors.push(`${name}: '${turn.slice(0, 20)}' is not a turn like S:3-6`); break; }
    for (const pit of m[2].split("-").map(Number)) {
      const pits = parse(n.position).m;
      if (pit < 1 || pit > pits) {
        errors.push(`${name}: ${turn} cannot be played: there is no pit ${pit} (pits 1..${pits})`);
        return n;
      }
      const south = parse(n.position).south, moves = await fetchMoves(n.position);
      const move = moves.moves && moves.moves.find((mv) => mv.pit === pit);
      const why = moves.finished ? "the game is over"
        : (south ? "S" : "N") !== m[1] ? `it is ${south ? "South" : "North"}'s turn`
        : !move ? `pit ${pit} is empty or not on the board` : null;
      if (why) { errors.push(`${name}: ${turn} cannot be played here: ${why}`); return n; }
      n = child(n, pit, move.absolute);
    }
  }
  return n;
}

// "fair start": one of the game's fair starts (`kalah fair`'s tables, tools/server/fair_starts.json) at
// random, as Ludii's FairKalah deals them. Only the games and rules of a table have one.
let fairTables = null;
async function fairStart() {
  if (!fairTables) fairTables = (await (await fetch("fair_starts.json")).json()).tables;
  const m = Number($("pits").value), n = Number($("seeds").value);
  const t = fairTables.find((x) => x.pits === m && x.seeds === n &&
                                   Object.keys(state.rules).every((k) => x[k] === state.rules[k]));
  if (!t || !t.fair.length) {
    const known = fairTables.filter((x) => x.fair.length).map((x) => `Kalah(${x.pits},${x.seeds}) ${x.capture}`);
    $("computer-note").textContent = `no fair start of Kalah(${m},${n}) with these rules is known ` +
      `(tables: ${[...new Set(known)].join(", ")}; kalah fair finds others)`;
    return;
  }
  const i = Math.floor(Math.random() * t.fair.length);
  state.root = state.node = node(t.fair[i], null, null);
  show();
  $("computer-note").textContent = `fair start ${i + 1} of ${t.fair.length} (within ${t.moved} ` +
    `seeds moved): perfect players draw`;
}
