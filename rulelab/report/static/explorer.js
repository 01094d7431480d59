// The rulelab report's game explorer: a table of disagreements that sorts and filters,
// and each game's board drawn as SVG. Reads window.RULELAB_EXPLORER (explorer-data.js);
// the filters live in the address's hash, so a view can be linked. No library.
"use strict";

const DATA = window.RULELAB_EXPLORER;
DATA.rows = DATA.rows.map((values) => Object.fromEntries(DATA.columns.map((name, k) => [name, values[k]])));
const FILTERS = ["basis", "pair", "cause", "band", "trusted", "even", "source", "per"];
const COLUMNS = [
  ["komi_basis", "komi basis"], ["game_id", "game"], ["pair", "rulesets a / b"], ["verdicts", "winners a / b"],
  ["main_cause", "main cause"], ["difference", "margin a − b"], ["settled", "settled"],
  ["reproduced", "reproduces record"], ["status_case", "status case"], ["source", "source"],
];
const SVG = "http://www.w3.org/2000/svg";
const state = { sort: "row", descending: false, game: null, row: null, ruleset: null };

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

function matches(row, chosen) {
  const get = (key) => chosen.get(key) || "";
  if (get("basis") && row.komi_basis !== get("basis")) return false;
  const main = DATA.main.includes(row.ruleset_a) && DATA.main.includes(row.ruleset_b);
  if (get("pair") === "main" ? !main : get("pair") && row.pair !== get("pair")) return false;
  if (get("cause") && row.main_cause !== get("cause")) return false;
  if (get("trusted") === "1" && !row.trusted) return false;
  if (get("even") === "1" && !row.even) return false;
  if (get("source") && row.source !== get("source")) return false;
  const close = get("per") === "game" ? row.close_main : row.close_pair;
  if (get("band") && !inBand(close, get("band"))) return false;
  return true;
}

function shownRows() {
  const chosen = hashValues();
  let rows = DATA.rows.filter((row) => matches(row, chosen));
  if (chosen.get("per") === "game") {
    const seen = new Set();
    rows = rows.filter((row) => !seen.has(`${row.komi_basis} ${row.game_id}`) && seen.add(`${row.komi_basis} ${row.game_id}`));
  }
  const key = state.sort;
  const value = (row) => (key === "verdicts" ? row.margin_a : row[key]);
  rows = [...rows].sort((a, b) => {
    const x = value(a), y = value(b);
    const order = x === y ? a.row - b.row : x === null ? 1 : y === null ? -1 : x < y ? -1 : 1;
    return state.descending ? -order : order;
  });
  return rows;
}

function buildFilters() {
  const box = document.getElementById("filters");
  const options = {
    basis: [...new Set(DATA.rows.map((r) => r.komi_basis))],
    pair: ["main", ...new Set(DATA.rows.map((r) => r.pair))],
    cause: [...new Set(DATA.rows.map((r) => r.main_cause))].sort(),
    band: DATA.bands,
    trusted: ["1"], even: ["1"],
    source: [...new Set(DATA.rows.map((r) => r.source))].sort(),
    per: ["game"],
  };
  const names = { trusted: "trusted only", even: "even games only", per: "one row per game", pair: "pair" };
  const words = { main: `any of ${DATA.main.join(", ")}`, 1: "yes", game: "yes" };
  for (const name of FILTERS) {
    const select = el("select", { id: `filter-${name}`, "data-filter": name });
    select.append(el("option", { value: "" }, "all"));
    for (const value of options[name]) select.append(el("option", { value }, words[value] || value));
    select.addEventListener("change", () => {
      const values = hashValues();
      values.set(name, select.value);
      values.delete("n");  // the report's count was of the view it linked to
      writeHash(values);
      showTable();
    });
    const label = el("label", {}, `${names[name] || name} `);
    label.append(select);
    box.append(label);
  }
}

function showTable() {
  const chosen = hashValues();
  for (const name of FILTERS) document.getElementById(`filter-${name}`).value = chosen.get(name) || "";
  const rows = shownRows();
  const stated = chosen.get("n");
  document.getElementById("shown").textContent = `${rows.length} of ${DATA.rows.length} rows` + (stated === null ? ""
    : Number(stated) === rows.length ? `, the ${stated} the report counts` : ` — but the report counts ${stated}`);
  const head = document.getElementById("head");
  head.replaceChildren();
  const line = el("tr");
  for (const [key, title] of COLUMNS) {
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
    const cells = {
      ...row, game_id: row.game_id.slice(0, 10),
      pair: `${row.ruleset_a} / ${row.ruleset_b}`, main_cause: row.main_cause.replaceAll("_", " "),
      verdicts: `${verdict(row.winner_a, row.margin_a)} / ${verdict(row.winner_b, row.margin_b)}`,
    };
    for (const [key] of COLUMNS) tr.append(el("td", {}, String(cells[key] ?? "")));
    tr.addEventListener("click", () => openRow(row));
    return tr;
  }));
  const wanted = chosen.get("game");
  if (wanted && state.game !== wanted) {
    const row = rows.find((r) => r.game_id === wanted) || DATA.rows.find((r) => r.game_id === wanted);
    if (row) openRow(row, chosen.get("ruleset"));
  }
}

function openRow(row, ruleset = null) {
  state.game = row.game_id;
  state.row = row.row;
  state.ruleset = ruleset || row.ruleset_a;
  const values = hashValues();
  values.set("game", row.game_id);
  writeHash(values);
  for (const tr of document.querySelectorAll("#rows tr")) tr.classList.toggle("open", Number(tr.dataset.row) === row.row);
  showGame(row);
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
  const parts = Object.keys(row).filter((k) => k.startsWith("part_") && row[k])
    .map((k) => `${k.slice(5).replaceAll("_", " ")} ${row[k] > 0 ? "+" : ""}${row[k]}`);
  panel.append(el("p", { id: "disagreement" }, `At ${row.komi_basis} komi, ${row.ruleset_a} ` +
    `${verdict(row.winner_a, row.margin_a)} vs ${row.ruleset_b} ${verdict(row.winner_b, row.margin_b)}; ` +
    `main cause ${row.main_cause}. Parts of the difference (a − b): ${parts.join(", ")}.`));
  const picker = el("select", { id: "ruleset" });
  for (const name of Object.keys(DATA.rulesets).sort()) picker.append(el("option", { value: name }, name));
  picker.value = state.ruleset;
  picker.addEventListener("change", () => {
    state.ruleset = picker.value;
    const values = hashValues();
    values.set("ruleset", picker.value);
    writeHash(values);
    showGame(row);
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

buildFilters();
window.addEventListener("hashchange", showTable);
showTable();
