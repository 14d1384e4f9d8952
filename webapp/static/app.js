// kanaszta serve: the page. Plain JavaScript, no libraries. Text from the server is
// always set as text (never as HTML): names in a replayed record are untrusted.
"use strict";

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
// labels of common buttons; any other move is shown by its name
const BUTTON_LABELS = {
  keep: "Keep", leave: "Leave", draw: "Draw", take_free: "Take the free card",
  take_pile: "Take the pile", withdraw: "Withdraw (take back)", lay_heart_ace: "Lay heart ace alone",
  end_hand: "End the hand", ask: "Ask: may I go out?", yes: "Yes, go out", no: "No",
};

const ui = { mode: null, session: null, state: null, selected: [], target: null, timer: null, options: null };

function $(id) { return document.getElementById(id); }

function el(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "text") node.textContent = value;
    else if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "data") Object.assign(node.dataset, value);
    else node.setAttribute(key, value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

function cardEl(name, extra = "") {
  if (name === null) return el("div", { class: `card back ${extra}` });
  if (name === "JK") {
    return el("div", { class: `card joker ${extra}`, data: { card: name } },
      [el("span", { class: "rank", text: extra.includes("small") ? "JK" : "JOKER" }), el("span", { class: "suit", text: "★" })]);
  }
  const suit = name.slice(-1);
  const red = suit === "H" || suit === "D" ? " red" : "";
  return el("div", { class: `card${red} ${extra}`, data: { card: name }, title: name },
    [el("span", { class: "rank", text: name.slice(0, -1) }), el("span", { class: "suit", text: SUITS[suit] })]);
}

// --- talking to the server ------------------------------------------------------------
async function api(method, path, body) {
  document.body.dataset.busy = "1";
  try {
    const init = { method, headers: {} };
    if (body !== undefined) {
      init.headers["content-type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const response = await fetch(path, init);
    const doc = await response.json();
    if (!response.ok) throw new Error(doc.error || `error ${response.status}`);
    return doc;
  } finally {
    document.body.dataset.busy = "0";
  }
}

function showError(message) {
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
}

async function run(task) {
  try {
    showError("");
    await task();
  } catch (error) {
    showError(error.message);
    document.body.dataset.version = String(Number(document.body.dataset.version) + 1);
  }
}

// --- the forms ------------------------------------------------------------------------
function fillSelect(select, values, labels) {
  select.replaceChildren(...values.map((v, i) => el("option", { value: String(v), text: labels ? labels[i] : String(v) })));
}

function gameOf(prefix) {
  return ui.options.games.find((g) => g.id === $(`${prefix}-game`).value) || ui.options.games[0];
}

// seat q's relation to seat `me` in a game of partnerships (the game's sides of each table size)
function relation(game, players, q, me) {
  const sides = game.sides[String(players)];
  if (!game.partnerships || me === null || !sides) return "";
  return sides[q] === sides[me] ? " (partner)" : " (opponent)";
}

function agentSelects(container, count, prefix, seatOf, game, me) {
  const agents = ui.options.agents;
  const selects = [];
  for (let i = 0; i < count; i++) {
    const select = el("select", { id: `${prefix}-${i}`, class: "agent" });
    fillSelect(select, agents);
    select.value = prefix === "watch-agent" ? (i === 0 ? "heuristic" : "greedy") : "random";
    const n = Number($(prefix === "watch-agent" ? "watch-players" : "play-players").value);
    selects.push(el("label", { text: `Seat ${seatOf(i)}${relation(game, n, seatOf(i), me)} ` }, [select]));
  }
  container.replaceChildren(...selects);
}

function refreshGame(prefix) {
  const game = gameOf(prefix);
  const players = $(`${prefix}-players`);
  if (players.dataset.game !== game.id) {  // a new game: its own table and target
    fillSelect(players, game.players);
    players.value = String(game.default_players);
    const targets = [...new Set([...ui.options.targets, game.target])].sort((a, b) => a - b);
    fillSelect($(`${prefix}-target`), targets);
    $(`${prefix}-target`).value = String(game.target);
    players.dataset.game = game.id;
  }
  return game;
}

function refreshForms() {
  const game = refreshGame("play");
  const watched = refreshGame("watch");
  const n = Number($("play-players").value);
  const seat = $("play-seat");
  const mySeat = Math.min(Number(seat.value) || 0, n - 1);
  fillSelect(seat, [...Array(n).keys()]);
  seat.value = String(mySeat);
  const others = [...Array(n).keys()].filter((q) => q !== mySeat);
  agentSelects($("play-opponents"), n - 1, "play-opponent", (i) => others[i], game, mySeat);
  const w = Number($("watch-players").value);
  agentSelects($("watch-agents"), w, "watch-agent", (i) => i, watched, null);
}

async function loadOptions() {
  ui.options = await api("GET", "/api/options");
  for (const prefix of ["play", "watch"]) {
    fillSelect($(`${prefix}-game`), ui.options.games.map((g) => g.id), ui.options.games.map((g) => g.title));
  }
  fillSelect($("replay-file"), ui.options.records);
  refreshForms();
}

function gameRequest(prefix) {
  const doc = {
    game: $(`${prefix}-game`).value,
    players: Number($(`${prefix}-players`).value),
    episode: $(`${prefix}-episode`).value,
    target: Number($(`${prefix}-target`).value),
    max_turns: Number($(`${prefix}-max-turns`).value),
  };
  const seed = $(`${prefix}-seed`).value;
  if (seed !== "") doc.seed = Number(seed);
  return doc;
}

function switchTab(tab) {
  stopAuto();
  for (const button of document.querySelectorAll(".tab")) button.classList.toggle("active", button.dataset.tab === tab);
  for (const pane of document.querySelectorAll(".setup")) pane.hidden = pane.dataset.pane !== tab;
  $("board").hidden = true;
  $("hand-end").hidden = true;
  $("rules-line").textContent = "";  // no game on the board: no rules in force
  showError("");
}

// --- starting sessions ----------------------------------------------------------------
// The first game of a preset (or a bot's first moves) in the server's process runs its
// numba kernels for the first time: loaded from the cache, or compiled when the cache is
// empty, which takes up to a minute. The options say what is warm; while a request that
// needs cold kernels is pending, the page says so instead of waiting silently.
function coldNotice(game, bots) {
  if (!game.warm) return `compiling the rules for ${game.title} (first use, up to a minute)…`;
  const cold = bots.filter((b) => b !== "random" && !game.warm_bots.includes(b));
  if (cold.length) return `compiling the bots' kernels (${cold.join(", ")}) for ${game.title} (first use, up to a minute)…`;
  return "";
}

async function withNotice(message, task) {
  const box = $("notice");
  box.textContent = message;
  box.hidden = !message;
  try {
    return await task();
  } finally {
    box.hidden = true;
    box.textContent = "";
  }
}

async function startPlay() {
  const doc = gameRequest("play");
  doc.seat = Number($("play-seat").value);
  const minimum = $("play-minimum").value.trim();
  if (minimum !== "") doc.opening_minimum = Number(minimum);
  doc.opponents = [...document.querySelectorAll("#play-opponents select")].map((s) => s.value);
  const game = gameOf("play");
  const answer = await withNotice(coldNotice(game, doc.opponents), () => api("POST", "/api/play", doc));
  game.warm = true;  // the bots' kernels are warm once they have moved: asked again on the next load
  begin("play", answer);
}

async function startWatch() {
  const doc = gameRequest("watch");
  doc.mode = "watch";
  doc.agents = [...document.querySelectorAll("#watch-agents select")].map((s) => s.value);
  const game = gameOf("watch");
  const answer = await withNotice(coldNotice(game, []), () => api("POST", "/api/view", doc));
  game.warm = true;
  begin("view", answer);
}

async function openReplay(body) {
  begin("view", await api("POST", "/api/view", body));
}

function begin(mode, answer) {
  stopAuto();
  ui.mode = mode;
  ui.session = answer.session;
  ui.selected = [];
  ui.target = null;
  $("board").hidden = false;
  for (const pane of document.querySelectorAll(".setup")) pane.hidden = true;
  $("view-controls").hidden = mode !== "view";
  $("download-record").hidden = mode !== "play";
  if (mode === "view") {
    const n = answer.state.rules.players;
    fillSelect($("v-seat"), ["all", ...Array(n).keys()], ["all hands open", ...[...Array(n).keys()].map((q) => `seat ${q}`)]);
  }
  render(answer.state);
}

// --- drawing the table ------------------------------------------------------------------
// Every game's table has the same shape (docs/webapp.md): seats, sides with their melds,
// extras, pile and stock. A side is a player alone or a partnership.
function meldEl(meld, opts = {}) {
  const kind = `meld${meld.canasta ? " canasta" : ""}${meld.run ? " run" : ""}`;
  const box = el("div", { class: kind, data: { group: meld.id }, title: meld.canasta || (meld.run ? "run" : "") });
  const owner = meld.owner !== null && meld.owner !== undefined ? ` · ${ui.state.table.players[meld.owner].name}` : "";
  box.append(el("span", { class: "name", text: meld.label + (meld.run ? " · run" : "") + (meld.canasta ? ` · ${meld.canasta}` : "") + owner }));
  box.append(el("div", { class: "cards" }, meld.cards.map((c) => cardEl(c, "small"))));
  for (const move of opts.moves || []) {
    box.append(el("button", { text: move.label, data: { action: move.action }, onclick: (e) => { e.stopPropagation(); sendActions([move.action]); } }));
  }
  if (opts.clickable) {
    box.classList.add("clickable");
    if (ui.target === meld.id) box.classList.add("target");
    box.addEventListener("click", () => { ui.target = ui.target === meld.id ? null : meld.id; render(ui.state); });
  }
  return box;
}

function handRow(player, legal) {
  const row = el("div", { class: "row" }, [el("span", { class: "label", text: `hand (${player.hand_size})` })]);
  if (player.hand !== null) {
    const cards = el("div", { class: "cards hand" });
    player.hand.forEach((card, i) => {
      let extra = "";
      if (legal) {
        if (legal.cards[card] || legal.discard[card]) extra += " playable";
        if (legal.discard[card]) extra += " can-discard";
        if (ui.selected.includes(i)) extra += " selected";
      }
      const node = cardEl(card, extra);
      node.dataset.index = String(i);
      if (legal) node.addEventListener("click", () => toggleCard(i));
      cards.append(node);
    });
    row.append(cards);
  } else {
    row.append(el("div", { class: "cards hand" }, Array.from({ length: Math.min(player.hand_size, 24) }, () => cardEl(null, "small"))));
    if (player.known.length) row.append(el("span", { class: "count", text: `known: ${player.known.join(" ")}` }));
  }
  return row;
}

function seatEl(player, table, mine) {
  const toMove = table.to_move === player.seat;
  const head = el("h3", {}, [
    el("span", { text: player.name }),
    el("span", { class: "score", text: player.notes.join(" · ") }),
    toMove ? el("span", { class: "score", text: "▶ to move" }) : null,
  ]);
  const box = el("div", { class: `seat${toMove ? " to-move" : ""}`, data: { seat: String(player.seat) } }, [head]);
  box.append(handRow(player, mine && ui.state.legal));
  return box;
}

// A side: its melds and red threes, and its seats' hands. A player alone is drawn as one
// box (Díszített kanaszta); partners' hands are boxes inside their side's.
function sideEl(side, table, me) {
  const play = ui.state.kind === "play";
  const legal = play && side.seats.includes(me) ? ui.state.legal : null;
  const single = side.seats.length === 1 ? table.players[side.seats[0]] : null;
  const toMove = side.seats.includes(table.to_move);
  const names = side.seats.map((q) => table.players[q].name).join(" & ");
  const head = el("h3", {}, [
    el("span", { text: single ? single.name : `side ${side.side}: ${names}` }),
    el("span", { class: "score", text: `total ${side.total} · last hand ${side.last_hand}` }),
    el("span", { class: "score", text: side.opened ? "opened" : "not opened" }),
    ...side.notes.map((note) => el("span", { class: "score", text: note })),
    single && toMove ? el("span", { class: "score", text: "▶ to move" }) : null,
  ]);
  const kind = single ? "side seat" : "side";
  const box = el("div", { class: `${kind}${toMove ? " to-move" : ""}`, data: { side: String(side.side) } }, [head]);
  if (single) {
    box.dataset.seat = String(single.seat);
    box.append(handRow(single, play && single.seat === me && legal));
  }
  const melds = el("div", { class: "row" }, [el("span", { class: "label", text: "melds" })]);
  for (const meld of side.melds) melds.append(meldEl(meld, legal ? { moves: legal.melds[meld.id], clickable: true } : {}));
  if (legal) {  // moves on melds not on the table yet (placing a lifted wild on an empty group)
    for (const [id, moves] of Object.entries(legal.melds)) {
      if (side.melds.some((m) => m.id === id)) continue;
      for (const move of moves) melds.append(el("button", { text: `${move.label}: ${id}`, data: { action: move.action }, onclick: () => sendActions([move.action]) }));
    }
  }
  if (!side.melds.length) melds.append(el("span", { class: "count", text: "–" }));
  box.append(melds);
  const collection = single ? single.notes : [];
  if (side.red_threes.length || collection.length) {
    box.append(el("div", { class: "row" }, [el("span", { class: "label", text: "collection" }),
      el("div", { class: "cards" }, side.red_threes.map((c) => cardEl(c, "small"))),
      el("span", { class: "count", text: collection.join(" · ") })]));
  }
  if (!single) {
    const seats = [...side.seats].sort((a, b) => (a === me ? -1 : b === me ? 1 : a - b));
    box.append(el("div", { class: "seats" }, seats.map((q) => seatEl(table.players[q], table, play && q === me))));
  }
  return box;
}

function extraEl(extra) {
  const cards = extra.cards ? el("div", { class: "cards" }, extra.cards.map((c) => cardEl(c, "small"))) : (extra.count ? cardEl(null, "small") : el("div", { class: "card small back empty" }));
  const count = extra.cards ? "" : `${extra.count} cards`;
  return el("div", { class: "pile-box extra", data: { extra: extra.label } }, [
    el("div", { class: "label", text: extra.label }), cards,
    el("span", { class: "count", text: [count, extra.note].filter(Boolean).join(" · ") }),
  ]);
}

function renderCenter(state) {
  const table = state.table;
  $("stock").replaceChildren(cardEl(null), el("span", { class: "count", text: `${table.stock.size} cards` + (table.stock.known_bottom.length ? ` · bottom: ${table.stock.known_bottom.join(" ")}` : "") }));
  const pile = table.pile.top ? [cardEl(table.pile.top)] : [el("div", { class: "card back empty" })];
  pile.push(el("span", { class: "count", text: `${table.pile.size} cards` }));
  if (table.pile.frozen) pile.push(el("span", { class: "frozen", text: "frozen" }));
  $("pile").replaceChildren(...pile);
  $("extras").replaceChildren(...table.extras.map(extraEl));
  const notes = [...table.notes, ...(state.prompt || [])];
  $("status").replaceChildren(...notes.map((line) => el("div", { text: line })));
}

function renderInfo(state) {
  const t = state.table;
  const r = state.rules;
  const length = r.episode === "game" ? `game to ${r.target}` : "one hand";
  $("rules-line").textContent = `${r.title} ${r.game} · ${r.players} players · ${length} · opening ${r.opening_minimum} · turn limit ${r.max_turns}`;
  $("rules-line").title = r.text;
  const who = t.to_move === null ? "" : t.players[t.to_move].name;
  const parts = [`hand ${t.hand_number}`, `turn ${t.turn}`, `phase ${t.phase}`];
  const info = [el("span", { text: parts.join(" · ") + " · " })];
  if (state.finished) info.push(el("span", { class: "turn", text: "the game is over" }));
  else if (state.kind === "play" && state.your_turn) info.push(el("span", { class: "turn", text: "your move" }));
  else if (who) info.push(el("span", { text: `${who} to move` }));
  info.push(el("div", { class: "rules-text", text: r.text }));
  $("info").replaceChildren(...info);
  $("log-lines").replaceChildren(...state.log.map((line) => el("li", { text: line })));
  $("log").scrollTop = $("log").scrollHeight;
}

function render(state) {
  ui.state = state;
  const table = state.table;
  renderInfo(state);
  renderCenter(state);
  const me = state.kind === "play" ? state.seat : table.viewer;
  const mine = me === null ? null : table.players[me].side;
  $("others").replaceChildren(...table.sides.filter((s) => s.side !== mine).map((s) => sideEl(s, table, me)));
  $("mine").replaceChildren(...table.sides.filter((s) => s.side === mine).map((s) => sideEl(s, table, me)));
  renderMoves(state);
  renderViewer(state);
  renderHandEnd(state);
  document.body.dataset.version = String(Number(document.body.dataset.version) + 1);
}

// --- the person's moves ------------------------------------------------------------------
function selectedCards() {
  const hand = ui.state.table.players[ui.state.seat].hand;
  return ui.selected.map((i) => hand[i]);
}

function renderMoves(state) {
  const legal = state.kind === "play" ? state.legal : null;
  $("moves").hidden = !legal;
  $("waiting").hidden = state.kind !== "play" || Boolean(legal) || state.finished || Boolean(state.hand_end);
  $("waiting").textContent = "waiting for the other players…";
  if (!legal) return;
  $("buttons").replaceChildren(...legal.buttons.map((name) => el("button", { type: "button", text: BUTTON_LABELS[name] || name, data: { action: name }, onclick: () => sendActions([name]) })));
  const cards = selectedCards();
  $("meld").disabled = !(cards.length > 0 && Object.keys(legal.cards).length > 0);
  $("discard").disabled = !(cards.length === 1 && legal.discard[cards[0]]);
  $("target-note").textContent = ui.target ? `the selected cards go to ${ui.target} (click the meld again to undo)` : "to lay cards on a meld of the table, click the meld first";
  $("all-moves-list").replaceChildren(...legal.names.map((name) => el("button", { type: "button", text: name, data: { action: name }, onclick: () => sendActions([name]) })));
}

function toggleCard(i) {
  const at = ui.selected.indexOf(i);
  if (at >= 0) ui.selected.splice(at, 1);
  else ui.selected.push(i);
  render(ui.state);
}

async function send(body) {
  await run(async () => {
    try {
      const answer = await api("POST", `/api/play/${ui.session}/actions`, body);
      ui.selected = [];
      ui.target = null;
      render(answer.state);
    } catch (error) {
      // nothing was played: show the table as it stands with the reason
      const answer = await api("GET", `/api/play/${ui.session}`);
      render(answer);
      throw error;
    }
  });
}

function sendActions(actions) {
  return send({ actions });
}

function meldSelected() {
  return send({ meld: { cards: selectedCards(), to: ui.target } });
}

// --- the scoring of a hand -------------------------------------------------------------------
function renderHandEnd(state) {
  const end = state.hand_end;
  const box = $("hand-end");
  if (!end || box.dataset.closed === `${ui.session}:${end.hand}:${state.cursor ?? ""}`) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  $("hand-end-title").textContent = `Hand ${end.hand}: ${end.reason}${end.went_out ? ` (${end.went_out})` : ""}` + (end.game_over ? " — the game is over" : "");
  const raws = end.players.some((p) => p.raw !== null);
  const sides = end.table.sides.some((s) => s.seats.length > 1);  // partnerships: whose side scores
  const heads = ["player", ...(sides ? ["side"] : []), ...(raws ? ["sum", "tax"] : []), "recorded", "total"];
  const rows = [el("tr", {}, heads.map((h) => el("th", { text: h })))];
  end.players.forEach((p, q) => {
    const side = sides ? [el("td", { text: `side ${end.table.players[q].side}` })] : [];
    const sums = raws ? [el("td", { class: "num", text: String(p.raw) }), el("td", { class: "num", text: p.raw - p.recorded ? `-${p.raw - p.recorded}` : "0" })] : [];
    rows.push(el("tr", {}, [el("td", { text: p.name }), ...side, ...sums, el("td", { class: "num", text: String(p.recorded) }), el("td", { class: "num", text: String(p.total) })]));
  });
  $("hand-end-table").replaceChildren(...rows);
  $("hand-end-sheet").textContent = end.sheet;
  $("hand-end-hands").replaceChildren(...end.players.map((p) => el("div", { class: "row" }, [el("span", { class: "label", text: `${p.name} kept` }), el("div", { class: "cards" }, p.hand.map((c) => cardEl(c, "small")))])));
  const more = state.kind === "play" && !end.game_over;
  $("next-hand").hidden = !more;
  $("close-hand-end").hidden = more;
}

async function nextHand() {
  await run(async () => render((await api("POST", `/api/play/${ui.session}/next`, {})).state));
}

function closeHandEnd() {
  const end = ui.state.hand_end;
  $("hand-end").dataset.closed = `${ui.session}:${end.hand}:${ui.state.cursor ?? ""}`;
  $("hand-end").hidden = true;
}

// --- watching and replaying ------------------------------------------------------------------
function renderViewer(state) {
  if (state.kind === "play") return;
  const total = state.open_ended ? `${state.length}+` : String(state.length);
  $("v-counter").textContent = `action ${state.cursor} / ${total}`;
  $("v-last").textContent = state.last_action ? `last: ${state.last_action}` : "";
  $("v-back").disabled = $("v-back-turn").disabled = $("v-start").disabled = state.cursor === 0;
  const atEnd = state.finished || (!state.open_ended && state.cursor >= state.length);
  $("v-fwd").disabled = $("v-fwd-turn").disabled = $("v-end").disabled = atEnd;
  if (atEnd) stopAuto();
}

function seatQuery() {
  return `?seat=${$("v-seat").value}`;
}

async function step(body) {
  await run(async () => render((await api("POST", `/api/view/${ui.session}/step${seatQuery()}`, body)).state));
}

function stopAuto() {
  if (ui.timer) clearTimeout(ui.timer);
  ui.timer = null;
  $("v-play").textContent = "Play";
}

function autoStep() {
  ui.timer = setTimeout(async () => {
    await step({ count: 1, unit: $("v-unit").value });
    if (ui.timer) autoStep();
  }, Number($("v-speed").value));
}

function toggleAuto() {
  if (ui.timer) stopAuto();
  else {
    $("v-play").textContent = "Pause";
    autoStep();
  }
}

async function uploadRecord(event) {
  const file = event.target.files[0];
  if (!file) return;
  await run(async () => {
    const text = await file.text();
    const first = text.trim().startsWith("{") && !text.trim().includes("\n{") ? text : text.split("\n").find((l) => l.trim());
    let record;
    try { record = JSON.parse(first); } catch { throw new Error(`${file.name} is not a JSON game record`); }
    await openReplay({ mode: "replay", record });
  });
  event.target.value = "";
}

async function downloadRecord() {
  await run(async () => {
    const record = await api("GET", `/api/play/${ui.session}/record`);
    const url = URL.createObjectURL(new Blob([JSON.stringify(record, null, 1)], { type: "application/json" }));
    const link = el("a", { href: url, download: "kanaszta-game.json" });
    document.body.append(link);
    link.click();
    link.remove();
    URL.revokeObjectURL(url);
  });
}

// --- wiring --------------------------------------------------------------------------------
function wire() {
  for (const tab of document.querySelectorAll(".tab")) tab.addEventListener("click", () => switchTab(tab.dataset.tab));
  for (const id of ["play-game", "play-players", "play-seat", "watch-game", "watch-players"]) $(id).addEventListener("change", refreshForms);
  $("start-play").addEventListener("click", () => run(startPlay));
  $("start-watch").addEventListener("click", () => run(startWatch));
  $("open-replay-file").addEventListener("click", () => run(() => openReplay({ mode: "replay", file: $("replay-file").value, game: Number($("replay-game").value) })));
  $("replay-upload").addEventListener("change", uploadRecord);
  $("meld").addEventListener("click", meldSelected);
  $("discard").addEventListener("click", () => sendActions([ui.state.legal.discard[selectedCards()[0]]]));
  $("clear-selection").addEventListener("click", () => { ui.selected = []; ui.target = null; render(ui.state); });
  $("next-hand").addEventListener("click", nextHand);
  $("close-hand-end").addEventListener("click", closeHandEnd);
  $("download-record").addEventListener("click", downloadRecord);
  $("v-start").addEventListener("click", () => step({ goto: 0 }));
  $("v-end").addEventListener("click", () => step({ count: 1000, unit: "turn" }));
  $("v-back").addEventListener("click", () => step({ count: -1, unit: "action" }));
  $("v-fwd").addEventListener("click", () => step({ count: 1, unit: "action" }));
  $("v-back-turn").addEventListener("click", () => step({ count: -1, unit: "turn" }));
  $("v-fwd-turn").addEventListener("click", () => step({ count: 1, unit: "turn" }));
  $("v-play").addEventListener("click", toggleAuto);
  $("v-seat").addEventListener("change", () => run(async () => render(await api("GET", `/api/view/${ui.session}${seatQuery()}`))));
  run(loadOptions);
}

document.addEventListener("DOMContentLoaded", wire);
