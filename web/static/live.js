/* The live table page: follows the session over server-sent events and sends referee actions. */
(function () {
  "use strict";
  const $ = id => document.getElementById(id);
  let state = JSON.parse($("initial-state").textContent);
  const C = () => window.Companion;

  function playerName(p) { return p === "p1" ? state.players[0] : p === "p2" ? state.players[1] : (p || "–"); }
  function txt(obj, base) { return obj[base + "_" + C().lang] || obj[base + "_en"] || ""; }

  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  function li(parent, cls, text) { const n = document.createElement("li"); if (cls) n.className = cls; if (text !== undefined) n.textContent = text; parent.appendChild(n); return n; }
  function span(parent, cls, text) { const n = document.createElement("span"); if (cls) n.className = cls; n.textContent = text; parent.appendChild(n); return n; }

  function renderStatus() {
    const s = (state.status && state.status[C().lang]) || {};
    $("turn").textContent = s.turn ?? "–";
    $("active").textContent = playerName(s.active);
    $("active").dataset.player = s.active || "";
    $("phase").textContent = s.phase_name || s.phase || "–";
    const prompt = $("prompt");
    clear(prompt);
    const p = s.prompt || {};
    if (s.active && (s.phase_name || s.phase)) {
      const head = document.createElement("p"); head.className = "prompt-head";
      head.textContent = `${playerName(s.active)}: ${s.phase_name || s.phase}.` + (s.next ? ` ${C().t("next")}: ${s.next}.` : "");
      prompt.appendChild(head);
    }
    const groups = [["must", p.must], ["may", p.may], ["automatic", p.automatic]];
    for (const [key, items] of groups) {
      if (!items || !items.length) continue;
      const box = document.createElement("div"); box.className = "prompt-group " + key;
      span(box, "prompt-key", C().t(key));
      const ul = document.createElement("ul"); items.forEach(i => li(ul, "", i)); box.appendChild(ul);
      prompt.appendChild(box);
    }
    if (p.ends) { const e = document.createElement("p"); e.className = "prompt-ends"; span(e, "prompt-key", C().t("ends")); span(e, "", " " + p.ends); prompt.appendChild(e); }
    if (p.text) { const e = document.createElement("p"); e.className = "prompt-text"; e.textContent = p.text; prompt.prepend(e); }
    const scores = $("scores"); clear(scores);
    for (const sc of s.scores || []) {
      const box = document.createElement("div"); box.className = "score " + sc.player;
      span(box, "score-player", playerName(sc.player));
      span(box, "score-value", sc.value);
      span(box, "score-label", sc.label || "");
      scores.appendChild(box);
    }
    const out = state.outcome;
    $("outcome").hidden = !out;
    if (out) $("outcome").textContent = `${C().t("gameover")}: ${out.winner ? playerName(out.winner) + " " + C().t("winner") : C().t("draw")} · ${txt(out, "reason")}`;
  }

  function renderViolations() {
    const list = $("violations"); clear(list);
    const vs = state.violations || [];
    $("violation-count").textContent = vs.filter(v => !v.decision).length;
    $("violation-count").dataset.open = vs.some(v => !v.decision) ? "yes" : "no";
    $("violations-empty").hidden = vs.length > 0;
    [...vs].reverse().forEach(v => {
      const item = li(list, "violation" + (v.decision ? " decided " + v.decision : " open"));
      item.dataset.seq = v.seq; item.dataset.code = v.code;
      const head = document.createElement("div"); head.className = "v-head";
      span(head, "v-code", v.code);
      span(head, "v-rule", `${C().t("rule")} ${v.rule}`);
      item.appendChild(head);
      const msg = document.createElement("p"); msg.className = "v-message"; msg.textContent = txt(v, "message"); item.appendChild(msg);
      const move = document.createElement("p"); move.className = "v-move"; move.textContent = `#${v.move_seq} · ${txt(v, "move_text")}`; item.appendChild(move);
      const actions = document.createElement("div"); actions.className = "v-actions";
      if (v.decision) {
        span(actions, "badge " + (v.decision === "stands" ? "warn" : "ok"), C().t("decision." + v.decision));
      } else {
        for (const d of ["stands", "corrected"]) {
          const b = document.createElement("button"); b.className = "btn small " + (d === "stands" ? "warn" : "primary");
          b.textContent = C().t(d); b.dataset.decision = d;
          b.addEventListener("click", () => C().post(`/api/violations/${v.seq}/decision`, { decision: d }));
          actions.appendChild(b);
        }
      }
      item.appendChild(actions);
    });
  }

  let dismissedQuestion = null;
  function renderQuestion() {
    const q = state.question, dialog = $("question");
    $("question-reopen").hidden = !q || dialog.open;
    if (!q) { if (dialog.open) dialog.close("gone"); return; }
    $("question-text").textContent = txt(q, "text");
    const box = $("question-choices"); clear(box);
    q.choices.forEach((c, i) => {
      const b = document.createElement("button"); b.className = "btn choice"; b.textContent = txt(c, "label");
      b.dataset.choice = i;
      b.addEventListener("click", () => C().post(`/api/questions/${q.seq}/answer`, { choice: i }).then(r => { if (r && dialog.open) dialog.close("answered"); }));
      box.appendChild(b);
    });
    if (!dialog.open && dismissedQuestion !== q.seq) dialog.showModal();
    $("question-reopen").hidden = dialog.open;
  }

  function renderOffers() {
    const m = state.moves || { person: [], table: [], hidden: 0 };
    const fill = (box, rows, primary) => {
      clear(box);
      const groups = {};
      rows.forEach(r => (groups[r.kind] = groups[r.kind] || []).push(r));
      for (const [kind, items] of Object.entries(groups)) {
        const group = document.createElement("div"); group.className = "offer-group"; group.dataset.kind = kind;
        items.forEach(r => {
          const b = document.createElement("button");
          b.className = "btn offer" + (primary ? " primary-soft" : "");
          b.type = "button"; b.dataset.kind = r.kind; b.dataset.move = JSON.stringify(r.move);
          b.textContent = txt(r, "text");
          b.addEventListener("click", () => C().post("/api/moves", { move: r.move }).then(res => { if (res) C().toast(C().t("entered") + ": " + txt(r, "text")); }));
          group.appendChild(b);
        });
        box.appendChild(group);
      }
    };
    fill($("offers-person"), m.person, true);
    if (!m.person.length) { const e = document.createElement("p"); e.className = "empty"; e.textContent = C().t("offers.none"); $("offers-person").appendChild(e); }
    fill($("offers-table"), m.table, false);
    $("offers-table-count").textContent = m.table.length;
    $("offers-table-box").hidden = !m.table.length;
    $("offers-hidden").hidden = !m.hidden;
    $("offers-hidden").textContent = C().t("offers.hidden").replace("{n}", m.hidden);
  }

  function renderLog() {
    const log = $("log"); clear(log);
    const entries = state.log || [];
    if (!entries.length) li(log, "empty", C().t("log.none"));
    [...entries].reverse().forEach(e => {
      const item = li(log, "log-item" + (e.move.legal === false ? " illegal" : "") + (e.corrected_from ? " corrected" : ""));
      item.dataset.seq = e.seq;
      span(item, "log-seq", "#" + e.seq);
      span(item, "log-text", txt(e.move, "text") || e.kind);
      span(item, "log-source " + e.source, C().t("source." + e.source));
    });
  }

  function zoneLabel(id) {
    const z = ((state.layout || {}).zones || []).find(z => z.id === id);
    const label = z ? (z[`label_${C().lang}`] || z.label_en || id) : id;
    const owner = id.split(".")[0];
    return owner === "p1" || owner === "p2" ? `${label}, ${playerName(owner)}` : label;
  }

  function renderTargets() {
    const sel = $("declare-target");
    const keep = sel.value;
    while (sel.options.length > 1) sel.remove(1);
    for (const c of (state.table.cards || []).filter(c => c.face_up)) {
      const o = document.createElement("option"); o.value = c.uid; o.textContent = `${c.name} (${zoneLabel(c.zone)})`; sel.appendChild(o);
    }
    sel.value = keep;
  }

  function renderMat() {
    const open = (state.violations || []).filter(v => !v.decision);
    const last = open[open.length - 1];
    Mat.render($("mat"), state.layout, state.table, {
      lang: C().lang,
      highlight: new Set(last ? last.cards || [] : []),
      highlightZones: new Set(last ? last.zones || [] : [])
    });
  }

  function renderHealth(h) {
    const box = $("health");
    box.dataset.status = h.status;
    $("health-status").textContent = C().t("status." + h.status);
    $("health-fps").textContent = Number(h.fps).toFixed(1);
    $("health-markers").textContent = h.markers;
    const cal = $("health-cal"); cal.dataset.i18n = h.calibrated ? "health.calibrated" : "health.uncalibrated"; cal.textContent = C().t(cal.dataset.i18n);
    box.title = (C().lang === "de" && h.detail_de) || h.detail || "";
  }

  function renderHistory() {
    const h = state.history || {}, over = !!state.game_over;
    $("undo").disabled = h.can_undo === false;
    $("redo").disabled = !h.can_redo;
    document.querySelectorAll("[data-action]").forEach(b => { b.disabled = over; });
    document.querySelectorAll("#declare-form button, #declare-form input, #declare-form select").forEach(b => { b.disabled = over; });
    const last = h.last;
    $("history-last").hidden = !last;
    $("history-last").textContent = last ? txt(last, "text") : "";
    const rec = state.recording || { status: "ok" };
    $("recording").hidden = rec.status === "ok";
    $("recording").textContent = rec.status === "ok" ? "" : txt(rec, "message");
  }

  function renderAll() {
    renderHistory();
    renderMat(); renderStatus(); renderViolations(); renderQuestion(); renderOffers(); renderLog(); renderTargets(); renderHealth(state.health);
    document.body.dataset.seq = state.seq;
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
    source.addEventListener("state", ev => { state = JSON.parse(ev.data); renderAll(); });
    source.addEventListener("health", ev => { state.health = JSON.parse(ev.data); renderHealth(state.health); });
  }

  document.addEventListener("DOMContentLoaded", () => {
    document.querySelectorAll("[data-action]").forEach(b => b.addEventListener("click", () => C().post("/api/action", { action: b.dataset.action })));
    $("undo").addEventListener("click", () => C().post("/api/undo", {}));
    $("redo").addEventListener("click", () => C().post("/api/redo", {}));
    $("question").addEventListener("close", () => {
      if ($("question").returnValue === "later" && state.question) dismissedQuestion = state.question.seq;
      $("question-reopen").hidden = !state.question;
    });
    $("question-reopen").addEventListener("click", () => { dismissedQuestion = null; renderQuestion(); });
    $("declare-form").addEventListener("submit", ev => {
      ev.preventDefault();
      const value = $("declare-value").value.trim(), target = $("declare-target").value;
      if (!value && !target) return;
      C().post("/api/action", { action: "declare", value, target }).then(r => { if (r) { $("declare-value").value = ""; C().toast(C().t("done")); } });
    });
    C().onLang(renderAll);
    renderAll();
    connect();
  });
})();
