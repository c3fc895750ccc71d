// board_draw.js: the analysis board's drawing (tools/server/board.html): the pits and their badges,
// the status and the move lists, the line shown, sowing animated.
"use strict";
// The bin a ply sowed from.
function binOf(played, m) { return played.south ? played.pit - 1 : m + played.pit; }
// A move's badge on its pit; bounds may break after the "…" where the pit is narrow.
function badge(move) {
  if (move.value !== undefined)
    return `<span class="value ${move.result}">${signed(move.value)}</span>`;
  if (move.bounds && move.bounds.lower === move.bounds.upper)
    return `<span class="value bounds">${bounds(move.bounds)}</span>`;
  if (move.estimate !== undefined)
    return `<span class="value estimate" title="estimate">≈${signed(move.estimate)}</span>`;
  if (move.bounds) return `<span class="value bounds">${bounds(move.bounds).replace("…", "…<wbr>")}</span>`;
  return "";
}
function drawBoard() {
  const p = parse(current()), m = p.m, over = finished();
  const bins = state.sowing ? state.sowing.bins : over ? finalPosition().bins : p.bins;
  const board = $("board");
  board.style.gridTemplateColumns = `minmax(1.6rem, 1.2fr) repeat(${m}, minmax(0, 1fr)) minmax(1.6rem, 1.2fr)`;
  board.innerHTML = "";
  const moves = {};  // what can be played, with its value once the analysis has it
  const playable = (state.moves && state.moves.moves) || (state.answer && state.answer.moves);
  if (playable && !state.editing && !computerToMove())
    for (const mv of playable) moves[mv.pit] = { pit: mv.pit };
  if (state.answer && state.answer.moves) {
    for (const mv of state.answer.moves) if (moves[mv.pit]) moves[mv.pit] = mv;
  } else {  // the search's bounds and the estimate so far, until its answer
    for (const pit in moves) moves[pit] = { pit: Number(pit), ...unproven(Number(pit)) };
  }
  const flip = $("flip").checked, top = flip ? 2 : 1, bottom = flip ? 1 : 2;
  const last = state.node.played && binOf(state.node.played, m);
  const cell = (cls, bin, label, move, row, col, owner) => {
    const d = document.createElement("div");
    d.className = cls + (bin === last && !state.sowing ? " last" : "") +
                  (state.sowing && state.sowing.lit === bin ? " lit" : "");
    d.style.gridRow = row;
    d.style.gridColumn = col;
    d.dataset.bin = bin;
    d.innerHTML = `<span class="seeds">${bins[bin]}</span>`;
    if (label !== null) d.innerHTML += `<span class="label">${label}</span>`;
    const name = cls.startsWith("store") ? `${owner}'s store` : `${owner}'s pit ${label}`;
    d.setAttribute("aria-label", `${name}: ${bins[bin]} seed${bins[bin] === 1 ? "" : "s"}` +
                   (bin === last ? ", the last move" : ""));
    if (move) {
      d.classList.add("playable");
      d.dataset.pit = move.pit;
      d.setAttribute("role", "button");
      d.tabIndex = 0;
      d.innerHTML += badge(move);
      const b = d.querySelector(".value");
      if (b) d.setAttribute("aria-label", d.getAttribute("aria-label") + ", value " + b.textContent);
    }
    board.appendChild(d);
  };
  // North's pits run right to left on top; flipped, South's do, on top.
  const northStore = flip ? m + 2 : 1, southStore = flip ? 1 : m + 2;
  cell("store", 2 * m + 1, "North", null, "1 / span 2", northStore, "North");
  for (let i = 1; i <= m; i++)
    cell("pit", m + i, i, p.south ? null : moves[i], top, flip ? i + 1 : m + 2 - i, "North");
  for (let i = 1; i <= m; i++)
    cell("pit", i - 1, i, p.south ? moves[i] : null, bottom, flip ? m + 2 - i : i + 1, "South");
  cell("store", m, "South", null, "1 / span 2", southStore, "South");
  for (const d of board.querySelectorAll(".pit"))
    d.classList.add(Number(d.style.gridRow) === 1 ? "top" : "bottom");
  const label = (south) => (south ? "South" : "North") +
    (p.south === south && !over ? " to move" : "") +
    (computerToMove() && p.south === south && !over ? " (the computer)" : "");
  $("top-label").textContent = label(flip);
  $("bottom-label").textContent = label(!flip);
  $("top-label").className = "side" + (p.south === flip && !over ? " to-move" : "");
  $("bottom-label").className = "side" + (p.south !== flip && !over ? " to-move" : "");
  $("swap-side").textContent = "side to move: " + (p.south ? "South" : "North");
}

// Until every move's value is proven: the value or the bounds proven so far, the estimate with
// its depth, the time spent; each move's estimate and bounds.
// Bounds that say nothing the seeds do not (every seed on the pits to one side): not shown.
function trivial(b) {
  const p = parse(current()), m = p.m, seeds = p.bins.reduce((a, x) => a + x, 0) -
    p.bins[m] - p.bins[2 * m + 1];
  const stores = (p.south ? 1 : -1) * (p.bins[m] - p.bins[2 * m + 1]);
  return b.lower <= stores - seeds && b.upper >= stores + seeds;
}
function showSearching() {
  const parts = [], e = state.estimate, p = state.proven;
  // Bounds that meet are the value, however much of the moves is left to find.
  const met = p && p.lower === p.upper ? { value: p.lower, result: resultWord(p.lower) } : null;
  const v = state.value || met;
  if (v) parts.push(`value <b class="${v.result}">${signed(v.value)}</b> (${v.result})`);
  else if (p && !trivial(p)) parts.push(`value in [${signed(p.lower)}, ${signed(p.upper)}]`);
  if (e && !v) parts.push(`estimate <b class="estimate">${signed(e.value)}</b>` +
                          (e.exact ? " (exact)" : ` at depth ${e.depth}`));
  if (!parts.length) parts.push("searching…");
  const seconds = ((state.stopped ?? performance.now()) - state.shown) / 1000;
  $("status").innerHTML = `${parts.join(" · ")} · ${seconds.toFixed(1)} s`;
  // Best first, as the exact table is: by the value, the bounds' middle or the estimate.
  const known = ((state.moves && state.moves.moves) || []).map((mv) => ({ mv, ...unproven(mv.pit) }));
  const rank = ({ estimate, bounds: b }) =>
    b && b.lower === b.upper ? b.lower : estimate !== undefined ? estimate
    : b ? (b.lower + b.upper) / 2 : -Infinity;
  known.sort((x, y) => rank(y) - rank(x));
  for (const { mv, estimate, bounds: b } of known) {
    if (estimate === undefined && !b) continue;
    const li = document.createElement("li");
    const exact = b && b.lower === b.upper;  // a move whose bounds meet: its value, no estimate
    li.innerHTML = `pit ${mv.pit} ` +
      (exact ? `<b class="${resultWord(b.lower)}">${signed(b.lower)}</b>`
       : (estimate !== undefined ? `<b class="estimate">≈${signed(estimate)}</b> ` : "") +
         (b && !trivial(b) ? `<span class="muted">in ${bounds(b)}</span>` : ""));
    li.onclick = () => play(mv.pit);
    $("moves").appendChild(li);
  }
}

function showAnswer() {
  const a = state.answer;
  showEngine();
  showBook();
  $("moves").innerHTML = "";
  $("line").innerHTML = "";
  $("source").textContent = "";
  $("line-panel").hidden = true;  // until there is a proven line to show
  if (finished()) { $("status").textContent = gameOver(); return; }
  if (a && a.error) { $("status").textContent = "error: " + a.error; return; }
  if (!a || a.interrupted) return showSearching();
  $("status").innerHTML = `value <b class="${a.result}">${signed(a.value)}</b> (${a.result})`;
  const sorted = [...a.moves].sort((x, y) => y.value - x.value || x.pit - y.pit);
  for (const mv of sorted) {
    const li = document.createElement("li");
    li.innerHTML = `pit ${mv.pit} <b class="${mv.result}">${signed(mv.value)}</b> ${mv.result} ` +
                   `<span class="muted">${mv.turn}</span>`;
    li.onclick = () => play(mv.pit);
    $("moves").appendChild(li);
  }
  // Each turn of the best line plays the line up to it.
  for (const t of lineTurns(a.best_line)) {
    const li = document.createElement("li");
    li.textContent = t.text;
    li.onclick = () => playPits(t.upTo);
    li.title = "play the line to here";
    $("line").appendChild(li);
  }
  $("line-panel").hidden = !a.best_line.length;
  $("source").textContent = `from the ${a.source}${a.cached ? " (cached)" : ""}: ` +
    `${a.nodes} ${a.source === "database" ? "look-up" : "node"}${a.nodes === 1 ? "" : "s"}, ` +
    `${a.seconds.toFixed(3)} s`;
}

// The line shown, a turn per item (the current one bold), and the variations.
function showHistory() {
  $("history").innerHTML = "";
  const nodes = line(), at = path().length - 1;
  let first = 1;
  turns(nodes).forEach((t, i) => {  // turns alternate sides: numbered in pairs
    const li = document.createElement("li");
    li.textContent = t.side + ":" + t.pits.join("-");
    if (i % 2 === 0) li.dataset.number = `${i / 2 + 1}.`;
    const comment = turnComment(nodes, t);
    if (comment) li.dataset.comment = li.title = comment;
    li.dataset.end = t.end;
    if (at >= first && at <= t.end) li.className = "current";
    const target = nodes[t.end];
    li.onclick = () => goTo(target);
    $("history").appendChild(li);
    first = t.end + 1;
  });
  const main = line(state.root), shownEnd = nodes[nodes.length - 1];
  const others = leaves().filter((l) => l !== main[main.length - 1]);
  $("variations").innerHTML = others.length ? "<span class=\"muted\">variations:</span>" : "";
  for (const l of [main[main.length - 1], ...others]) {
    if (!others.length) break;
    const a = document.createElement("button");
    a.className = "variation" + (l === shownEnd ? " current" : "");
    a.textContent = (l === main[main.length - 1] ? "main: " : "") + recordText(path(l));
    a.onclick = () => goTo(l);
    $("variations").appendChild(a);
  }
  $("promote").hidden = shownEnd === main[main.length - 1];
  if (document.activeElement !== $("comment")) $("comment").value = state.node.comment || "";
  $("start").disabled = $("undo").disabled = !state.node.parent;
  $("redo").disabled = $("end-of-line").disabled = !state.node.children.length;
}

// Sowing seed by seed: the frames from `before` to `after` (which the server computed), a seed
// every 90 ms, within 0.9 s; the board is playable meanwhile and shows `after` at the end.
function animate(before, pit, after) {
  if (!$("animate").checked) return;
  const p = parse(before), m = p.m, bins = p.bins.slice();
  let bin = p.south ? pit - 1 : m + pit;
  let seeds = bins[bin];
  const skip = p.south ? 2 * m + 1 : m;  // the opponent's store
  bins[bin] = 0;
  const frames = [];
  while (seeds > 0) {
    bin = (bin + 1) % (2 * m + 2);
    if (bin === skip) continue;
    bins[bin]++;
    seeds--;
    frames.push({ bins: bins.slice(), lit: bin });
  }
  const delay = Math.min(90, 900 / frames.length), target = after;
  const step = (i) => {
    if (current() !== target || i >= frames.length) { state.sowing = null; drawBoard(); return; }
    state.sowing = frames[i];
    drawBoard();
    setTimeout(() => step(i + 1), delay);
  };
  setTimeout(() => step(0), 0);
}

