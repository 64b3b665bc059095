/* The review page: scrub a recorded game's timeline; the mat, keyframe and step follow. */
(function () {
  "use strict";
  const $ = id => document.getElementById(id);
  const data = JSON.parse($("review-data").textContent);
  const steps = data.steps;
  const C = () => window.Companion;
  let index = 0;

  function playerName(p) { return p === "p1" ? data.header.players[0] : p === "p2" ? data.header.players[1] : p; }
  function txt(step) {
    const said = step["text_" + C().lang] || step.text_en;
    const st = step.payload.state || {};
    // "ends the phase" alone does not tell which phase comes: name it
    return step.kind === "phase" && st.phase_name ? `${said} → ${st.phase_name}` : said;
  }
  function scoresText(st) {
    const sc = st.scores || {};
    return Object.keys(sc).sort().map(p => `${playerName(p)} ${sc[p]}`).join(" · ");
  }

  function buildTimeline() {
    const list = $("timeline");
    while (list.firstChild) list.removeChild(list.firstChild);
    let lastTurn = null;
    steps.forEach((s, i) => {
      const st = s.payload.state || {};
      if (st.turn !== undefined && st.active) {
        const key = st.turn > 0 ? `${st.turn}/${st.active}` : "setup";
        if (key !== lastTurn) {
          lastTurn = key;
          const head = document.createElement("li"); head.className = "tl-turn " + st.active;
          head.textContent = st.turn > 0 ? `${C().t("turn")} ${st.turn} · ${playerName(st.active)}` : C().t("setup");
          list.appendChild(head);
        }
      }
      const item = document.createElement("li");
      item.className = `tl-item kind-${s.kind}` + (s.on_main_line === false ? " off-line" : "") + (s.payload.legal === false ? " illegal" : "");
      item.dataset.index = i; item.dataset.seq = s.seq;
      const kind = document.createElement("span"); kind.className = "tl-kind"; kind.textContent = C().t("kind." + s.kind); item.appendChild(kind);
      const text = document.createElement("span"); text.className = "tl-text"; text.textContent = txt(s); item.appendChild(text);
      if (s.kind === "violation") {
        const b = document.createElement("span"); b.className = "badge " + (s.decision === "corrected" ? "ok" : s.decision === "stands" ? "warn" : "danger");
        b.textContent = C().t("decision." + (s.decision || "open")); item.appendChild(b);
      }
      item.addEventListener("click", () => show(i));
      list.appendChild(item);
    });
  }

  function show(i) {
    if (!steps.length) return;
    index = Math.max(0, Math.min(steps.length - 1, i));
    const s = steps[index];
    $("scrub").value = index;
    $("step-index").textContent = index + 1;
    const vCards = s.kind === "violation" ? new Set(s.payload.cards || []) : new Set();
    const vZones = s.kind === "violation" ? new Set(s.payload.zones || []) : new Set();
    Mat.render($("mat"), data.layout, s.table, { lang: C().lang, highlight: vCards, highlightZones: vZones });
    const box = $("keyframe-box");
    box.hidden = s.keyframe === null || s.keyframe === undefined;
    if (!box.hidden) $("keyframe").src = `/api/games/${data.header.id}/keyframes/${s.keyframe}.jpg`;
    const card = $("step-card");
    while (card.firstChild) card.removeChild(card.firstChild);
    const head = document.createElement("div"); head.className = "step-head";
    head.innerHTML = "";
    const k = document.createElement("span"); k.className = "tl-kind kind-" + s.kind; k.textContent = C().t("kind." + s.kind); head.appendChild(k);
    const seq = document.createElement("span"); seq.className = "muted"; seq.textContent = ` #${s.seq} · ${C().t("source." + s.source)}`; head.appendChild(seq);
    card.appendChild(head);
    const p = document.createElement("p"); p.className = "step-text"; p.id = "step-text"; p.textContent = txt(s); card.appendChild(p);
    if (s.kind === "violation") {
      const r = document.createElement("p"); r.className = "v-rule"; r.textContent = `${C().t("rule")} ${s.payload.rule} · ${s.payload.code} · ${C().t("decision." + (s.decision || "open"))}`; card.appendChild(r);
    }
    if (s.on_main_line === false) { const o = document.createElement("p"); o.className = "muted"; o.textContent = C().t("review.offline"); card.appendChild(o); }
    const st = s.payload.state || {};
    if (st.phase || st.active) {
      const o = document.createElement("p"); o.className = "muted";
      o.textContent = `${C().t("turn")} ${st.turn ?? "–"} · ${playerName(st.active)} · ${st.phase_name || st.phase || ""}` + (st.scores ? ` · ${C().t("scores")}: ${scoresText(st)}` : "");
      card.appendChild(o);
    }
    document.querySelectorAll(".tl-item").forEach(n => n.classList.toggle("current", Number(n.dataset.index) === index));
    const cur = document.querySelector(".tl-item.current");
    if (cur) cur.scrollIntoView({ block: "nearest" });
  }

  function renderOutcome() {
    const out = data.header.outcome, box = $("review-outcome");
    box.hidden = !out;
    if (!out) return;
    const reason = out["reason_" + C().lang] || out.reason_en || out.reason || "";
    box.textContent = `${C().t("gameover")}: ${out.winner ? playerName(out.winner) + " " + C().t("winner") : C().t("draw")}` + (reason ? ` · ${reason}` : "");
  }

  document.addEventListener("DOMContentLoaded", () => {
    buildTimeline();
    $("scrub").addEventListener("input", e => show(Number(e.target.value)));
    $("prev").addEventListener("click", () => show(index - 1));
    $("next").addEventListener("click", () => show(index + 1));
    $("next-violation").addEventListener("click", () => {
      const after = steps.findIndex((s, i) => i > index && s.kind === "violation");
      const first = steps.findIndex(s => s.kind === "violation");
      if (after >= 0) show(after); else if (first >= 0) show(first);
    });
    document.addEventListener("keydown", e => {
      if (e.target.tagName === "INPUT" && e.target.type !== "range") return;
      if (e.key === "ArrowLeft") show(index - 1);
      if (e.key === "ArrowRight") show(index + 1);
    });
    C().onLang(() => { buildTimeline(); show(index); renderOutcome(); });
    renderOutcome();
    show(0);
  });
})();
