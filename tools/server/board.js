// board.js: the analysis board (tools/server/board.html): its state, the game tree, the address, moves
// played and the page's controls (board_draw.js draws it).
"use strict";
const $ = (id) => document.getElementById(id);
const state = {
  // /api/v1/info's: the rules' choices ({ capture: [...], end, remainder }, the default first)
  // and the computer's levels ([{ name, seconds, within }]): the board keeps none of its own.
  info: null,
  rules: null,      // { capture, end, remainder } of the game shown
  // The game tree: a node is { position (absolute), played: { pit, south } or null, parent,
  // children }; children[0] continues the main line, the others are variations.
  root: null,
  node: null,       // the node shown
  moves: null,      // /api/v1/moves's answer for the node shown: what can be played
  answer: null,     // /api/v1/analyse's answer for it: the values
  value: null,      // its value_only answer, shown until every move's value is known
  editing: false,
  request: null,    // the AbortController of the request in flight
  // board_server.js's: the running analysis and the computer's move
  search: null,     // the name of the analysis the server runs for the node shown
  bounds: null,     // its moves' bounds so far (/api/v1/progress), shown until its answer
  proven: null,     // the position's bounds so far: { lower, upper }
  estimate: null,   // the heuristic's estimate so far: { value, depth, exact, best, line, moves }
  shown: 0,         // when the node was shown (performance.now()), moved on by a pause
  stopped: null,    // when its search ended (stopped, or ended by itself): its clock stops
  thinking: null,   // { position, since, side, turn }: the computer's move being asked for
  sowing: null,     // { bins, lit }: the frame of a sowing being animated
  book: null,       // /api/v1/book's answer for the node shown: the opening explorer
  headers: {},      // the game record's headers: south, north, date, result (board_review.js)
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
function node(position, played, parent) { return { position, played, parent, children: [] }; }
function current() { return state.node.position; }
function signed(v) { return v > 0 ? "+" + v : String(v); }
function resultWord(margin) { return margin > 0 ? "win" : margin < 0 ? "loss" : "draw"; }
// A finished game's position with the seeds left on the pits swept by the remainder rule, as
// the server gives it (final_absolute).
function finalPosition() {
  const a = (state.moves && state.moves.finished && state.moves) || state.answer;
  return parse(a.final_absolute);
}
// "game over: South 34, North 14: South wins by 20", from the final position.
function gameOver() {
  const p = finalPosition(), south = p.bins[p.m], north = p.bins[2 * p.m + 1];
  const score = `game over: South ${south}, North ${north}: `;
  if (south === north) return score + "a draw";
  return score + `${south > north ? "South" : "North"} wins by ${Math.abs(south - north)}`;
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

// --- the game tree ---
function path(n = state.node) {  // the root .. n
  const nodes = [];
  for (; n; n = n.parent) nodes.unshift(n);
  return nodes;
}
// The line shown: the path to the node, then its main continuation.
function line(n = state.node) {
  const nodes = path(n);
  for (let c = n.children[0]; c; c = c.children[0]) nodes.push(c);
  return nodes;
}
function leaves(n = state.root, out = []) {
  if (!n.children.length) out.push(n);
  for (const c of n.children) leaves(c, out);
  return out;
}
// Plays `pit` from `from` into the tree (the child it already has, else a new one, a variation
// if there was a move).
function child(from, pit, position) {
  let c = from.children.find((k) => k.played.pit === pit);
  if (!c) from.children.push(c = node(position, { pit, south: parse(from.position).south }, from));
  return c;
}
function goTo(n) { state.node = n; show(); }
// Makes the line through the node shown the main line.
function promote() {
  for (let n = state.node; n.parent; n = n.parent) {
    const siblings = n.parent.children;
    siblings.splice(siblings.indexOf(n), 1);
    siblings.unshift(n);
  }
  show();
}

// The turns of a line of nodes, as the best line writes them, a turn per side: "S:3-6 N:2-1";
// each with the index of its last node.
function turns(nodes) {
  const out = [];
  for (let i = 1; i < nodes.length; i++) {
    const { pit, south } = nodes[i].played;
    const side = south ? "S" : "N";
    const last = out[out.length - 1];
    if (last && last.side === side) last.pits.push(pit);  // an extra turn: the same turn
    else out.push({ side, pits: [pit] });
    out[out.length - 1].end = i;
  }
  return out;
}
// A line's record, "S:3-6 N:2"; with `comments`, each turn's comment after it: "S:3-6 {good}".
function recordText(nodes, comments = false) {
  return turns(nodes).map((t) => {
    const comment = comments && turnComment(nodes, t);
    return t.side + ":" + t.pits.join("-") + (comment ? ` {${comment}}` : "");
  }).join(" ");
}
// The comments of a turn's nodes (one, on its last, once read back from a record).
function turnComment(nodes, t) {
  return nodes.slice(t.end - t.pits.length + 1, t.end + 1).map((n) => n.comment)
    .filter(Boolean).join(" ");
}

// --- the address ---
// A query string that stays readable: commas, colons, slashes, dashes and semicolons as they are.
function query(params) {
  return Object.entries(params).map(([k, v]) => k + "=" + encodeURIComponent(v)
    .replace(/%2C/g, ",").replace(/%3A/g, ":").replace(/%2F/g, "/").replace(/%3B/g, ";")
    .replace(/%20/g, "+")).join("&");
}
// The rules, the start, the main line and every variation (whole lines from the start), and
// where the node shown is: `ply` plies along line `line` (0 the main one).
function gameParams() {
  const params = { position: current(), ...state.rules };  // `position`: what is shown
  const main = line(state.root);
  if (main.length === 1) return params;
  params.start = state.root.position;
  params.moves = recordText(main);
  const others = leaves().filter((l) => l !== main[main.length - 1]);
  if (others.length) params.lines = others.map((l) => recordText(path(l))).join(";");
  const shown = line(), end = shown[shown.length - 1];
  const index = end === main[main.length - 1] ? 0 : others.indexOf(end) + 1;
  if (index) params.line = index;
  if (state.node !== end) params.ply = path().length - 1;
  return params;
}
function saveUrl() {
  const params = gameParams();
  const c = $("computer").value, level = $("level").value;
  if (c !== "nobody") params.computer = c;
  if (level !== "strong") params.level = level;
  if ($("flip").checked) params.flip = 1;
  history.replaceState(null, "", "?" + query(params));
}

function computerToMove() {
  const c = $("computer").value;
  return c !== "nobody" && (c === "South") === parse(current()).south;
}

function show() {
  dropSearch();
  state.answer = null;
  state.moves = null;
  state.value = null;
  state.proven = null;
  state.estimate = null;
  state.book = null;
  state.shown = performance.now();
  state.stopped = null;
  saveUrl();
  drawBoard();
  showAnswer();
  knownValue();
  showHistory();
  showReview();
  $("position-text").value = current();
  if (state.thinking && state.thinking.position !== current()) {  // the user went elsewhere
    state.thinking = null;
    showThinking();
    $("computer-note").textContent = "the computer's move was dropped: its position is no " +
      "longer shown (it moves again when it is to move)";
  }
  if (!state.editing) {
    $("status").textContent = "searching…";
    loadMoves();
    loadBook();
    analyse(1500, true);
    computerMoves();
  }
}

// Plays a pit of the player to move: the user's (never for the computer) or the computer's.
function play(pit, byComputer = false) {
  const from = (state.moves && state.moves.moves) || (state.answer && state.answer.moves);
  if (!from || state.editing || (computerToMove() && !byComputer)) return false;
  const move = from.find((mv) => mv.pit === pit);
  if (!move) return false;
  const before = current();
  state.node = child(state.node, pit, move.absolute);
  animate(before, pit, move.absolute);
  show();
  return true;
}

// A new game of the pits and seeds shown; a seeds box that is empty or out of range starts none
// and says why (the game shown is kept).
function newGame() {
  const m = Number($("pits").value);
  const most = Math.floor(254 / (2 * m)), text = $("seeds").value.trim();
  $("seeds").max = most;
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > most) {
    $("computer-note").textContent = `seeds: give a whole number 1..${most} for ${m} pits ` +
      `(got '${text.slice(0, 12)}'); the game shown is kept`;
    syncControls();
    return;
  }
  state.root = state.node = node(start(m, n), null, null);
  state.headers = {};
  showHeaders();
  show();
}

function edit(bin, delta) {
  const p = parse(current());
  p.bins[bin] = Math.max(0, p.bins[bin] + delta);
  state.root = state.node = node(format(p), null, null);
  show();
}

// The pits and seeds boxes from the position of the root: its pit count, and its seeds when it
// is a start (every pit alike, the stores empty).
function syncControls() {
  const p = parse(state.root.position), pits = p.bins.filter((_, i) => i !== p.m && i !== 2 * p.m + 1);
  $("pits").value = p.m;
  $("seeds").max = Math.floor(254 / (2 * p.m));
  if (pits.every((s) => s === pits[0]) && !p.bins[p.m] && !p.bins[2 * p.m + 1]) $("seeds").value = pits[0];
  for (const k in state.info.rules) $(k).value = state.rules[k];
}

// The rules' and levels' choices from /api/v1/info, into their menus.
async function loadInfo() {
  state.info = await (await fetch("api/v1/info")).json();
  state.rules = {};
  for (const k in state.info.rules) {
    for (const v of state.info.rules[k]) $(k).add(new Option(v, v));
    state.rules[k] = state.info.rules[k][0];
  }
  for (const l of state.info.levels)
    $("level").add(new Option(`${l.name} (${l.within === undefined ? l.seconds + " s"
                                             : "within " + l.within + " seeds"})`, l.name));
  $("level").value = "strong";
}
function level(name) { return state.info.levels.find((l) => l.name === name); }

async function init() {
  await loadInfo();
  for (let m = 1; m <= 8; m++) $("pits").add(new Option(m, m));
  for (const k in state.info.rules) $(k).onchange = () => { state.rules[k] = $(k).value; show(); showRules(); };
  $("pits").onchange = $("seeds").onchange = newGame;
  $("new-game").onclick = newGame;
  $("fair-start").onclick = fairStart;
  $("start").onclick = () => goTo(state.root);
  $("undo").onclick = () => { if (state.node.parent) goTo(state.node.parent); };
  $("redo").onclick = () => { if (state.node.children.length) goTo(state.node.children[0]); };
  $("end-of-line").onclick = () => { const l = line(); goTo(l[l.length - 1]); };
  $("promote").onclick = promote;
  $("step").onclick = bestMove;
  $("engine-toggle").onclick = toggleEngine;
  $("flip").onchange = () => { saveUrl(); drawBoard(); };
  $("edit").onclick = () => {
    state.editing = !state.editing;
    document.body.classList.toggle("editing", state.editing);
    $("edit").textContent = state.editing ? "editing…" : "edit";
    show();
  };
  $("edit-done").onclick = () => { if (state.editing) $("edit").onclick(); };
  $("computer").onchange = $("level").onchange = () => { saveUrl(); drawBoard(); computerMoves(); };
  window.addEventListener("pagehide", dropSearch);
  $("hide").onchange = () => document.body.classList.toggle("hide-values", $("hide").checked);
  $("swap-side").onclick = () => {
    const p = parse(current());
    p.south = !p.south;
    state.root = state.node = node(format(p), null, null);
    show();
  };
  $("position-text").onchange = () => load({ position: $("position-text").value.trim() });
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
    if (["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName) || e.ctrlKey || e.metaKey) return;
    const keys = { ArrowLeft: "undo", ArrowRight: "redo", Home: "start", End: "end-of-line", b: "step" };
    if (e.key >= "1" && e.key <= "8") play(Number(e.key));
    else if ((e.key === "Enter" || e.key === " ") && e.target.dataset && e.target.dataset.pit) {
      e.preventDefault();
      play(Number(e.target.dataset.pit));
    } else if (keys[e.key]) $(keys[e.key]).click();
    else if (e.key === "f") { $("flip").checked = !$("flip").checked; $("flip").onchange(); }
    else return;
    if (e.key !== "Enter" && e.key !== " ") e.preventDefault();
  };
  initReview();
  state.root = state.node = node(start(6, 4), null, null);
  load(Object.fromEntries(new URLSearchParams(location.search)), true);
}
