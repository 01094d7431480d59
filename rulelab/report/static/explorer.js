// The rulelab report's game explorer: two tables that sort and filter — the disagreements,
// and every analysable game — and each divergent game's board drawn as SVG. Reads
// window.RULELAB_EXPLORER (explorer-data.js); the view and its filters live in the
// address's hash, so a view can be linked. No library.
"use strict";

const DATA = window.RULELAB_EXPLORER;
const objects = (columns, rows) => rows.map((values, k) =>
  Object.fromEntries([["row", k], ...columns.map((name, j) => [name, values[j]])]));
DATA.rows = objects(DATA.columns, DATA.rows);
DATA.game_rows = objects(DATA.game_columns, DATA.game_rows);
for (const row of DATA.game_rows) {  // a coded column's cell is an index into its values
  for (const [name, values] of Object.entries(DATA.game_values)) if (row[name] !== null) row[name] = values[row[name]];
}
const FILTERS = ["basis", "pair", "cause", "band", "trusted", "even", "reproduced", "source", "per"];
const COLUMNS = [
  ["komi_basis", "komi basis"], ["game_id", "game"], ["pair", "rulesets a / b"], ["verdicts", "winners a / b"],
  ["main_cause", "main cause"], ["difference", "margin a − b"], ["settled", "settled"],
  ["reproduced", "reproduces record"], ["status_case", "status case"], ["source", "source"],
];
// The games view: each filter is a column of DATA.game_rows, chosen by its value
// ("1"/"0" for yes/no); "diverges" holds the komi bases a game diverges on, and matches any.
const GAME_FILTERS = ["komi", "winner", "fit", "equal", "settled", "outlier", "trusted", "even", "life", "reproduced",
  "same", "diverges", "source"];
const GAME_COLUMNS = [
  ["game_id", "game"], ["source", "source"], ["year", "year"], ["players", "black – white"], ["komi", "komi"],
  ["result", "result"], ["winner", "winner"], ["fit", "fair-komi game"], ["equal", "equal ranks"],
  ["settled", "settled"], ["outlier", "outlier"], ["trusted", "trusted"], ["even", "even game"],
  ["life", "dead stones by"],
  ["reproduced", "reproduces record"], ["same", "same winner as record"], ["diverges", "diverges at"],
];
const GAME_TITLES = Object.fromEntries(GAME_COLUMNS);
const YES_NO = new Set(["fit", "equal", "settled", "outlier", "trusted", "even", "same"]);
const FILTER_NAMES = { trusted: "trusted only", even: "even games only", per: "one row per game", pair: "pair" };
const SVG = "http://www.w3.org/2000/svg";
const state = { sort: "row", descending: false, game: null, row: null, ruleset: null, view: null };

function el(tag, attributes = {}, text = null, namespace = null) {
  const node = namespace ? document.createElementNS(namespace, tag) : document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text !== null) node.textContent = text;
  return node;
}

function hashValues() {
  return new URLSearchParams(location.hash.slice(1));
}

function writeHash(values) {
  const text = [...values].filter(([, v]) => v !== "").map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&");
  history.replaceState(null, "", text ? `#${text}` : location.pathname);
}

function verdict(winner, margin) {
  if (winner === "draw") return "draw";
  return `${winner}+${Math.abs(margin)}`;
}

function inBand(close, label) {
  const [low, high] = DATA.bands_limits[DATA.bands.indexOf(label)];
  return close !== null && (high === null || close <= high) && (close > low || low === 0);
}

// A games-view cell as the hash writes it ("1"/"0" for yes/no; "" for none).
function cellValue(value) {
  return value === null || value === undefined ? "" : String(value);
}

function matchesGame(row, chosen) {
  for (const name of GAME_FILTERS) {
    const wanted = chosen.get(name);
    if (!wanted) continue;
    const value = cellValue(row[name]);
    if (name === "diverges" ? !value.split(" ").includes(wanted) : value !== wanted) return false;
  }
  return true;
}

function currentView() {
  return hashValues().get("view") === "games" ? "games" : "disagreements";
}

function matches(row, chosen) {
  const get = (key) => chosen.get(key) || "";
  if (get("basis") && row.komi_basis !== get("basis")) return false;
  const main = DATA.main.includes(row.ruleset_a) && DATA.main.includes(row.ruleset_b);
  if (get("pair") === "main" ? !main : get("pair") && row.pair !== get("pair")) return false;
  if (get("cause") && row.main_cause !== get("cause")) return false;
  if (get("trusted") === "1" && !row.trusted) return false;
  if (get("even") === "1" && !row.even) return false;
  // "within": the count gives the record within a point, exactly included
  if (get("reproduced") && !(row.reproduced === get("reproduced")
      || (get("reproduced") === "within" && ["exactly", "within 1 point"].includes(row.reproduced)))) return false;
  if (get("source") && row.source !== get("source")) return false;
  const close = get("per") === "game" ? row.close_main : row.close_pair;
  if (get("band") && !inBand(close, get("band"))) return false;
  return true;
}

function shownRows() {
  const chosen = hashValues();
  const games = currentView() === "games";
  let rows = games ? DATA.game_rows.filter((row) => matchesGame(row, chosen)) : DATA.rows.filter((row) => matches(row, chosen));
  if (chosen.get("per") === "game") {
    const seen = new Set();
    rows = rows.filter((row) => !seen.has(`${row.komi_basis} ${row.game_id}`) && seen.add(`${row.komi_basis} ${row.game_id}`));
  }
  const key = state.sort;
  const value = (row) => (key === "verdicts" ? row.margin_a : key === "players" ? row.black : row[key] ?? null);
  rows = [...rows].sort((a, b) => {
    const x = value(a), y = value(b);
    const order = x === y ? a.row - b.row : x === null ? 1 : y === null ? -1 : x < y ? -1 : 1;
    return state.descending ? -order : order;
  });
  return rows;
}

function filterOptions(view) {
  if (view === "games") {
    const values = (name) => [...new Set(DATA.game_rows.flatMap((r) =>
      name === "diverges" ? cellValue(r[name]).split(" ") : [cellValue(r[name])]))].filter(Boolean);
    const numeric = (a, b) => Number(a) - Number(b);
    return Object.fromEntries(GAME_FILTERS.map((name) => [name, name === "komi" ? values(name).sort(numeric)
      : values(name).sort()]));
  }
  return {
    basis: [...new Set(DATA.rows.map((r) => r.komi_basis))],
    pair: ["main", ...new Set(DATA.rows.map((r) => r.pair))],
    cause: [...new Set(DATA.rows.map((r) => r.main_cause))].sort(),
    band: DATA.bands,
    trusted: ["1"], even: ["1"], reproduced: ["exactly", "within"],
    source: [...new Set(DATA.rows.map((r) => r.source))].sort(),
    per: ["game"],
  };
}

function buildViews() {
  const box = document.getElementById("views");
  for (const [view, title, rows] of [["disagreements", "Disagreements", DATA.rows], ["games", "All games", DATA.game_rows]]) {
    const link = el("a", { href: view === "games" ? "#view=games" : "#", "data-view": view }, `${title} (${rows.length})`);
    box.append(link, " ");
  }
}

function buildFilters(view) {
  const box = document.getElementById("filters");
  box.replaceChildren();
  const options = filterOptions(view);
  const words = view === "games" ? { 1: "yes", 0: "no" } : { main: `any of ${DATA.main.join(", ")}`, 1: "yes", game: "yes" };
  for (const name of view === "games" ? GAME_FILTERS : FILTERS) {
    const select = el("select", { id: `filter-${name}`, "data-filter": name });
    const worded = view !== "games" || YES_NO.has(name);
    select.append(el("option", { value: "" }, "all"));
    for (const value of options[name]) select.append(el("option", { value }, (worded && words[value]) || value));
    select.addEventListener("change", () => {
      const values = hashValues();
      values.set(name, select.value);
      values.delete("n");  // the report's count was of the view it linked to
      writeHash(values);
      showTable();
    });
    const label = el("label", {}, `${(view === "games" ? GAME_TITLES : FILTER_NAMES)[name] || name} `);
    label.append(select);
    box.append(label);
  }
}

function showTable() {
  const chosen = hashValues();
  const view = currentView(), games = view === "games";
  if (state.view !== view) {
    Object.assign(state, { view, game: null, row: null, sort: "row", descending: false });
    document.body.className = view;
    buildFilters(view);
    document.getElementById("about").textContent = games
      ? "Every analysable game, one light row each; click a row for its facts (and its board, when it has a disagreement)."
      : "Every disagreement between two rulesets on a settled game; click a row for its board.";
  }
  for (const link of document.querySelectorAll("#views a")) link.classList.toggle("chosen", link.dataset.view === view);
  for (const name of games ? GAME_FILTERS : FILTERS) document.getElementById(`filter-${name}`).value = chosen.get(name) || "";
  const rows = shownRows();
  const stated = chosen.get("n");
  const total = games ? DATA.game_rows.length : DATA.rows.length;
  document.getElementById("shown").textContent = `${rows.length} of ${total} ${games ? "games" : "rows"}` + (stated === null ? ""
    : Number(stated) === rows.length ? `, the ${stated} the report counts` : ` — but the report counts ${stated}`);
  const head = document.getElementById("head");
  head.replaceChildren();
  const line = el("tr");
  const columns = games ? GAME_COLUMNS : COLUMNS;
  for (const [key, title] of columns) {
    const cell = el("th", { "data-sort": key }, title + (state.sort === key ? (state.descending ? " ▼" : " ▲") : ""));
    cell.addEventListener("click", () => {
      state.descending = state.sort === key ? !state.descending : false;
      state.sort = key;
      showTable();
    });
    line.append(cell);
  }
  head.append(line);
  const body = document.getElementById("rows");
  body.replaceChildren(...rows.map((row) => {
    const tr = el("tr", { "data-row": row.row, "data-game": row.game_id, class: row.row === state.row ? "open" : "" });
    const cells = games ? gameCells(row) : {
      ...row, game_id: row.game_id.slice(0, 10),
      pair: `${row.ruleset_a} / ${row.ruleset_b}`, main_cause: row.main_cause.replaceAll("_", " "),
      verdicts: `${verdict(row.winner_a, row.margin_a)} / ${verdict(row.winner_b, row.margin_b)}`,
    };
    for (const [key] of columns) tr.append(el("td", {}, String(cells[key] ?? "")));
    tr.addEventListener("click", () => openRow(row));
    return tr;
  }));
  const wanted = chosen.get("game");
  if (wanted && state.game !== wanted) {
    const all = games ? DATA.game_rows : DATA.rows;
    const row = rows.find((r) => r.game_id === wanted) || all.find((r) => r.game_id === wanted);
    if (row) openRow(row, chosen.get("ruleset"));
  }
}

// A games-view row as its cells read: yes/no for the flags, the players in one cell.
function gameCells(row) {
  const cells = { ...row, game_id: row.game_id.slice(0, 10), players: `${row.black || "?"} – ${row.white || "?"}` };
  for (const key of YES_NO) if (row[key] !== null) cells[key] = row[key] ? "yes" : "no";
  return cells;
}

function openRow(row, ruleset = null) {
  state.game = row.game_id;
  state.row = row.row;
  state.ruleset = ruleset || row.ruleset_a;
  const values = hashValues();
  values.set("game", row.game_id);
  writeHash(values);
  for (const tr of document.querySelectorAll("#rows tr")) tr.classList.toggle("open", Number(tr.dataset.row) === row.row);
  if (currentView() === "games") showFacts(row);
  else showGame(row);
}

// A games-view row: its facts, then its board where the explorer holds one.
function showFacts(row) {
  const panel = document.getElementById("game");
  if (DATA.games[row.game_id]) {
    state.ruleset = DATA.rulesets[state.ruleset] ? state.ruleset : DATA.main.find((name) => DATA.rulesets[name]);
    showGame({ game_id: row.game_id, komi_basis: "standard" });
  } else {
    panel.replaceChildren(el("h2", { style: "font-size:1.1rem" }, `${row.black || "?"} (B) vs ${row.white || "?"} (W)`));
  }
  const cells = gameCells(row);
  const facts = el("table", { id: "facts" });
  for (const [key, title] of GAME_COLUMNS) {
    const tr = el("tr");
    tr.append(el("th", {}, title), el("td", { "data-field": key }, key === "game_id" ? row.game_id : String(cells[key] ?? "")));
    facts.append(tr);
  }
  const note = DATA.games[row.game_id] ? "" : "The board of this game is not stored in the explorer, to keep it small: " +
    "only the games with a disagreement between two rulesets carry theirs.";
  panel.insertBefore(facts, panel.children[1] || null);
  if (note) panel.append(el("p", { id: "no-board" }, note));
}

// Stones after the first `count` events of the main line: setup, then moves with captures
// (a move onto a stone is skipped, a suicide removes its own string), as rulelab replays.
function replay(game, count) {
  const { rows, cols } = game;
  const board = new Array(rows * cols).fill(0);
  const neighbours = (p) => {
    const r = Math.floor(p / cols), c = p % cols, out = [];
    if (r > 0) out.push(p - cols);
    if (r < rows - 1) out.push(p + cols);
    if (c > 0) out.push(p - 1);
    if (c < cols - 1) out.push(p + 1);
    return out;
  };
  const string = (start) => {
    const colour = board[start], seen = new Set([start]), stack = [start];
    let free = false;
    while (stack.length) {
      for (const q of neighbours(stack.pop())) {
        if (board[q] === 0) free = true;
        else if (board[q] === colour && !seen.has(q)) { seen.add(q); stack.push(q); }
      }
    }
    return { stones: seen, free };
  };
  for (let k = 0; k < count; k++) {
    const [kind, colour, r, c] = game.moves.slice(4 * k, 4 * k + 4);
    if (r < 0) continue;
    const p = r * cols + c;
    if (kind === 2) { board[p] = 0; continue; }
    if (kind === 1) { board[p] = colour; continue; }
    if (board[p] !== 0) continue;
    board[p] = colour;
    for (const q of neighbours(p)) {
      if (board[q] !== 0 && board[q] !== colour) {
        const group = string(q);
        if (!group.free) for (const s of group.stones) board[s] = 0;
      }
    }
    const own = string(p);
    if (!own.free) for (const s of own.stones) board[s] = 0;
  }
  return board;
}

// The colour (1 black, 2 white) a ruleset counts an empty or dead point for, from the
// point classes the life table stores; 0 when it counts the point for nobody.
function owner(rules, code) {
  if (code === 3 || code === 4) return code - 2;
  if ((code === 5 || code === 6) && rules.seki_eyes) return code - 4;
  if ((code === 7 || code === 8) && rules.owed) return code - 6;
  return 0;
}

function drawBoard(game, stones, final) {
  const { rows, cols } = game, cell = Math.min(22, Math.floor(400 / Math.max(rows, cols))), pad = 16;
  const width = cols * cell + 2 * pad, height = rows * cell + 2 * pad;
  const svg = el("svg", { id: "board", viewBox: `0 0 ${width} ${height}`, width, "data-stones": stones.join("") },
    null, SVG);
  const put = (tag, attributes) => svg.append(el(tag, attributes, null, SVG));
  const at = (i) => pad + cell / 2 + i * cell;
  const grid = { stroke: "#333", "stroke-width": 0.8 };
  put("rect", { x: 0, y: 0, width, height, fill: "#e3b565" });
  for (let r = 0; r < rows; r++) put("line", { x1: at(0), y1: at(r), x2: at(cols - 1), y2: at(r), ...grid });
  for (let c = 0; c < cols; c++) put("line", { x1: at(c), y1: at(0), x2: at(c), y2: at(rows - 1), ...grid });
  const dead = final && game.dead ? (game.dead_under[state.ruleset] || game.dead) : null;
  const rules = DATA.rulesets[state.ruleset] || {};
  for (let p = 0; p < rows * cols; p++) {
    const x = at(p % cols), y = at(Math.floor(p / cols));
    const isDead = Boolean(stones[p] && dead && dead[p] === "1");
    if (stones[p]) {
      put("circle", { cx: x, cy: y, r: cell * 0.46, fill: stones[p] === 1 ? "#111" : "#fafafa", stroke: "#111",
        "stroke-width": 0.8, opacity: isDead ? 0.45 : 1, class: isDead ? "dead" : "stone" });
    }
    const colour = final && game.classes && (!stones[p] || isDead) ? owner(rules, Number(game.classes[p])) : 0;
    if (colour) {
      put("rect", { x: x - 4, y: y - 4, width: 8, height: 8, fill: colour === 1 ? "#111" : "#fff", stroke: "#555",
        "stroke-width": 0.6, class: "owner", "data-owner": colour });
    }
    if (isDead) {
      put("path", { d: `M${x - 7} ${y - 7}L${x + 7} ${y + 7}M${x + 7} ${y - 7}L${x - 7} ${y + 7}`, stroke: "#d00",
        "stroke-width": 2.2, class: "dead-mark", "data-point": p });
    }
    if (final && stones[p] && game.seki && game.seki[p] === "1") {
      put("circle", { cx: x, cy: y, r: 3.5, fill: "#888", class: "seki-mark", "data-point": p });
    }
  }
  return svg;
}

function countsTable(game, row) {
  const counts = game.counts[row.komi_basis === "common" ? "common" : "standard"];
  const names = Object.keys(counts).sort();
  const table = el("table", { id: "counts" });
  const head = el("tr");
  head.append(el("th", {}, "count"));
  for (const name of names) head.append(el("th", { class: name === state.ruleset ? "chosen" : "" }, name));
  table.append(head);
  DATA.count_fields.forEach((field, k) => {
    if (names.every((name) => counts[name][k] === null)) return;  // a column this run's scores lack
    const tr = el("tr");
    tr.append(el("td", {}, field.replaceAll("_", " ")));
    for (const name of names) {
      tr.append(el("td", { "data-ruleset": name, "data-field": field }, String(counts[name][k] ?? "")));
    }
    table.append(tr);
  });
  return table;
}

function showGame(row) {
  const game = DATA.games[row.game_id];
  const panel = document.getElementById("game");
  panel.replaceChildren();
  const players = `${game.black || "?"} (B) vs ${game.white || "?"} (W)`;
  panel.append(el("h2", { style: "font-size:1.1rem" }, players));
  panel.append(el("p", {}, [game.date, game.event, `game ${row.game_id}`].filter(Boolean).join(" · ")));
  panel.append(el("p", { id: "record" }, `Record: result ${game.result || "none"}, komi ${game.komi ?? "unknown"}; ` +
    `life: ${game.life_method || "no stored verdict"}.`));
  if (row.ruleset_a) {
    const parts = Object.keys(row).filter((k) => k.startsWith("part_") && row[k])
      .map((k) => `${k.slice(5).replaceAll("_", " ")} ${row[k] > 0 ? "+" : ""}${row[k]}`);
    panel.append(el("p", { id: "disagreement" }, `At ${row.komi_basis} komi, ${row.ruleset_a} ` +
      `${verdict(row.winner_a, row.margin_a)} vs ${row.ruleset_b} ${verdict(row.winner_b, row.margin_b)}; ` +
      `main cause ${row.main_cause}. Parts of the difference (a − b): ${parts.join(", ")}.`));
  }
  const picker = el("select", { id: "ruleset" });
  for (const name of Object.keys(DATA.rulesets).sort()) picker.append(el("option", { value: name }, name));
  picker.value = state.ruleset;
  picker.addEventListener("change", () => {
    state.ruleset = picker.value;
    const values = hashValues();
    values.set("ruleset", picker.value);
    writeHash(values);
    if (row.ruleset_a) showGame(row);
    else showFacts(DATA.game_rows.find((r) => r.game_id === row.game_id));
  });
  const label = el("label", {}, "points counted under ");
  label.append(picker);
  panel.append(label);
  const events = game.moves.length / 4;
  const slider = el("input", { id: "move", type: "range", min: 0, max: events, value: events, style: "width:100%" });
  const where = el("p", { id: "move-label" });
  const holder = el("div");
  const draw = () => {
    const count = Number(slider.value), final = count === events;
    const stones = events ? replay(game, count) : [...game.board].map(Number);  // a run from before the moves were kept
    holder.replaceChildren(drawBoard(game, stones, final));
    where.textContent = final ? `Final position (${events} events of the main line), with the stored verdict: ` +
      `✕ dead, • seki, ■/□ points ${state.ruleset} counts for Black/White.` : `After ${count} of ${events} events.`;
  };
  slider.addEventListener("input", draw);
  panel.append(holder, slider, where);
  draw();
  panel.append(el("h3", { style: "font-size:1rem" }, `Counts at ${row.komi_basis} komi (scores.parquet)`),
    countsTable(game, row));
}

buildViews();
window.addEventListener("hashchange", showTable);
showTable();
