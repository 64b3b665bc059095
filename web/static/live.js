/* The live table page: follows the session over server-sent events and sends referee actions.

Two views of one page: the table view (read from the chairs: whose turn, the phase, each
player's name, score and numbers beside their half of the mat, alerts) and the referee view
(the same board plus every detail and tool). The view, the turned board and the sound are
remembered per browser. */
(function () {
  "use strict";
  const $ = id => document.getElementById(id);
  let state = JSON.parse($("initial-state").textContent);
  const C = () => window.Companion;
  const store = {
    get: (k, d) => { try { return localStorage.getItem("companion." + k) ?? d; } catch (e) { return d; } },
    set: (k, v) => { try { localStorage.setItem("companion." + k, v); } catch (e) { /* ignore */ } }
  };

  // --- small helpers ------------------------------------------------------------------------
  function lang() { return C().lang; }
  function status() { return (state.status && state.status[lang()]) || {}; }
  function playerName(p) { return p === "p1" ? state.players[0] : p === "p2" ? state.players[1] : (p || "–"); }
  function txt(obj, base) { return (obj && (obj[base + "_" + lang()] || obj[base + "_en"] || obj[base])) || ""; }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  function make(tag, cls, text, parent) {
    const n = document.createElement(tag);
    if (cls) n.className = cls;
    if (text !== undefined && text !== null) n.textContent = text;
    if (parent) parent.appendChild(n);
    return n;
  }
  function isOver() { return "game_over" in state ? Boolean(state.game_over) : Boolean(state.outcome); }
  function phaseGroups() { return (state.layout && state.layout.phases) || { setup: [], turn: [] }; }
  function phaseName(id) {
    const groups = phaseGroups();
    const p = [...(groups.setup || []), ...(groups.turn || [])].find(x => x.id === id);
    return p ? (p["name_" + lang()] || p.name_en) : (status().phase_name || id || "");
  }
  function ruleWords(rule) {
    const name = state.game_name || "";
    if (rule && lang() === "de") rule = rule.replace(/^official (\S+) rules/, "offizielle $1-Regeln");
    if (!rule || !name || !rule.startsWith(name)) return rule || "";
    let rest = rule.slice(name.length).replace(/^[ ,]+/, "");
    const m = rest.match(/^(rules|schlachtplan|regeln|spielregel), (.*)$/i);
    if (m) rest = m[2];
    return rest ? `${C().t("rulebook")}: ${rest}` : rule;
  }
  /* A violation's rule reference in the page's language: as the server words it (the
  rulebook's German section names said in English too), else from the raw reference. */
  function ruleOf(v) {
    const said = v && v["rule_" + lang()];
    return said ? said.charAt(0).toUpperCase() + said.slice(1) : ruleWords(v && v.rule);
  }
  function turnWords(p) {
    const name = playerName(p);
    return C().t(lang() === "en" && /s$/i.test(name) ? "banner.turn.s" : "banner.turn", { name });
  }

  // --- the board: banner, phase strip, seats, mat ---------------------------------------------
  function renderBanner() {
    const s = status(), over = isOver(), out = state.outcome;
    const banner = $("banner");
    banner.dataset.player = over ? (out && out.winner) || "" : s.active || "";
    banner.classList.toggle("over", over);
    $("banner-who").textContent = over
      ? (out && out.winner ? C().t("banner.wins", { name: playerName(out.winner) }) : C().t("draw"))
      : (s.active ? turnWords(s.active) : "–");
    $("banner-over").hidden = !over;
    $("turn").textContent = s.turn ?? "–";
    $("turn-label").textContent = s.turn === 0 ? C().t("setup") : C().t("turn");
    $("turn").hidden = s.turn === 0;
  }

  function renderPhaseStrip() {
    const s = status(), strip = $("phase-strip"), groups = phaseGroups();
    clear(strip);
    const inSetup = (groups.setup || []).some(p => p.id === s.phase);
    const list = inSetup ? groups.setup : (groups.turn || []);
    strip.dataset.group = inSetup ? "setup" : "turn";
    if (inSetup) make("li", "phase-group", C().t("setup"), strip);
    const known = list.some(p => p.id === s.phase);
    const shown = known ? list : (s.phase ? [{ id: s.phase, name_en: s.phase_name, name_de: s.phase_name }] : []);
    const current = shown.findIndex(p => p.id === s.phase);
    strip.dataset.count = shown.length;
    shown.forEach((p, i) => {
      const full = p["name_" + lang()] || p.name_en || "";
      // the strip says it is about phases: "Supply phase" reads "Supply" (a German compound stays whole)
      const item = make("li", "phase" + (i === current ? " current" : i < current ? " done" : ""), full.replace(/ (phase|Phase)$/, ""), strip);
      item.title = full;
      item.dataset.phase = p.id;
      if (i === current) item.setAttribute("aria-current", "step");
    });
  }

  function renderNowLine() {
    const s = status(), p = s.prompt || {}, line = $("now-line");
    clear(line);
    if (isOver()) { line.hidden = true; return; }
    line.hidden = false;
    const must = p.must || [];
    if (must.length) {
      make("span", "now-key must", C().t("must"), line);
      make("span", "now-text", must.join(" · "), line);
    } else if ((p.may || []).length) {
      make("span", "now-key may", C().t("may"), line);
      make("span", "now-text", p.may.slice(0, 2).join(" · ") + (p.may.length > 2 ? " …" : ""), line);
    }
    if (s.next) make("span", "now-next", `${C().t("next")}: ${s.next}`, line);
  }

  /* Which player's half is drawn at the top of the mat (the one whose zones lie higher). */
  function topOwner() {
    const zones = (state.layout && state.layout.zones) || [];
    const mean = o => { const zs = zones.filter(z => z.owner === o); return zs.length ? zs.reduce((a, z) => a + z.y_mm + z.h_mm / 2, 0) / zs.length : null; };
    const a = mean("p1"), b = mean("p2");
    return a !== null && b !== null && a < b ? "p1" : "p2";
  }

  function renderSeat(box, p) {
    clear(box);
    const s = status(), over = isOver();
    box.dataset.player = p;
    box.classList.toggle("active", !over && s.active === p);
    box.classList.toggle("winner", over && state.outcome && state.outcome.winner === p);
    const head = make("div", "seat-head", null, box);
    make("span", "seat-name", playerName(p), head);
    if (!over && s.active === p) { const mark = make("span", "seat-turn", "◀", head); mark.title = C().t("active"); mark.setAttribute("aria-label", C().t("active")); }
    const score = (s.scores || []).find(x => x.player === p);
    if (score) {
      const sc = make("div", "seat-score", null, box);
      make("span", "seat-score-value", score.value, sc);
      make("span", "seat-score-label", score.label || "", sc);
    }
    const all = ((state.facts || {})[p]) || [];
    const zoneIds = new Set(((state.layout || {}).zones || []).filter(z => z.kind === "pile").map(z => z.id.split(".").slice(1).join(".")));
    const piles = all.filter(f => f.key !== "hand" && zoneIds.has(f.key));
    const facts = all.filter(f => !piles.includes(f));
    if (facts.length) {
      const dl = make("dl", "seat-facts", null, box);
      facts.forEach(f => {
        const row = make("div", "fact" + (f.warn ? " warn" : ""), null, dl);
        row.dataset.key = f.key;
        make("dt", "", txt(f, "label"), row);
        make("dd", "", (lang() === "de" && f.value_de !== undefined ? f.value_de : f.value) ?? "–", row);
      });
    }
    if (piles.length) {  // pile sizes in one line: they matter less than the hand and the limits
      const line = make("p", "seat-piles", null, box);
      piles.forEach(f => { const chip = make("span", "pile-fact", null, line); chip.dataset.key = f.key; make("span", "", txt(f, "label") + " ", chip); make("b", "", f.value, chip); });
    }
  }

  function renderSeats() {
    const top = topOwner();
    renderSeat($("seat-top"), top);
    renderSeat($("seat-bottom"), top === "p1" ? "p2" : "p1");
    const shared = (state.facts || {}).shared || [];
    const box = $("shared-facts");
    box.hidden = !shared.length;
    clear(box);
    shared.forEach(f => { const s = make("span", "fact" + (f.warn ? " warn" : ""), null, box); make("b", "", txt(f, "label") + ": ", s); s.appendChild(document.createTextNode(lang() === "de" && f.value_de !== undefined ? f.value_de : f.value)); });
  }

  function renderGameOver() {
    const over = isOver(), out = state.outcome;
    document.body.classList.toggle("game-over", over);
    $("gameover").hidden = !over;
    if (over) {
      $("gameover-winner").textContent = out && out.winner ? C().t("banner.wins", { name: playerName(out.winner) }) : C().t("draw");
      $("gameover-winner").dataset.player = (out && out.winner) || "";
      $("gameover-reason").textContent = out ? txt(out, "reason") : "";
    }
    // play is over (phases, turns, offers, declarations); a referee still decides the open
    // violations and may undo the last step to play on
    document.querySelectorAll("#referee button, #referee input, #referee select, #controls [data-action]")
      .forEach(b => { b.disabled = over || b.dataset.off === "yes"; });
    document.querySelectorAll("#undo, #redo, .v-actions button, #alert-actions button")
      .forEach(b => { b.disabled = b.dataset.off === "yes"; });
  }

  function fitMat() {
    const svg = $("mat"), layout = state.layout || {};
    const ratio = (layout.width_mm || 560) / (layout.height_mm || 360);
    const phone = window.matchMedia("(max-width: 899px)").matches;
    if (phone) { svg.style.width = "100%"; svg.style.height = "auto"; $("seats").style.height = ""; return; }
    const area = $("table-area").getBoundingClientRect();
    const seats = $("seats").getBoundingClientRect();
    const w0 = Math.max(200, area.width - seats.width - 12), h0 = Math.max(150, area.height);
    const w = Math.min(w0, h0 * ratio), h = w / ratio;
    svg.style.width = Math.floor(w) + "px"; svg.style.height = Math.floor(h) + "px";
    $("seats").style.height = Math.floor(h) + "px";
    fitSeats();
  }

  /* The seats are as high as the mat: when a long fact (a lord's full name) would push the
  pile sizes out of sight, both seats step down to a tighter look until everything shows. */
  const SEAT_FITS = ["fit-1", "fit-2", "fit-3"];
  function fitSeats() {
    const seats = [$("seat-top"), $("seat-bottom")];
    seats.forEach(s => s.classList.remove(...SEAT_FITS));
    const overflows = () => seats.some(s => s.scrollHeight > s.clientHeight + 1);
    for (const level of SEAT_FITS) {
      if (!overflows()) break;
      seats.forEach(s => s.classList.add(level));
    }
  }

  function renderMat() {
    const open = (state.violations || []).filter(v => !v.decision && !v.unsure);
    const last = open[open.length - 1];
    Mat.render($("mat"), state.layout, state.table, {
      lang: lang(),
      highlight: new Set(last ? last.cards || [] : []),
      highlightZones: new Set(last ? last.zones || [] : []),
      unreadable: (state.unreadable || []).concat((state.unidentified || {}).places || [])
    });
    fitMat();
  }

  // --- the side: prompt, violations, referee, log ---------------------------------------------
  function renderPrompt() {
    const s = status();
    $("phase").textContent = s.phase_name || phaseName(s.phase) || "–";
    $("active").textContent = playerName(s.active);
    $("active").dataset.player = s.active || "";
    const prompt = $("prompt");
    clear(prompt);
    if (isOver()) { make("p", "prompt-head", C().t("gameover"), prompt); return; }
    const p = s.prompt || {};
    if (s.active && (s.phase_name || s.phase)) {
      make("p", "prompt-head", `${playerName(s.active)}: ${s.phase_name || s.phase}.` + (s.next ? ` ${C().t("next")}: ${s.next}.` : ""), prompt);
    }
    for (const key of ["must", "may", "automatic"]) {
      const items = p[key];
      if (!items || !items.length) continue;
      const box = make("div", "prompt-group " + key, null, prompt);
      make("span", "prompt-key", C().t(key), box);
      const ul = make("ul", "", null, box);
      items.forEach(i => make("li", "", i, ul));
    }
    if (p.ends) { const e = make("p", "prompt-ends", null, prompt); make("span", "prompt-key", C().t("ends"), e); make("span", "", " " + p.ends, e); }
  }

  function decisionButtons(parent, v) {
    for (const d of ["stands", "corrected"]) {
      if (v.decision === d) continue;
      const b = make("button", "btn small " + (d === "stands" ? "warn" : "primary"), C().t(d), parent);
      b.type = "button"; b.dataset.decision = d; b.dataset.seq = v.seq; b.title = C().t(d + ".help");
      b.addEventListener("click", () => decide(v, d));
    }
  }

  function decide(v, d) {
    return press(`/api/violations/${v.seq}/decision`, { decision: d }, () => C().t("toast." + d));
  }

  function answer(q, i) {
    const label = txt(q.choices[i], "label");
    return press(`/api/questions/${q.seq}/answer`, { choice: i }, () => C().t("toast.answer", { text: label }));
  }

  /* A press of the referee's: posted, then a short toast saying what happened once the state
  that shows it has arrived (the phase now, whose turn, what was undone). */
  let pending = null;
  function press(url, body, said) {
    return C().post(url, body).then(r => {
      if (!r) return r;
      pending = { seq: Number(r.seq || 0), said };
      tellPending();
      return r;
    });
  }
  function tellPending() {
    if (pending && Number(state.seq) >= pending.seq) {
      const text = pending.said();
      pending = null;
      if (text) C().toast(text);
    }
  }
  function saidAfterPhase() {
    const s = status();
    return C().t("toast.phase", { name: s.phase_name || phaseName(s.phase) || "–" }) + (s.active ? " · " + turnWords(s.active) : "");
  }
  function saidAfterTurn() {
    const s = status();
    return turnWords(s.active) + (s.phase_name ? " · " + s.phase_name : "");
  }
  function saidAfterHistory(kind) {
    const h = state.history, last = h && h.last ? txt(h.last, "text") : "";
    return last || C().t("toast." + kind);
  }
  function act(action) {
    return press("/api/action", { action }, action === "pass" ? saidAfterTurn : saidAfterPhase);
  }
  function undo() { return press("/api/undo", {}, () => saidAfterHistory("undo")); }
  function redo() { return press("/api/redo", {}, () => saidAfterHistory("redo")); }

  const changing = new Set();
  function renderViolations() {
    const list = $("violations"); clear(list);
    const vs = state.violations || [];
    const open = vs.filter(v => !v.decision && !v.unsure).length;  // "not sure": quiet
    $("violation-count").textContent = open;
    $("violation-count").dataset.open = open ? "yes" : "no";
    $("side").classList.toggle("has-open", open > 0);  // open violations come first
    $("violations-empty").hidden = vs.length > 0;
    [...vs].reverse().forEach(v => {
      const item = make("li", "violation" + (v.decision ? " decided " + v.decision : " open") + (v.unsure ? " unsure" : ""), null, list);
      item.dataset.seq = v.seq; item.dataset.code = v.code;
      if (v.unsure) make("p", "v-unsure", `${C().t("unsure")}: ${C().plain(txt(v.unsure, "text"))}`, item);
      make("p", "v-message", txt(v, "message"), item);
      make("p", "v-move", txt(v, "move_text"), item);
      make("p", "v-rule", ruleOf(v), item);
      const actions = make("div", "v-actions", null, item);
      if (v.decision && !changing.has(v.seq)) {
        make("span", "badge " + (v.decision === "stands" ? "warn" : "ok"), C().t("decision." + v.decision), actions);
        const change = make("button", "btn small ghost", C().t("decision.change"), actions);
        change.type = "button"; change.dataset.change = v.seq;
        change.addEventListener("click", () => { changing.add(v.seq); renderViolations(); renderGameOver(); });
      } else {
        if (v.decision) make("span", "badge " + (v.decision === "stands" ? "warn" : "ok"), C().t("decision." + v.decision), actions);
        decisionButtons(actions, v);
      }
    });
  }

  let dismissedQuestion = null;
  /* The referee view on a wide screen asks in a box over the side column, beside the table
  (not a modal over it); the table view and a phone ask in the alert. */
  /* The referee view asks beside the table; the table view asks across the mat, unless the
  question (long readings) fits no band of the mat that leaves its cards uncovered: then it too
  is asked beside the table, never cut short over the mat (placeAlert). */
  let besideSeq = null;
  function questionInDialog() {
    if (!window.matchMedia("(min-width: 900px)").matches) return false;
    return !document.body.classList.contains("view-table") || Boolean(state.question && state.question.seq === besideSeq);
  }
  function renderReopen() {
    const q = state.question, alertShows = alerting && alerting.kind === "question" && !$("alert").hidden;
    $("question-reopen").hidden = !q || $("question").open || Boolean(alertShows);
  }
  function renderQuestion() {
    const q = state.question, dialog = $("question");
    if (!q || !questionInDialog()) { if (dialog.open) dialog.close("gone"); }
    if (!q) { renderReopen(); return; }
    // the readings are the buttons below: long ones are not said twice (the heading asks)
    $("question-text").textContent = txt(q, "text");
    $("question-text").hidden = questionWords(q) === C().t("question.title");
    const names = cardNames(questionCards(q));
    $("question-cards").hidden = !names.length;
    $("question-cards").textContent = names.length ? `${C().t("question.cards")}: ${names.join(", ")}` : "";
    const box = $("question-choices"); clear(box);
    q.choices.forEach((c, i) => {
      const b = make("button", "btn choice", null, box);
      if (i < 9) make("kbd", "choice-key", String(i + 1), b);
      make("span", "", txt(c, "label"), b);
      b.dataset.choice = i;
      b.addEventListener("click", () => answer(q, i).then(r => { if (r && dialog.open) dialog.close("answered"); }));
    });
    if (!dialog.open && dismissedQuestion !== q.seq && questionInDialog()) dialog.show();
    if (dialog.open) {  // under the referee's controls, which stay in reach, as wide as they are
      const controls = $("controls").getBoundingClientRect();
      const top = Math.round(controls.bottom + 8);
      dialog.style.top = top + "px";
      dialog.style.right = Math.max(8, Math.round(window.innerWidth - controls.right)) + "px";
      dialog.style.width = Math.round(Math.max(280, controls.width)) + "px";
      dialog.style.maxHeight = Math.max(200, window.innerHeight - top - 8) + "px";
    }
    renderReopen();
  }

  function renderChecking() {
    const box = $("checking"), c = state.checking;
    box.hidden = !c;
    box.textContent = c ? C().plain(txt(c, "text")) : "";
  }

  function renderUnreadable() {
    const list = state.unreadable || [], box = $("unreadable");
    $("unreadable-card").hidden = !list.length;
    clear(box);
    list.forEach(u => { const li = make("li", "", C().plain(txt(u, "text")), box); li.dataset.zone = u.zone; });
  }

  // cards the camera sees but has not identified (too far from it, the sticker hidden): per
  // zone, with what to do (a second camera at that side)
  function renderUnidentified() {
    const list = (state.unidentified || {}).zones || [], box = $("unidentified");
    $("unidentified-card").hidden = !list.length;
    clear(box);
    list.forEach(u => { const li = make("li", "", C().plain(txt(u, "text")), box); li.dataset.zone = u.zone; });
  }

  function renderUnanswered() {
    const list = state.unanswered || [], box = $("unanswered");
    $("unanswered-card").hidden = !list.length;
    $("unanswered-count").textContent = String(list.length);
    clear(box);
    list.forEach(q => {
      const li = make("li", "unanswered-item", "", box);
      li.dataset.question = q.seq;
      make("p", "", txt(q, "text"), li);
      const row = make("div", "choices", "", li);
      q.choices.forEach((c, i) => {
        const assumed = q.assumed === i;
        const b = make("button", "btn small choice" + (assumed ? " assumed" : " ghost"),
          txt(c, "label") + (assumed ? ` (${C().t("unanswered.assumed")})` : ""), row);
        b.dataset.choice = i;
        b.addEventListener("click", () => C().post(`/api/questions/${q.seq}/answer`, { choice: i }));
      });
    });
  }

  const OFFERS_IN_VIEW = 8;
  function renderOffers() {
    const m = state.moves || { person: [], table: [], hidden: 0 };
    const fill = (box, rows, primary) => {
      clear(box);
      const groups = {};
      rows.forEach(r => (groups[r.kind] = groups[r.kind] || []).push(r));
      const button = (r, parent) => {
        const b = make("button", "btn offer" + (primary ? " primary-soft" : ""), txt(r, "text"), parent);
        b.type = "button"; b.dataset.kind = r.kind; b.dataset.move = JSON.stringify(r.move);
        b.addEventListener("click", () => C().post("/api/moves", { move: r.move }).then(res => { if (res) C().toast(C().t("entered") + ": " + txt(r, "text")); }));
      };
      for (const [kind, items] of Object.entries(groups)) {
        const group = make("div", "offer-group", null, box); group.dataset.kind = kind;
        // a kind with many offers (any group of attackers against any target): the single
        // cards and the largest groups stay in view, the combinations between fold away
        const size = r => (r.move.cards || []).length;
        const most = Math.max(...items.map(size));
        const inView = items.length <= OFFERS_IN_VIEW ? items
          : items.filter(r => size(r) <= 1 || size(r) === most);
        inView.forEach(r => button(r, group));
        const folded = items.filter(r => !inView.includes(r));
        if (folded.length) {
          const more = make("details", "offer-more", null, group);
          make("summary", null, C().tn("offers.more", folded.length), more);
          folded.forEach(r => button(r, more));
        }
      }
    };
    fill($("offers-person"), m.person, true);
    if (!m.person.length) make("p", "empty", C().t("offers.none"), $("offers-person"));
    fill($("offers-table"), m.table, false);
    $("offers-table-count").textContent = m.table.length;
    $("offers-table-box").hidden = !m.table.length;
    $("offers-hidden").hidden = !m.hidden;
    $("offers-hidden").textContent = C().tn("offers.hidden", m.hidden);
  }

  function renderHistory() {
    const h = state.history;
    $("undo").dataset.off = h && !h.can_undo ? "yes" : "no";
    $("redo").hidden = !h;
    $("redo").dataset.off = h && h.can_redo ? "no" : "yes";
    const line = $("history-line");
    line.hidden = !(h && h.last);
    if (h && h.last) line.textContent = txt(h.last, "text");
  }

  function renderRecording() {
    const r = state.recording, box = $("recording-warning");
    box.hidden = !r || r.status === "ok";
    if (!r || r.status === "ok") return;
    const said = C().plain(txt(r, "message"));
    box.textContent = r.status === "waiting" ? said.charAt(0).toUpperCase() + said.slice(1)
      : `${C().t("recording.paused")}: ${said}`;
    if (r.waiting) box.textContent += ` (${C().t("recording.waiting")}: ${r.waiting})`;
  }

  function logText(e) {
    const said = txt(e.move, "text") || C().t("kind." + e.kind);
    const reason = txt(e.move, "reason");
    if (e.source === "automatic") return `${C().t("automatic.prefix")}: ${said}` + (reason ? ` (${reason})` : "");
    if (e.source === "assumed") return `${C().t("assumed.prefix")}: ${said}`;
    return said;
  }

  function renderLog() {
    const log = $("log"); clear(log);
    const entries = state.log || [];
    if (!entries.length) make("li", "empty", C().t("log.none"), log);
    [...entries].reverse().forEach(e => {
      const item = make("li", "log-item" + (e.move.legal === false ? " illegal" : "") + (e.corrected_from ? " corrected" : "") + " " + e.source, null, log);
      item.dataset.seq = e.seq;
      make("span", "log-seq", "#" + e.seq, item);
      make("span", "log-text", logText(e), item);
      make("span", "log-source " + e.source, C().t("source." + e.source), item);
    });
  }

  function zoneLabel(id) {
    const z = ((state.layout || {}).zones || []).find(z => z.id === id);
    const label = z ? (z[`label_${lang()}`] || z.label_en || id) : id;
    const owner = id.split(".")[0];
    return owner === "p1" || owner === "p2" ? `${label}, ${playerName(owner)}` : label;
  }

  function renderTargets() {
    const sel = $("declare-target");
    const keep = sel.value;
    while (sel.options.length > 1) sel.remove(1);
    for (const c of (state.table.cards || []).filter(c => c.face_up)) {
      const o = document.createElement("option"); o.value = c.uid; o.textContent = `${c.name}${c.title ? ", " + c.title : ""} (${zoneLabel(c.zone)})`; sel.appendChild(o);
    }
    sel.value = keep;
  }

  function renderHealth(h) {
    const box = $("health");
    box.dataset.status = h.status;
    const detail = C().plain((lang() === "de" && h.detail_de) || h.detail || "");
    $("health-status").textContent = C().t("status." + h.status) + (h.status !== "ok" && detail ? ": " + detail : "");
    $("health-fps").textContent = Number(h.fps).toFixed(1);
    $("health-markers").textContent = h.markers;
    const cal = $("health-cal"); cal.dataset.i18n = h.calibrated ? "health.calibrated" : "health.uncalibrated"; cal.textContent = C().t(cal.dataset.i18n);
    box.title = detail;
    renderCamera(h, detail);
  }

  /* The camera as it is: no picture, a black or frozen one, the mat out of view. The page says
  so across the top and greys the board, which then shows only the last table seen. */
  function cameraTrouble(h) {
    if (!h) return null;
    const byStatus = { reconnecting: "camera.none", lost: "camera.none", stalled: "camera.stalled", stopped: "camera.stopped" };
    if (byStatus[h.status]) return byStatus[h.status];
    if (h.status !== "ok") return null;
    // a merely dark picture is still read (the top bar warns); black and frozen ones are not
    if (h.input && h.input !== "ok" && h.input !== "dark") return { black: "camera.black", frozen: "camera.frozen" }[h.input] || "camera.unread";
    if (h.mat_fit === "none") return "camera.mat";
    if (h.recording === false) return "camera.unread";
    return null;
  }
  function renderCamera(h, detail) {
    const key = cameraTrouble(h), box = $("camera-banner");
    document.body.classList.toggle("camera-down", Boolean(key));
    $("health").dataset.trouble = key ? "yes" : "no";
    if (key && h.status === "ok") $("health-status").textContent = C().t(key);  // not "camera ok"
    const changed = box.hidden === Boolean(key);
    box.hidden = !key;
    if (changed) { fitMat(); placeAlert(); }  // the line takes or gives back the board's room
    box.dataset.trouble = key || "";
    if (!key) return;
    // the device's own words (an error) go with "no camera"; the pipeline's advice (English
    // sentences) is the banner's hover text, so the line itself stays in the page's language
    const device = ["camera.none", "camera.stalled", "camera.stopped"].includes(key) && detail;
    $("camera-banner-title").textContent = C().t(key) + (device ? ` (${detail})` : "") + ":";
    $("camera-banner-text").textContent = C().t("camera.board");
    box.title = (h.messages || []).map(m => C().plain(m)).join(" ");
  }

  // --- alerts: a new violation or question is seen and heard ----------------------------------
  const seen = { violations: new Set((state.violations || []).map(v => v.seq)), question: state.question ? state.question.seq : null };
  let alerting = null;  // {kind: "violation"|"question", seq}
  let sounds = 0;
  let audio = null;

  function beep() {
    if (store.get("sound", "on") === "off") return;
    sounds += 1;
    document.body.dataset.sounds = sounds;
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      const now = audio.currentTime;
      [0, 0.18].forEach((at, i) => {
        const osc = audio.createOscillator(), gain = audio.createGain();
        osc.frequency.value = i ? 660 : 880;
        gain.gain.setValueAtTime(0.0001, now + at);
        gain.gain.exponentialRampToValueAtTime(0.25, now + at + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, now + at + 0.16);
        osc.connect(gain).connect(audio.destination);
        osc.start(now + at); osc.stop(now + at + 0.17);
      });
    } catch (e) { /* no audio device: the alert is still shown */ }
  }

  function checkNewEvents() {
    const fresh = (state.violations || []).filter(v => !seen.violations.has(v.seq));
    fresh.forEach(v => seen.violations.add(v.seq));
    const newOpen = fresh.filter(v => !v.decision && !v.unsure);  // "not sure" never beeps
    const q = state.question;
    if (q && q.seq !== seen.question) {
      seen.question = q.seq;
      alerting = { kind: "question", seq: q.seq };
      beep();
    } else if (newOpen.length) {
      alerting = { kind: "violation", seq: newOpen[newOpen.length - 1].seq };
      beep();
    }
  }

  /* The cards a violation or a question is about (uids), and the player whose move it is: the
  violation's own cards, else the cards of the move it names (in the log). */
  function violationCards(v) {
    const cards = [...(v.cards || [])];
    const entry = (state.log || []).find(e => e.seq === v.move_seq);
    const move = (entry && entry.move && (entry.move.move || entry.move)) || {};  // the step's payload holds the move
    cards.push(...(move.cards || []));
    if (move.target) cards.push(move.target);
    return { cards: cards.filter(c => c && c !== "?"), zones: v.zones || [], player: v.player || move.player || "" };
  }
  function questionCards(q) {
    const cards = [], moves = (q.choices || []).flatMap(c => c.moves || []);
    moves.forEach(m => { cards.push(...(m.cards || [])); if (m.target) cards.push(m.target); });
    return { cards: [...new Set(cards.filter(c => c && c !== "?"))], zones: [], player: (moves[0] || {}).player || "" };
  }
  function cardNames(about) {
    const byUid = new Map(((state.table || {}).cards || []).map(c => [c.uid, c]));
    return [...new Set(about.cards.map(u => byUid.get(u)).filter(c => c && c.face_up && c.name).map(c => c.name))];
  }
  /* "Ada attacks Nebelkatze with Klingenwolf, or Ada plays a tactic?": the readings themselves,
  when they are few and short enough to read from a chair; else "Which was it?" over the
  readings' buttons (the question as the session words it goes in the line below). */
  function questionWords(q) {
    const labels = (q.choices || []).map(c => txt(c, "label")).filter(Boolean);
    if (labels.length < 2 || labels.length > 3 || labels.join(" ").length > 110) return C().t("question.title");
    const or = " " + C().t("question.or") + " ";
    return labels.slice(0, -1).join(", ") + (labels.length > 2 ? "," : "") + or + labels[labels.length - 1] + "?";
  }

  function renderAlert() {
    const box = $("alert");
    if (alerting && alerting.kind === "violation") {
      const v = (state.violations || []).find(x => x.seq === alerting.seq);
      if (!v || (v.decision && !changing.has(v.seq))) alerting = null;
    }
    if (alerting && alerting.kind === "question" && !(state.question && state.question.seq === alerting.seq)) alerting = null;
    const asked = alerting && alerting.kind === "question" && questionInDialog();
    if (!alerting || asked) { box.hidden = true; delete box.dataset.kind; $("gameover").dataset.side = ""; renderReopen(); return; }
    const fresh = box.hidden || box.dataset.seq !== String(alerting.seq);
    box.hidden = false;
    box.dataset.kind = alerting.kind;
    box.dataset.seq = alerting.seq;
    const actions = $("alert-actions"); clear(actions);
    if (alerting.kind === "violation") {
      const v = state.violations.find(x => x.seq === alerting.seq);
      const others = state.violations.filter(x => !x.decision && x.seq !== v.seq).length;
      $("alert-kind").textContent = C().t("alert.violation");
      $("alert-text").textContent = txt(v, "message");
      $("alert-detail").textContent = [txt(v, "move_text"), ruleOf(v), others ? C().tn("alert.more", others) : ""].filter(Boolean).join(" · ");
      decisionButtons(actions, v);
      actions.querySelectorAll("button[data-decision]").forEach(b => b.prepend(make("kbd", "choice-key", b.dataset.decision === "stands" ? "S" : "C")));
    } else {
      const q = state.question;
      const names = cardNames(questionCards(q));
      $("alert-kind").textContent = C().t("alert.question");
      const words = questionWords(q), asked = txt(q, "text");
      $("alert-text").textContent = words;
      $("alert-detail").textContent = [names.length ? `${C().t("question.cards")}: ${names.join(", ")}` : "",
        asked && asked !== words ? asked : C().t("question.help")].filter(Boolean).join(" · ");
      box.dataset.long = q.choices.some(c => txt(c, "label").length > 32) ? "yes" : "";  // one reading a line
      q.choices.forEach((c, i) => {
        const b = make("button", "btn choice-inline", null, actions);
        if (i < 9) make("kbd", "choice-key", String(i + 1), b);
        make("span", "", txt(c, "label"), b);
        b.type = "button"; b.dataset.choice = i;
        b.addEventListener("click", () => answer(q, i));
      });
    }
    placeAlert();
    renderReopen();
    // on a phone the alert sits above the mat, maybe below the fold: a new one is brought in
    if (fresh && box.dataset.place === "above") box.scrollIntoView({ block: "nearest" });
  }

  /* Where the alert goes: across the mat, in a band that leaves the cards it is about (and the
  winner, at game over) uncovered, on the other player's half when it can. On a phone it sits
  above the mat instead, over nothing. */
  function placeAlert() {
    const box = $("alert"), over = $("gameover");
    if (box.hidden) return;
    box.classList.remove("tight", "brief", "compact");
    box.style.left = box.style.width = box.style.top = box.style.maxHeight = "";
    if (window.matchMedia("(max-width: 899px)").matches) { box.dataset.place = "above"; over.dataset.side = ""; return; }
    const wrap = $("mat-wrap").getBoundingClientRect(), frame = $("mat-frame").getBoundingClientRect();
    const turned = document.body.classList.contains("turned");
    const local = r => turned ? { top: wrap.bottom - r.bottom, bottom: wrap.bottom - r.top } : { top: r.top - wrap.top, bottom: r.bottom - wrap.top };
    const m = local(frame), margin = 6;
    box.style.left = (turned ? wrap.right - frame.right : frame.left - wrap.left) + margin + "px";
    box.style.width = Math.max(200, frame.width - 2 * margin) + "px";
    const about = alerting.kind === "violation"
      ? violationCards(state.violations.find(x => x.seq === alerting.seq))
      : questionCards(state.question);
    // the other player's half first: the top half is the top owner's
    const mine = about.player || status().active || "";
    const prefer = mine && mine === topOwner() ? "bottom" : "top";
    over.dataset.side = isOver() ? (prefer === "top" ? "bottom" : "top") : "";
    const avoid = [];
    about.cards.forEach(uid => {
      const el = document.querySelector(`#mat .card-g[data-uid="${CSS.escape(uid)}"]`);
      if (el) avoid.push(el.getBoundingClientRect());
    });
    if (!avoid.length) about.zones.forEach(z => {
      const el = document.querySelector(`#mat .zone[data-zone="${CSS.escape(z)}"]`);
      if (el) avoid.push(el.getBoundingClientRect());
    });
    if (isOver() && !over.hidden) avoid.push($("gameover-winner").getBoundingClientRect());
    const blocks = avoid.filter(r => r.width > 0 && r.height > 0).map(local)
      .map(r => [r.top - margin, r.bottom + margin]).sort((a, b) => a[0] - b[0]);
    const bands = [];
    let y = m.top;
    for (const [a, b] of blocks) { if (a > y) bands.push([y, Math.min(a, m.bottom)]); y = Math.max(y, b); }
    if (y < m.bottom) bands.push([y, m.bottom]);
    const fits = need => bands.filter(([a, b]) => b - a >= need);
    const put = (band, need) => {
      const [a, b] = band, room = b - a;
      const atTop = prefer === "top";
      const top = atTop ? a + margin / 2 : b - Math.min(need, room) - margin / 2;
      box.style.top = Math.max(a, top) + "px";
      box.style.maxHeight = Math.max(80, room - margin) + "px";
      box.dataset.place = atTop ? "top" : "bottom";
    };
    // the full size first; then the detail in one small line; then smaller words
    for (const level of ["", "tight", "brief", "compact"]) {
      box.classList.remove("tight", "brief", "compact");
      if (level) box.classList.add(level);
      const need = box.offsetHeight + margin;
      const ok = fits(need);
      if (ok.length) { put(prefer === "top" ? ok[0] : ok[ok.length - 1], need); return; }
    }
    if (alerting.kind === "question") {  // its readings would be cut off: asked beside the table
      besideSeq = alerting.seq;
      box.hidden = true; delete box.dataset.kind; over.dataset.side = "";
      renderQuestion();
      return;
    }
    const widest = bands.sort((p, q) => (q[1] - q[0]) - (p[1] - p[0]))[0] || [m.top, m.bottom];
    put(widest, box.offsetHeight);
  }

  // --- views ---------------------------------------------------------------------------------
  function applyPrefs() {
    const table = store.get("view", "referee") === "table";
    document.body.classList.toggle("view-table", table);
    document.body.classList.toggle("view-referee", !table);
    $("view-toggle").setAttribute("aria-pressed", table ? "true" : "false");
    const vl = $("view-toggle").querySelector("span"); vl.dataset.i18n = table ? "view.referee" : "view.table"; vl.textContent = C().t(vl.dataset.i18n);
    const turned = store.get("turned", "no") === "yes";
    document.body.classList.toggle("turned", turned);
    $("turn-toggle").setAttribute("aria-pressed", turned ? "true" : "false");
    const sound = store.get("sound", "on") !== "off";
    document.body.classList.toggle("sound-off", !sound);
    $("sound-toggle").setAttribute("aria-pressed", sound ? "true" : "false");
    $("sound-label").dataset.i18n = sound ? "sound.on" : "sound.off";
    $("sound-label").textContent = C().t($("sound-label").dataset.i18n);
    fitMat();
  }

  /* Each camera and what it covers (GET /api/cameras, every few seconds): "Camera 1 (this
  laptop): sees Ada's half, cards 18, dice 3"; a camera that dropped out says so, and a half of
  the mat no live camera sees is marked. Hidden on a table without a camera (a script). */
  const CAMERAS_EVERY_MS = 3000;
  let cameraView = null;
  function halfName(half, players) {
    const k = half.startsWith("player 1") ? 0 : 1;
    return C().t("cameras.half", { name: players[k] || C().t(k ? "cameras.p2" : "cameras.p1") });
  }
  function renderCameras() {
    const list = $("camera-view"), view = cameraView;
    if (!view || !(view.cameras || []).length) { list.hidden = true; return; }
    const players = view.players || [];
    const lines = view.cameras.map((c, i) => {
      const li = document.createElement("li"), who = c.own ? C().t("cameras.this") : c.camera;
      const halves = c.halves || [];
      const sees = halves.length === 2 ? C().t("cameras.both") : halves.length
        ? halves.map(h => halfName(h, players)).join(C().t("cameras.and")) : C().t("cameras.nothing");
      li.dataset.state = c.live ? "live" : "dropped";
      li.textContent = c.live
        ? C().t("cameras.line", { n: i + 1, who, sees, cards: c.cards, dice: c.dice })
        : C().t("cameras.dropped", { n: i + 1, who });
      return li;
    });
    for (const half of view.unwatched || []) {
      const li = document.createElement("li");
      li.dataset.state = "unwatched";
      li.textContent = C().t("cameras.unwatched", { half: halfName(half, players) });
      lines.push(li);
    }
    list.replaceChildren(...lines);
    list.hidden = false;
  }
  function pollCameras() {
    fetch("/api/cameras").then(r => (r.ok ? r.json() : null)).catch(() => null).then(view => {
      cameraView = view; renderCameras();
      setTimeout(pollCameras, CAMERAS_EVERY_MS);
    });
  }

  function renderDemo() {
    const finished = state.health && state.health.status === "finished";
    if ($("play-again")) $("play-again").hidden = !finished || isOver();
  }

  function renderAll() {
    renderBanner(); renderPhaseStrip(); renderNowLine(); renderSeats(); renderMat();
    renderPrompt(); renderViolations(); renderQuestion(); renderUnanswered(); renderChecking(); renderUnreadable(); renderUnidentified(); renderOffers(); renderLog(); renderTargets();
    renderHistory(); renderRecording(); renderHealth(state.health); renderGameOver(); renderAlert(); renderDemo();
    renderCameras();
    document.body.dataset.seq = state.seq;
    document.body.dataset.record = state.record_id;
    fitSeats();
  }

  function connect() {
    const conn = $("conn");
    const source = new EventSource("/api/stream");
    source.addEventListener("open", () => { conn.dataset.state = "live"; $("conn-text").textContent = C().t("conn.live"); $("conn-text").dataset.i18n = "conn.live"; });
    source.addEventListener("error", () => {
      conn.dataset.state = "offline"; $("conn-text").textContent = C().t("conn.offline"); $("conn-text").dataset.i18n = "conn.offline";
      // the browser retries by itself after a network error; after a refused answer it gives up
      if (source.readyState === EventSource.CLOSED) setTimeout(connect, 3000);
    });
    source.addEventListener("state", ev => {
      const next = JSON.parse(ev.data);
      if (next.record_id !== state.record_id) { seen.violations = new Set(); seen.question = null; changing.clear(); }
      state = next;
      changing.forEach(seq => { const v = (state.violations || []).find(x => x.seq === seq); if (!v) changing.delete(seq); });
      const before = seen.violations.size;
      checkNewEvents();
      renderAll();
      tellPending();
      if (seen.violations.size > before && window.matchMedia("(min-width: 900px)").matches) {
        $("side").scrollTop = 0;  // a new violation is read first, wherever the referee was
      }
    });
    source.addEventListener("health", ev => { state.health = JSON.parse(ev.data); renderHealth(state.health); renderDemo(); });
  }

  /* Keys for the referee (listed on the page): n next phase, e end turn, u or Ctrl+Z undo,
  r or Ctrl+Y redo, 1-9 the question's answers, s / c the alerted (else newest) open violation
  stands / corrected. Typing in a field, or a dialog of the browser's own, keeps its keys. */
  function onKey(ev) {
    if (ev.defaultPrevented || ev.altKey || ev.metaKey || ev.repeat) return;
    const t = ev.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    if ($("pin-dialog").open) return;
    const key = ev.key.toLowerCase();
    const button = el => { if (!el || el.hidden || el.disabled) { C().toast(C().t("toast.nothing")); return false; } el.click(); return true; };
    let done = true;
    if (ev.ctrlKey) {
      if (key === "z" && !ev.shiftKey) button($("undo"));
      else if (key === "y" || (key === "z" && ev.shiftKey)) button($("redo"));
      else done = false;
    } else if (key === "n") button(document.querySelector('#controls [data-action="next-phase"]'));
    else if (key === "e") button(document.querySelector('#controls [data-action="pass"]'));
    else if (key === "u") button($("undo"));
    else if (key === "r") button($("redo"));
    else if (/^[1-9]$/.test(key)) {
      const q = state.question, i = Number(key) - 1;
      if (q && i < q.choices.length) { answer(q, i).then(r => { if (r && $("question").open) $("question").close("answered"); }); }
      else C().toast(C().t("toast.nothing"));
    } else if (key === "s" || key === "c") {
      const open = (state.violations || []).filter(v => (!v.decision && !v.unsure) || changing.has(v.seq));
      const v = (alerting && alerting.kind === "violation" && open.find(x => x.seq === alerting.seq)) || open[open.length - 1];
      const d = key === "s" ? "stands" : "corrected";
      if (v && v.decision !== d) decide(v, d).then(r => { if (r) changing.delete(v.seq); });
      else C().toast(C().t("toast.nothing"));
    } else done = false;
    if (done) ev.preventDefault();
  }

  function cardLookup() {
    const cache = {};
    return id => cache[id] || (cache[id] = fetch(`/api/cards/${encodeURIComponent(id)}`).then(r => r.ok ? r.json() : null).catch(() => null));
  }

  document.addEventListener("DOMContentLoaded", () => {
    const asked = new URLSearchParams(location.search).get("view");
    if (asked === "table" || asked === "referee") store.set("view", asked);
    document.querySelectorAll("[data-action]").forEach(b => b.addEventListener("click", () => act(b.dataset.action)));
    $("undo").addEventListener("click", undo);
    $("redo").addEventListener("click", redo);
    document.addEventListener("keydown", onKey);
    $("question").addEventListener("close", () => {
      if ($("question").returnValue === "later" && state.question) dismissedQuestion = state.question.seq;
      renderReopen();
    });
    $("question-reopen").addEventListener("click", () => {
      dismissedQuestion = null;
      if (state.question) alerting = { kind: "question", seq: state.question.seq };
      renderAlert(); renderQuestion();
    });
    $("declare-form").addEventListener("submit", ev => {
      ev.preventDefault();
      const value = $("declare-value").value.trim(), target = $("declare-target").value;
      if (!value && !target) return;
      C().post("/api/action", { action: "declare", value, target }).then(r => { if (r) { $("declare-value").value = ""; C().toast(C().t("done")); } });
    });
    $("note-form").addEventListener("submit", ev => {
      ev.preventDefault();
      const text = $("note-text").value.trim();
      if (!text) return;
      C().post("/api/note", { text }).then(r => { if (r) { $("note-text").value = ""; C().toast(C().t("note.saved")); } });
    });
    $("alert-close").addEventListener("click", () => { alerting = null; renderAlert(); });
    $("view-toggle").addEventListener("click", () => { store.set("view", store.get("view", "referee") === "table" ? "referee" : "table"); applyPrefs(); renderQuestion(); renderAlert(); });
    $("turn-toggle").addEventListener("click", () => { store.set("turned", store.get("turned", "no") === "yes" ? "no" : "yes"); applyPrefs(); });
    $("sound-toggle").addEventListener("click", () => { store.set("sound", store.get("sound", "on") === "off" ? "on" : "off"); applyPrefs(); });
    window.addEventListener("resize", () => { fitMat(); renderQuestion(); renderAlert(); });
    // the seats' room changes after a render too (the side column, the now-line): refit then
    if (window.ResizeObserver) new ResizeObserver(fitSeats).observe($("seats"));
    $("board").addEventListener("transitionend", placeAlert);
    document.querySelectorAll(".play-again").forEach(b => b.addEventListener("click", () => {
      b.disabled = true;
      C().post("/api/demo/again", {}).then(() => { b.disabled = false; });
    }));
    CardPanel.attach($("mat"), cardLookup());
    C().onLang(() => { applyPrefs(); renderAll(); });
    applyPrefs();
    renderAll();
    connect();
    pollCameras();
  });
})();
