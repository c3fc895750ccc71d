// board.js: the analysis board (tools/board.html): its state, drawing, moves and game record.
"use strict";
const $ = (id) => document.getElementById(id);
const state = {
  rules: { capture: "standard", end: "immediate", remainder: "owner" },
  // history[i]: the absolute position after i plies of this game, with the ply that led to it
  history: [{ position: "", played: null }],
  at: 0,
  moves: null,      // /api/v1/moves's answer for the current position: what can be played
  answer: null,     // /api/v1/analyse's answer for the current position: the values
  value: null,      // its value_only answer, shown until every move's value is known
  editing: false,
  request: null,    // the AbortController of the request in flight
  // board_server.js's: the running analysis and the computer's move
  search: null,     // the name of the analysis the server runs for the current position
  bounds: null,     // its moves' bounds so far (/api/v1/progress), shown until its answer
  proven: null,     // the position's bounds so far: { lower, upper }
  estimate: null,   // the heuristic's estimate so far: { value, depth, exact, best, moves }
  shown: 0,         // when the current position was shown (performance.now())
  thinking: null,   // the position whose computer move is being asked for
};

// "4,4,4,0,4,4,4,0,S" -> { m, bins, south }
function parse(absolute) {
  const parts = absolute.split(",");
  const side = parts.pop();
  const bins = parts.map(Number);
  return { m: (bins.length - 2) / 2, bins, south: side === "S" };
}
function format(p) { return p.bins.join(",") + "," + (p.south ? "S" : "N"); }
function start(m, n) {
  const bins = [];
  for (let i = 0; i < 2 * m + 2; i++) bins.push(i === m || i === 2 * m + 1 ? 0 : n);
  return format({ m, bins, south: true });
}
function current() { return state.history[state.at].position; }
function signed(v) { return v > 0 ? "+" + v : String(v); }
function result(v) { return v > 0 ? "win" : v < 0 ? "loss" : "draw"; }
// "game over: South wins by 2", from the final margin v for the side that would move.
function gameOver(south, v) {
  if (v === 0) return "game over: a draw";
  const winner = (v > 0) === south ? "South" : "North";
  return `game over: ${winner} wins by ${Math.abs(v)}`;
}
// A move's bounds as a badge: "-4…+2", or its value once they meet.
function bounds(b) {
  if (b.lower === b.upper) return signed(b.lower);
  return `${signed(b.lower)}…${signed(b.upper)}`;
}
// What is known of a move before its exact value: its estimate and its bounds.
function unproven(pit) {
  const e = state.estimate && state.estimate.moves && state.estimate.moves.find((m) => m.pit === pit);
  const b = state.bounds && state.bounds.find((m) => m.pit === pit);
  return { estimate: e ? e.value : undefined, bounds: b };
}
function finished() {
  return (state.moves && state.moves.finished) || (state.answer && state.answer.finished);
}

function setPosition(absolute, played) {
  state.history.length = state.at + 1;
  state.history.push({ position: absolute, played });
  state.at++;
  show();
}

// The game up to ply `last` in the best line's notation, a turn per side: "S:3-6 N:2-1".
function record(last = state.at) {
  const turns = [];
  for (let i = 1; i <= last; i++) {
    const { pit, south } = state.history[i].played;
    const side = south ? "S" : "N";
    const last = turns[turns.length - 1];
    if (last && last.side === side) last.pits.push(pit);  // an extra turn: the same turn
    else turns.push({ side, pits: [pit] });
    turns[turns.length - 1].end = i;
  }
  return turns;
}
function recordText() {
  return record().map((t) => t.side + ":" + t.pits.join("-")).join(" ");
}

// A query string that stays readable: commas, colons, slashes and dashes as they are.
function query(params) {
  return Object.entries(params).map(([k, v]) => k + "=" + encodeURIComponent(v)
    .replace(/%2C/g, ",").replace(/%3A/g, ":").replace(/%2F/g, "/").replace(/%20/g, "+"))
    .join("&");
}

function saveUrl() {
  const params = { position: current(), ...state.rules };
  if (state.at > 0) {
    params.start = state.history[0].position;
    params.moves = recordText();
  }
  history.replaceState(null, "", "?" + query(params));
}

function drawBoard() {
  const p = parse(current());
  const m = p.m;
  const board = $("board");
  board.style.gridTemplateColumns = `minmax(3rem, 1.2fr) repeat(${m}, 1fr) minmax(3rem, 1.2fr)`;
  board.innerHTML = "";
  const moves = {};  // what can be played, with its value once the analysis has it
  const playable = (state.moves && state.moves.moves) || (state.answer && state.answer.moves);
  if (playable && !state.editing)
    for (const mv of playable) moves[mv.pit] = { pit: mv.pit };
  if (state.answer && state.answer.moves && !state.editing) {
    for (const mv of state.answer.moves) if (moves[mv.pit]) moves[mv.pit] = mv;
  } else if (!state.editing) {  // the search's bounds and the estimate so far, until its answer
    for (const pit in moves) moves[pit] = { pit: Number(pit), ...unproven(Number(pit)) };
  }
  const cell = (cls, seeds, bin, label, move, row, col) => {
    const d = document.createElement("div");
    d.className = cls;
    d.style.gridRow = row;
    d.style.gridColumn = col;
    d.dataset.bin = bin;
    d.innerHTML = `<span class="seeds">${seeds}</span>`;
    if (label) d.innerHTML += `<span class="label">${label}</span>`;
    if (move) {
      d.classList.add("playable");
      d.dataset.pit = move.pit;
      if (move.value !== undefined)
        d.innerHTML += `<span class="value ${move.result}">${signed(move.value)}</span>`;
      else if (move.bounds && move.bounds.lower === move.bounds.upper)
        d.innerHTML += `<span class="value bounds">${bounds(move.bounds)}</span>`;
      else if (move.estimate !== undefined)
        d.innerHTML += `<span class="value estimate" title="estimate">≈${signed(move.estimate)}</span>`;
      else if (move.bounds)
        d.innerHTML += `<span class="value bounds">${bounds(move.bounds)}</span>`;
    }
    board.appendChild(d);
  };
  cell("store", p.bins[2 * m + 1], 2 * m + 1, "North", null, "1 / span 2", 1);
  for (let i = 1; i <= m; i++)  // North's pit i from the right
    cell("pit top", p.bins[m + i], m + i, i, p.south ? null : moves[i], 1, m + 2 - i);
  for (let i = 1; i <= m; i++)
    cell("pit bottom", p.bins[i - 1], i - 1, i, p.south ? moves[i] : null, 2, i + 1);
  cell("store", p.bins[m], m, "South", null, "1 / span 2", m + 2);
  const over = finished();
  $("north-label").className = "side" + (p.south || over ? "" : " to-move");
  $("south-label").className = "side" + (p.south && !over ? " to-move" : "");
  $("north-label").textContent = "North" + (p.south || over ? "" : " to move");
  $("south-label").textContent = "South" + (p.south && !over ? " to move" : "");
  $("swap-side").textContent = "side to move: " + (p.south ? "South" : "North");
}

// Until every move's value is proven: the value or the bounds proven so far, the estimate with
// its depth, the time spent; each move's estimate and bounds.
function showSearching(mover) {
  const parts = [], v = state.value, e = state.estimate, p = state.proven;
  if (v) parts.push(`value <b class="${v.result}">${signed(v.value)}</b> (${v.result})`);
  else if (p) parts.push(`value in [${signed(p.lower)}, ${signed(p.upper)}]`);
  if (e && !v) parts.push(`estimate <b class="estimate">${signed(e.value)}</b>` +
                          (e.exact ? " (exact)" : ` at depth ${e.depth}`));
  if (!parts.length) parts.push("searching…");
  const seconds = (performance.now() - state.shown) / 1000;
  $("status").innerHTML = `${mover} to move: ${parts.join(" · ")} · ${seconds.toFixed(1)} s`;
  const playable = (state.moves && state.moves.moves) || [];
  for (const mv of playable) {
    const { estimate, bounds: b } = unproven(mv.pit);
    if (estimate === undefined && !b) continue;
    const li = document.createElement("li");
    li.innerHTML = `pit ${mv.pit} ` +
      (estimate !== undefined ? `<b class="estimate">≈${signed(estimate)}</b> ` : "") +
      (b ? `<span class="muted">${b.lower === b.upper ? "= " + signed(b.lower)
                                                      : "in " + bounds(b)}</span>` : "");
    li.onclick = () => play(mv.pit);
    $("moves").appendChild(li);
  }
}

function showAnswer() {
  const a = state.answer;
  const mover = parse(current()).south ? "South" : "North";
  $("moves").innerHTML = "";
  $("line").innerHTML = "";
  $("source").textContent = "";
  if (a && a.error) { $("status").textContent = "error: " + a.error; return; }
  if (!a || a.interrupted) return showSearching(mover);
  $("status").innerHTML = a.finished
    ? gameOver(parse(current()).south, a.value)
    : `${mover} to move: value <b class="${a.result}">${signed(a.value)}</b> (${a.result})`;
  const sorted = [...a.moves].sort((x, y) => y.value - x.value || x.pit - y.pit);
  for (const mv of sorted) {
    const li = document.createElement("li");
    li.innerHTML = `pit ${mv.pit} <b class="${mv.result}">${signed(mv.value)}</b> ${mv.result} ` +
                   `<span class="muted">${mv.turn}</span>`;
    li.onclick = () => play(mv.pit);
    $("moves").appendChild(li);
  }
  let side = parse(current()).south;
  a.best_line.forEach((turn, i) => {
    const li = document.createElement("li");
    li.textContent = (side ? "S:" : "N:") + turn;
    if (i === 0) { li.onclick = () => play(Number(turn.split("-")[0])); li.title = "play it"; }
    side = !side;
    $("line").appendChild(li);
  });
  $("source").textContent = `from the ${a.source}${a.cached ? " (cached)" : ""}: ` +
    `${a.nodes} ${a.source === "database" ? "look-up" : "node"}${a.nodes === 1 ? "" : "s"}, ` +
    `${a.seconds.toFixed(3)} s`;
}

function showHistory() {
  $("history").innerHTML = "";
  const at = state.at;
  const turns = record(state.history.length - 1);  // every turn played, redo included
  let first = 1;
  for (const t of turns) {
    const li = document.createElement("li");
    li.textContent = t.side + ":" + t.pits.join("-");
    if (at >= first && at <= t.end) li.className = "current";
    li.onclick = () => { state.at = t.end; show(); };
    $("history").appendChild(li);
    first = t.end + 1;
  }
  $("undo").disabled = state.at === 0;
  $("redo").disabled = state.at === state.history.length - 1;
}

function show() {
  dropSearch();
  state.answer = null;
  state.moves = null;
  state.value = null;
  state.proven = null;
  state.estimate = null;
  state.shown = performance.now();
  saveUrl();
  drawBoard();
  showAnswer();
  showHistory();
  $("position-text").value = current();
  if (!state.editing) {
    $("status").textContent = "searching…";
    loadMoves();
    analyse(1500, true);
    computerMoves();
  }
}

function play(pit) {
  const from = (state.moves && state.moves.moves) || (state.answer && state.answer.moves);
  if (!from || state.editing) return;
  const move = from.find((mv) => mv.pit === pit);
  if (!move) return;
  setPosition(move.absolute, { pit, south: parse(current()).south });
}

function newGame() {
  const m = Number($("pits").value);
  const n = Math.max(1, Math.min(Number($("seeds").value) || 1, Math.floor(254 / (2 * m))));
  state.history = [{ position: start(m, n), played: null }];
  state.at = 0;
  show();
}

function edit(bin, delta) {
  const p = parse(current());
  p.bins[bin] = Math.max(0, p.bins[bin] + delta);
  state.history[state.at] = { position: format(p), played: state.history[state.at].played };
  state.history.length = state.at + 1;
  show();
}

function init() {
  for (let m = 1; m <= 8; m++) $("pits").add(new Option(m, m));
  const q = new URLSearchParams(location.search);
  for (const k of ["capture", "end", "remainder"]) {
    if (q.get(k)) state.rules[k] = q.get(k);
    $(k).value = state.rules[k];
    $(k).onchange = () => { state.rules[k] = $(k).value; show(); };
  }
  state.history = [{ position: start(6, 4), played: null }];
  $("pits").value = 6;
  $("new-game").onclick = newGame;
  $("undo").onclick = () => { if (state.at > 0) { state.at--; show(); } };
  $("redo").onclick = () => { if (state.at < state.history.length - 1) { state.at++; show(); } };
  $("step").onclick = bestMove;
  $("edit").onclick = () => {
    state.editing = !state.editing;
    document.body.classList.toggle("editing", state.editing);
    $("edit").textContent = state.editing ? "editing…" : "edit";
    show();
  };
  $("edit-done").onclick = () => { if (state.editing) $("edit").onclick(); };
  $("computer").onchange = computerMoves;
  window.addEventListener("pagehide", dropSearch);
  $("hide").onchange = () => document.body.classList.toggle("hide-values", $("hide").checked);
  $("swap-side").onclick = () => {
    const p = parse(current());
    p.south = !p.south;
    state.history[state.at].position = format(p);
    show();
  };
  $("position-text").onchange = () => load($("position-text").value.trim());
  $("board").onclick = (e) => {
    const d = e.target.closest("[data-bin]");
    if (!d) return;
    if (state.editing) edit(Number(d.dataset.bin), e.shiftKey ? -1 : 1);
    else if (d.dataset.pit) play(Number(d.dataset.pit));
  };
  $("board").oncontextmenu = (e) => {
    const d = e.target.closest("[data-bin]");
    if (!d || !state.editing) return;
    e.preventDefault();
    edit(Number(d.dataset.bin), -1);
  };
  document.onkeydown = (e) => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    if (e.key >= "1" && e.key <= "8") play(Number(e.key));
    else if (e.key === "ArrowLeft") $("undo").onclick();
    else if (e.key === "ArrowRight") $("redo").onclick();
  };
  if (q.get("moves")) replay(q.get("start") || q.get("position") || start(6, 4), q.get("moves"));
  else if (q.get("position")) load(q.get("position"));
  else show();
}

