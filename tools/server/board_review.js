// board_review.js: the analysis board's review of a game (tools/server/board.html): the evaluation
// graph, each turn's mark by the seeds it gave away, each side's accuracy; the game record as
// text and file; the rules in the help panel.
"use strict";
// The values known, by rules and position: { value (final margin for the mover), exact }.
const values = new Map();
const valueKey = (position) => query({ position, ...state.rules });
function noteValue(position, value, exact) {
  const known = values.get(valueKey(position));
  if (known && known.exact) return;
  values.set(valueKey(position), { value, exact });
  if (exact && valueKey(position) === valueKey(current())) knownValue();
  showReview();
}
// The position shown takes its exact value from the values known (its parent's table, the
// book's), before its own search proves it: the bar, the status and the engine show it.
function knownValue() {
  const v = values.get(valueKey(current())) || bestTurnValue(state.node);
  if (state.value || !v || !v.exact) return;
  state.value = { value: v.value, result: resultWord(v.value) };
  showAnswer();
}
// An exact answer's value, and its moves' if it has them (an analysis, or a value answered from
// the book): each is its child's, for the child's mover, so the review marks a turn from its
// parent's table at once, without the child's own search.
function noteAnswer(position, answer) {
  const south = parse(position).south;
  for (const mv of answer.moves || []) {
    const pits = String(mv.turn || "").replace(/^[SN]:/, "").split("-").map(Number);
    if (pits.length > 1) {  // an extra turn: its best continuation's positions have its value
      if (!bestTurns.has(valueKey(position))) bestTurns.set(valueKey(position), new Map());
      bestTurns.get(valueKey(position)).set(mv.pit, { pits, value: mv.value });
    }
    noteValue(mv.absolute, parse(mv.absolute).south === south ? mv.value : -mv.value, true);
  }
  noteValue(position, answer.value, true);
  knownValue();  // the position shown may be inside one of its best turns
}
// The best turns of the tables known, by position, then by first pit: { pits, value }.
const bestTurns = new Map();
// A node's exact value when the turn it is in (whole or begun) is the best turn its start's table
// gives (S:3-6 from the start's pit 3): that turn's value, for the node's mover; else undefined.
function bestTurnValue(n) {
  if (!n.played) return undefined;
  const side = n.played.south, pits = [];
  let s = n;
  for (; s.played && s.played.south === side; s = s.parent) pits.unshift(s.played.pit);
  const best = (bestTurns.get(valueKey(s.position)) || new Map()).get(pits[0]);
  if (!best || pits.length > best.pits.length || pits.some((p, i) => best.pits[i] !== p))
    return undefined;
  return { value: parse(n.position).south === side ? best.value : -best.value, exact: true };
}
// A node's value for South, or undefined.
function southValue(n) {
  const v = values.get(valueKey(n.position)) || bestTurnValue(n);
  return v && { value: parse(n.position).south ? v.value : -v.value, exact: v.exact };
}

// What a turn (the nodes from `first`, its first ply, to `last`) gave away against the best, in
// seeds for the side that played it; and its mark. undefined until both values are known.
const MARKS = [[6, "??", "blunder"], [3, "?", "mistake"], [1, "?!", "inaccuracy"]];
function turnLoss(first, last) {
  const before = southValue(first.parent), after = southValue(last);
  if (!before || !after) return undefined;
  const sign = first.played.south ? 1 : -1;
  const b = sign * before.value, a = sign * after.value;
  const loss = Math.max(0, b - a);
  const worse = Math.sign(a) < Math.sign(b);  // a win no longer won, a draw lost
  const mark = MARKS.find(([seeds]) => loss >= seeds) || (worse ? MARKS[0] : null);
  return { loss, exact: before.exact && after.exact,
           mark: worse ? MARKS[0] : mark };
}

function showReview() {
  const nodes = line(), list = turns(nodes);
  // The marks beside the turns of the move list.
  const items = $("history").children;
  const sides = { S: { turns: 0, best: 0, lost: 0, estimated: 0 },
                  N: { turns: 0, best: 0, lost: 0, estimated: 0 } };
  const marks = {};  // by the ply that ends a marked turn: its mark's name, for the graph
  list.forEach((t, i) => {
    const r = turnLoss(nodes[t.end - t.pits.length + 1], nodes[t.end]);
    const li = items[i];
    if (li) { delete li.dataset.mark; li.className = li.className.replace(/ ?(inaccuracy|mistake|blunder)/, ""); }
    if (!r) return;
    const s = sides[t.side];
    if (!r.exact) s.estimated++;
    else { s.turns++; s.lost += r.loss; if (!r.loss) s.best++; }
    if (r.mark && r.exact) marks[t.end] = r.mark[2];
    if (li && marks[t.end]) {  // shown by board.css after the turn; its name for the rest
      li.dataset.mark = r.mark[1];
      li.classList.add(r.mark[2]);
      li.title = `${li.textContent} ${r.mark[1]}, ${r.mark[2]}: gave away ` +
        `${r.loss} seed${r.loss === 1 ? "" : "s"}` +
        (li.dataset.comment ? ` (${li.dataset.comment})` : "");
      li.setAttribute("aria-label", li.title);
    }
  });
  const accuracy = (name, s) => !s.turns ? "" : `${name}: ${s.best} of ${s.turns} turns gave ` +
    `nothing away (${Math.round((100 * s.best) / s.turns)}%), ${s.lost} seed` +
    `${s.lost === 1 ? "" : "s"} given away` + (s.estimated ? ` (${s.estimated} not proven)` : "");
  $("accuracy").textContent = [accuracy("South", sides.S), accuracy("North", sides.N)]
    .filter(Boolean).join(" · ");
  drawGraph(nodes, marks);
  evaluateLine();
}

// The value for South of every ply of the line shown: exact points filled, estimates hollow,
// the end of a marked turn larger and in its mark's colour; a click goes to that ply.
function drawGraph(nodes, marks) {
  const known = nodes.map(southValue);
  const w = Math.max(240, 12 * nodes.length), h = 90, mid = h / 2;
  const top = Math.max(4, ...known.filter(Boolean).map((v) => Math.abs(v.value)));
  const x = (i) => 6 + ((w - 12) * i) / Math.max(1, nodes.length - 1);
  const y = (v) => mid - ((mid - 6) * v) / top;
  const at = path().length - 1;
  let svg = `<svg viewBox="0 0 ${w} ${h}" preserveAspectRatio="none" role="img" ` +
    `aria-label="the value for South after each ply"><line x1="0" x2="${w}" y1="${mid}" y2="${mid}" class="axis"/>` +
    `<line x1="${x(at)}" x2="${x(at)}" y1="0" y2="${h}" class="now"/>`;
  const points = known.map((v, i) => (v ? `${x(i)},${y(v.value)}` : null)).filter(Boolean);
  if (points.length > 1) svg += `<polyline points="${points.join(" ")}"/>`;
  known.forEach((v, i) => {
    if (v) svg += `<circle cx="${x(i)}" cy="${y(v.value)}" r="${marks[i] ? 4.5 : 3}" ` +
      `data-ply="${i}" data-value="${v.value}" class="${v.exact ? "exact" : "estimate"}` +
      `${marks[i] ? " " + marks[i] : ""}"><title>ply ${i}: ${signed(v.value)} for South` +
      `${v.exact ? "" : " (estimate)"}${marks[i] ? ", " + marks[i] : ""}</title></circle>`;
  });
  $("graph").innerHTML = svg + "</svg>";
  $("graph").onclick = (e) => {
    const r = $("graph").getBoundingClientRect();
    const i = Math.round(((e.clientX - r.left) / r.width) * (nodes.length - 1));
    if (nodes[i]) goTo(nodes[i]);
  };
}

// Asks, one position at a time, for the values of the line's positions not yet known: a value
// search of 300 ms each, its estimate where it proves nothing.
let evaluating = false;
async function evaluateLine() {
  if (evaluating || state.editing) return;
  evaluating = true;
  try {
    for (;;) {
      const missing = line().find((n) => !values.has(valueKey(n.position)));
      if (!missing) break;
      const position = missing.position, rules = { ...state.rules };
      const a = await (await fetch("api/v1/analyse?" + query({ position, ...rules,
        value_only: 1, budget_ms: 300 }))).json();
      if (query({ position, ...rules }) !== valueKey(position)) continue;  // rules changed
      if (a.error) values.set(valueKey(position), undefined);
      else if (!a.interrupted) noteAnswer(position, a);
      else if (a.estimate) values.set(valueKey(position), { value: a.estimate.value, exact: false });
      else values.set(valueKey(position), undefined);
      showHistory();
      showReview();
    }
  } finally {
    evaluating = false;
  }
}

// The game as text: the rules, the start, the main line and each variation, the keys of the
// address (docs/board.md); what import reads back (a bare record is the main line).
// Headers first (Python's kalah.Game reads and writes the same text: docs/board.md).
const HEADERS = ["south", "north", "date", "result"];
function recordFile() {
  const p = gameParams(), h = { ...state.headers };
  h.date = h.date || new Date().toISOString().slice(0, 10);
  const main = line(state.root), end = main[main.length - 1];
  if (!h.result && end === state.node && finished()) h.result = gameOver().replace("game over: ", "");
  const lines = ["# kalah game record: kalah serve's board imports it; the main line is " +
                 "`kalah solve --position START --moves MOVES`"];
  for (const k of HEADERS) if (h[k]) lines.push(`${k}: ${h[k]}`);
  for (const k of ["capture", "end", "remainder"]) lines.push(`${k}: ${p[k]}`);
  lines.push(`start: ${p.start || p.position}`);
  if (main.length > 1) lines.push(`moves: ${recordText(main, true)}`);
  for (const l of leaves().filter((n) => n !== end)) lines.push(`lines: ${recordText(path(l), true)}`);
  return lines.join("\n") + "\n";
}
function importRecord(text) {
  const params = {}, sidelines = [], headers = {};
  for (const raw of text.split(/\r?\n/)) {
    const l = raw.trim();
    if (!l || l.startsWith("#")) continue;
    const m = /^([a-z]+):\s*(.*)$/.exec(l);
    if (!m) { params.moves = ((params.moves || "") + " " + l).trim(); continue; }
    if (m[1] === "lines") sidelines.push(m[2]);
    else if (HEADERS.includes(m[1])) headers[m[1]] = m[2];
    else params[m[1]] = m[2];
  }
  if (sidelines.length) params.lines = sidelines.join(";");
  if (params.moves && !params.start) params.start = state.root.position;
  load(params).then(() => { state.headers = headers; showHeaders(); });
}
// A comment as a record holds it: one line, no braces.
function cleanComment(text) { return text.replace(/[{}\s]+/g, " ").trim(); }
function showHeaders() {
  $("south-name").value = state.headers.south || "";
  $("north-name").value = state.headers.north || "";
}

// "analyse this game": the main line's positions whose value is not proven yet, one at a time
// in the background, each searched for the budget chosen; the marks fill in as values are
// proven. The button stops it.
let deepReview = null;  // its AbortController while it runs
async function analyseGame() {
  if (deepReview) return deepReview.abort();
  const controller = deepReview = new AbortController();
  $("deep-review").textContent = "stop the review";
  const budget = Number($("review-budget").value);
  const todo = line(state.root).filter((n) => !(southValue(n) || {}).exact);  // tables' too
  let proven = 0;
  try {
    for (const [i, n] of todo.entries()) {
      $("review-note").textContent = `position ${i + 1} of ${todo.length}, ${proven} proven`;
      const a = await (await fetch("api/v1/analyse?" + query({ position: n.position,
        ...state.rules, value_only: 1, budget_ms: budget }), { signal: controller.signal })).json();
      if (!a.error && !a.interrupted) { noteAnswer(n.position, a); proven++; }
    }
    $("review-note").textContent = `reviewed the ${todo.length} position` +
      `${todo.length === 1 ? "" : "s"} not proven before: ${proven} proven`;
  } catch (e) {
    $("review-note").textContent = e.name === "AbortError" ? `stopped: ${proven} proven` : "error: " + e;
  } finally {
    deepReview = null;
    $("deep-review").textContent = "analyse this game";
  }
}

function showRules() {
  const r = state.rules, m = parse(state.root.position).m;
  $("rules-text").innerHTML = `<p>Kalah with ${m} pit${m === 1 ? "" : "s"} a side. A move ` +
    "lifts every seed of one of your pits and sows them one by one counter-clockwise: your " +
    "pits, your store (at your right), the opponent's pits, never the opponent's store.</p><ul>" +
    "<li>The last seed in your store: you move again.</li>" +
    "<li>The last seed in an empty pit of your row: a capture, the turn ends; " +
    (r.capture === "standard"
      ? "only when the opposite pit holds seeds, which go with the last seed to your store.</li>"
      : "the last seed and the opposite pit's seeds (if any) go to your store (empty capture).</li>") +
    (r.end === "immediate" ? "<li>The game ends as soon as either row is empty.</li>"
                           : "<li>The game ends when the player to move has an empty row.</li>") +
    (r.remainder === "owner" ? "<li>At the end the seeds left on each row go to its owner's store.</li>"
                             : "<li>At the end the seeds left on the board count for nobody.</li>") +
    "<li>The most seeds in store wins. Values are final margins (own store minus the " +
    "opponent's) for the player to move under perfect play.</li></ul>";
}

function initReview() {
  $("export").onclick = () => { $("record-text").value = recordFile(); };
  $("deep-review").onclick = analyseGame;
  for (const side of ["south", "north"])
    $(`${side}-name`).oninput = (e) => { state.headers[side] = cleanComment(e.target.value); };
  $("comment").oninput = (e) => {
    state.node.comment = cleanComment(e.target.value);
    showHistory();
  };
  $("import").onclick = () => importRecord($("record-text").value);
  $("download").onclick = () => {
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([recordFile()], { type: "text/plain" }));
    a.download = "kalah-game.txt";
    a.click();
    URL.revokeObjectURL(a.href);
  };
  $("record-file").onchange = async () => {
    const file = $("record-file").files[0];
    if (!file) return;
    $("record-text").value = await file.text();
    importRecord($("record-text").value);
  };
  $("url-error").onclick = () => { $("url-error").hidden = true; };
}
