// board_engine.js: the engine beyond the database (tools/server/board.html): the heuristic's
// best lines (multi-PV: the three best moves, each with the line it expects after it), the
// evaluation bar, and stop / go on. Exact values, where the database or a proof has them, are
// board_draw.js's.
"use strict";
const kEngineLines = 3;
// A whole analysis runs at most this long unless the user asks for more (go on).
const kAnalysisMs = 60000;

// The estimate shown for a position: a new one only when it looked at least as deep (a search
// started again, for every move's value, begins at depth 1): the depth shown only grows.
function mergeEstimate(shown, e) {
  return !shown || e.exact || e.depth >= shown.depth ? e : shown;
}

// A line's turns as the server writes them, sided ("S:3-6"), each with the pits that play the
// line up to it from the position shown.
function lineTurns(turns) {
  const pits = [];
  return turns.map(turn => {
    pits.push(...turnPits(turn));
    return { text: turn, upTo: pits.slice() };
  });
}

// The pits of a sided turn, "S:3-6": [3, 6].
function turnPits(turn) { return turn.slice(turn.indexOf(":") + 1).split("-").map(Number); }

// Whether the server is searching the position shown for the board.
function engineRunning() { return !!state.request && !answered(); }

// Stop: the server's search is cancelled (its threads stop within a few milliseconds) and the
// request dropped, what was found kept on screen; go on: a new whole analysis.
function toggleEngine() {
  if (engineRunning()) {
    state.request.abort();
    state.request = null;
    state.stopped = performance.now();
    dropSearch();
  } else {
    analyse(kAnalysisMs, false);
  }
  showAnswer();
}

// The best value known of the position shown, for South: exact if known, else the estimate.
function positionSouthValue() {
  const a = state.answer, p = state.proven, e = state.estimate;
  let v = null, exact = true;
  if (finished()) {
    const f = finalPosition();
    return { v: f.bins[f.m] - f.bins[2 * f.m + 1], exact };
  }
  if (a && !a.interrupted && !a.error) v = a.value;
  else if (state.value) v = state.value.value;
  else if (p && p.lower === p.upper) v = p.lower;
  else if (e) { v = e.value; exact = false; }
  if (v === null) return null;
  return { v: parse(current()).south ? v : -v, exact };
}

// The bar: South's share, 50 % for a draw, a 10-seed lead about three quarters.
function drawEvalBar() {
  const s = positionSouthValue(), bar = $("eval-bar");
  const share = s ? 50 + 50 * Math.tanh(s.v / 14) : 50;
  $("eval-fill").style.width = share.toFixed(1) + "%";
  $("eval-text").textContent = s ? `South ${s.exact ? "" : "≈"}${signed(s.v)}` : "South";
  bar.setAttribute("aria-valuenow", s ? s.v : 0);
  bar.setAttribute("aria-valuetext", s ? `${s.exact ? "" : "about "}${signed(s.v)} for South`
                                        : "not known yet");
}

function showEngine() {
  drawEvalBar();
  const e = state.estimate, list = $("engine-lines"), toggle = $("engine-toggle");
  list.innerHTML = "";
  const exact = answered() || finished();
  $("engine-panel").hidden = exact || state.editing;
  toggle.textContent = engineRunning() ? "stop" : "go on";
  toggle.title = engineRunning() ? "stop the server's search of this position"
                                 : `search this position ${kAnalysisMs / 1000} s more`;
  const known = state.value && `value ${signed(state.value.value)} (exact)`;  // lines: estimates
  $("engine-depth").textContent = [known, e && (e.exact ? "exact" : `depth ${e.depth}`)]
    .filter(Boolean).join(" · ");
  if (exact || !e) return;
  const lines = e.moves && e.moves.length
    ? [...e.moves].sort((x, y) => y.value - x.value || x.pit - y.pit).slice(0, kEngineLines)
    : e.line ? [{ pit: e.best, value: e.value, line: e.line }] : [];
  for (const l of lines) {
    const li = document.createElement("li");
    li.innerHTML = `<b class="estimate">≈${signed(l.value)}</b> `;
    for (const t of lineTurns(l.line)) {
      const a = document.createElement("button");
      a.className = "turn";
      a.textContent = t.text;
      a.title = "play the line to here";
      a.onclick = () => playPits(t.upTo);
      li.append(a, " ");
    }
    list.appendChild(li);
  }
}
